"""A run as JSON, and reading it back to resume it: from a paused run's state, or a store by id.

`run_state` writes a run (question, earlier conversation, every step record, the waiting call)
as plain JSON data with `STATE_VERSION`; `read_state` reads it back as a `RunStart`.
`RunStore` is what the agent's `checkpoint=` takes; `MemoryStore` is one in memory
(`checkpoints.SQLiteStore` is one in a file). A store also keeps threads: `history(thread_id)` is
what a new question of the thread sees of the earlier ones. `resume_run` reads the agent's
`{"resume": state_or_run_id, "decision": ...}` input: the `state` a paused run returned, or a run
id looked up in the store. A resumed run keeps its steps: their tools never run again, and the
model is asked for the next step from where it stopped. A new question never comes here
(`memory.open_run`).
"""

from __future__ import annotations

import json
import threading
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

    def history(self, thread_id: str) -> list[tuple[str, str]]:
        """The (question, answer) of every run of the thread that ended with its answer, in order."""


class MemoryStore:
    """A `RunStore` in this process's memory: threads and resumable runs for as long as it lives.

    What `SQLiteStore` keeps in a file, kept in dicts (each state copied as JSON, as a file would):
    for a chat session, or tests, with nothing written to disk.
    """

    def __init__(self) -> None:
        self._runs: dict[str, dict[str, Any]] = {}
        self._steps: dict[str, dict[int, dict[str, Any]]] = {}
        self._lock = threading.Lock()

    def begin(self, run_id: str, state: dict[str, Any]) -> None:
        """Register a run (and the steps it already has); a known run is left as it is."""
        with self._lock:
            if run_id not in self._runs:
                self._runs[run_id] = {"state": _copy(state), "stop_reason": None, "output": None}
                self._steps[run_id] = dict(enumerate(_copy(state["steps"])))

    def add_step(self, run_id: str, index: int, step: dict[str, Any]) -> None:
        """Write the run's step number `index`."""
        with self._lock:
            self._steps[run_id][index] = _copy(step)

    def finish(self, run_id: str, result: AgentResult) -> None:
        """Write how the run ended (and its state, when it paused)."""
        with self._lock:
            run = self._runs[run_id]
            run["state"] = (
                _copy(result.state) if result.state else {**run["state"], "pending": None}
            )
            run["stop_reason"] = result.stop_reason
            run["output"] = result.output

    def load(self, run_id: str) -> dict[str, Any]:
        """The run's state with every step written so far.

        Raises:
            ValueError: No run has this id.
        """
        with self._lock:
            if run_id not in self._runs:
                raise ValueError(f"No run {run_id!r} in this memory store.")
            steps = [self._steps[run_id][i] for i in sorted(self._steps[run_id])]
            state: dict[str, Any] = _copy({**self._runs[run_id]["state"], "steps": steps})
            return state

    def history(self, thread_id: str) -> list[tuple[str, str]]:
        """The (question, answer) of every run of the thread that ended with its answer, in order."""
        with self._lock:
            return [
                (run["state"]["question"], run["output"])
                for run in self._runs.values()
                if run["state"].get("thread_id") == thread_id
                and run["stop_reason"] == "final_answer"
            ]


def _copy(data: Any) -> Any:
    return json.loads(json.dumps(data, ensure_ascii=False))


@dataclass(frozen=True)
class RunStart:
    """Where a run begins: its question, history and steps so far, and a pending call, if any."""

    question: str
    chat_history: list[BaseMessage]
    run_id: str
    steps: list[Step] = field(default_factory=list)
    pending: ActionRequest | None = None
    decision: Decision | None = None
    thread_id: str | None = None

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
    thread_id: str | None = None,
) -> dict[str, Any]:
    """The run as JSON data: enough to resume it in another process, later."""
    return {
        "version": STATE_VERSION,
        "run_id": run_id,
        "thread_id": thread_id,
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
        thread_id=state.get("thread_id"),
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
