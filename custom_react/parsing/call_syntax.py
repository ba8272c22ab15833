"""Read a tool call written like a Python function call: `search("rose")`, `write_file("a", b="c")`.

The XML and JSON formats ask the model to write its action as a call. `parse_tool_call` splits the
arguments at top-level commas (quotes and brackets respected) and reads each one: a quoted string
(any quote style, triple quotes included, escapes decoded, a missing closing quote forgiven), a JSON
or Python literal, or else the bare text. One positional argument becomes the Action Input itself,
keywords become a dict (`name=value`, or `name: value` as a signature writes it when the call has
several arguments), and several positional arguments are kept in order under `POSITIONAL_ARGS`
for `arguments.tool_arguments` to map onto the tool's schema -- this module does not know the tools.
It runs in linear time: regex jumps between the characters that matter, and no pattern backtracks.
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

from custom_react.parsing.action_input import POSITIONAL_ARGS, ActionInput, parse_action_input

__all__ = [
    "NAMED_ARGUMENT",
    "POSITIONAL_ARGS",
    "decode_string",
    "find_call_list",
    "parse_tool_call",
    "read_value",
    "split_arguments",
]

_CALL_HEAD = re.compile(r"\s*+(?P<name>[^\W\d][\w.-]*+)[ \t]*+(?P<open>[(\[])")
_SPECIAL = re.compile(r"[\"'()\[\]{},]")
_STRING_STOP = {quote: re.compile(r"[\\" + quote[0] + "]") for quote in ('"', "'")}
# A one-character quote closes its string only before `,` `)` `]` `}` or the end (spaces allowed),
# so inner quotes the model forgot to escape (`<a href="x">`, `{"a": 1}`) stay inside the string.
_CLOSES = re.compile(r"\s*+(?:[,)\]}]|$)")
_KEYWORD = re.compile(r"\s*+(?P<name>[^\W\d]\w*+)[ \t]*+=(?!=)")
# Among several arguments, also `area(base: 10, height: 3)`, a keyword with the signature's colon
# (not a URL's `://`, a drive's `:\` or `::`); one argument is the text itself, for the binding,
# which reads a name written so in plain text with the same pattern (`arguments.named_in_text`).
NAMED_ARGUMENT = re.compile(r"\s*+(?P<name>[^\W\d]\w*+)[ \t]*+(?:=(?!=)|:(?![:/\\]))")
_STRING = re.compile(r"[rRuUbBfF]?+(?P<quote>\"\"\"|'''|\"|')")
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)", re.DOTALL)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\n": "", "\\": "\\", '"': '"', "'": "'"}
_MAX_LITERAL_CHARS = 10_000


def parse_tool_call(text: str) -> tuple[str, ActionInput] | None:
    """Read `name(arguments)` (or the ReAct paper's `name[input]`) at the start of `text`.

    Args:
        text: The action as written, e.g. `write_file("index.html", content="<html>")`.

    Returns:
        `(name, tool_input)`, or None when `text` does not start with a call. The input is "" for
        no arguments, the value of a single positional argument (a non-string literal as JSON text,
        a dict as a dict), a dict for keyword arguments, and `{POSITIONAL_ARGS: [...], **keywords}`
        when there are several positional arguments. Text after the closing parenthesis is ignored;
        a missing closing parenthesis is forgiven.
    """
    head = _CALL_HEAD.match(text)
    if head is None:
        return None
    body = text[head.end() :]
    if head.group("open") == "[":  # the paper's `search[rose price]`: the input is plain text
        end = body.rfind("]")
        return head.group("name"), parse_action_input(body[:end] if end >= 0 else body)
    positional: list[Any] = []
    keywords: dict[str, Any] = {}
    parts = split_arguments(body)
    keyword_pattern = NAMED_ARGUMENT if len(parts) > 1 else _KEYWORD
    for part in parts:
        if keyword := keyword_pattern.match(part):
            keywords[keyword.group("name")] = read_value(part[keyword.end() :])
        elif part.strip():
            positional.append(read_value(part))
    return head.group("name"), _call_input(positional, keywords)


# A list of calls as "pythonic" templates write them (Llama 3.2 and 4, Gemma, Liquid's LFM2):
# `[search(q="x")]` at a line's start, maybe after `<|python_start|>` or LFM2's
# `<|tool_call_start|>`, or in a ```tool_code fence (the list optional).
_CALL_LIST = re.compile(
    r"^[ \t]*+(?:(?:<\|python_start\|>|<\|tool_call_start\|>|```tool_code)\s*+\[?+|\[)"
    r"\s*+(?=[A-Za-z_][\w.]*+\()",
    re.MULTILINE,
)


def find_call_list(text: str) -> tuple[int, str, ActionInput] | None:
    """The first call of a list of calls written like Python: `(where it starts, name, input)`.

    `[search(query="rose"), search(query="tulip")]` gives the first; None when no line opens such
    a list. Outside a list (or its wrappers) a call is prose: the parser does not know the tools.
    """
    opened = _CALL_LIST.search(text)
    if opened is None or (call := parse_tool_call(text[opened.end() :])) is None:
        return None
    return opened.start(), call[0], call[1]


def _call_input(positional: list[Any], keywords: dict[str, Any]) -> ActionInput:
    if len(positional) > 1 or (positional and keywords):
        return {POSITIONAL_ARGS: positional, **keywords}
    if keywords:
        return keywords
    if not positional:
        return ""
    value = positional[0]
    return value if isinstance(value, str | dict) else json.dumps(value, ensure_ascii=False)


def split_arguments(body: str) -> list[str]:
    """Split the text after `(` at top-level commas, up to the matching `)` (or the end)."""
    parts: list[str] = []
    start = 0
    depth = 0
    position = 0
    while (special := _SPECIAL.search(body, position)) is not None:
        char = special.group()
        position = special.end()
        if char in "\"'":
            position = _skip_string(body, special.start())
        elif char in "([{":
            depth += 1
        elif char in ")]}" and depth > 0:
            depth -= 1
        elif char == ")":  # the call's own closing parenthesis
            parts.append(body[start : special.start()])
            return parts
        elif char == "," and depth == 0:
            parts.append(body[start : special.start()])
            start = position
    parts.append(body[start:])
    return parts


def _skip_string(text: str, start: int) -> int:
    """Return the index just after the string literal opening at `start` (or the end of text)."""
    quote = text[start] * 3 if text.startswith(text[start] * 3, start) else text[start]
    if len(quote) == 3:
        end = text.find(quote, start + 3)
        return len(text) if end < 0 else end + 3
    stop = _STRING_STOP[quote]
    position = start + 1
    while (found := stop.search(text, position)) is not None:
        if found.group() == "\\":
            position = found.end() + 1
        elif _CLOSES.match(text, found.end()):
            return found.end()
        else:
            position = found.end()
    return len(text)


def read_value(raw: str) -> Any:
    """One argument's value: a decoded string, a JSON or Python literal, or the bare text."""
    text = raw.strip()
    if string := _STRING.match(text):
        return decode_string(text, string.group("quote"), raw_string=text[:1] in "rR")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        pass
    try:  # a Python literal such as {'a': 1} or (1, 2); `ast` never runs code, but keep it short
        return (
            ast.literal_eval(text) if len(text) <= _MAX_LITERAL_CHARS else parse_action_input(text)
        )
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        return parse_action_input(text)


def decode_string(text: str, quote: str, *, raw_string: bool = False) -> str:
    """The text of a string literal.

    Quotes are removed (the closing one may be missing), escapes such as `\\n` and `\\"` are
    decoded as Python would, unknown ones (`\\d`) are kept as written.
    """
    inner = text[text.index(quote) + len(quote) :]
    if inner.endswith(quote):
        inner = inner[: -len(quote)]
    return inner if raw_string else _ESCAPE.sub(_unescape, inner)


def _unescape(match: re.Match[str]) -> str:
    code = match.group(1)
    if len(code) > 1:  # \uXXXX or \xXX
        return chr(int(code[1:], 16))
    return _ESCAPES.get(code, match.group())
