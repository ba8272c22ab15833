"""An Action line that copies the prompt's placeholder, with the tool named where the input starts.

LangChain's ReAct prompts describe the Action line as `the action to take, should be one of
[Time, Wolfram Alpha]`. A small model may copy that sentence onto its Action line and write the
tool it chose at the start of its Action Input:

    Action: the action to take, should be one of [Time, Wolfram Alpha]
    Action Input: Wolfram Alpha 222+222

The parser knows no tools and reports the sentence as the tool's name. `tool_from_input(action,
tool_input, tools)` reads the step for the tools it is given: when the action is none of them but
names two or more (the copied list), and the input starts with one tool's name (the longest that
fits, in any case) followed by a space, a colon, a comma or its end, the call is that tool with
the rest of the input. An action naming one tool or none, and an input that only mentions a tool
later, stay as they were. Pure, linear time in the reply for a given set of tools.
"""

from __future__ import annotations

import re

from custom_react.parsing.action_input import ActionInput, parse_action_input
from custom_react.parsing.prose_calls import ToolArguments

_NAME_ENDS = r"(?=[\s:：,(]|\Z)"
_SEPARATORS = " \t\n:：,"


def tool_from_input(
    action: str, tool_input: ActionInput, tools: ToolArguments
) -> tuple[str, ActionInput] | None:
    """The tool and input of a step whose action copied the tool list, or None."""
    names = {name.lower() for name in tools}
    if not isinstance(tool_input, str) or action.strip().lower() in names:
        return None
    listed = [name for name in tools if _names(action, name)]
    if len(listed) < 2:
        return None
    written = tool_input.strip()
    starts = [name for name in tools if re.match(re.escape(name) + _NAME_ENDS, written, re.I)]
    if not starts:
        return None
    tool = max(starts, key=len)  # `Python Execute` over `Python`
    return tool, parse_action_input(written[len(tool) :].lstrip(_SEPARATORS))


def _names(text: str, name: str) -> bool:
    """Whether `text` names the tool `name` as a word of its own (in any case)."""
    return (
        re.search(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", text, re.IGNORECASE) is not None
    )
