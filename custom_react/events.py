"""The step events the ReAct loop yields, and the result that every run ends with.

A closed set of small frozen dataclasses, named with the paper's words. Each has a `type` literal so a
consumer can `match` on it. The loop yields them in order: `Action` then `Observation` for each tool
step, `ParseFailure` when the reply broke the format, `LimitReached` when a limit stops the run,
`FinalAnswerEvent` when the model answers, and always last, `RunFinished` with the `AgentResult`.
Printing and exporting them is somebody else's job (`custom_react.printing`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from langchain_core.agents import AgentAction
from langchain_core.messages import BaseMessage

from custom_react.parser import ActionInput

StopReason = Literal["final_answer", "max_iterations", "max_execution_time", "parse_failures"]
ObservationStatus = Literal["ok", "error", "unknown_tool", "repeated", "denied"]


@dataclass(frozen=True)
class ActionEvent:
    """The model chose a tool to run."""

    thought: str
    """The reasoning the model wrote before the action."""
    tool: str
    """The tool that will run (resolved name), or the name as written when it is unknown."""
    tool_input: ActionInput
    """The Action Input as parsed."""
    tool_call_id: str
    """Joins this action to its observation and to the AIMessage / ToolMessage pair."""
    iteration: int
    """Which model call produced it (1-based)."""
    type: Literal["action"] = "action"


@dataclass(frozen=True)
class ObservationEvent:
    """What running the tool returned (or why it did not run)."""

    tool: str
    """The tool that was asked for."""
    observation: str
    """The text the model will read, after truncation."""
    tool_call_id: str
    """The id of the action this answers."""
    status: ObservationStatus = "ok"
    """`ok`, or why the tool did not give a normal result."""
    type: Literal["observation"] = "observation"


@dataclass(frozen=True)
class ParseFailure:
    """The reply broke the ReAct format; the error goes back to the model as an observation."""

    text: str
    """The reply the parser could not read."""
    error: str
    """The message shown to the model."""
    consecutive: int
    """How many replies in a row failed to parse."""
    type: Literal["parse_failure"] = "parse_failure"


@dataclass(frozen=True)
class LimitReached:
    """A limit stopped the loop before a final answer."""

    reason: StopReason
    """Which limit: iterations, execution time or consecutive parse failures."""
    iterations: int
    """Model calls made so far."""
    type: Literal["limit_reached"] = "limit_reached"


@dataclass(frozen=True)
class FinalAnswerEvent:
    """The model wrote its final answer."""

    output: str
    """The answer."""
    thought: str = ""
    """The reasoning written before it."""
    type: Literal["final_answer"] = "final_answer"


@dataclass(frozen=True)
class AgentResult:
    """What a run returns; `to_dict()` is the `invoke` output."""

    input: str
    output: str
    messages: list[BaseMessage]
    intermediate_steps: list[tuple[AgentAction, str]]
    iterations: int
    stop_reason: StopReason
    usage: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The output dict, keyed like `AgentExecutor(return_intermediate_steps=True)` plus extras."""
        return {
            "input": self.input,
            "output": self.output,
            "messages": self.messages,
            "intermediate_steps": self.intermediate_steps,
            "iterations": self.iterations,
            "stop_reason": self.stop_reason,
            "usage": self.usage,
        }


@dataclass(frozen=True)
class RunFinished:
    """The last event of every run."""

    result: AgentResult
    """The full result of the run."""
    type: Literal["result"] = "result"


AgentEvent = (
    ActionEvent | ObservationEvent | ParseFailure | LimitReached | FinalAnswerEvent | RunFinished
)
