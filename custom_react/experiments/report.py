"""An experiment's definition, its saved results, and its report as a Markdown table.

`Experiment` names the conditions (label -> runner factory, with a line saying what each one
changes) and the question file. The saved results are plain JSON (`experiment.json`): the
settings, the conditions, the questions, every run as the harness recorded it plus the
experiment's own counts (`custom_react.experiments.measures`). `summarize` and `render_report`
are pure functions of that JSON, so a report can be rebuilt, and checked, from the saved file.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from custom_react.compare.harness import RunnerFactory


@dataclass(frozen=True)
class Experiment:
    """One experiment: the same questions under each condition."""

    name: str
    """File stem of its results, e.g. "thought_ablation"."""
    title: str
    """The question it answers, as the report's heading."""
    questions: Path
    """A JSONL question file (`custom_react.compare.load_questions`; `fact` is also read)."""
    conditions: dict[str, RunnerFactory]
    """Condition label -> how to build its runner, in the order of the report."""
    descriptions: dict[str, str] = field(default_factory=dict)
    """Condition label -> one line saying what that condition changes."""
    max_iterations: int = 8
    """The step limit every condition gets (Plan-and-Execute: plan steps, and each step's)."""


def summarize(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Per condition: solved, runs, model calls (in all, per solved run), tokens, time and counts."""
    summary: dict[str, dict[str, Any]] = {}
    for condition in data["conditions"]:
        runs = [run for run in data["records"] if run["agent"] == condition["label"]]
        solved = sum(run["correct"] is True for run in runs)
        calls = sum(run["model_calls"] for run in runs)
        summary[condition["label"]] = {
            "runs": len(runs),
            "solved": solved,
            "model_calls": calls,
            "calls_per_solved": round(calls / solved, 1) if solved else None,
            "tokens": sum(run["prompt_tokens"] + run["completion_tokens"] for run in runs),
            "parse_failures": sum(run["parse_failures"] for run in runs),
            "repeated_actions": sum(run["repeated_actions"] for run in runs),
            "made_up_facts": sum(run["made_up_fact"] for run in runs),
            "wall_time": round(sum(run["wall_time"] for run in runs)),
            "stop_reasons": dict(sorted(Counter(run["stop_reason"] for run in runs).items())),
        }
    return summary


_COLUMNS = (
    ("solved", "solved"),
    ("model calls", "model_calls"),
    ("calls per solved", "calls_per_solved"),
    ("tokens", "tokens"),
    ("format errors", "parse_failures"),
    ("repeated actions", "repeated_actions"),
    ("made-up facts", "made_up_facts"),
    ("time, s", "wall_time"),
)


def render_report(data: dict[str, Any]) -> str:
    """The report: what was run, one row per condition, one row per question, how runs ended."""
    summary = summarize(data)
    labels = [condition["label"] for condition in data["conditions"]]
    lines = [
        f"# {data['title']}",
        "",
        f"Model: {data['model']}. Questions: `{data['questions_file']}` ({len(data['questions'])}). "
        f"Step limit: {data['max_iterations']}. Reproduce: `{data['command']}`.",
        "",
        *(f"- **{c['label']}**: {c['description']}" for c in data["conditions"]),
        "",
        "| condition | " + " | ".join(name for name, _ in _COLUMNS) + " |",
        "|---|" + "---:|" * len(_COLUMNS),
    ]
    for label in labels:
        row = summary[label]
        cells = [f"{row['solved']}/{row['runs']}"]
        cells += ["–" if row[key] is None else str(row[key]) for _, key in _COLUMNS[1:]]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines += ["", "Each question (✓ solved, ✗ not; model calls in brackets):", ""]
    lines += ["| question | " + " | ".join(labels) + " |", "|---|" + "---|" * len(labels)]
    for question in data["questions"]:
        runs = {r["agent"]: r for r in data["records"] if r["question_id"] == question["id"]}
        cells = [_cell(runs.get(label)) for label in labels]
        lines.append(f"| {question['id']} | " + " | ".join(cells) + " |")
    lines += ["", "How the runs ended:", ""]
    for label in labels:
        reasons = ", ".join(f"{k} {v}" for k, v in summary[label]["stop_reasons"].items())
        lines.append(f"- {label}: {reasons}")
    return "\n".join(lines) + "\n"


def _cell(run: dict[str, Any] | None) -> str:
    """One run in the per-question table."""
    if run is None:
        return "–"
    mark = "✓" if run["correct"] else "✗"
    return f"{mark} ({run['model_calls']})"


def load_report(path: str | Path) -> dict[str, Any]:
    """Read a saved `experiment.json`."""
    data: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
    return data
