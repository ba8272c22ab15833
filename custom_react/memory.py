"""The run's memory: the list of step records, and everything derived from it.

`RunMemory` keeps the question, the chat history, one record per kept model reply (`events.Step`:
a `ToolStep`, a `ParseFailure` or the `FinalAnswerEvent`) and the summed token usage. The
LangChain 1.0 messages (`AIMessage` with the parsed tool call + `ToolMessage`, the shape
`create_agent` produces), the legacy `intermediate_steps` and the repeated-action check are
functions of that list, never parallel copies. It decides nothing and renders nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.agents import AgentAction
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.messages.ai import UsageMetadata, add_usage

from custom_react.events import (
    AgentResult,
    FinalAnswerEvent,
    ParseFailure,
    Step,
    StopReason,
    ToolStep,
)

PARSE_ERROR_TOOL = "_Exception"
"""The name `AgentExecutor` gives a format error in `intermediate_steps`."""


@dataclass
class RunRecord:
    """What every run keeps, ReAct or plan-and-execute.

    The question, the earlier conversation, and the token usage summed over the model's replies.
    """

    question: str
    chat_history: list[BaseMessage] = field(default_factory=list)
    usage: UsageMetadata | None = None

    def count_usage(self, reply: BaseMessage) -> None:
        """Add a model reply's token usage to the run total."""
        if isinstance(reply, AIMessage) and reply.usage_metadata:
            self.usage = add_usage(self.usage, reply.usage_metadata)


@dataclass
class RunMemory(RunRecord):
    """The question and the steps of one ReAct run, in order."""

    steps: list[Step] = field(default_factory=list)
    observe: Callable[[str], str] = str
    """How the format showed an observation to the model: a format error's user turn holds
    the error as the model read it (`Observation: ...` in the text format)."""

    def record(self, step: Step) -> None:
        """Keep one step record (the same object the loop yields)."""
        self.steps.append(step)

    def previous_observation(self, tool: str, args: dict[str, Any]) -> str | None:
        """The observation of an earlier run of the same tool with the same input.

        One that ran and failed counts too: the same call would fail the same way.
        """
        key = action_key(tool, args)
        ran = [step for step in self._ran() if action_key(step.tool, step.args) == key]
        return ran[0].observation if ran else None

    def calls_of(self, tool: str) -> int:
        """How many times `tool` ran in this run so far."""
        return sum(step.tool == tool for step in self._ran())

    def _ran(self) -> list[ToolStep]:
        return [s for s in self.steps if isinstance(s, ToolStep) and s.status in ("ok", "error")]

    @property
    def tokens(self) -> int:
        """Input plus output tokens of every model call so far (0 when the model reports none)."""
        return self.usage["total_tokens"] if self.usage else 0

    def result(
        self, output: str, stop_reason: StopReason, iterations: int, error: str = ""
    ) -> AgentResult:
        """Close the run: the question, every step, the final answer and the totals."""
        return AgentResult(
            input=self.question,
            output=output,
            messages=[HumanMessage(content=self.question), *to_messages(self.steps, self.observe)],
            intermediate_steps=to_intermediate_steps(self.steps),
            iterations=iterations,
            stop_reason=stop_reason,
            usage=dict(self.usage or {}),
            error=error,
        )


def to_messages(steps: Sequence[Step], observe: Callable[[str], str] = str) -> list[BaseMessage]:
    """The steps as LangChain messages.

    A tool step is an AIMessage with its tool call and the ToolMessage with its observation; a
    format error is the reply and a user turn with the error as `observe` showed it; the final
    answer is the reply that holds it.
    """
    messages: list[BaseMessage] = []
    for step in steps:
        if isinstance(step, ToolStep):
            call = {
                "name": step.tool,
                "args": step.args,
                "id": step.tool_call_id,
                "type": "tool_call",
            }
            status = "success" if step.status == "ok" else "error"
            messages.append(AIMessage(content=step.log, tool_calls=[call]))
            messages.append(
                ToolMessage(
                    step.observation, tool_call_id=step.tool_call_id, name=step.tool, status=status
                )
            )
        elif isinstance(step, ParseFailure):
            messages += [AIMessage(content=step.text), HumanMessage(content=observe(step.error))]
        elif isinstance(step, FinalAnswerEvent):
            messages.append(AIMessage(content=step.log))
    return messages


def to_intermediate_steps(steps: Sequence[Step]) -> list[tuple[AgentAction, str]]:
    """`(AgentAction, observation)` pairs, as `AgentExecutor(return_intermediate_steps=True)`."""
    pairs: list[tuple[AgentAction, str]] = []
    for step in steps:
        if isinstance(step, ToolStep):
            pairs.append((AgentAction(step.tool, step.tool_input, step.log), step.observation))
        elif isinstance(step, ParseFailure):
            pairs.append((AgentAction(PARSE_ERROR_TOOL, step.text, step.text), step.error))
    return pairs


def action_key(tool: str, args: dict[str, Any]) -> str:
    """One string per (tool, arguments) pair, whitespace around string values ignored."""
    normalized = {
        key: value.strip() if isinstance(value, str) else value for key, value in args.items()
    }
    return tool + "\x00" + json.dumps(normalized, sort_keys=True, ensure_ascii=False, default=str)
