"""Read the first JSON object in a model's reply, repairing the mistakes small models make.

`read_json_object(text, start)` copies the value that opens at `text[start]` into strict JSON in one
pass, then hands it to `json.loads`. On the way it turns single-quoted strings into double-quoted
ones, escapes raw newlines and inner quotes the model forgot to escape, reads markdown's escaped
underscore (`\\_`) as `_`, drops trailing commas, maps Python's `True`/`False`/`None`, quotes bare
words (`{action: search}`), drops `//` and `/* */` comments, and closes what a stop sequence cut
off (an open string, a key without a value, open brackets). It stops at the end of the first value,
so a made-up second object (or an extra `}`) is never read, and gives up on a value nested deeper
than any tool call. Linear time: each character is looked at a bounded number of times. It knows
nothing about ReAct: `action_input` and `action` decide what an object means.
"""

from __future__ import annotations

import json
import re
from typing import Any

_PLAIN = {'"': re.compile(r'[^"\\\x00-\x1f]++'), "'": re.compile(r"[^'\"\\\x00-\x1f]++")}
# A token outside strings: a number, a word, or a run of other punctuation and space.
_TOKEN = re.compile(
    r"(?P<number>-?+[\d.]++(?:[eE][+-]?+\d++)?+)|(?P<word>[A-Za-z_][\w-]*+)"
    r"|(?P<other>[^\"'{}\[\]A-Za-z_\-\d/]++)"
)
# A quote closes its string only before `,` `:` `}` `]`, a comment or the end (spaces allowed); any
# other quote is one the model forgot to escape, such as `"<a href="x">"`.
_CLOSES = re.compile(r"\s*+(?:[,:}\]]|/[/*]|$)")
_COMMENT_ENDS = {"//": "\n", "/*": "*/"}
_VALID_ESCAPES = frozenset('"\\/bfnrt')
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
_LITERALS = ("true", "false", "null")
_WORDS = {"True": "true", "False": "false", "None": "null"} | {word: word for word in _LITERALS}
_STRICT = json.JSONDecoder()
_MAX_DEPTH = 200  # deeper than any tool call; `json` could not decode ~1,000 levels anyway


def read_json_object(text: str, start: int = 0) -> Any | None:
    """Parse the JSON value opening at `text[start]` (`{` or `[`), repaired; None if unreadable."""
    return read_json_value(text, start)[0]


def read_json_value(text: str, start: int = 0) -> tuple[Any | None, int]:
    """Like `read_json_object`, with the index just after the value.

    The index is the end of `text` when the value was cut off, so a caller reading several values
    never reads a character twice.
    """
    try:  # strict JSON needs no repair: `json` reads it in C
        value, end = _STRICT.raw_decode(text, start)
        return value, end
    except (ValueError, RecursionError):
        pass
    repaired, end = repair_json(text, start)
    try:
        return json.loads(repaired), end
    except (ValueError, RecursionError):
        return None, end


def repair_json(text: str, start: int = 0) -> tuple[str, int]:
    """The value opening at `text[start]` as strict JSON text, and the index just after it.

    See the module docstring for what is repaired; ("", end of text) for a value nested deeper
    than any tool call.
    """
    out: list[str] = []
    closers: list[str] = []  # what each open bracket still needs, innermost last
    position = start
    while position < len(text):
        char = text[position]
        if char in "\"'":
            position = _copy_string(text, position, out)
            continue
        if char in "{[":
            if len(closers) == _MAX_DEPTH:
                return "", len(text)  # unreadable: give up at once, and read nothing more
            closers.append("}" if char == "{" else "]")
            out.append(char)
        elif char in "}]":
            _drop_trailing_comma(out)
            if closers:
                out.append(closers.pop())  # a mismatched bracket is replaced by the right one
            if not closers:
                return "".join(out), position + 1
        else:
            position = _copy_token(text, position, out)
            continue
        position += 1
    return _close(out, closers), len(text)


def _copy_token(text: str, position: int, out: list[str]) -> int:
    """Copy a number, a word (quoted unless it is a JSON literal) or other punctuation; skip a comment."""
    if text[position] == "/" and (end := _COMMENT_ENDS.get(text[position : position + 2])):
        found = text.find(end, position + 2)
        return len(text) if found < 0 else found + len(end)
    token = _TOKEN.match(text, position)
    if token is None:
        out.append(json.dumps(text[position]))  # a lone "-" or "/": keep it as text
        return position + 1
    if token.lastgroup == "word":
        out.append(_WORDS.get(token.group(), json.dumps(token.group())))
    else:
        out.append(token.group())
    return token.end()


def _copy_string(text: str, start: int, out: list[str]) -> int:
    """Copy the string opening at `text[start]` as a JSON string; return the index after it."""
    quote = text[start]
    plain = _PLAIN[quote]
    parts = ['"']
    position = start + 1
    while position < len(text):
        if run := plain.match(text, position):
            parts.append(run.group())
            position = run.end()
            continue
        char = text[position]
        if char == quote and _CLOSES.match(text, position + 1):
            position += 1
            break
        if char == "\\" and position + 1 < len(text):
            escaped, length = _escape(text, position)
            parts.append(escaped)
            position += length
            continue
        parts.append(json.dumps(char)[1:-1])  # an inner quote or a control character, escaped
        position += 1
    out.append("".join(parts) + '"')
    return position


def _escape(text: str, position: int) -> tuple[str, int]:
    """The JSON form of the escape at `text[position]` (a backslash), and how many chars it used."""
    code = text[position + 1]
    if code in _VALID_ESCAPES or (code == "u" and _HEX4.match(text, position + 2)):
        return "\\" + code, 2
    if code in "'_":  # Python's escaped quote; markdown's escaped underscore (`hello\\_world`)
        return code, 2
    return "\\\\", 1  # an unknown escape such as `\d`: a literal backslash, then the char


def _drop_trailing_comma(out: list[str]) -> None:
    while out and not out[-1].strip():
        out.pop()
    if out and out[-1].rstrip().endswith(","):
        out[-1] = out[-1].rstrip()[:-1]


def _close(out: list[str], closers: list[str]) -> str:
    """Finish a value the reply cut off: a dangling key gets null, open brackets are closed."""
    _drop_trailing_comma(out)
    if out and out[-1].rstrip().endswith(":"):
        out.append("null")
    return "".join(out) + "".join(reversed(closers))
