"""The run's step records: one `ToolStep` per tool step, and the other records a reply can leave.

A tool step is one type from the reply to the memory: the parser returns a `ToolStep` with the
tool as the model wrote it (`parser.Action` is this type); the toolbox binds it (the real tool
name, its arguments, a call id: `Toolbox.request`); running it adds its Observation (`observed`).
The events that announce and finish it carry that same value (`events.ActionEvent`,
`events.ObservationEvent`), and the memory stores it. `ParseFailure`, `AnswerRejected` and
`FinalAnswerEvent` are the other records; each keeps what its reply carried besides its text
(`ReplyMetadata`). Each record turns itself into what others need: `to_messages` (LangChain
messages, an AIMessage with its reply's id, usage and response metadata, a ToolMessage with the
tool's artifact), `exchange` (its part of the transcript the model reads),
`to_intermediate_steps` (the legacy pairs) and `to_dict` / `from_dict` (JSON, read back with
every field checked against its type: `pausing/typed_json.py`). Frozen dataclasses named with
the paper's words; nothing here runs a tool or calls a model.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields, replace
from functools import cached_property
from typing import Any, Literal, TypeVar

from langchain_core.agents import AgentAction
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolCall, ToolMessage
from langchain_core.messages.ai import UsageMetadata
from typing_extensions import TypedDict  # what Pydantic reads on Python < 3.12

from custom_react.parsing.action_input import ActionInput
from custom_react.parsing.thinking import strip_think
from custom_react.pausing.typed_json import field_as_json, read_record

_NOT_RUN = Literal["unknown_tool", "invalid_input", "placeholder_input", "repeated", "over_budget"]
ObservationStatus = Literal["ok", "error", "timed_out", "denied", _NOT_RUN]
"""Only `ok`, `error` and `timed_out` ran the tool. `timed_out`: it did not finish within
`tool_timeout` and may still be running, so it is never tried again by `tool_retries`.
`denied`: approval refused (or nobody could approve);
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
RecordT = TypeVar("RecordT")


class ReplyMetadata(TypedDict, total=False):
    """What the model's reply carried besides its text, given back to the AIMessage of its record."""

    id: str
    usage_metadata: UsageMetadata
    response_metadata: dict[str, Any]


