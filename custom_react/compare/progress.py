"""The progress bar of a long comparison: runs done of all, failures, and the rate.

`ProgressBar` is a `custom_react.compare.grid.Watcher` drawn with rich on a console it is given
(stderr by default): runs done out of the grid's total (those found in the results file count as
done from the start), failures (crashes and runs over the time limit), runs solved, runs a minute
(counting only this session's runs) and the time left at that rate. On a console that is not a
terminal (a CI log) rich draws it once, when it stops. Drawing is all it does.
"""

from __future__ import annotations

import time
from types import TracebackType
from typing import Self

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
)

from custom_react.compare.report import RunRecord


class ProgressBar:
    """Runs done / total, failures, solved and runs per minute, as a rich progress bar."""

    def __init__(self, console: Console | None = None, description: str = "runs") -> None:
        """Draw on `console` (default: a console on stderr), labelled `description`."""
        self.description = description
        self.failures = 0
        self.solved = 0
        self.new = 0
        self._started = time.monotonic()
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[failures]} failed, {task.fields[solved]} solved"),
            TextColumn("{task.fields[rate]}/min"),
            TimeRemainingColumn(),
            console=console or Console(stderr=True),
        )
        self._task: TaskID | None = None

    def __enter__(self) -> Self:
        """Start drawing."""
        self._progress.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Stop drawing (leaving the last state on the console)."""
        self._progress.stop()

    def started(self, total: int, done: int) -> None:
        """The grid has `total` runs, `done` of them already in the results file."""
        self._started = time.monotonic()
        self._task = self._progress.add_task(
            self.description, total=total, completed=done, failures=0, solved=0, rate="-"
        )

    def finished(self, record: RunRecord) -> None:
        """Count one finished run."""
        self.new += 1
        self.failures += record.error is not None
        self.solved += record.correct is True
        if self._task is None:
            return
        self._progress.update(
            self._task,
            advance=1,
            failures=self.failures,
            solved=self.solved,
            rate=f"{self.rate():.1f}",
        )

    def rate(self) -> float:
        """Runs finished a minute in this session."""
        elapsed = max(time.monotonic() - self._started, 1e-9)
        return 60.0 * self.new / elapsed
