"""Read an Action Input as the model wrote it: the text a tool gets, or the JSON object of its arguments.

`parse_action_input` is shared by every format (the text markers, XML tags, JSON steps, call syntax).
It unwraps what models put around an input -- a code fence, matching quotes, backticks or bold, a
stray `** ` or a lone quote -- and reads an object: well-formed JSON as it is, anything looser
with `json_repair`, the project's one JSON repairer (a Python-style dict, single quotes,
comments, a stop sequence cutting it off, an extra closing brace or prose after it). Anything
else stays text, as written. `json_input` turns a decoded JSON value (a step object's input)
into an Action Input, a list becoming positional arguments under `POSITIONAL_ARGS`. It knows
nothing about tools or ReAct markers (an input written as a call of the tool is `action.py`'s
business). Linear time.
"""

from __future__ import annotations

import json
import re
from contextlib import suppress
from typing import Any

from custom_react.parsing.json_repair import read_json_object

ActionInput = str | dict[str, Any]
"""What a tool is called with: a string (for a one-argument tool) or a dict of arguments."""
POSITIONAL_ARGS = "*args"
"""Key holding positional arguments in order; no tool argument can have this name."""

_FENCE = re.compile(r"```(?:[\w-]*+[ \t]*+\n)?+(?P<body>.*)```", re.DOTALL)
_WRAPPERS = ("**", "```", "`", '"', "'", "*")  # pairs around an input; longest first
_STRAY_STARS = re.compile(r"\*++[ \t]++(?=\S)")  # `** {"query": ...}`, `** rose`: bold never closed


MAX_INPUT_DEPTH = 32
"""The deepest Action Input the loop reads: a JSON object nested deeper is a format error (tool
arguments are rarely more than a few levels deep; hundreds would exhaust Python's recursion)."""


def input_depth(value: Any) -> int:
    """How deeply `value` nests objects and lists, counted without recursion.

    A string counts by its brackets: JSON too deep for Python's own reader is left as text, and
    it must not pass as a plain input.
    """
    if isinstance(value, str):
        return bracket_depth(value)
    deepest = 0
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list | tuple):
            depth += 1
            deepest = max(deepest, depth)
            if depth > MAX_INPUT_DEPTH:
                return depth  # too deep already: no need to walk the rest
            stack.extend(
                (child, depth) for child in (item.values() if isinstance(item, dict) else item)
            )
    return deepest


def bracket_depth(text: str) -> int:
    """How deeply `{` and `[` nest in `text` (quotes not read: a cheap upper bound)."""
    depth = deepest = 0
    for char in text:
        if char in "{[":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "}]" and depth:
            depth -= 1
    return deepest


def parse_action_input(raw: str) -> ActionInput:
    """Normalise an Action Input.

    Args:
        raw: The input as written after `Action Input:` (or inside a call, tag or JSON string).

    Returns:
        A dict when the input is an object (repaired as the module docstring says), else the text
        with its fence, wrapping quotes or markdown and stray quotes removed, stripped.
    """
    text = _unwrap(raw.strip())
    if text.startswith("{"):
        with suppress(ValueError, RecursionError):  # well-formed JSON needs no repair
            if isinstance(value := json.loads(text), dict):
                return value
        value = read_json_object(text)
        if not isinstance(value, dict) and '\\"' in text:  # `"{\"query\": ...}"`: JSON in a string
            value = read_json_object(text.replace('\\"', '"'))
        return value if isinstance(value, dict) else text
    return text


def _unwrap(text: str) -> str:
    """Peel a code fence, then one pair of wrapping quotes/backticks/stars, then a lone quote."""
    if len(text) >= 6 and (fence := _FENCE.fullmatch(text)):
        text = fence.group("body").strip()
    if (stars := _STRAY_STARS.match(text)) and not text.endswith("*"):
        text = text[stars.end() :]
    for wrapper in _WRAPPERS:
        if len(text) >= 2 * len(wrapper) and text.startswith(wrapper) and text.endswith(wrapper):
            return text[len(wrapper) : -len(wrapper)].strip()
    # A lone quote at the start (either kind) or a lone `"` at the end: its pair was lost.
    if text[:1] in ('"', "'") and text.count(text[0]) == 1:
        return text[1:].strip()
    if text[-1:] == '"' and text.count('"') == 1:
        return text[:-1].strip()
    return text


def json_input(value: Any) -> ActionInput:
    """A JSON value as an Action Input.

    Text is read like a written input (string-encoded JSON arguments become a dict), objects
    stay, a list is positional arguments, anything else becomes its JSON text.
    """
    if value is None:
        return ""
    if isinstance(value, str):
        return parse_action_input(value)
    if isinstance(value, dict):
        return value
    if isinstance(value, list) and len(value) > 1:
        return {POSITIONAL_ARGS: value}
    if isinstance(value, list):
        return json_input(value[0]) if value else ""
    return json.dumps(value, ensure_ascii=False)


def input_text(tool_input: ActionInput) -> str:
    """An Action Input as one string: text as written, a dict as JSON."""
    return tool_input if isinstance(tool_input, str) else json.dumps(tool_input, ensure_ascii=False)
