"""The events the ReAct loop yields; `AgentEvent` is the closed set of them, `AgentResult` the end.

Small frozen dataclasses named with the paper's words, each with a `type` literal to `match` on.
A tool step is announced by `ActionEvent` and finished by `ObservationEvent`; both carry the one
`steps.ToolStep` (before and after its Observation). The other step records (`ParseFailure`,
`AnswerRejected`, `FinalAnswerEvent`, in `steps.py`) are yielded as they are. Also `ReplyToken`,
the approval pause and resume, `SubAgentEvent`, `LimitReached`, and always last `RunFinished`
with the run's `AgentResult`, which `invoke` returns as a dict; the loop's `Ending` (how the run
ended) is what that result is made from.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Literal

from langchain_core.agents import AgentAction
from langchain_core.messages import BaseMessage

from custom_react.answering.rules import Verdict
from custom_react.steps import AnswerRejected, FinalAnswerEvent, ParseFailure, ToolStep

if TYPE_CHECKING:
    from custom_react.pausing.approval import Decision

StopReason = Literal[
    "final_answer",
    "max_iterations",
    "max_execution_time",
    "parse_failures",
    "token_budget",
    "model_error",
    "needs_approval",
]
"""Why a run ended. `model_error`: the model failed for good; the result keeps every step.
`needs_approval`: paused before a tool that needs a person's approval (`pausing/approval.py`)."""


@dataclass(frozen=True)
class ActionEvent:
    """The model chose a tool to run: the step, bound to its tool, before it runs."""

    step: ToolStep
    """The step as it will run: its thought, tool, input, arguments, call id and iteration."""
    type: Literal["action"] = "action"


@dataclass(frozen=True)
class ObservationEvent:
    """What running the tool returned (or why it did not run): the same step, finished."""

    step: ToolStep
    """The step's record, with its Observation, as the run's memory stores it."""
    type: Literal["observation"] = "observation"


@dataclass(frozen=True)
class ReplyToken:
    """A piece of the model's reply as it arrives (`stream(..., stream_tokens=True)`)."""

    text: str
    """The new text: a word or a few characters."""
    restart: bool = False
    """The call failed mid-reply and is made again: the reply's text so far is dropped (`text`
    is ""), and the next tokens start it afresh."""
    type: Literal["reply_token"] = "reply_token"


@dataclass(frozen=True)
class LimitReached:
    """A limit stopped the loop before a final answer."""

    reason: StopReason
    """Which limit: iterations, execution time, tokens or consecutive parse failures."""
    iterations: int
    """Model calls made when the limit came (the "generate" call not counted)."""
    answer_generated: bool = False
    """True when `early_stopping_method="generate"` got an answer from one more model call: its
    `FinalAnswerEvent` follows."""
    type: Literal["limit_reached"] = "limit_reached"


@dataclass(frozen=True)
class ApprovalRequested:
    """The run paused before a tool that needs approval; resume it with a `Decision`."""

    call: ToolStep
    """The call that waits."""
    run_id: str
    """The run to resume."""
    type: Literal["approval_requested"] = "approval_requested"


@dataclass(frozen=True)
class ApprovalDecided:
    """A paused run was resumed with the person's decision about its waiting call."""

    call: ToolStep
    """The call that waited."""
    decision: Decision
    """What the person decided."""
    type: Literal["approval_decided"] = "approval_decided"


@dataclass(frozen=True)
class SubAgentEvent:
    """An event of a sub-agent's run, the outer step's tool (`agent.as_tool`); nested as deep as they go."""

    agent: str
    """The tool name the sub-agent was called by."""
    event: AgentEvent
    """The sub-agent's own event (a `SubAgentEvent` again, one level further down)."""
    type: Literal["sub_agent"] = "sub_agent"


@dataclass(frozen=True)
class Ending:
    """How a run ended: its output and why; for a pause, the call that waits."""

    output: str
    stop_reason: StopReason
    error: str = ""
    """Why the run stopped without an answer (a limit, the model's failure); "" otherwise."""
    pending: ToolStep | None = None
    structured: Any = None
    """The validated answer, with `response_format`."""
    checks_failed: list[str] = field(default_factory=list)

    @classmethod
    def answered(cls, verdict: Verdict, stop_reason: StopReason) -> Ending:
        """The ending with the answer as its review returned it (and what its checks still find)."""
        found = {"structured": verdict.structured, "checks_failed": verdict.problems}
        return cls(verdict.output, stop_reason, **found)


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
    """Why the run stopped without an answer (a limit, the model's failure); "" otherwise."""
    run_id: str = ""
    """The run's id (the key of its checkpoints, when a store is set)."""
    state: dict[str, Any] | None = None
    """With `stop_reason="needs_approval"`: the run as JSON, to resume it with a decision."""
    structured_response: Any = None
    """With `response_format`: the validated answer (an instance of the model, or a dict)."""
    checks_failed: list[str] = field(default_factory=list)
    """The `final_answer_checks` the returned answer still failed, once retries ran out."""

    @property
    def answered(self) -> bool:
        """The run ended with an answer: a final answer, or one generated at a limit."""
        return not self.error and self.stop_reason != "needs_approval"

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
    | ReplyToken
    | ParseFailure
    | AnswerRejected
    | FinalAnswerEvent
    | LimitReached
    | ApprovalRequested
    | ApprovalDecided
    | SubAgentEvent
    | RunFinished
)
"""Every event a `CustomReActAgent` run yields; a `match` over these names covers them all."""
