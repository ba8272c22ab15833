"""Comparing agents: several agents, one model, the same tools, the same questions.

The public API of the comparison. `load_questions` reads a JSONL question file and `check_answer`
checks an answer against its expected number or keywords (`questions.py`); `run_comparison` runs
each agent on each question with fresh tools and returns a `ComparisonReport` of `RunRecord`s,
one per run, a crash in a run being that run's failure (`harness.py`). The agents are built in
`runners/`; the report is rendered as a text or Markdown table (`tables.py`), or as JSON or
side-by-side transcripts (`report.py`), and saved as files (`save_comparison`). Nothing in this package prints.
"""

from custom_react.compare.harness import (
    AGENTS,
    DEFAULT_RUNNERS,
    RunnerFactory,
    run_comparison,
    run_one,
)
from custom_react.compare.metrics import MetricsHandler
from custom_react.compare.questions import Question, check_answer, load_questions
from custom_react.compare.report import ComparisonReport, RunRecord, side_by_side, to_json
from custom_react.compare.tables import render_table, save_comparison, to_markdown

__all__ = [
    "AGENTS",
    "DEFAULT_RUNNERS",
    "ComparisonReport",
    "MetricsHandler",
    "Question",
    "RunRecord",
    "RunnerFactory",
    "check_answer",
    "load_questions",
    "render_table",
    "run_comparison",
    "run_one",
    "save_comparison",
    "side_by_side",
    "to_json",
    "to_markdown",
]
