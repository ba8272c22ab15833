"""Read a tool call written with a model's own tool-call tokens: a name, a marker, JSON arguments.

Chat models are trained to write tool calls between special tokens, which an OpenAI-compatible
server turns into provider tool calls. When it does not (a template or parser missing, a model
served as plain text), the tokens reach the agent as text. Each form here is a name and the JSON
object of its arguments after a marker:

    Mistral:        [TOOL_CALLS]search[ARGS]{"query": "rose"}   ([ARGS] may be left out)
    DeepSeek V3.1:  <｜tool▁call▁begin｜>search<｜tool▁sep｜>{...}<｜tool▁call▁end｜>
    DeepSeek V3:    <｜tool▁call▁begin｜>function<｜tool▁sep｜>search ```json {...} ```
    Kimi K2:        <|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>{...}
                    (with the begin tokens stripped, `search:0<|tool_call_argument_begin|>{...}`:
                    the name and its index, then the argument token, are the evidence)
    gpt-oss:        to=functions.search<|channel|>commentary json<|message|>{...}
                    (the recipient may be written without `functions.`: `to=search`; with
                    the special tokens stripped: `commentary to=functions.search json{...}`,
                    `commentary to=search json{...}`, the channel name as evidence)
    Gemma 4:        <|tool_call>call:search{query:<|"|>rose<|"|>}<tool_call|>
                    (bare keys, and `<|"|>` for each quote of a string; with the tokens and
                    quotes stripped, `call:write_file{content:hello,path:a.txt}` as the whole
                    reply or its own line: each unquoted value is text up to the next
                    top-level comma or brace, a part with no `key:` going on the value before)
    FunctionGemma:  <start_function_call>call:search{query:<escape>rose<escape>}<end_function_call>
                    (Gemma 4's call between other tokens, `<escape>` around each string)
    GLM-4-0414:     search
                    {"query": "rose"}
                    (no token at all: a name alone on the reply's first line, then the object;
                    a code fence's language word that lost its backticks, `json`, is no name)
    MiniMax:        [TOOL_CALL]{tool => "search", args => {--query "rose"}}[/TOOL_CALL]
                    (a Ruby-like hash whose arguments are command-line flags: `--name value`,
                    a quoted value read as a JSON string; JSON arguments are read as JSON)

`find_token_call` reads the first one: `(where it starts, name, arguments)`. The arguments are read
by `json_repair` (as every JSON input is); a call with no object after its marker has none; a
string between two quote tokens (`<|"|>`, `<escape>`) is text, whatever quotes it holds. Knows
no tools. Linear time: one search per form, each bounded, and one scan of the object.
"""

from __future__ import annotations

