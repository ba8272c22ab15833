"""A call of one of the agent's tools, written in another agent's call format where prose would be.

The parser knows no tool names, so a reply with no marker is an answer (`parser.py`). Two forms
from other agents' prompts are calls all the same, and only the tools can tell them from an
answer that shows XML or JSON:

- Cline's and Roo Code's tags: the tool's name as the tag, each argument as a tag inside it
  (`<read_file><path>a.md</path></read_file>`). The arguments are the tags named after the tool's
  arguments, their content as written; a tag named after none (Roo's `<args><file>` wrapper) is
  looked into.
- A sentence that names a tool, then a bare object of its arguments ending the reply (gpt-oss
  in a text tool mode: `Use web_search function. {"query": "..."}`). Every key must be an
  argument of that tool, and no other tool may be named.
- A call with its arguments left out: `{"name": "get_time"}`, the name one of the tools (the
  parser reads an object with only a name as data; the guards then name any missing argument).

`call_in_prose(text, tools)` finds either for the tools it is given (name -> argument names);
`formats.ReActFormat.reading_calls_of` puts it after a format's parser. Pure, linear time.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping
from typing import Any, NamedTuple

ToolArguments = Mapping[str, Collection[str]]
"""Each tool's name, with the names of its arguments."""


class ProseCall(NamedTuple):
    """A call found in prose: the tool, its arguments, and the text before the call."""

    name: str
    args: dict[str, Any]
    before: str


_OPEN_TAG = re.compile(r"<([A-Za-z_][\w.-]*)>")
_ANY_TAG = re.compile(r"</?[A-Za-z_][\w.-]*>")


def call_in_prose(text: str, tools: ToolArguments) -> ProseCall | None:
    """The call of one of `tools` written as a tag call or as a named tool's object, or None."""
    return _tag_call(text, tools) or _object_call(text, tools)


def _tag_call(text: str, tools: ToolArguments) -> ProseCall | None:
    """The first tag named after a tool, closed, whose content is that tool's argument tags."""
    unclosed: set[str] = set()  # a name never closed after one opening is not closed later
    read_to = 0  # a tag that was no call: what it holds is not looked at again
    for opening in _OPEN_TAG.finditer(text):
        name = opening.group(1)
        if name not in tools or name in unclosed or opening.start() < read_to:
            continue
        end = text.find(f"</{name}>", opening.end())
        if end < 0:
            unclosed.add(name)
            continue
        args = _tag_arguments(text[opening.end() : end], tools[name])
        if args is not None:
            return ProseCall(name, args, _before(text[: opening.start()]))
        read_to = end
    return None


def _tag_arguments(body: str, names: Collection[str]) -> dict[str, Any] | None:
    """The argument tags in a tool tag's `body`; None when other text is there, or no argument is."""
    args: dict[str, Any] = {}
    rest: list[str] = []  # what is not an argument: only wrapper tags and spaces may be
    at = 0
    for tag in _OPEN_TAG.finditer(body):
        if tag.start() < at or tag.group(1) not in names:
            continue  # inside an argument already read, or a wrapper: its content is looked at
        end = body.find(f"</{tag.group(1)}>", tag.end())
        if end < 0:
            return None
        rest.append(body[at : tag.start()])
        args[tag.group(1)] = body[tag.end() : end].strip()
        at = end + len(tag.group(1)) + 3
    rest.append(body[at:])
    if _ANY_TAG.sub("", "".join(rest)).strip():
        return None
    return args if args or (not names and not body.strip()) else None


def _object_call(text: str, tools: ToolArguments) -> ProseCall | None:
    """A JSON object ending the reply that calls one tool, or None.

    `{"name": tool}` alone, or the arguments after a sentence naming the one tool they are of.
    """
    found = _ending_object(text)
    if found is None:
        return None
    args, before = found
    if set(args) == {"name"} and isinstance(args["name"], str) and args["name"] in tools:
        # a call with its arguments left out
        return ProseCall(args["name"], {}, before)
    named = [
        name
        for name in tools
        if re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", before, re.IGNORECASE)
    ]
    if len(named) != 1 or not set(args) <= set(tools[named[0]]):
        return None
    return ProseCall(named[0], args, before)


def _ending_object(text: str) -> tuple[dict[str, Any], str] | None:
    """The JSON object ending the reply on lines of its own (fenced or not), and the text before."""
    reply = text.strip().removesuffix("```").rstrip()
    start = 0 if reply.startswith("{") else reply.rfind("\n{")
    if start < 0 or not reply.endswith("}"):
        return None
    try:
        args = json.loads(reply[start:])
    except ValueError:
        return None
    return (args, _before(reply[:start])) if isinstance(args, dict) and args else None


def _before(text: str) -> str:
    """The text before a call, without the code fence that opens around it."""
    return re.sub(r"```[\w-]*\s*$", "", text.strip()).strip()
