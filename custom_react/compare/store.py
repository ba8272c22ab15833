"""The results file of a comparison: one JSON line per finished run, so a rerun resumes.

Each line holds one run's key (case, agent, model, and the fingerprint of the prompt that agent
read) and its `RunRecord`.
`ResultsStore.append` writes the line and flushes it to disk before returning, so a crash, a
Ctrl-C or a killed machine loses only the runs still in flight; `done` tells a rerun which keys
it may skip. A line cut short by a crash mid-write is ignored when the file is read (and the run
it stood for is run again). A key written twice (two runs that raced) keeps its last line.
Running the runs is `custom_react.compare.grid`'s job; nothing here prints.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from custom_react.compare.report import RunRecord


@dataclass(frozen=True)
class RunKey:
    """What makes two runs the same run: the case, the agent, the model and the prompt."""

    case: str
    """The case's (question's) id."""
    agent: str
    """The agent's name, e.g. "custom"."""
    model: str
    """The model's name as the run saw it."""
    prompt_fingerprint: str = ""
    """What the agent's model reads first, in the case's language (`agent_fingerprint` in
    `custom_react.compare.runners.fingerprint`): a change to what it reads is a new run."""


class ResultsStore:
    """An append-only JSONL file of finished runs, read once when opened; thread-safe appends."""

    def __init__(self, path: str | Path | None) -> None:
        """Open (or plan to create) the file at `path` and read the runs already in it.

        With `path` None the results are kept in memory only (a run that need not resume).
        """
        self.path = Path(path) if path is not None else None
        self._lock = threading.Lock()
        self._records: dict[RunKey, RunRecord] = {}
        text = self.path.read_text(encoding="utf-8") if self.path and self.path.is_file() else ""
        for line in text.splitlines():
            if loaded := _read_line(line):
                self._records[loaded[0]] = loaded[1]
        self._torn = bool(text) and not text.endswith("\n")  # the next line must start afresh

    def done(self, key: RunKey, *, rerun_errors: bool = False) -> bool:
        """Whether `key` has a result (with `rerun_errors`, a crashed run does not count)."""
        record = self._records.get(key)
        return record is not None and not (rerun_errors and record.error is not None)

    def append(self, key: RunKey, record: RunRecord) -> None:
        """Write one finished run as a line and flush it to disk before returning."""
        line = json.dumps({"key": asdict(key), "record": asdict(record)}, ensure_ascii=False)
        with self._lock:
            if self.path is not None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                with self.path.open("a", encoding="utf-8") as file:
                    file.write(("\n" if self._torn else "") + line + "\n")
                    file.flush()
                    os.fsync(file.fileno())
                self._torn = False
            self._records[key] = record

    @classmethod
    def in_memory(cls) -> ResultsStore:
        """A store that keeps its results in memory only."""
        return cls(None)

    def get(self, key: RunKey) -> RunRecord | None:
        """The stored run of `key`, if any."""
        return self._records.get(key)

    def keys(self) -> list[RunKey]:
        """Every key with a result, in the order first written."""
        return list(self._records)

    def __len__(self) -> int:
        return len(self._records)


def _read_line(line: str) -> tuple[RunKey, RunRecord] | None:
    """One line as (key, record); None for a blank or torn line (a crash mid-write)."""
    try:
        data: dict[str, Any] = json.loads(line)
        key = RunKey(**data["key"])
        record = RunRecord.from_dict(data["record"])
    except (ValueError, TypeError, KeyError):
        return None
    return key, record
