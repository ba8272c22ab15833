"""The comparison harness: several agents, one model, the same tools, the same questions.

`run_comparison` runs each agent on each question with fresh tools and records the answer,
correctness, iterations, model calls, tokens (one callback handler, `MetricsHandler` from
`custom_react.compare.metrics`, counts them for every agent), parse failures, wall time and a
transcript. A crash in one run is that run's failure, never the harness's (`run_one`). The agents
are built in `custom_react.compare.runners`, the questions read and checked in
`custom_react.compare.questions`, the report rendered in `custom_react.compare.report` and
`custom_react.compare.tables`; nothing here prints.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from datetime import date

from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool

from custom_react.compare.metrics import MetricsHandler
from custom_react.compare.questions import Question, check_answer
from custom_react.compare.report import ComparisonReport, RunRecord
from custom_react.compare.runners import (
    Runner,
    create_agent_runner,
    custom_runner,
    legacy_runner,
    text_react_runner,
    tool_calling_problem,
)
from custom_react.prompt import prompt_fingerprint

AGENTS = ("custom", "legacy", "create_agent", "create_agent_text")
"""The agents a comparison runs by default, in order."""
RunnerFactory = Callable[[BaseChatModel, list[BaseTool], int], Runner]
"""Build one agent's runner from (model, fresh tools, max_iterations)."""
DEFAULT_RUNNERS: dict[str, RunnerFactory] = {
    "custom": custom_runner,
    "legacy": legacy_runner,
    "create_agent": create_agent_runner,
    "create_agent_text": text_react_runner,
}
"""The runner factory for each name in `AGENTS`."""
_COUNTERS = ("model_calls", "tool_calls", "prompt_tokens", "completion_tokens")


def run_comparison(
    questions: Sequence[Question],
    llm: BaseChatModel,
    tools_factory: Callable[[], Sequence[BaseTool]],
    agents: Sequence[str] = AGENTS,
    *,
    max_iterations: int = 8,
    model_name: str = "",
    runners: Mapping[str, RunnerFactory] | None = None,
    probe_tool_calling: bool = True,
    on_record: Callable[[RunRecord], None] | None = None,
) -> ComparisonReport:
    """Run each agent on each question with the same model and fresh tools; never raises for a run.

    Args:
        questions: The questions, e.g. from `load_questions`.
        llm: The chat model every agent uses.
        tools_factory: Makes a fresh tool list for each run (so no agent's settings leak).
        agents: Names from `runners` to run, in order.
        max_iterations: The step limit every agent gets.
        model_name: Shown in the report.
        runners: Agent name -> runner factory (default `DEFAULT_RUNNERS`).
        probe_tool_calling: Skip `create_agent` (with the reason) if a probe gets no tool calls.
        on_record: Called with each finished record (e.g. to print progress).

    Raises:
        KeyError: An agent name has no runner.
    """
    factories = _runner_factories(agents, DEFAULT_RUNNERS if runners is None else runners)
    made = {
        "prompt_fingerprint": prompt_fingerprint(tools_factory()),
        "date": date.today().isoformat(),
    }
    report = ComparisonReport(
        model_name, [], [], settings={"max_iterations": max_iterations, **made}
    )
    for agent in agents:
        if probe_tool_calling and (reason := _skip_reason(agent, llm, tools_factory)) is not None:
            report.skipped[agent] = reason
            continue
        report.agents.append(agent)
        report.records += _run_agent(
            agent, factories[agent], questions, llm, tools_factory, max_iterations, on_record
        )
    return report


def run_one(
    agent: str,
    factory: RunnerFactory,
    question: Question,
    llm: BaseChatModel,
    tools_factory: Callable[[], Sequence[BaseTool]],
    max_iterations: int,
) -> RunRecord:
    """Run one agent on one question; a crash (building or running) becomes the record's `error`."""
    record = RunRecord(agent=agent, question_id=question.id, question=question.question)
    metrics = MetricsHandler()
    started = time.perf_counter()
    try:
        runner = factory(llm, list(tools_factory()), max_iterations)
        outcome = runner(question.question, {"callbacks": [metrics], "run_name": agent})
    except Exception as error:  # a broken agent is a result of the comparison, not our crash
        record.error = f"{type(error).__name__}: {error}"
        record.stop_reason = "error"
        record.correct = False if question.expected is not None else None
    else:
        record.answer = outcome.output
        record.iterations = outcome.iterations
        record.stop_reason = outcome.stop_reason
        record.parse_failures = outcome.parse_failures
        record.transcript = outcome.transcript
        record.correct = check_answer(outcome.output, question)
    record.wall_time = round(time.perf_counter() - started, 3)
    for counter in _COUNTERS:
        setattr(record, counter, getattr(metrics, counter))
    return record


def _run_agent(
    agent: str,
    factory: RunnerFactory,
    questions: Sequence[Question],
    llm: BaseChatModel,
    tools_factory: Callable[[], Sequence[BaseTool]],
    max_iterations: int,
    on_record: Callable[[RunRecord], None] | None,
) -> list[RunRecord]:
    """Run one agent on every question in order, passing each record to `on_record` as it ends."""
    records = []
    for question in questions:
        record = run_one(agent, factory, question, llm, tools_factory, max_iterations)
        records.append(record)
        if on_record is not None:
            on_record(record)
    return records


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


def _skip_reason(
    agent: str, llm: BaseChatModel, tools_factory: Callable[[], Sequence[BaseTool]]
) -> str | None:
    """Say why `agent` cannot run on `llm` (only `create_agent` is probed: it needs tool calls)."""
    return tool_calling_problem(llm, tools_factory()) if agent == "create_agent" else None
