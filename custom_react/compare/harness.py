"""The comparison: several agents, one model, the same tools, the same questions, one report.

`run_comparison` asks the model once whether `create_agent` can run on it (skipping it with the
reason if not), runs each remaining agent on each question through the one harness
(`custom_react.compare.grid.run_cases`: fresh tools, concurrency, a time limit, a results file
that resumes) and returns a `ComparisonReport`. Each run records the answer, correctness,
iterations, model calls, tokens (`MetricsHandler`), parse failures, wall time and a transcript
(`custom_react.compare.job.run_one`); the report's settings record, per agent and language of
its runs, the fingerprint of the prompt they read (`made_with`). The agents are built in
`custom_react.compare.runners`, the questions read and checked in `custom_react.compare.questions`,
the report rendered in `custom_react.compare.report` and `custom_react.compare.tables`; nothing
here prints.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import date
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool

from custom_react.compare.grid import Watcher, run_cases
from custom_react.compare.job import RunnerFactory, ToolsFactory, run_one
from custom_react.compare.questions import Question
from custom_react.compare.report import ComparisonReport, RunRecord
from custom_react.compare.runners import (
    create_agent_runner,
    custom_runner,
    legacy_runner,
    text_react_runner,
    tool_calling_problem,
)
from custom_react.compare.runners.custom import question_language
from custom_react.compare.runners.fingerprint import agent_fingerprints, fingerprint_with
from custom_react.compare.store import ResultsStore

__all__ = ["AGENTS", "DEFAULT_RUNNERS", "RunnerFactory", "made_with", "run_comparison", "run_one"]

AGENTS = ("custom", "legacy", "create_agent", "create_agent_text")
"""The agents a comparison runs by default, in order."""
DEFAULT_RUNNERS: dict[str, RunnerFactory] = {
    "custom": custom_runner,
    "legacy": legacy_runner,
    "create_agent": create_agent_runner,
    "create_agent_text": text_react_runner,
}
"""The runner factory for each name in `AGENTS`."""


def run_comparison(
    questions: Sequence[Question],
    llm: BaseChatModel | Sequence[BaseChatModel],
    tools_factory: ToolsFactory,
    agents: Sequence[str] = AGENTS,
    *,
    max_iterations: int = 8,
    model_name: str = "",
    runners: Mapping[str, RunnerFactory] | None = None,
    probe_tool_calling: bool = True,
    on_record: Callable[[RunRecord], None] | None = None,
    store: ResultsStore | None = None,
    concurrency: int = 1,
    time_limit: float | None = None,
    rerun_errors: bool = False,
    watcher: Watcher | None = None,
) -> ComparisonReport:
    """Run each agent on each question with the same model and fresh tools; never raises for a run.

    Args:
        questions: The questions, e.g. from `load_questions`.
        llm: The chat model every agent uses, or one per server of the same model.
        tools_factory: Makes a fresh tool list for each run (so no agent's settings leak).
        agents: Names from `runners` to run, in order.
        max_iterations: The step limit every agent gets.
        model_name: Shown in the report, and part of each run's key in `store`.
        runners: Agent name -> runner factory (default `DEFAULT_RUNNERS`).
        probe_tool_calling: Skip `create_agent` (with the reason) if a probe gets no tool calls.
        on_record: Called with each finished record (e.g. to print progress).
        store: The results file: runs already in it are not run again (see `run_cases`).
        concurrency: Runs at a time.
        time_limit: Seconds one run may take.
        rerun_errors: Run again the runs whose stored result is a crash.
        watcher: Follows the runs (a progress bar); `on_record` is the simple form.

    Raises:
        KeyError: An agent name has no runner.
    """
    factories = _runner_factories(agents, DEFAULT_RUNNERS if runners is None else runners)
    report = ComparisonReport(model_name, [], [], settings={"max_iterations": max_iterations})
    servers = [llm] if isinstance(llm, BaseChatModel) else list(llm)
    probe = probe_tool_calling and bool(servers)  # no servers: every run is in `store`
    report.skipped = _skipped(agents, servers[0], tools_factory) if probe else {}
    report.agents = [agent for agent in agents if agent not in report.skipped]
    report.records = run_cases(
        questions,
        {agent: factories[agent] for agent in report.agents},
        {model_name: servers},
        tools_factory,
        store=store,
        concurrency=concurrency,
        time_limit=time_limit,
        max_iterations=max_iterations,
        rerun_errors=rerun_errors,
        watcher=_Calls(on_record) if watcher is None and on_record is not None else watcher,
    )
    report.settings.update(made_with(report.records, list(tools_factory())))
    return report


def made_with(records: Sequence[RunRecord], tools: Sequence[BaseTool]) -> dict[str, Any]:
    """How the runs were made: `prompt_fingerprints` (each agent's, per language of its runs), date."""
    reads = [(record.agent, question_language(record.question)) for record in records]
    fingerprints = agent_fingerprints(reads, fingerprint_with(tools))
    return {"prompt_fingerprints": fingerprints, "date": date.today().isoformat()}


class _Calls:
    """A watcher that only calls `on_record` with each finished record."""

    def __init__(self, on_record: Callable[[RunRecord], None]) -> None:
        self.on_record = on_record

    def started(self, total: int, done: int) -> None:
        """Nothing to show."""

    def finished(self, record: RunRecord) -> None:
        """Pass the record on."""
        self.on_record(record)


def _runner_factories(
    agents: Sequence[str], runners: Mapping[str, RunnerFactory]
) -> dict[str, RunnerFactory]:
    """Return a copy of `runners`, checked to have a factory for every name in `agents`.

    Raises:
        KeyError: Some agents have no runner; the message names them and the known ones.
    """
    if missing := [name for name in agents if name not in runners]:
        raise KeyError(f"no runner for {missing}; known: {sorted(runners)}")
    return dict(runners)


def _skipped(
    agents: Sequence[str], llm: BaseChatModel, tools_factory: ToolsFactory
) -> dict[str, str]:
    """The agents that cannot run on `llm`, and why (only `create_agent`: it needs tool calls)."""
    if "create_agent" in agents and (problem := tool_calling_problem(llm, tools_factory())):
        return {"create_agent": problem}
    return {}
