"""A run as JSON, and reading it back to resume it: from a paused run's state, or a store by id.

`run_state` writes a run (question, earlier conversation, every step record, the waiting call)
as plain JSON data with `STATE_VERSION`; `read_state` reads it back as a `RunStart`.
`resume_run` reads the agent's `{"resume": state_or_run_id, "decision": ...}` input: the `state`
a paused run returned, or a run id looked up in a checkpoint store (`RunStore`, such as
`checkpoints.SQLiteStore`). A resumed run keeps its steps: their tools never run again, and the
model is asked for the next step from where it stopped. A new question never comes here
(`memory.open_run`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from langchain_core.messages import BaseMessage, messages_from_dict, messages_to_dict

from custom_react.events import (
    AnswerRejected,
    FinalAnswerEvent,
    ParseFailure,
    Step,
    ToolStep,
)
from custom_react.pausing.approval import Decision
from custom_react.toolbox import ActionRequest

if TYPE_CHECKING:
    from custom_react.memory import AgentResult

STATE_VERSION = 1
"""Bumped whenever the JSON shape of a run changes; older states are refused, not misread."""
_KINDS: dict[str, type[Any]] = {
    kind.type: kind for kind in (ToolStep, ParseFailure, AnswerRejected, FinalAnswerEvent)
}


@runtime_checkable
class RunStore(Protocol):
    """Where a run's steps are written as they are recorded (`checkpoints.SQLiteStore`)."""

    def begin(self, run_id: str, state: dict[str, Any]) -> None:
        """Register a run (and the steps it already has); a known run is left as it is."""

    def add_step(self, run_id: str, index: int, step: dict[str, Any]) -> None:
        """Write the run's step number `index`."""

    def finish(self, run_id: str, result: AgentResult) -> None:
        """Write how the run ended (and its state, when it paused)."""

    def load(self, run_id: str) -> dict[str, Any]:
        """The run's state, as `run_state` wrote it, with every step written so far."""


@dataclass(frozen=True)
class RunStart:
    """Where a run begins: its question, history and steps so far, and a pending call, if any."""

    question: str
    chat_history: list[BaseMessage]
    run_id: str
    steps: list[Step] = field(default_factory=list)
    pending: ActionRequest | None = None
    decision: Decision | None = None

    @property
    def iterations(self) -> int:
        """Model calls the run made before it stopped (the pending call's included)."""
        done = [step.iteration for step in self.steps]
        return max([*done, self.pending.iteration if self.pending else 0])


def step_to_dict(step: Step) -> dict[str, Any]:
    """One step record as JSON data, with its kind."""
    return {"kind": step.type, **{k: v for k, v in asdict(step).items() if k != "type"}}


def step_from_dict(data: dict[str, Any]) -> Step:
    """The step record `step_to_dict` wrote."""
    fields = {key: value for key, value in data.items() if key != "kind"}
    step: Step = _KINDS[data["kind"]](**fields)
    return step


def run_state(
    question: str,
    chat_history: Sequence[BaseMessage],
    steps: Sequence[Step],
    run_id: str,
    pending: ActionRequest | None = None,
) -> dict[str, Any]:
    """The run as JSON data: enough to resume it in another process, later."""
    return {
        "version": STATE_VERSION,
        "run_id": run_id,
        "question": question,
        "chat_history": messages_to_dict(list(chat_history)),
        "steps": [step_to_dict(step) for step in steps],
        "pending": asdict(pending) if pending else None,
    }


def read_state(state: dict[str, Any]) -> RunStart:
    """The run `run_state` wrote.

    Raises:
        ValueError: The state was written by another version of its format, or is not a state.
    """
    if not isinstance(state, dict) or "steps" not in state:
        raise ValueError("Not a run state: resume with the `state` a paused run returned.")
    if state.get("version") != STATE_VERSION:
        raise ValueError(
            f"This run state has format version {state.get('version')!r}, but this version of "
            f"custom-react reads version {STATE_VERSION}: finish the run with the version "
            "that paused it, or start it again."
        )
    pending = state.get("pending")
    return RunStart(
        question=state["question"],
        chat_history=messages_from_dict(state.get("chat_history") or []),
        steps=[step_from_dict(step) for step in state["steps"]],
        run_id=state["run_id"],
        pending=ActionRequest(**pending) if pending else None,
    )


def resume_run(agent_input: dict[str, Any], store: RunStore | None) -> RunStart:
    """Where a resumed run starts: its saved steps, and the person's decision on a waiting call.

    Raises:
        ValueError: A resume by id without a store to find it in, a run that already ended with
            its final answer, or a paused run resumed without a decision about its waiting call.
    """
    saved = agent_input["resume"]
    if isinstance(saved, str):
        if store is None:
            raise ValueError("Resuming a run by id needs the checkpoint store it was saved in.")
        saved = store.load(saved)
    start = read_state(saved)
    if start.steps and isinstance(start.steps[-1], FinalAnswerEvent):
        raise ValueError(f"Run {start.run_id} already ended with its final answer.")
    if start.pending is None:
        return start
    if agent_input.get("decision") is None:
        raise ValueError(
            f"The run waits for a decision about {start.pending.tool}: resume it with "
            "{'resume': ..., 'decision': {'approve': True} | {'edit': ...} | {'reject': ...}}."
        )
    return replace(start, decision=Decision.read(agent_input["decision"]))
