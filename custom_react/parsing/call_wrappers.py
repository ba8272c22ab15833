"""What a JSON tool call is wrapped in, and what the wrapper says about the object inside it.

A JSON call may open after a code fence, or after a tag that says a call follows: `<tool_call>`
(Hermes, Qwen; MiniMax's `<minimax:tool_call>`), `<function_calls>`, DeepSeek's
`<｜DSML｜tool_calls>`, and LM Studio's own block, which a model writes when the server does not
turn it into a provider tool call:

    [TOOL_REQUEST]{"name": "get_weather", "arguments": {"city": "Paris"}}[END_TOOL_REQUEST]

in any case, or with another word in the opener: `[tool]{...}[END_TOOL_REQUEST]`, or the tool's
own name with its arguments, `[get_weather]{"city": "Paris"}[END_TOOL_REQUEST]`, closed by
`[END_TOOL_REQUEST]` or by the name's own closer, `[get_weather]{...}[/get_weather]` (a bracketed
word other than `TOOL_REQUEST` counts only with one of the two right after the object: a markdown
link or a `[note]` before an object stays prose).

A call tag makes the intent plain: the object in it is a call even when its arguments are left
out (`<tool_call>{"name": "get_time"}</tool_call>`), where a bare `{"name": ...}` is data. The
object is read up to the tag that closes the wrapper, so a call cut short does not take the tag
into a value. `unreadable_call` tells a call tag whose object names no call (broken JSON, no
name): the model meant a call, so it is asked to write it again, not answered with the markup.
Pure functions; each looks a bounded way back, or once forward.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from custom_react.parsing.json_repair import read_json_value

_LM_STUDIO_WORDS = ("tool_request", "tool")
"""Words of LM Studio's opener that name no tool: the object in the block is the whole call."""
# What may open a call, just before its object: a fence, a call tag or a bracketed word.
OPENER = re.compile(
    r"(?:```[\w-]*+|(?P<tag><(?:[\w-]++:)?+tool_call>|<function_calls>"
    r"|<｜++DSML｜++(?:tool|function)_calls>)|\[(?P<word>[A-Za-z_][\w.-]*+)\])\s*+\Z"
)
_CLOSER = re.compile(r"</(?:[\w-]++:)?+tool_call>|\[END_TOOL_REQUEST\]", re.IGNORECASE)
_LM_STUDIO_END = re.compile(r"\s*+\[END_TOOL_REQUEST\]", re.IGNORECASE)
# A call tag with an object in it, as `unreadable_call` looks for one.
_WRAPPED_OBJECT = re.compile(
    r"(?:<(?:[\w-]++:)?+tool_call>|\[TOOL_REQUEST\])\s*+(?:```[\w-]*+\s*+)?+\{", re.IGNORECASE
)
_LOOK_BACK = 40  # an opener is short


@dataclass(frozen=True)
class Wrapped:
    """A JSON value read where a call may open, with what its wrapper says about it."""

    value: Any
    end: int
    """Where the value's text ends."""
    start: int
    """Where the call opens: at the fence or tag before the value, if any."""
    named_by_tag: bool = False
    """A call tag opened it: a name alone is a call."""
    tool: str = ""
    """The tool's name written in LM Studio's opener (`[get_weather]`), for arguments alone."""


def read_wrapped(text: str, start: int) -> Wrapped:
    """The JSON value at `text[start]`, read within its wrapper, and what the wrapper says."""
    value, end = read_json_value(text, start)
    opener = OPENER.search(text, max(start - _LOOK_BACK, 0), start)
    if opener is None:
        return Wrapped(value, end, start)
    closer = _CLOSER.search(text, start) if opener["word"] or opener["tag"] else None
    if closer is not None and end > closer.start():  # read past the closing tag: a call cut short
        value, end = read_json_value(text[: closer.start()], start)
    word = (opener["word"] or "").lower()
    if word in _LM_STUDIO_WORDS or opener["tag"]:
        return Wrapped(value, end, opener.start(), named_by_tag=True)
    # `[get_weather]{...}[END_TOOL_REQUEST]`, `[get_weather]{...}[/get_weather]`
    if word and _closes_named_block(text, end, opener["word"]):
        return Wrapped(value, end, opener.start(), tool=opener["word"])
    if word:  # a bracketed word with no LM Studio end: no wrapper
        return Wrapped(value, end, start)
    return Wrapped(value, end, opener.start())


def _closes_named_block(text: str, end: int, word: str) -> bool:
    """Whether LM Studio's end, or the bracketed `word`'s own closer, follows the object at `end`."""
    own_end = re.compile(r"\s*+\[/" + re.escape(word) + r"\]", re.IGNORECASE)
    return bool(_LM_STUDIO_END.match(text, end) or own_end.match(text, end))


def opened_at(text: str, start: int) -> int:
    """Where a call starting at `start` opens: at the code fence or call tag before it, if any."""
    opener = OPENER.search(text, max(start - _LOOK_BACK, 0), start)
    return start if opener is None or opener["word"] else opener.start()


def unreadable_call(text: str) -> bool:
    """Whether `text` opens a call tag on an object (`[TOOL_REQUEST]{`, `<tool_call>{`).

    Asked when no call was read from the text: the tag's object was no call.
    """
    return _WRAPPED_OBJECT.search(text) is not None
