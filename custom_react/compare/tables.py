"""The comparison report as tables: aligned plain text for a terminal, and Markdown for a file.

`render_table` shows one row per run, then the per-agent totals and any skipped agents;
`to_markdown` puts the totals first, then every run, the skipped agents, what each agent is and
where their results differ (`custom_react.compare.notes`). Both are
pure functions of a `ComparisonReport` that return a string: printing or saving it is the
caller's job; `save_comparison` writes the JSON, Markdown and side-by-side transcript files. JSON
and the side-by-side transcripts themselves are in `custom_react.compare.report`.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from custom_react.compare.notes import AGENT_NOTES, differences
from custom_react.compare.report import ComparisonReport, side_by_side, to_json
from custom_react.compare.runners.fingerprint import shown_fingerprints

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
        rows.append(
            [
                run.question_id,
                run.agent,
                _mark(run.correct),
                str(run.iterations),
                str(run.model_calls),
                f"{run.prompt_tokens}/{run.completion_tokens}",
                str(run.parse_failures),
                f"{run.wall_time:.1f}s",
                textwrap.shorten(answer, answer_chars),
            ]
        )
    return rows


def _total_rows(report: ComparisonReport) -> list[list[str]]:
    rows = []
    for agent, total in report.totals().items():
        rows.append(
            [
                agent,
                f"{total['solved']}/{total['runs']}",
                str(total["iterations"]),
                str(total["model_calls"]),
                f"{total['prompt_tokens']}/{total['completion_tokens']}",
                str(total["parse_failures"]),
                str(total["errors"]),
                f"{total['wall_time']:.1f}s",
            ]
        )
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
    if explained := differences(report):
        lines += ["", "Where they differ", *(f"- {line}" for line in explained)]
    return "\n".join(lines)


def to_markdown(report: ComparisonReport, *, answer_chars: int = 60) -> str:
    """The report as Markdown: totals first, then every run, skipped agents and settings."""
    lines = ["# Agent comparison", ""]
    if report.model:
        lines += [f"Model: {report.model}", ""]
    settings = ", ".join(
        f"{key}={shown_fingerprints(value) if isinstance(value, dict) else value}"
        for key, value in report.settings.items()
    )
    lines += [f"Settings: {settings}", ""] if settings else []
    lines += ["## Totals", "", *_markdown_table(_TOTAL_HEADERS, _total_rows(report)), ""]
    lines += ["## Runs", "", *_markdown_table(_RUN_HEADERS, _run_rows(report, answer_chars))]
    if report.skipped:
        lines += ["", "## Skipped", "", *(f"- {line}" for line in _skipped_lines(report))]
    notes = [
        f"- **{agent}**: {AGENT_NOTES[agent]}" for agent in report.agents if agent in AGENT_NOTES
    ]
    lines += ["", "## The agents", "", *notes] if notes else []
    if explained := differences(report):
        lines += ["", "## Where they differ", "", *(f"- {line}" for line in explained)]
    return "\n".join(lines) + "\n"


def save_comparison(report: ComparisonReport, out: Path, question_ids: list[str]) -> None:
    """Write the report to ``out`` as JSON, Markdown and our-vs-legacy transcripts.

    ``transcripts.txt`` holds one side-by-side block per question when both ``custom`` and
    ``legacy`` ran, and is empty otherwise.
    """
    out.mkdir(parents=True, exist_ok=True)
    (out / "compare.json").write_text(to_json(report), encoding="utf-8")
    (out / "compare.md").write_text(to_markdown(report), encoding="utf-8")
    both = {"custom", "legacy"} <= set(report.agents)
    pairs = [side_by_side(report, question_id) for question_id in question_ids] if both else []
    (out / "transcripts.txt").write_text("\n\n".join(pairs), encoding="utf-8")
