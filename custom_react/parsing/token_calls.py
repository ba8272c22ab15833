"""Read a tool call written with a model's own tool-call tokens: a name, a marker, JSON arguments.

Chat models are trained to write tool calls between special tokens, which an OpenAI-compatible
server turns into provider tool calls. When it does not (a template or parser missing, a model
served as plain text), the tokens reach the agent as text. Each form here is a name and the JSON
object of its arguments after a marker:

    Mistral:        [TOOL_CALLS]search[ARGS]{"query": "rose"}   ([ARGS] may be left out)
    DeepSeek V3.1:  <｜tool▁call▁begin｜>search<｜tool▁sep｜>{...}<｜tool▁call▁end｜>
    DeepSeek V3:    <｜tool▁call▁begin｜>function<｜tool▁sep｜>search ```json {...} ```
    Kimi K2:        <|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>{...}
    gpt-oss:        to=functions.search<|channel|>commentary json<|message|>{...}
                    (the recipient may be written without `functions.`: `to=search`; with
                    the special tokens stripped: `commentary to=functions.search json{...}`)
    Gemma 4:        <|tool_call>call:search{query:<|"|>rose<|"|>}<tool_call|>
                    (bare keys, and `<|"|>` for each quote of a string)
    GLM-4-0414:     search
                    {"query": "rose"}
                    (no token at all: a name alone on the reply's first line, then the object;
                    a code fence's language word that lost its backticks, `json`, is no name)

`find_token_call` reads the first one: `(where it starts, name, arguments)`. The arguments are read
by `json_repair` (as every JSON input is); a call with no object after its marker has none. Knows
no tools. Linear time: one search per form, each bounded.
"""

from __future__ import annotations

import re
from typing import Any

from custom_react.parsing.json_repair import read_json_value

_NAME = r"(?P<name>[A-Za-z_][\w.-]*+)"
# Where each form's arguments start: just after the match.
_FORMS = [
    re.compile(r"\[TOOL_CALLS\][ \t]*+" + _NAME + r"[ \t]*+(?:\[ARGS\])?+"),
    re.compile(
        r"<｜tool▁call▁begin｜>(?:function<｜tool▁sep｜>)?"
        + _NAME
        + r"(?:<｜tool▁sep｜>)?\s*+(?:```(?:json)?+\s*+)?"
    ),
    re.compile(
        r"<\|tool_call_begin\|>\s*+(?:functions\.)?+(?P<name>[A-Za-z_][\w-]*+)(?::\d++)?+"
        r"\s*+<\|tool_call_argument_begin\|>\s*+"
    ),
    re.compile(  # the recipient, then a few bounded tokens (channel, constraint) to the message
        r"to=(?:functions\.)?+(?P<name>[A-Za-z_][\w-]*+)[^\n<]{0,80}"
        r"(?:<\|[a-z]++\|>[^\n<]{0,80}){0,4}<\|message\|>"
    ),
    re.compile(  # the same with its tokens stripped: the object must follow at once
        r"(?:(?:assistant)?+commentary[ \t]*+)?+to=functions\.(?P<name>[A-Za-z_][\w-]*+)"
        r"[ \t]*+(?:<\|constrain\|>)?+(?:json|code)?+(?=\{)"
    ),
    re.compile(r"<\|tool_call>[ \t]*+call:" + _NAME + r"[ \t]*+(?=\{)"),
]
_NAME_LINE = re.compile(
    r"\A\s*+(?!(?:json[c5]?+|javascript|js|python|py|yaml|text)\s)"
    + _NAME
    + r"[ \t]*+\n\s*+(?=\{)",
    re.IGNORECASE,
)
_FORMS.append(_NAME_LINE)
_GEMMA_QUOTE = '<|"|>'


def find_token_call(text: str) -> tuple[int, str, dict[str, Any]] | None:
    """The first call written with tool-call tokens: `(where it starts, name, arguments)`."""
    found = [match for form in _FORMS if (match := form.search(text)) is not None]
    if not found:
        return None
    first = min(found, key=lambda match: match.start())
    arguments = text[first.end() :]
    if _GEMMA_QUOTE in arguments:  # Gemma 4 quotes strings with `<|"|>`
        arguments = arguments.replace(_GEMMA_QUOTE, '"')
    value, _ = read_json_value(arguments)
    if first.re is _NAME_LINE and not isinstance(value, dict):  # a word, then no object: prose
        return None
    return first.start(), first["name"], value if isinstance(value, dict) else {}
