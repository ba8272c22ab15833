"""An experiment's chart: every run, step by step, as a row of coloured boxes (an SVG file).

The report's table gives the totals; the chart shows what a table cannot: where each run spent
its model calls. One row per run (grouped by question, a row per condition), one box per step in
order: a tool that ran, the same call again (answered from memory, or run again), a failed tool,
a format error, a plan, the answer, a limit. A ✓ or ✗ after the row says whether the run solved
its question. `run_steps` reads the kinds from a run's saved transcript (English or Chinese), so
the chart is drawn from `experiment.json` alone. Drawn with matplotlib (the `dev` extra); the SVG
is reproducible: no date in its metadata and fixed element ids, so an unchanged report draws the
same file byte for byte.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from custom_react.console.labels import REACT
from custom_react.plan.labels import PLAN
from custom_react.prompts import load_messages

KINDS = {
    "tool": ("a tool ran", "#4C72B0"),
    "memory": ("the same call again: answered from memory", "#DD8452"),
    "again": ("the same call again: run again", "#C44E52"),
    "failed": ("a tool failed, or was not run", "#8172B3"),
    "format": ("a format error", "#A0A0A0"),
    "plan": ("a plan (planner or replanner)", "#64B5CD"),
    "answer": ("an answer", "#55A868"),
    "limit": ("stopped by a limit (not a model call)", "#222222"),
}
"""Each kind of step: its legend text and colour, in the legend's order."""

_HEAD = re.compile(r"^(?P<head>[^:：\n]{1,40}?)\s*[:：]\s*(?P<text>.*)", re.S)
_LABELS = {
    **{words[key]: key for words in REACT.values() for key in words},
    **{words[key]: key for words in PLAN.values() for key in ("plan", "replan", "repaired")},
    **{words["response"]: "response" for words in PLAN.values()},
}
_STEP_RESULT = re.compile(
    "|".join(re.escape(words["step_result"]).replace(r"\{n\}", r"\d+") for words in PLAN.values())
)
"""A step's result in a Plan-and-Execute transcript ("Step 2 result"): no model call."""


def _prefix(template: str) -> str:
    """The fixed start of a message template, before its first placeholder."""
    return template.split("{", 1)[0]


# The fixed words of the messages the loop writes instead of a tool's result, in every language.
_MEMORY = tuple(_prefix(load_messages(lang)["repeated_action"]) for lang in REACT)
_FAILED = tuple(_prefix(load_messages(lang)["tool_failed"]) for lang in REACT)
_NOT_RUN = tuple(load_messages(lang)["not_run"] for lang in REACT)
_UNKNOWN = tuple(load_messages(lang)["unknown_tool"].split("}", 1)[1][:12] for lang in REACT)


def run_steps(transcript: Sequence[str]) -> list[str]:
    """The kind (a key of `KINDS`) of each step of a run, in order, from its transcript lines."""
    steps: list[str] = []
    seen: set[tuple[str, str]] = set()
    call = ("", "")  # the Action and Action Input being read
    last_result = None  # Plan-and-Execute: the last step's result
    for entry in transcript:
        match = _HEAD.match(entry)
        head, text = (match["head"], match["text"].strip()) if match else ("", entry)
        kind = _LABELS.get(re.split(r" \(|（", head)[0].strip(), "")
        if kind == "action":
            call = (text, "")
        elif kind == "action_input":
            call = (call[0], text)
        elif _STEP_RESULT.fullmatch(head):
            last_result = text
        elif step := _step(kind, head, text, call in seen, steps[-1:] == ["limit"], last_result):
            steps.append(step)
        if kind == "observation":
            seen.add(call)
    return steps or (["answer"] if any(line.strip() for line in transcript) else [])


_ONE_KIND = {
    "parse_failure": "format",
    "plan": "plan",
    "replan": "plan",
    "repaired": "plan",
    "limit": "limit",
}
"""The transcript labels that always mean one kind of step."""


def _step(
    kind: str, head: str, text: str, repeated: bool, after_limit: bool, last_result: str | None
) -> str | None:
    """The kind of step a transcript line records; None for a line that is no model call."""
    if kind == "observation":
        return _observed(head, text, repeated)
    if kind == "final_answer":  # after a limit: the fixed message, not the model's
        return None if after_limit else "answer"
    if kind == "response":  # the plan's answer: a replanner call, unless it is the last result
        return None if text == last_result else "answer"
    return _ONE_KIND.get(kind)


