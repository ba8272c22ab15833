"""The step records and events the ReAct loop yields, and the result every run ends with.

Small frozen dataclasses, named with the paper's words, each with a `type` literal to `match` on.
Per tool step: `ActionEvent`, then `ObservationEvent` carrying the step's one record, `ToolStep`,
which the run's memory stores (messages, `intermediate_steps` and the transcript derive from it).
Also `ParseFailure`, `LimitReached`, `FinalAnswerEvent`, the approval pause (`approval.py`), and
always last `RunFinished` with the `AgentResult`. Events after a model call carry its iteration.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal

from langchain_core.agents import AgentAction
from langchain_core.messages import BaseMessage

from custom_react.approval import ApprovalDecided, ApprovalRequested
from custom_react.parser import ActionInput

StopReason = Literal[
    "final_answer", "max_iterations", "max_execution_time", "parse_failures", "token_budget",
    "model_error", "needs_approval",
]  # fmt: skip
"""Why a run ended. `model_error`: the model failed for good; the result keeps every step.
`needs_approval`: paused before a tool that needs approval (`approval.py`)."""
ObservationStatus = Literal[
    "ok", "error", "unknown_tool", "placeholder_input", "repeated", "over_budget", "denied"
]
"""Only `ok` and `error` ran the tool. `denied`: approval refused; `over_budget`: its calls used
up; `placeholder_input`: the input copied from the tool list (`acting.py`)."""


@dataclass(frozen=True)
class ToolStep:
    """One Action and its Observation: created once by the loop, yielded, stored."""

    thought: str
    """The reasoning the model wrote before the action."""
    tool: str
    """The tool that ran (resolved name), or the name as written when it is unknown."""
    tool_input: ActionInput
    """The Action Input as parsed (positional call arguments shown by name)."""
    args: dict[str, Any]
    """The arguments the tool was called with."""
    tool_call_id: str
    """Joins the step to its AIMessage / ToolMessage pair."""
    observation: str
    """The text the model reads, after truncation."""
    status: ObservationStatus
    """`ok`, or why the tool did not give a normal result."""
    iteration: int
    """Which model call produced the action (1-based)."""
    log: str
    """The reply rewritten with plain markers (what the model sees of its step later)."""


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
    """What running the tool returned (or why it did not run): the finished `ToolStep`."""

    step: ToolStep
    """The step's record, as the run's memory stores it."""
    type: Literal["observation"] = "observation"

    @property
    def tool(self) -> str:
        """The tool that was asked for."""
        return self.step.tool

    @property
    def observation(self) -> str:
        """The text the model will read."""
        return self.step.observation

    @property
    def tool_call_id(self) -> str:
        """The id of the action this answers."""
        return self.step.tool_call_id

    @property
    def status(self) -> ObservationStatus:
        """`ok`, or why the tool did not give a normal result."""
        return self.step.status

    @property
    def iteration(self) -> int:
        """Which model call produced the action."""
        return self.step.iteration


@dataclass(frozen=True)
class ParseFailure:
    """The reply broke the ReAct format; the error goes back to the model as an observation."""

    text: str
    """The reply the parser could not read."""
    error: str
    """The message shown to the model."""
    consecutive: int
    """How many replies in a row failed to parse."""
    iteration: int = 0
    """Which model call wrote the reply."""
    type: Literal["parse_failure"] = "parse_failure"


@dataclass(frozen=True)
class LimitReached:
    """A limit stopped the loop before a final answer."""

    reason: StopReason
    """Which limit: iterations, execution time or consecutive parse failures."""
    iterations: int
    """Model calls made by the loop (the "generate" call not counted)."""
    answer_generated: bool = False
    """True when `early_stopping_method="generate"` got an answer from one more model call."""
    type: Literal["limit_reached"] = "limit_reached"


@dataclass(frozen=True)
class FinalAnswerEvent:
    """The model wrote its final answer."""

    output: str
    """The answer."""
    thought: str = ""
    """The reasoning written before it."""
    iteration: int = 0
    """Which model call wrote it."""
    log: str = ""
    """The reply rewritten with plain markers."""
    type: Literal["final_answer"] = "final_answer"


Step = ToolStep | ParseFailure | FinalAnswerEvent
"""What the run's memory stores, in order: one record per model reply that was kept."""


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
    error: str = ""
    """With `stop_reason="model_error"`: what the model call failed with."""
    run_id: str = ""
    """The run's id (the key of its checkpoints, when a store is set)."""
    state: dict[str, Any] | None = None
    """With `stop_reason="needs_approval"`: the run as JSON, to resume it with a decision."""

    def to_dict(self) -> dict[str, Any]:
        """The output dict, keyed like `AgentExecutor(return_intermediate_steps=True)` plus extras."""
        return {item.name: getattr(self, item.name) for item in fields(self)}


@dataclass(frozen=True)
class RunFinished:
    """The last event of every run."""

    result: AgentResult
    """The full result of the run."""
    type: Literal["result"] = "result"


AgentEvent = (
    ActionEvent
    | ObservationEvent
    | ParseFailure
    | LimitReached
    | FinalAnswerEvent
    | ApprovalRequested
    | ApprovalDecided
    | RunFinished
)
