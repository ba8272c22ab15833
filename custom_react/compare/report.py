"""What the comparison harness records, and the report rendered as a text table, Markdown and JSON.

`RunRecord` is one agent on one question; `ComparisonReport` holds every record, the agents that were
skipped (with the reason) and the settings, and sums them per agent (`totals`). The renderers are
pure functions returning strings: `render_table` for a terminal, `to_markdown` for a saved report,
`to_json` for machines, and `side_by_side` for two agents' transcripts of one question in columns.
Running agents is `custom_react.compare`'s job; printing is the caller's (CLI, demos, bench).
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


_SUMMED = (
    "iterations", "model_calls", "tool_calls", "prompt_tokens", "completion_tokens", "parse_failures",
)  # fmt: skip


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


_RUN_HEADERS = [
    "question",
    "agent",
    "correct",
    "iter",
    "calls",
    "tokens in/out",
    "parse",
    "time",
    "answer",
]
_TOTAL_HEADERS = ["agent", "solved", "iter", "calls", "tokens in/out", "parse", "errors", "time"]


def _mark(correct: bool | None) -> str:
    return {True: "yes", False: "no", None: "-"}[correct]


def _run_rows(report: ComparisonReport, answer_chars: int) -> list[list[str]]:
    rows = []
    for run in report.records:
        answer = f"CRASH {run.error}" if run.error else " ".join(run.answer.split())
        if run.stop_reason not in ("final_answer", "error"):
            answer = f"[{run.stop_reason}] {answer}"
        rows.append([
            run.question_id, run.agent, _mark(run.correct), str(run.iterations),
            str(run.model_calls), f"{run.prompt_tokens}/{run.completion_tokens}",
            str(run.parse_failures), f"{run.wall_time:.1f}s", textwrap.shorten(answer, answer_chars),
        ])  # fmt: skip
    return rows


def _total_rows(report: ComparisonReport) -> list[list[str]]:
    rows = []
    for agent, total in report.totals().items():
        rows.append([
            agent, f"{total['solved']}/{total['runs']}", str(total["iterations"]),
            str(total["model_calls"]), f"{total['prompt_tokens']}/{total['completion_tokens']}",
            str(total["parse_failures"]), str(total["errors"]), f"{total['wall_time']:.1f}s",
        ])  # fmt: skip
    return rows


def _text_table(headers: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in [headers, *rows]) for i in range(len(headers))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
        for row in [headers, *rows]
    ]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return [line.rstrip() for line in lines]


def _markdown_table(headers: list[str], rows: list[list[str]]) -> list[str]:
    def line(cells: list[str]) -> str:
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"

    return [line(headers), line(["---"] * len(headers)), *(line(row) for row in rows)]


def _skipped_lines(report: ComparisonReport) -> list[str]:
    return [f"{agent} skipped: {reason}" for agent, reason in report.skipped.items()]


def render_table(report: ComparisonReport, *, answer_chars: int = 40) -> str:
    """The per-run table, then the per-agent totals and any skipped agents, as plain text."""
    head = f"Model: {report.model}" if report.model else "Comparison"
    lines = [head, "", *_text_table(_RUN_HEADERS, _run_rows(report, answer_chars)), ""]
    lines += ["Totals", *_text_table(_TOTAL_HEADERS, _total_rows(report))]
    if report.skipped:
        lines += ["", *_skipped_lines(report)]
    return "\n".join(lines)


def to_markdown(report: ComparisonReport, *, answer_chars: int = 60) -> str:
    """The report as Markdown: totals first, then every run, skipped agents and settings."""
    lines = ["# Agent comparison", ""]
    if report.model:
        lines += [f"Model: {report.model}", ""]
    settings = ", ".join(f"{key}={value}" for key, value in report.settings.items())
    lines += [f"Settings: {settings}", ""] if settings else []
    lines += ["## Totals", "", *_markdown_table(_TOTAL_HEADERS, _total_rows(report)), ""]
    lines += ["## Runs", "", *_markdown_table(_RUN_HEADERS, _run_rows(report, answer_chars))]
    if report.skipped:
        lines += ["", "## Skipped", "", *(f"- {line}" for line in _skipped_lines(report))]
    return "\n".join(lines) + "\n"


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
