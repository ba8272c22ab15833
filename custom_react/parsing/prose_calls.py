"""A call of one of the agent's tools, written in Cline's and Roo Code's tags where prose would be.

The parser knows no tool names, so a reply with no marker is an answer (`parser.py`). Models that
learned Cline's and Roo Code's prompts write a call with the tool's name as the tag and each
argument as a tag inside it, after a sentence or alone:

    I'll read the plan first.

    <read_file>
    <path>docs/plan.md</path>
    </read_file>

Only the tools can tell that from an answer that shows XML. `call_in_prose(text, tools)` reads it
for the tools it is given (name -> argument names) when the call ends the reply: its opening tag
starts a line, nothing follows its closing tag, and it holds only tags named after the tool's
arguments (their content as written; a tag named after none, Roo's `<args><file>` wrapper, is
looked into). A tag inside a sentence, a quote with words after it, an example in a code fence
and HTML stay the answer. `formats.ReActFormat.reading_calls_of` puts it after a format's parser.
Pure, linear time.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import NamedTuple

from custom_react.parsing.action_input import ActionInput

ToolArguments = Mapping[str, Collection[str]]
"""Each tool's name, with the names of its arguments."""


class ProseCall(NamedTuple):
    """A call found in prose: the tool, its arguments, and the text before the call."""

    name: str
    args: ActionInput
    """The arguments: a dict of them (tag calls), or a lone value (`answer_calls`)."""
    before: str


_OPEN_TAG = re.compile(r"<([A-Za-z_][\w.-]*)>")
_ANY_TAG = re.compile(r"</?[A-Za-z_][\w.-]*>")


def call_in_prose(text: str, tools: ToolArguments) -> ProseCall | None:
    """The tag call of one of `tools` that ends `text`, or None."""
    reply = text.rstrip()
    closing = re.search(r"</([A-Za-z_][\w.-]*)>\Z", reply)
    if closing is None or (name := closing.group(1)) not in tools:
        return None
    opening = reply.rfind(f"<{name}>", 0, closing.start())
    line_start = reply.rfind("\n", 0, opening) + 1
    if opening < 0 or reply[line_start:opening].strip():
        return None  # no opening tag, or one inside a sentence
    before = reply[:line_start].strip()
    if before.endswith("```") or re.search(r"```[\w-]*\Z", before):
        return None  # an example in a code fence
    args = _tag_arguments(reply[opening + len(name) + 2 : closing.start()], tools[name])
    return None if args is None else ProseCall(name, args, before)


def _tag_arguments(body: str, names: Collection[str]) -> dict[str, str] | None:
    """The argument tags in a tool tag's `body`; None when other text is there, or no argument is.

    Cline's own parameters (`task_progress`, `requires_approval`), which Cline's prompt adds to a
    call, are left out unless the tool has an argument of that name.
    """
    args: dict[str, str] = {}
    rest: list[str] = []  # what is not an argument: only wrapper tags and spaces may be
    at = 0
    for tag in _OPEN_TAG.finditer(body):
        name = tag.group(1)
        if tag.start() < at or (name not in names and name not in _AGENT_PARAMETERS):
            continue  # inside a tag already read, or a wrapper: its content is looked at
        end = body.find(f"</{name}>", tag.end())
        if end < 0:
            return None
        rest.append(body[at : tag.start()])
        if name in names:
            args[name] = body[tag.end() : end].strip()
        at = end + len(name) + 3
    rest.append(body[at:])
    if _ANY_TAG.sub("", "".join(rest)).strip():
        return None
    return args if args or (not names and not "".join(rest).strip()) else None


_AGENT_PARAMETERS = ("task_progress", "requires_approval")
"""Parameters Cline's prompt adds to every call (or to its commands), not the tool's own."""
