"""The step records and events the ReAct loop yields; `AgentEvent` is the closed set of them.

Small frozen dataclasses named with the paper's words, each with a `type` literal to `match` on.
A tool step is announced by `ActionEvent` and finished by `ObservationEvent`, which carries the
step's one record, `ToolStep` (the `toolbox.ActionRequest`, plus its Observation); `ParseFailure`,
`AnswerRejected` and `FinalAnswerEvent` are records too. The memory keeps them in order, and each
turns itself into what others need: `to_messages`, `exchange` (its part of the transcript the
model reads) and `to_intermediate_steps`. Also `ReplyToken`, the approval pause and resume,
`SubAgentEvent`, `LimitReached`, and always last `RunFinished` with the `memory.AgentResult`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from functools import cached_property
from typing import TYPE_CHECKING, Literal

from langchain_core.agents import AgentAction
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolCall, ToolMessage

from custom_react.parser import ActionInput
from custom_react.parsing.markers import strip_think
from custom_react.toolbox import ActionRequest, action_key

if TYPE_CHECKING:
    from custom_react.memory import AgentResult
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
_NOT_RUN = Literal["unknown_tool", "invalid_input", "placeholder_input", "repeated", "over_budget"]
ObservationStatus = Literal["ok", "error", "denied", _NOT_RUN]
"""Only `ok` and `error` ran the tool. `denied`: approval refused (or nobody could approve);
`invalid_input`: the input names arguments the tool does not have;
`over_budget`: its calls used up; `placeholder_input`: the input was copied from the tool list;
`repeated`: the same call already ran; `unknown_tool`: no tool has that name (`acting.py`)."""
PARSE_ERROR_TOOL = "_Exception"
"""The name `AgentExecutor` gives a format error in `intermediate_steps`."""
REACT_LOG = "react_log"
"""The `response_metadata` key of a reply's step, when its content is the final answer alone."""
Observe = Callable[[str], str]
"""How a format shows an observation (or a format error) to the model: `Observation: ...`."""
Exchange = tuple[str, str | None]
"""One reply as the model reads it again, and the observation that followed it (None: none)."""


@dataclass(frozen=True)
class ToolStep(ActionRequest):
    """One Action and its Observation: created once by the loop, yielded, stored."""

    observation: str
    """The text the model reads, after truncation."""
    status: ObservationStatus
    """`ok`, or why the tool did not give a normal result."""
    type: Literal["tool_step"] = "tool_step"

    @classmethod
    def of(cls, request: ActionRequest, observation: str, status: ObservationStatus) -> ToolStep:
        """The step `request` became: the request and its Observation."""
        asked = {item.name: getattr(request, item.name) for item in fields(ActionRequest)}
        return cls(**{**asked, "inner_state": None}, observation=observation, status=status)

    @cached_property
    def action_key(self) -> str:
        """The (tool, arguments) pair as one string: the repeated-action guard compares these."""
        return action_key(self.tool, self.args)

    def to_messages(self, observe: Observe = str) -> list[BaseMessage]:
        """An AIMessage with the step's tool call, and the ToolMessage with its observation."""
        call = ToolCall(name=self.tool, args=self.args, id=self.tool_call_id, type="tool_call")
        status = "success" if self.status == "ok" else "error"
        result = ToolMessage(
            self.observation, tool_call_id=self.tool_call_id, name=self.tool, status=status
        )
        return [AIMessage(content=self.log, tool_calls=[call]), result]

    def exchange(self) -> Exchange:
        """The step as the model reads it again: its reply, then its observation."""
        return self.log, self.observation

    def to_intermediate_steps(self) -> list[tuple[AgentAction, str]]:
        """`(AgentAction, observation)`, as `AgentExecutor` returns it."""
        return [(AgentAction(self.tool, self.tool_input, self.log), self.observation)]


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

    def to_messages(self, observe: Observe = str) -> list[BaseMessage]:
        """The reply, and a user turn holding the error as the model read it."""
        return [AIMessage(content=self.text), HumanMessage(content=observe(self.error))]

    def exchange(self) -> Exchange:
        """The reply without its thinking, then the error as its observation."""
        return strip_think(self.text).strip(), self.error

    def to_intermediate_steps(self) -> list[tuple[AgentAction, str]]:
        """The `_Exception` pair `AgentExecutor(handle_parsing_errors=True)` records."""
        return [(AgentAction(PARSE_ERROR_TOOL, self.text, self.text), self.error)]


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
    returned_by: str = ""
    """The tool whose output is the answer (`return_direct`); "" when the model wrote it."""
    type: Literal["final_answer"] = "final_answer"

    def to_messages(self, observe: Observe = str) -> list[BaseMessage]:
        """The answer as the last `AIMessage`; the reply that held it in `response_metadata`."""
        if self.returned_by:  # a tool's answer: its ToolMessage is the last message
            return []
        return [AIMessage(content=self.output, response_metadata={REACT_LOG: self.log})]

    def exchange(self) -> Exchange:
        """The reply; nothing follows a final answer."""
        return self.log, None

    def to_intermediate_steps(self) -> list[tuple[AgentAction, str]]:
        """None: `intermediate_steps` holds the actions only."""
        return []