import json
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
        r"(?:<\|tool_calls_section_begin\|>\s*+)?+<\|tool_call_begin\|>\s*+(?:functions\.)?+"
        r"(?P<name>[A-Za-z_][\w-]*+)(?::\d++)?+\s*+<\|tool_call_argument_begin\|>\s*+"
    ),
    re.compile(  # the same with its begin tokens stripped: `name:index`, then the argument token
        r"(?<![\w.-])(?:functions\.)?+(?P<name>[A-Za-z_][\w-]*+):\d++\s*+"
        r"<\|tool_call_argument_begin\|>\s*+"
    ),
    re.compile(  # the recipient, then a few bounded tokens (channel, constraint) to the message
        r"to=(?:functions\.)?+(?P<name>[A-Za-z_][\w-]*+)[^\n<]{0,80}"
        r"(?:<\|[a-z]++\|>[^\n<]{0,80}){0,4}<\|message\|>"
    ),
    re.compile(  # the same with its tokens stripped: `functions.` or the channel, then the object
        r"(?:(?:assistant)?+commentary[ \t]*+to=(?:functions\.)?+|to=functions\.)"
        r"(?P<name>[A-Za-z_][\w-]*+)[ \t]*+(?:<\|constrain\|>)?+(?:json|code)?+(?=\{)"
    ),
]
# Gemma 4's call and FunctionGemma's: their strings are quoted with tokens.
_GEMMA_CALL = re.compile(
    r"(?:<\|tool_call>|<start_function_call>)[ \t]*+call:" + _NAME + r"[ \t]*+(?=\{)"
)
# Gemma 4's call with its tokens stripped: `call:` opens a line, and the call ends it.
_BARE_CALL = re.compile(r"^[ \t]*+call:" + _NAME + r"[ \t]*+(?=\{)", re.MULTILINE)
_BARE_CALL_END = re.compile(r"[ \t]*+(?:<tool_call\|>|call:|$)", re.MULTILINE)
_BARE_MARKS = re.compile(r"[{}\[\],]")
_BARE_KEY = re.compile(r"\s*+(?P<key>[A-Za-z_][\w-]*+)[ \t]*+:")
_NAME_LINE = re.compile(
    r"\A\s*+(?!(?:json[c5]?+|javascript|js|python|py|yaml|text)\s)"
    + _NAME
    + r"[ \t]*+\n\s*+(?=\{)",
    re.IGNORECASE,
)
# MiniMax's block: a hash of the tool and its arguments, each a flag with its value.
_FLAG_CALL = re.compile(
    r"\[TOOL_CALL\]\s*+\{\s*+tool\s*+=>\s*+\"(?P<name>[A-Za-z_][\w.-]*+)\"\s*+,\s*+args\s*+=>\s*+"
)
_FLAG = re.compile(r"\s*+--(?P<key>[A-Za-z_][\w-]*+)")
_QUOTED_VALUE = re.compile(r'[ \t]*+"(?:[^"\\]++|\\.)*+"', re.DOTALL)
_BARE_VALUE = re.compile(
    r"[ \t]*+(?P<value>[^\n}]*?)[ \t]*+(?=(?<=[ \t])--[A-Za-z_]|[ \t]+--[A-Za-z_]|[\n}]|\Z)"
)
_SPACES = re.compile(r"[ \t]*+")
_FORMS += [_GEMMA_CALL, _NAME_LINE, _BARE_CALL, _FLAG_CALL]
# Gemma 4 quotes each string with `<|"|>`, FunctionGemma with `<escape>`; a lone one opens a string.
_QUOTE_TOKENS = ('<|"|>', "<escape>")
_QUOTED = re.compile(r'<\|"\|>(?P<gemma>.*?)<\|"\|>|<escape>(?P<escaped>.*?)<escape>', re.DOTALL)


def find_token_call(text: str) -> tuple[int, str, dict[str, Any]] | None:
    """The first call written with tool-call tokens: `(where it starts, name, arguments)`."""
    found = [match for form in _FORMS if (match := form.search(text)) is not None]
    for head in sorted(found, key=lambda match: match.start()):
        if (arguments := _arguments(text, head)) is not None:
            return head.start(), head["name"], arguments
    return None


def _arguments(text: str, head: re.Match[str]) -> dict[str, Any] | None:
    """The arguments after a call's `head`, or None when the head turns out to open no call."""
    if head.re is _BARE_CALL:
        return _bare_call_arguments(text, head.end())
    if head.re is _FLAG_CALL:
        return _flag_arguments(text, head.end())
    written = text[head.end() :]
    return _token_call_arguments(
        written, needs_object=head.re is _NAME_LINE, quoted=head.re is _GEMMA_CALL
    )


def _token_call_arguments(
    written: str, *, needs_object: bool, quoted: bool = False
) -> dict[str, Any] | None:
    """The JSON object opening `written` ({} without one; None if one `needs_object`).

    With `quoted` (Gemma's), a string between two quote tokens is a JSON string of that text.
    """
    if quoted:
        written = _QUOTED.sub(_json_string, written)
        for token in _QUOTE_TOKENS:
            written = written.replace(token, '"')
    value, _ = read_json_value(written)
    if needs_object and not isinstance(value, dict):  # a word, then no object: prose
        return None
    return value if isinstance(value, dict) else {}


def _json_string(quoted: re.Match[str]) -> str:
    """A string between two quote tokens, written as a JSON string."""
    text = quoted["gemma"] if quoted["gemma"] is not None else quoted["escaped"]
    return json.dumps(text, ensure_ascii=False)


