"""A call of one of the agent's tools written like Python as the whole of an `<answer>` block.

Phone and GUI agents (Open-AutoGLM) ask for the reasoning in `<think>` and the step in `<answer>`,
written as a call, and `finish(...)` to end the task:

    <think>The app is not open yet; launch it first.</think>
    <answer>
    do(action="Launch", app="Maps")
    </answer>

The parser knows no tools: with `<think>` dropped, the block is a direct answer. Only the tools
can tell it from an answer that shows code. `call_in_answer_tag(text, tools)` reads it for the
tools it is given (name -> argument names) when the block ends the reply and holds nothing but
one call, of one of the tools or of the final answer's name (`finish`, `final_answer`: the caller
reads it as the answer), whose keywords are all that tool's arguments (a lone value needs a tool
of one argument). Prose in `<answer>`, a call of another name, text after the call, keywords the
tool does not have and a block with words after it stay the answer. Pure, linear time.
"""

from __future__ import annotations

import re

from custom_react.parsing.action_input import POSITIONAL_ARGS
from custom_react.parsing.call_syntax import parse_tool_call, split_arguments
from custom_react.parsing.prose_calls import ProseCall, ToolArguments
from custom_react.parsing.tool_name import is_final_answer_name

_OPENING = "<answer>"
_CLOSING = "</answer>"
_CALL_HEAD = re.compile(r"[^\W\d][\w.-]*+[ \t]*+\(")


def call_in_answer_tag(text: str, tools: ToolArguments) -> ProseCall | None:
    """The call of one of `tools` (or of the final answer) an ending `<answer>` block holds."""
    reply = text.rstrip()
    opening = reply.rfind(_OPENING)
    if opening < 0:
        return None
    body = reply[opening + len(_OPENING) :].removesuffix(_CLOSING).strip()
    if not _one_call(body) or (call := parse_tool_call(body)) is None:
        return None
    name, tool_input = call
    if is_final_answer_name(name):
        return ProseCall(name, tool_input, reply[:opening].strip())
    if name not in tools:
        return None
    arguments = tools[name]
    if isinstance(tool_input, dict):
        keys = set(tool_input) - {POSITIONAL_ARGS}
        if not keys <= set(arguments) or (POSITIONAL_ARGS in tool_input and not keys):
            return None
    elif tool_input and len(arguments) != 1:
        return None  # a lone value for a tool of several arguments: whose is it?
    return ProseCall(name, tool_input, reply[:opening].strip())


def _one_call(body: str) -> bool:
    """Whether `body` is one call, `name(...)`, closed, with nothing after it."""
    head = _CALL_HEAD.match(body)
    if head is None:
        return False
    rest = body[head.end() :]
    parts = split_arguments(rest)
    closing = sum(len(part) for part in parts) + len(parts) - 1  # the commas between the parts
    return rest[closing:] == ")"