class Record:
    """What every step record can do with JSON: write itself (`to_dict`), be read back (`from_dict`)."""

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON data: its fields, its `type` as its `kind`.

        A field JSON cannot hold (an artifact that is an object, say) is written as its default,
        with a warning (`field_as_json`).
        """
        data = {item.name: field_as_json(self, item) for item in fields(self)}  # type: ignore[arg-type]
        return {"kind": data.pop("type"), **data}

    @classmethod
    def from_dict(cls: type[RecordT], data: Any, where: str = "step") -> RecordT:
        """The record `to_dict` wrote, every field checked against its type (`read_record`).

        Raises:
            ValueError: Not this kind of record, or a field is missing, unknown or wrong.
        """
        kind = getattr(cls, "type", None)
        if not isinstance(data, dict) or data.get("kind") != kind:
            raise ValueError(f"{where} is not a {kind} record.")
        return read_record(cls, {k: v for k, v in data.items() if k != "kind"}, where)


@dataclass(frozen=True, repr=False)
class ToolStep(Record):
    """One tool step: the Action as parsed, then bound to its tool, then with its Observation."""

    tool: str
    """The tool as the model wrote it; once bound, its real name (as written when none has it)."""
    tool_input: ActionInput
    """The Action Input as parsed (positional call arguments shown by name, once bound)."""
    thought: str = ""
    """The reasoning the model wrote before the action."""
    log: str = ""
    """The reply rewritten with plain markers (what the model sees of its step later)."""
    args: dict[str, Any] = field(default_factory=dict)
    """The arguments the tool is called with (set when bound)."""
    tool_call_id: str = ""
    """Joins the step to its AIMessage / ToolMessage pair (set when bound)."""
    iteration: int = 0
    """Which model call produced the action (1-based; set when bound)."""
    observation: str = ""
    """The text the model reads, after truncation ("" until the step ran or was refused)."""
    status: ObservationStatus | Literal["pending"] = "pending"
    """`ok`, or why the tool did not give a normal result; "pending" until then."""
    artifact: Any = field(default=None, kw_only=True)
    """What a `response_format="content_and_artifact"` tool returned beside its content, for the
    caller (its ToolMessage's `artifact`), never the model; kept by a checkpoint only when JSON can
    hold it (otherwise None, with a warning)."""
    inner_state: dict[str, Any] | None = field(default=None, kw_only=True)
    """When the tool is a sub-agent that waits for a person: its paused run, to resume it."""
    reply_metadata: ReplyMetadata = field(default_factory=ReplyMetadata, kw_only=True, repr=False)
    """What the reply that wrote the action carried (its id, token usage, response metadata)."""
    type: Literal["tool_step"] = "tool_step"

    def __repr__(self) -> str:
        """The fields set so far: a parsed step shows what the parser read, nothing unbound."""
        shown = [
            f"{item.name}={getattr(self, item.name)!r}"
            for item in fields(self)
            if item.name in ("tool", "tool_input")
            or (item.repr and getattr(self, item.name) != _DEFAULTS[item.name])
        ]
        return f"ToolStep({', '.join(shown)})"

    def observed(
        self, observation: str, status: ObservationStatus, artifact: Any = None
    ) -> ToolStep:
        """This step with its Observation (and the tool's artifact): the record the memory keeps."""
        return replace(
            self, observation=observation, status=status, artifact=artifact, inner_state=None
        )

    @cached_property
    def action_key(self) -> str:
        """The (tool, arguments) pair as one string: the repeated-action guard compares these."""
        return action_key(self.tool, self.args)

    def to_messages(self, observe: Observe = str) -> list[BaseMessage]:
        """An AIMessage with the step's tool call, and the ToolMessage with its observation."""
        call = ToolCall(name=self.tool, args=self.args, id=self.tool_call_id, type="tool_call")
        status = "success" if self.status == "ok" else "error"
        result = ToolMessage(
            self.observation,
            tool_call_id=self.tool_call_id,
            name=self.tool,
            status=status,
            artifact=self.artifact,
        )
        metadata = {**self.reply_metadata.get("response_metadata", {}), REACT_LOG: self.log}
        carried = {**self.reply_metadata, "response_metadata": metadata}  # the step as written too
        return [AIMessage(content=self.log, tool_calls=[call], **carried), result]

    def exchange(self) -> Exchange:
        """The step as the model reads it again: its reply, then its observation."""
        return self.log, self.observation

    def to_intermediate_steps(self) -> list[tuple[AgentAction, str]]:
        """`(AgentAction, observation)`, as `AgentExecutor` returns it."""
        return [(AgentAction(self.tool, self.tool_input, self.log), self.observation)]


_DEFAULTS = {
    item.name: item.default_factory() if item.default is MISSING else item.default  # type: ignore[operator]
    for item in fields(ToolStep)
    if item.default is not MISSING or item.default_factory is not MISSING
}
"""What a field of a `ToolStep` holds before it is set (its repr leaves those out)."""


@dataclass(frozen=True)
class ParseFailure(Record):
    """The reply broke the ReAct format; the error goes back to the model as an observation."""

    text: str
    """The reply the parser could not read."""
    error: str
    """The message shown to the model."""
    consecutive: int
    """How many replies in a row failed to parse."""
    iteration: int = 0
    """Which model call wrote the reply."""
    reply_metadata: ReplyMetadata = field(default_factory=ReplyMetadata, kw_only=True, repr=False)
    """What the reply carried besides its text (its id, token usage, response metadata)."""
    type: Literal["parse_failure"] = "parse_failure"

    def to_messages(self, observe: Observe = str) -> list[BaseMessage]:
        """The reply, and a user turn holding the error as the model read it."""
        reply = AIMessage(content=self.text, **self.reply_metadata)
        return [reply, HumanMessage(content=observe(self.error))]

    def exchange(self) -> Exchange:
        """The reply without its thinking, then the error as its observation."""
        return strip_think(self.text).strip(), self.error

    def to_intermediate_steps(self) -> list[tuple[AgentAction, str]]:
        """The `_Exception` pair `AgentExecutor(handle_parsing_errors=True)` records."""
        return [(AgentAction(PARSE_ERROR_TOOL, self.text, self.text), self.error)]


@dataclass(frozen=True)
class FinalAnswerEvent(Record):
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
    reply_metadata: ReplyMetadata = field(default_factory=ReplyMetadata, kw_only=True, repr=False)
    """What the reply that wrote the answer carried (its id, token usage, response metadata)."""
    type: Literal["final_answer"] = "final_answer"

    def to_messages(self, observe: Observe = str) -> list[BaseMessage]:
        """The answer as the last `AIMessage`; the reply that held it in `response_metadata`."""
        if self.returned_by:  # a tool's answer: its ToolMessage is the last message
            return []
        carried = self.reply_metadata
        metadata = {**carried.get("response_metadata", {}), REACT_LOG: self.log}
        return [AIMessage(content=self.output, **{**carried, "response_metadata": metadata})]

    def exchange(self) -> Exchange:
        """The reply; nothing follows a final answer."""
        return self.log, None

    def to_intermediate_steps(self) -> list[tuple[AgentAction, str]]:
        """None: `intermediate_steps` holds the actions only."""
        return []


@dataclass(frozen=True)
class AnswerRejected(Record):
    """A check sent the Final Answer back (`final_answer_checks`); its problems are the observation."""

    output: str
    """The answer that was sent back."""
    problems: list[str]
    """Each failed check's message, with the check's name."""
    iteration: int = 0
    """Which model call wrote the answer."""
    log: str = ""
    """The reply rewritten with plain markers."""
    reply_metadata: ReplyMetadata = field(default_factory=ReplyMetadata, kw_only=True, repr=False)
    """What the reply carried besides its text (its id, token usage, response metadata)."""
    type: Literal["answer_rejected"] = "answer_rejected"

    def to_messages(self, observe: Observe = str) -> list[BaseMessage]:
        """The reply, and a user turn with the problems as the model read them."""
        reply = AIMessage(content=self.log, **self.reply_metadata)
        return [reply, HumanMessage(content=observe(self.message))]

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
_KINDS: dict[str, type[Any]] = {
    kind.type: kind for kind in (ToolStep, ParseFailure, AnswerRejected, FinalAnswerEvent)
}


def action_key(tool: str, args: dict[str, Any]) -> str:
    """One string per (tool, arguments) pair, whitespace around string values ignored."""
    normalized = {
        key: value.strip() if isinstance(value, str) else value for key, value in args.items()
    }
    return tool + "\x00" + json.dumps(normalized, sort_keys=True, ensure_ascii=False, default=str)


def step_from_dict(data: Any, where: str = "step") -> Step:
    """The step record `to_dict` wrote, checked field by field; a tool step must have run.

    Raises:
        ValueError: Not a step of a known kind, or a field is wrong (named with `where`).
    """
    if not isinstance(data, dict) or data.get("kind") not in _KINDS:
        kind = data.get("kind") if isinstance(data, dict) else type(data).__name__
        raise ValueError(f"{where} is of unknown kind {kind!r}; the kinds are {sorted(_KINDS)}.")
    step: Step = _KINDS[data["kind"]].from_dict(data, f"{where} ({data['kind']})")
    if isinstance(step, ToolStep) and step.status == "pending":
        raise ValueError(f"{where} (tool_step) has no observation: a stored tool step ran.")
    return step
