"""Where runs are kept: the `RunStore` protocol the agent's `checkpoint=` takes, and `MemoryStore`.

A store keeps each run's state and its steps as they are recorded (`checkpoints.SQLiteStore` keeps
them in a file, `MemoryStore` in this process), and threads: `history(thread_id)` is what a new
question of the thread sees of the earlier ones. A store also makes a resume exactly-once: the
waiting call is `claim`ed before it runs, and the step that records its result marks the claim
done in the same write. So a second resume of the same pause is refused (`ResumeRefused`), a
resume after a crash reuses the recorded Observation, and a stale run cannot overwrite newer
steps (`add_step` refuses a position that is taken).
"""

from __future__ import annotations

import json
import threading
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

if TYPE_CHECKING:
    from custom_react.events import AgentResult

TOOL_STEP = "tool_step"
"""The kind of a stored tool step (`events.ToolStep.type`): its call's claim is marked done."""

Claim = Literal["claimed", "taken"] | dict[str, Any]
"""What `RunStore.claim` found: "claimed" (run the call now), "taken" (another resume holds it
and has not recorded its result) or the step dict that recorded the call's result."""


class ResumeRefused(ValueError):
    """A resume that would run a call twice, or other arguments than the person saw; nothing ran."""


@runtime_checkable
class RunStore(Protocol):
    """Where a run's steps are written as they are recorded (`checkpoints.SQLiteStore`)."""

    def begin(self, run_id: str, state: dict[str, Any]) -> None:
        """Register a run (and the steps it already has); a known run is left as it is."""

    def add_step(self, run_id: str, index: int, step: dict[str, Any]) -> None:
        """Write the run's step number `index`; a tool step also marks its call's claim done.

        Raises an error naming the run when the run already has a step `index` (another
        process wrote it): a stale run never overwrites newer steps.
        """

    def claim(self, run_id: str, call_id: str) -> Claim:
        """Claim the run's waiting call `call_id` before it runs, atomically (see `Claim`)."""

    def finish(self, run_id: str, result: AgentResult) -> None:
        """Write how the run ended (and its state, when it paused)."""

    def load(self, run_id: str) -> dict[str, Any]:
        """The run's state, as `run_state` wrote it, with every step written so far."""

    def history(self, thread_id: str) -> list[tuple[str, str]]:
        """The (question, answer) of every run of the thread that ended with an answer, in order.

        An answer generated at a limit (`early_stopping_method="generate"`) is one too.
        """


class MemoryStore:
    """A `RunStore` in this process's memory: threads and resumable runs for as long as it lives.

    What `SQLiteStore` keeps in a file, kept in dicts (each state copied as JSON, as a file would):
    for a chat session, or tests, with nothing written to disk.
    """

    def __init__(self) -> None:
        self._runs: dict[str, dict[str, Any]] = {}
        self._steps: dict[str, dict[int, dict[str, Any]]] = {}
        self._claims: dict[tuple[str, str], int | None] = {}
        self._lock = threading.Lock()

    def begin(self, run_id: str, state: dict[str, Any]) -> None:
        """Register a run (and the steps it already has); a known run is left as it is."""
        with self._lock:
            if run_id not in self._runs:
                self._runs[run_id] = {
                    "state": _copy(state),
                    "stop_reason": None,
                    "output": None,
                    "answered": False,
                }
                self._steps[run_id] = dict(enumerate(_copy(state["steps"])))

    def add_step(self, run_id: str, index: int, step: dict[str, Any]) -> None:
        """Write the run's step number `index`; a tool step marks its call's claim done.

        Raises:
            ResumeRefused: The run already has a step `index`.
        """
        with self._lock:
            if index in self._steps[run_id]:
                raise ResumeRefused(taken_step(run_id, index))
            self._steps[run_id][index] = _copy(step)
            call = (run_id, step.get("tool_call_id", ""))
            if step.get("kind") == TOOL_STEP and call in self._claims:
                self._claims[call] = index

    def claim(self, run_id: str, call_id: str) -> Claim:
        """Claim the run's waiting call `call_id` before it runs (see `Claim`)."""
        with self._lock:
            if (run_id, call_id) not in self._claims:
                self._claims[run_id, call_id] = None
                return "claimed"
            index = self._claims[run_id, call_id]
            return "taken" if index is None else _copy(self._steps[run_id][index])

    def finish(self, run_id: str, result: AgentResult) -> None:
        """Write how the run ended (and its state, when it paused)."""
        with self._lock:
            run = self._runs[run_id]
            run["state"] = (
                _copy(result.state) if result.state else {**run["state"], "pending": None}
            )
            run["stop_reason"] = result.stop_reason
            run["output"] = result.output
            run["answered"] = result.answered

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
        """The (question, answer) of every run of the thread that ended with an answer, in order.

        An answer generated at a limit (`early_stopping_method="generate"`) is one too.
        """
        with self._lock:
            return [
                (run["state"]["question"], run["output"])
                for run in self._runs.values()
                if run["state"].get("thread_id") == thread_id and run["answered"]
            ]


def taken_step(run_id: str, index: int) -> str:
    """Why a step cannot be written: another process wrote the run's step `index` first."""
    return (
        f"Run {run_id} already has step {index + 1} in the store: another process resumed it "
        "meanwhile. Nothing was overwritten; resume it by id to continue from the stored steps."
    )


def claimed_elsewhere(run_id: str, tool: str, call_id: str) -> str:
    """Why a resume may not run the waiting call: another resume claimed it first."""
    return (
        f"Run {run_id} was already resumed: its call of {tool} ({call_id}) was claimed by "
        "another resume, which has not recorded a result. It is not run again: if that process "
        "died, the call may have run. Check, then resume with {'reject': '<what you found>'} "
        "to go on without it."
    )


def _copy(data: Any) -> Any:
    return json.loads(json.dumps(data, ensure_ascii=False))
