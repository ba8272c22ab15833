"""Checkpoints in one SQLite file: every step written when it is recorded, runs resumable by id.

`SQLiteStore("runs.db")`, given to the agent as `checkpoint=SQLiteStore("runs.db")`, keeps one
row per run and one per step (it is a `state.RunStore`). The loop's memory writes each step as it
records it, before the next model call, so a process that dies after eight steps leaves eight
steps behind; `{"resume": run_id}` continues from there without running their tools again. The
agent never opens this module itself. Each write opens its own short connection (WAL
journal, a 30 s busy timeout), so runs in threads or an `abatch` can share one file. The file
carries its format version: a file of format 3 (before the records kept a tool's artifact and
what a reply carried) or 4 (before a state kept the question's message) is read, those fields at
their defaults, and marked format 5; a file of another format is refused with a clear message,
never misread. A file from before runs were marked `answered` gets the column, its runs that
ended with a final answer marked. Standard library only.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from custom_react.pausing.state import READS_VERSIONS, STATE_VERSION
from custom_react.pausing.store import Claim, ResumeRefused, taken_step

if TYPE_CHECKING:
    from custom_react.events import AgentResult

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY, question TEXT NOT NULL, created REAL NOT NULL,
    stop_reason TEXT, output TEXT, state TEXT NOT NULL, answered INTEGER
);
CREATE TABLE IF NOT EXISTS steps (
    run_id TEXT NOT NULL, position INTEGER NOT NULL, step TEXT NOT NULL,
    PRIMARY KEY (run_id, position)
);
CREATE TABLE IF NOT EXISTS claims (
    run_id TEXT NOT NULL, call_id TEXT NOT NULL, claimed REAL NOT NULL, position INTEGER,
    PRIMARY KEY (run_id, call_id)
);
"""
_TABLES = {"meta", "runs", "steps", "claims"}


class CheckpointError(RuntimeError):
    """The checkpoint file cannot be used: not a store of runs, or another format version."""


class UnknownRun(CheckpointError, LookupError):
    """No run has this id in the store."""


@dataclass(frozen=True)
class RunInfo:
    """One line of `custom-react runs`: a stored run and how far it got."""

    run_id: str
    question: str
    steps: int
    stop_reason: str | None
    """None while the run has not ended (it is running, or its process died)."""
    created: float


