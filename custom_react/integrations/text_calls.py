"""A text Action as `create_agent`'s tool call, held to the loop's checks (`TextReActMiddleware`).

`tool_call` finds the Action's tool among the agent's and binds its input to the tool's
arguments, then checks them as `CustomReActAgent`'s guards do before a tool runs: an input the
tool's schema refuses (`argument_checks.argument_problem`), and one copied from the tool list,
the description of its input or the example's placeholder values (`argument_checks.copied_input`).
Each refusal is a format error the model reads next. A copied call is refused once: its refusal
carries the call (`REFUSED_CALL` in the user turn's `response_metadata`), so the same call written
again runs, as in the loop. What the copy check reads of a run, the graph's messages give
(`run_so_far`): the question, and the tools' results, where a value the call keeps may be given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, ToolMessage
from langchain_core.tools import BaseTool

from custom_react.acting import unknown_tool_message
from custom_react.argument_checks import argument_problem, copied_input
from custom_react.arguments import bind_arguments
from custom_react.integrations.react_messages import REFUSED_CALL, last_human
from custom_react.parser import Action, ParseError
from custom_react.steps import Step, ToolStep
from custom_react.toolbox import resolve_call


@dataclass
class CopiedCall(ParseError):
    """A call whose input was copied from the tool list: refused once (`str` says why)."""

    call: dict[str, Any] = field(default_factory=dict)
    """The call refused, as `{"tool": name, "args": arguments}`: kept with the refusal."""


@dataclass(frozen=True)
class RunSoFar:
    """What the copy check reads of a run: the question and the steps (`argument_checks`)."""

    question: str
    steps: list[Step]


def tool_call(
    step: Action, tools: Sequence[BaseTool], messages: Sequence[BaseMessage], language: str
) -> tuple[str, dict[str, Any]]:
    """The tool's name and the arguments it is called with, or why the call cannot be made.

    Raises:
        ParseError: No tool of the agent has that name, or its schema refuses the input.
        CopiedCall: The input was copied from the tool list, and this call was not refused before.
    """
    chosen, written = resolve_call(step.tool, step.tool_input, tools)
    if chosen is None:  # named here, with the agent's tools only: no internal name
        raise ParseError(unknown_tool_message(step.tool, list(tools), language))
    args, _ = bind_arguments(chosen, written)
    if problem := argument_problem(chosen, args, language):
        raise ParseError(problem)
    call = ToolStep(chosen.name, written, args=args)
    if copied := copied_input(chosen, call, run_so_far(messages), language):
        raise CopiedCall(copied, call={"tool": chosen.name, "args": args})
    return chosen.name, args


def run_so_far(messages: Sequence[BaseMessage]) -> RunSoFar:
    """The question (the last human turn) and, after it, each tool result and copied call refused."""
    start = last_human(messages)
    question = messages[start].text if start is not None else ""
    steps: list[Step] = []
    for message in messages[start or 0 :]:
        if isinstance(message, ToolMessage):
            steps.append(ToolStep(message.name or "", {}, observation=message.text, status="ok"))
        elif isinstance(message, HumanMessage) and (
            refused := message.response_metadata.get(REFUSED_CALL)
        ):
            call = ToolStep(refused["tool"], refused["args"], args=refused["args"])
            steps.append(call.observed(message.text, "placeholder_input"))
    return RunSoFar(question, steps)