def _bare_call_arguments(text: str, start: int) -> dict[str, Any] | None:
    """The arguments of Gemma 4's call with its tokens stripped, or None if text follows it.

    `call:write_file{content:hello,path:a.txt}` -> `{"content": "hello", "path": "a.txt"}`. An
    object JSON reads to the same end (`{days:3}`, quotes the model wrote) is read as JSON.
    """
    parts, end = _bare_object(text, start)
    if not _BARE_CALL_END.match(text, end):  # `call:x{...} and more`: prose
        return None
    value, json_end = read_json_value(text, start)
    if isinstance(value, dict) and json_end == end:
        return value
    arguments: dict[str, str] = {}
    key = ""
    for part in parts:
        if named := _BARE_KEY.match(part):
            key = named["key"]
            arguments[key] = part[named.end() :]
        elif key:  # no `key:`: the value before had a comma in it
            arguments[key] += "," + part
    return {name: value.strip() for name, value in arguments.items()}


def _bare_object(text: str, start: int) -> tuple[list[str], int]:
    """The top-level parts of the object opening at `text[start]`, and the index after it.

    `{a:x, y,b:{c:1,d:2}}` -> `["a:x", " y", "b:{c:1,d:2}"]`: split at the commas outside
    nested brackets; a missing closing brace is forgiven (the parts run to the end).
    """
    parts: list[str] = []
    depth = 0
    begin = start + 1
    for mark in _BARE_MARKS.finditer(text, start):
        if mark.group() in "{[":
            depth += 1
        elif mark.group() in "}]":
            depth -= 1
        if depth == 0 or (depth == 1 and mark.group() == ","):
            parts.append(text[begin : mark.start()])
            begin = mark.end()
        if depth == 0:
            return parts, mark.end()
    parts.append(text[begin:])
    return parts, len(text)


def _flag_arguments(text: str, start: int) -> dict[str, Any]:
    """The arguments of MiniMax's block: `{--path "a.md" --depth 2}` -> `{"path": "a.md", ...}`.

    Flag by flag, from the block's `{`: a quoted value is a JSON string (newlines, braces and `--`
    inside it are its own), a JSON object or array is read as JSON, a bare value runs to the next
    flag, the line's end or a `}` (nothing at all: true). The first text that is no flag ends the
    arguments, so nothing after the block is read. JSON arguments (`{"path": "a.md"}`) are JSON.
    """
    if re.match(r'\{\s*+"', text[start : start + 200]):
        value, _ = read_json_value(text, start)
        return value if isinstance(value, dict) else {}
    arguments: dict[str, Any] = {}
    at = start + 1 if text.startswith("{", start) else start
    while (flag := _FLAG.match(text, at)) is not None:
        arguments[flag["key"]], at = _flag_value(text, flag.end())
    return arguments


def _flag_value(text: str, start: int) -> tuple[Any, int]:
    """The value of the flag that ends at `start`, and where it ends."""
    if quoted := _QUOTED_VALUE.match(text, start):
        return _quoted(quoted.group().strip()), quoted.end()
    spaces = _SPACES.match(text, start)
    opening = spaces.end() if spaces else start
    if text.startswith(("{", "["), opening):
        value, end = read_json_value(text, opening)
        if value is not None:
            return value, end
    bare = _BARE_VALUE.match(text, start)
    assert bare is not None  # it matches the empty text too
    return bare["value"] or True, bare.end()


def _quoted(written: str) -> str:
    """A quoted value as a JSON string, or the text between its quotes when JSON cannot read it."""
    try:
        return str(json.loads(written, strict=False))  # `strict=False`: a raw newline is kept
    except ValueError:  # an escape JSON does not know (`"C:\\temp"`)
        return written[1:-1].replace('\\"', '"')


def _bare(written: str) -> Any:
    """A value without quotes: a JSON object or array as JSON, nothing as true, else the text."""
    if not written:
        return True
    if written[0] in "{[":
        value, end = read_json_value(written)
        if value is not None and not written[end:].strip():
            return value
    return written