def _add_answered(db: sqlite3.Connection) -> None:
    """Give a file from before the `answered` column the column; its final answers marked."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(runs)")}
    if "answered" not in columns:
        db.execute("ALTER TABLE runs ADD COLUMN answered INTEGER")
        db.execute("UPDATE runs SET answered = (stop_reason = 'final_answer')")


class SQLiteStore:
    """A checkpoint store in one SQLite file (created on first use)."""

    def __init__(self, path: str | Path) -> None:
        """Open (or create) the store at `path`.

        Raises:
            CheckpointError: The file is not an SQLite database, is another program's database,
                or was written with another checkpoint format version (each named with the path).
        """
        self.path = Path(path)
        try:
            with self._connect() as db:
                tables = {
                    row[0]
                    for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                }
                if (tables and not tables <= _TABLES | {"sqlite_sequence"}) or (
                    tables and "meta" not in tables
                ):
                    raise CheckpointError(
                        f"{self.path} is another program's database (tables: "
                        f"{', '.join(sorted(tables))}), not a custom-react checkpoint store. "
                        "Give checkpoint=SQLiteStore(...) a new file."
                    )
                db.execute("PRAGMA journal_mode=WAL")  # kept by the file: set once, not per write
                db.executescript(_SCHEMA)
                _add_answered(db)
                db.execute("INSERT OR IGNORE INTO meta VALUES ('format', ?)", (str(STATE_VERSION),))
                (found,) = db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
                if found in {str(version) for version in READS_VERSIONS}:  # format 5 from now on
                    db.execute(
                        "UPDATE meta SET value = ? WHERE key = 'format'", (str(STATE_VERSION),)
                    )
                    found = str(STATE_VERSION)
        except sqlite3.DatabaseError as error:
            raise CheckpointError(
                f"{self.path} is not a custom-react checkpoint store ({error}): give "
                "checkpoint=SQLiteStore(...) a new file, or the store a run was saved in."
            ) from None
        if found != str(STATE_VERSION):
            raise CheckpointError(
                f"{self.path} holds checkpoints in format {found}; this version of custom-react "
                f"reads format {STATE_VERSION}. Use the version that wrote it, or a new file."
            )

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=30.0)
        try:
            with db:  # one transaction: committed on success, rolled back on error
                yield db
        finally:
            db.close()

    def begin(self, run_id: str, state: dict[str, Any]) -> None:
        """Register a run and the steps it already has; a known run is left as it is."""
        with self._connect() as db:
            db.execute(
                "INSERT OR IGNORE INTO runs (run_id, question, created, state) VALUES (?, ?, ?, ?)",
                (run_id, state["question"], time.time(), json.dumps(state, ensure_ascii=False)),
            )
            rows = [
                (run_id, i, json.dumps(s, ensure_ascii=False)) for i, s in enumerate(state["steps"])
            ]
            db.executemany("INSERT OR IGNORE INTO steps VALUES (?, ?, ?)", rows)

    def add_step(self, run_id: str, index: int, step: dict[str, Any]) -> None:
        """Write the run's step number `index` (0-based); a tool step marks its call's claim done.

        The step and the claim are one transaction: a call's result is recorded exactly when
        its claim is marked done.

        Raises:
            ResumeRefused: The run already has a step `index` (another process wrote it).
        """
        try:
            with self._connect() as db:
                db.execute(
                    "INSERT INTO steps VALUES (?, ?, ?)",
                    (run_id, index, json.dumps(step, ensure_ascii=False)),
                )
                if step.get("kind") == "tool_step":
                    db.execute(
                        "UPDATE claims SET position = ? WHERE run_id = ? AND call_id = ?",
                        (index, run_id, step.get("tool_call_id")),
                    )
        except sqlite3.IntegrityError:
            raise ResumeRefused(taken_step(run_id, index)) from None

    def claim(self, run_id: str, call_id: str) -> Claim:
        """Claim the run's waiting call before it runs: "claimed", "taken" or its recorded step.

        One transaction: of two processes that claim the same call at once, one gets "claimed".
        """
        with self._connect() as db:
            added = db.execute(
                "INSERT OR IGNORE INTO claims VALUES (?, ?, ?, NULL)",
                (run_id, call_id, time.time()),
            ).rowcount
            if added:
                return "claimed"
            row = db.execute(
                "SELECT s.step FROM claims c LEFT JOIN steps s "
                "ON s.run_id = c.run_id AND s.position = c.position "
                "WHERE c.run_id = ? AND c.call_id = ?",
                (run_id, call_id),
            ).fetchone()
        if row is None or row[0] is None:
            return "taken"
        recorded: dict[str, Any] = json.loads(row[0])
        return recorded

    def finish(self, run_id: str, result: AgentResult) -> None:
        """Write how the run ended; a paused run keeps its state (with the pending call)."""
        with self._connect() as db:
            db.execute(
                "UPDATE runs SET stop_reason = ?, output = ?, answered = ?, "
                "state = COALESCE(?, json_set(state, '$.pending', NULL)) "
                "WHERE run_id = ?",
                (
                    result.stop_reason,
                    result.output,
                    result.answered,
                    json.dumps(result.state, ensure_ascii=False) if result.state else None,
                    run_id,
                ),
            )

    def load(self, run_id: str) -> dict[str, Any]:
        """The run's state with every step written so far.

        Raises:
            UnknownRun: No run has this id (the message lists the latest ones).
        """
        with self._connect() as db:
            row = db.execute("SELECT state FROM runs WHERE run_id = ?", (run_id,)).fetchone()
            steps = db.execute(
                "SELECT step FROM steps WHERE run_id = ? ORDER BY position", (run_id,)
            ).fetchall()
        if row is None:
            known = ", ".join(run.run_id for run in self.runs()[:5]) or "none"
            raise UnknownRun(f"No run {run_id!r} in {self.path} (latest: {known}).")
        state: dict[str, Any] = json.loads(row[0])
        return {**state, "steps": [json.loads(step) for (step,) in steps]}

    def history(self, thread_id: str) -> list[tuple[str, str]]:
        """The (question, answer) of each run of the thread that ended with an answer, in order.

        An answer generated at a limit (`early_stopping_method="generate"`) is one too.
        """
        with self._connect() as db:
            rows = db.execute(
                "SELECT question, output FROM runs WHERE json_extract(state, '$.thread_id') = ? "
                "AND answered ORDER BY created, rowid",
                (thread_id,),
            ).fetchall()
        return [(question, output) for question, output in rows]

    def runs(self) -> list[RunInfo]:
        """Every stored run, the newest first."""
        with self._connect() as db:
            rows = db.execute(
                "SELECT r.run_id, r.question, COUNT(s.position), r.stop_reason, r.created "
                "FROM runs r LEFT JOIN steps s ON s.run_id = r.run_id "
                "GROUP BY r.run_id ORDER BY r.created DESC"
            ).fetchall()
        return [RunInfo(*row) for row in rows]
