"""One run of a comparison: an agent answers a case on a model, measured, within a time limit.

A `Job` names the run (case, agent, model) and its key in the results file, whose fingerprint is
that of what its agent reads in its case's language (`custom_react.compare.runners.fingerprint`),
so a change to one prompt makes only the runs that read it new runs. `run_one` builds the
agent's runner with fresh tools and runs it once with the one `MetricsHandler`, recording the
answer, correctness, steps, calls, tokens, parse failures, time and transcript; a crash (building
or running) is that run's `error`, never the harness's. `run_job` adds the time limit. Which jobs
run, how many at once, and where their results go is `custom_react.compare.grid`'s job.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool

from custom_react.compare.metrics import MetricsHandler
from custom_react.compare.questions import Question, check_answer
from custom_react.compare.report import RunRecord
from custom_react.compare.runners import Runner
from custom_react.compare.runners.custom import question_language
from custom_react.compare.runners.fingerprint import Fingerprint
from custom_react.compare.store import RunKey

RunnerFactory = Callable[[BaseChatModel, list[BaseTool], int], Runner]
"""Build one agent's runner from (model, fresh tools, max_iterations)."""
ToolsFactory = Callable[[], Sequence[BaseTool]]
"""Makes a fresh tool list for each run (so no run's settings leak into another)."""
_COUNTERS = ("model_calls", "tool_calls", "prompt_tokens", "completion_tokens")


@dataclass(frozen=True)
class Job:
    """One run of the grid: an agent answers a case on a model."""

    case: Question
    agent: str
    model: str

    def key(self, fingerprint: Fingerprint) -> RunKey:
        """This job's key in the results file: `fingerprint` of its agent in its case's language."""
        language = question_language(self.case.question)
        return RunKey(self.case.id, self.agent, self.model, fingerprint(self.agent, language))


def run_one(
    agent: str,
    factory: RunnerFactory,
    question: Question,
    llm: BaseChatModel,
    tools_factory: ToolsFactory,
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


def run_job(
    job: Job,
    factory: RunnerFactory,
    llm: BaseChatModel,
    tools_factory: ToolsFactory,
    max_iterations: int,
    time_limit: float | None = None,
) -> RunRecord:
    """Run one job (see `run_one`), recorded as stopped by `time_limit` if it takes longer.

    A run over its limit is left to end on its own in a background thread (a thread cannot be
    stopped from outside); its late result is dropped, and its slot goes to the next job.
    """

    def attempt() -> RunRecord:
        return run_one(job.agent, factory, job.case, llm, tools_factory, max_iterations)

    if time_limit is None:
        return attempt()
    finished: list[RunRecord] = []
    worker = threading.Thread(target=lambda: finished.append(attempt()), daemon=True)
    worker.start()
    worker.join(time_limit)
    if finished:
        return finished[0]
    record = RunRecord(agent=job.agent, question_id=job.case.id, question=job.case.question)
    record.error = f"TimeoutError: no answer within the time limit of {time_limit:g} s"
    record.stop_reason = "time_limit"
    record.wall_time = float(time_limit)
    record.correct = False if job.case.expected is not None else None
    return record
