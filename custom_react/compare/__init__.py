"""Comparing agents: several agents, several models, the same tools, the same cases, at any scale.

The public API of the comparison. `load_questions` reads a JSONL question file and `check_answer`
checks an answer against its expected number or keywords (`questions.py`; a `Case` is a
`Question`). The one harness is `run_cases` (`grid.py`): every (case, agent, model) `Job`, run
`concurrency` at a time through LangChain's batching, each within a time limit (`job.py`), each
result appended to a JSONL `ResultsStore` as it finishes and skipped when run again
(`store.py`; `results_store` first fills a missing one from the saved report), followed by a `ProgressBar` (`progress.py`). `run_comparison` is one model's
comparison on it, with `create_agent` skipped when the model makes no tool calls, returning a
`ComparisonReport` of `RunRecord`s (`harness.py`); `custom_react.compare.on_ray` runs the same
jobs on a Ray cluster (the `scale` extra, never imported here). The agents are built in
`runners/`; the report is rendered as a text or Markdown table (`tables.py`), or as JSON or
side-by-side transcripts (`report.py`), and saved as files (`save_comparison`).
`SimulatedModel` and `SimulatedServer` stand in for a model with a set latency, to measure and
test the harness. Nothing in this package prints but the progress bar.
"""

from custom_react.compare.grid import Watcher, missing, plan_jobs, results_store, run_cases
from custom_react.compare.harness import AGENTS, DEFAULT_RUNNERS, run_comparison
from custom_react.compare.job import Job, RunnerFactory, run_job, run_one
from custom_react.compare.metrics import MetricsHandler
from custom_react.compare.progress import ProgressBar
from custom_react.compare.questions import Case, Question, check_answer, load_questions
from custom_react.compare.report import ComparisonReport, RunRecord, side_by_side, to_json
from custom_react.compare.simulated import SimulatedModel, arithmetic_cases
from custom_react.compare.store import ResultsStore, RunKey
from custom_react.compare.tables import render_table, save_comparison, to_markdown

__all__ = [
    "AGENTS",
    "DEFAULT_RUNNERS",
    "Case",
    "ComparisonReport",
    "Job",
    "MetricsHandler",
    "ProgressBar",
    "Question",
    "ResultsStore",
    "RunKey",
    "RunRecord",
    "RunnerFactory",
    "SimulatedModel",
    "Watcher",
    "arithmetic_cases",
    "check_answer",
    "load_questions",
    "missing",
    "plan_jobs",
    "render_table",
    "results_store",
    "run_cases",
    "run_comparison",
    "run_job",
    "run_one",
    "save_comparison",
    "side_by_side",
    "to_json",
    "to_markdown",
]