@dataclass(frozen=True)
class AnswerRejected:
    """A check sent the Final Answer back (`final_answer_checks`); its problems are the observation."""

    output: str
    """The answer that was sent back."""
    problems: list[str]
    """Each failed check's message, with the check's name."""
    iteration: int = 0
    """Which model call wrote the answer."""
    log: str = ""
    """The reply rewritten with plain markers."""
    type: Literal["answer_rejected"] = "answer_rejected"

    def to_messages(self, observe: Observe = str) -> list[BaseMessage]:
        """The reply, and a user turn with the problems as the model read them."""
        return [AIMessage(content=self.log), HumanMessage(content=observe(self.message))]

    def exchange(self) -> Exchange:
        """The reply, then the problems as its observation."""
        return self.log, self.message

    def to_intermediate_steps(self) -> list[tuple[AgentAction, str]]:
        """None: `intermediate_steps` holds the actions and format errors only."""
        return []

    @property
    def message(self) -> str:
        """What the model reads: the problems, one per line."""
        return "\n".join(self.problems)


Step = ToolStep | ParseFailure | AnswerRejected | FinalAnswerEvent
"""What the run's memory stores, in order: one record per model reply that was kept."""


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

    @classmethod
    def of(cls, request: ActionRequest) -> ActionEvent:
        """The announcement of `request`."""
        named = ("thought", "tool", "tool_input", "tool_call_id", "iteration")
        return cls(*(getattr(request, name) for name in named))


@dataclass(frozen=True)
class ObservationEvent:
    """What running the tool returned (or why it did not run): the finished `ToolStep`."""

    step: ToolStep
    """The step's record, as the run's memory stores it."""
    type: Literal["observation"] = "observation"


@dataclass(frozen=True)
class ReplyToken:
    """A piece of the model's reply as it arrives (`stream(..., stream_tokens=True)`)."""

    text: str
    """The new text: a word or a few characters."""
    type: Literal["reply_token"] = "reply_token"


@dataclass(frozen=True)
class LimitReached:
    """A limit stopped the loop before a final answer."""

    reason: StopReason
    """Which limit: iterations, execution time, tokens or consecutive parse failures."""
    iterations: int
    """Model calls made by the loop (the "generate" call not counted)."""
    answer_generated: bool = False
    """True when `early_stopping_method="generate"` got an answer from one more model call."""
    type: Literal["limit_reached"] = "limit_reached"


@dataclass(frozen=True)
class ApprovalRequested:
    """The run paused before a tool that needs approval; resume it with a `Decision`."""

    call: ActionRequest
    """The call that waits."""
    run_id: str
    """The run to resume."""
    type: Literal["approval_requested"] = "approval_requested"


@dataclass(frozen=True)
class ApprovalDecided:
    """A paused run was resumed with the person's decision about its waiting call."""

    call: ActionRequest
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
