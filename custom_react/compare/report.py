"""What the comparison harness records, and the report as JSON and as transcripts side by side.

`RunRecord` is one agent on one question; `ComparisonReport` holds every record, the agents that
were skipped (with the reason) and the settings, and sums them per agent (`totals`). `to_json`
renders all of it for machines, and `side_by_side` two agents' transcripts of one question in
columns; both are pure functions returning strings. The tables for a terminal and for Markdown are
in `custom_react.compare.tables`. Running agents is `custom_react.compare.harness`'s job; printing
is the caller's (CLI, demos, bench).
"""

from __future__ import annotations

import json
import textwrap
from dataclasses import asdict, dataclass, field
from itertools import zip_longest
from typing import Any


@dataclass
class RunRecord:
    """One agent on one question."""

    agent: str
    question_id: str
    question: str
    answer: str = ""
    correct: bool | None = None
    """Whether the answer holds the expected one; None when the question has no expectation."""
    iterations: int = 0
    model_calls: int = 0
    tool_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    parse_failures: int = 0
    wall_time: float = 0.0
    stop_reason: str = ""
    error: str | None = None
    """`Type: message` when the run crashed; the run then counts as not solved."""
    transcript: list[str] = field(default_factory=list)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunRecord:
        """The record a report or results line holds; keys it does not have are left out."""
        return cls(**{key: value for key, value in data.items() if key in _FIELDS})


_FIELDS = set(RunRecord.__dataclass_fields__)

_SUMMED = (
    "iterations",
    "model_calls",
    "tool_calls",
    "prompt_tokens",
    "completion_tokens",
    "parse_failures",
)
"""The counts `ComparisonReport.totals` adds up per agent."""


@dataclass
class ComparisonReport:
    """Every run, plus the agents that were skipped and why."""

    model: str
    agents: list[str]
    records: list[RunRecord]
    skipped: dict[str, str] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)

    def runs_of(self, agent: str) -> list[RunRecord]:
        """The records of one agent, in question order."""
        return [record for record in self.records if record.agent == agent]

    def totals(self) -> dict[str, dict[str, Any]]:
        """Per agent: questions solved, crashes, and summed counts and time."""
        summary: dict[str, dict[str, Any]] = {}
        for agent in self.agents:
            runs = self.runs_of(agent)
            summary[agent] = {
                "runs": len(runs),
                "solved": sum(run.correct is True for run in runs),
                "errors": sum(run.error is not None for run in runs),
                **{key: sum(getattr(run, key) for run in runs) for key in _SUMMED},
                "wall_time": round(sum(run.wall_time for run in runs), 2),
            }
        return summary


def to_json(report: ComparisonReport) -> str:
    """Every record (with transcripts), the totals, skipped agents and settings, as JSON."""
    data = asdict(report)
    data["totals"] = report.totals()
    return json.dumps(data, ensure_ascii=False, indent=2)


def side_by_side(
    report: ComparisonReport,
    question_id: str,
    left: str = "custom",
    right: str = "legacy",
    *,
    width: int = 60,
) -> str:
    """Two agents' transcripts of one question in columns of `width` characters.

    Raises:
        KeyError: Either agent has no run for that question.
    """
    columns = []
    for agent in (left, right):
        run = next((r for r in report.runs_of(agent) if r.question_id == question_id), None)
        if run is None:
            raise KeyError(f"no run of {agent!r} on question {question_id!r}")
        lines = [f"== {agent} ==", *(run.transcript or [f"(crashed: {run.error})"])]
        rows = [row for line in lines for row in line.splitlines() or [""]]
        columns.append([part for row in rows for part in textwrap.wrap(row, width) or [""]])
    question = next(r.question for r in report.records if r.question_id == question_id)
    rows = [f"{a:<{width}} | {b}".rstrip() for a, b in zip_longest(*columns, fillvalue="")]
    return "\n".join([f"Question ({question_id}): {question}", *rows])
