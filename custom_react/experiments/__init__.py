"""Experiments: the same questions under several agent designs, measured, with a report and a plot.

Each experiment in `bench/experiments/` names its conditions (one agent design each: ReAct with
and without Thought, Chain-of-Thought with no tools, Plan-and-Execute with either replanner, ReAct
with one loop defence off) and its questions, and `run_experiment` runs every condition on every
question through the comparison harness (`custom_react.compare`), so each run is counted the same
way: solved, model calls, tokens, parse failures, time, transcript. `conditions.py` builds the
agents, `measures.py` adds what the harness does not count (repeated actions, facts stated that
the search snapshot contradicts), `report.py` writes the table and `plot.py` the chart.
"""

from custom_react.compare.runners.custom import agent_runner
from custom_react.experiments.conditions import (
    ACTION_FIRST_TEMPLATE,
    action_first_runner,
    cot_runner,
    plan_runner,
    react_runner,
)
from custom_react.experiments.measures import made_up_fact, repeated_actions
from custom_react.experiments.plot import save_plot
from custom_react.experiments.report import Experiment, load_report, render_report
from custom_react.experiments.run import run_experiment

__all__ = [
    "ACTION_FIRST_TEMPLATE",
    "Experiment",
    "action_first_runner",
    "agent_runner",
    "cot_runner",
    "load_report",
    "made_up_fact",
    "plan_runner",
    "react_runner",
    "render_report",
    "repeated_actions",
    "run_experiment",
    "save_plot",
]