def _observed(head: str, text: str, repeated: bool) -> str:
    """The kind of the step an Observation ends."""
    if text.startswith(_MEMORY):
        return "memory"
    if text.startswith(_FAILED) or any(words in text for words in (*_UNKNOWN, *_NOT_RUN)):
        return "failed"
    if "(" in head or "（" in head:  # "Observation (not run)": a refused approval
        return "failed"
    return "again" if repeated else "tool"


def save_plot(data: dict[str, Any], path: str | Path) -> Path:
    """Draw every run of `data` as a row of step boxes, grouped by question; return the SVG path."""
    import matplotlib  # the `dev` extra: only an experiment's report needs it

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = data["name"]
    matplotlib.rcParams["font.family"] = ["DejaVu Sans"]
    from matplotlib import pyplot
    from matplotlib.patches import Patch

    labels = [condition["label"] for condition in data["conditions"]]
    runs = {(run["question_id"], run["agent"]): run for run in data["records"]}
    questions = [question["id"] for question in data["questions"]]
    rows = [(question, label) for question in questions for label in labels]
    steps = {row: run_steps(runs[row]["transcript"]) for row in rows if row in runs}
    width = max((len(kinds) for kinds in steps.values()), default=1) + 2
    figure, axis = pyplot.subplots(figsize=(3.2 + 0.42 * width, 1.4 + 0.3 * len(rows)))
    used = _draw_rows(axis, rows, steps, runs)
    axis.set_yticks([-y for y in range(len(rows))], [_row_label(row, labels) for row in rows])
    axis.tick_params(axis="y", length=0, labelsize=8)
    for y in range(len(labels), len(rows), len(labels)):  # a line between the questions
        axis.axhline(-y + 0.5, color="#DDDDDD", linewidth=0.8)
    axis.set_xlim(0, width)
    axis.set_ylim(-len(rows) + 0.4, 0.6)
    axis.set_xticks([n + 0.5 for n in range(width - 2)], [str(n + 1) for n in range(width - 2)])
    axis.set_xlabel("steps of the run, in order: one model call each", fontsize=8)
    axis.tick_params(axis="x", labelsize=7)
    axis.spines[["top", "right", "left"]].set_visible(False)
    legend = [
        Patch(color=colour, label=text) for key, (text, colour) in KINDS.items() if key in used
    ]
    figure.legend(handles=legend, loc="lower center", ncol=3, fontsize=7, frameon=False)
    title = textwrap.fill(f"{data['title']} ({data['model']})", int(figure.get_figwidth() * 13))
    figure.suptitle(f"{title}\nevery run, step by step; ✓ marks the questions solved", fontsize=9)
    figure.tight_layout(rect=(0, 0.04 + 0.02 * ((len(used) + 2) // 3), 1, 1))
    target = Path(path)
    figure.savefig(target, format="svg", metadata={"Date": None})
    pyplot.close(figure)
    return target


def _row_label(row: tuple[str, str], labels: list[str]) -> str:
    """A row's label: the condition, after the question's id on its group's first row."""
    question, label = row
    return f"{question}   {label}" if label == labels[0] else label


def _draw_rows(
    axis: Any,
    rows: list[tuple[str, str]],
    steps: dict[tuple[str, str], list[str]],
    runs: dict[tuple[str, str], dict[str, Any]],
) -> set[str]:
    """A box per step on each run's row, then ✓ or ✗; return the kinds drawn (for the legend)."""
    from matplotlib.patches import Rectangle

    used: set[str] = set()
    for y, row in enumerate(rows):
        for x, kind in enumerate(steps.get(row, [])):
            used.add(kind)
            axis.add_patch(Rectangle((x + 0.05, -y - 0.4), 0.9, 0.8, color=KINDS[kind][1]))
        if row in runs:
            solved = runs[row]["correct"] is True
            mark, colour = ("✓", "#2E7D32") if solved else ("✗", "#C62828")
            axis.text(len(steps[row]) + 0.25, -y, mark, color=colour, va="center", fontsize=11)
    return used
