"""The one harness under every comparison: cases × agents × models, concurrent, timed, resumable.

`run_cases` plans one `Job` per (case, agent, model), skips those whose result is already in the
`ResultsStore` (same case, agent, model and fingerprint of what that agent reads in the case's
language: `custom_react.compare.runners.fingerprint`), and runs the rest `concurrency`
at a time through LangChain's own batching (`Runnable.batch_as_completed` with
`max_concurrency`), each one through `custom_react.compare.job.run_job` (fresh tools, a crash
is that run's error, cut off after `time_limit` seconds). Each result is appended to the store
as it finishes, so a crash or Ctrl-C loses only the runs in flight; the records come back in the
plan's order, stored and new alike. A model may be several servers of the same weights: job `i`
goes to server `i mod n`. The same jobs run on a Ray cluster in `custom_react.compare.on_ray`;
the progress bar is `custom_react.compare.progress`. `results_store` opens a results file, made
first from its saved report when it is missing (a fresh clone), so a command run again after a
prompt change runs only the runs whose agent now reads another prompt. Nothing here prints.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableLambda

from custom_react.compare.job import Job, RunnerFactory, ToolsFactory, run_job
from custom_react.compare.questions import Question
from custom_react.compare.report import RunRecord
from custom_react.compare.runners.fingerprint import Fingerprint, fingerprint_with
from custom_react.compare.store import ResultsStore

Servers = BaseChatModel | Sequence[BaseChatModel]
"""One model: a chat model, or several (one per server of the same weights)."""


class Watcher(Protocol):
    """What follows a run of the grid (the progress bar, `custom_react.compare.progress`)."""

    def started(self, total: int, done: int) -> None:
        """The grid has `total` jobs, of which `done` were in the results file already."""

    def finished(self, record: RunRecord) -> None:
        """One job finished (and is in the results file)."""


def plan_jobs(cases: Sequence[Question], agents: Sequence[str], models: Sequence[str]) -> list[Job]:
    """Every (case, agent, model), model by model, then agent by agent, cases in order.

    Raises:
        ValueError: Two cases share an id (their results would share a key).
    """
    ids = [case.id for case in cases]
    if len(set(ids)) != len(ids):
        twice = sorted({i for i in ids if ids.count(i) > 1})
        raise ValueError(f"case ids must be unique; given twice: {twice[:5]}")
    return [Job(case, agent, model) for model in models for agent in agents for case in cases]


def missing(
    jobs: Sequence[Job],
    store: ResultsStore,
    fingerprint: Fingerprint,
    *,
    rerun_errors: bool = False,
) -> list[Job]:
    """The jobs whose result is not in `store` yet (with `rerun_errors`, nor a crashed one's).

    None missing means no model is needed: `custom-react compare` and the experiment scripts
    then start none and only make the report again.
    """
    return [job for job in jobs if not store.done(job.key(fingerprint), rerun_errors=rerun_errors)]


def run_cases(
    cases: Sequence[Question],
    agents: Mapping[str, RunnerFactory],
    models: Mapping[str, Servers],
    tools_factory: ToolsFactory,
    *,
    store: ResultsStore | None = None,
    concurrency: int = 1,
    time_limit: float | None = None,
    max_iterations: int = 8,
    rerun_errors: bool = False,
    watcher: Watcher | None = None,
) -> list[RunRecord]:
    """Run every agent on every case on every model; return every job's record, in plan order.

    Args:
        cases: The cases (questions with what a right answer holds); ids must be unique.
        agents: Agent name -> runner factory, in order.
        models: Model name -> its chat model, or a list of them (one per server).
        tools_factory: Makes a fresh tool list for each run.
        store: The results file; jobs already in it are skipped, new results appended.
        concurrency: Runs at a time (match it to the servers' slots).
        time_limit: Seconds one run may take; then it is recorded as stopped by `time_limit`.
        max_iterations: The step limit every agent gets.
        rerun_errors: Run again the jobs whose stored result is a crash.
        watcher: Told how many jobs there are and of each finished one.
    """
    fingerprint = fingerprint_with(list(tools_factory()))
    results = store if store is not None else ResultsStore.in_memory()
    jobs = plan_jobs(cases, list(agents), list(models))
    todo = missing(jobs, results, fingerprint, rerun_errors=rerun_errors)
    if watcher is not None:
        watcher.started(len(jobs), len(jobs) - len(todo))
    pools = {name: _as_list(servers) for name, servers in models.items()}

    def work(indexed: tuple[int, Job]) -> RunRecord:
        index, job = indexed
        pool = pools[job.model]
        llm = pool[index % len(pool)]
        record = run_job(job, agents[job.agent], llm, tools_factory, max_iterations, time_limit)
        # Written before this slot takes the next job: a kill loses only the runs in flight.
        results.append(job.key(fingerprint), record)
        return record

    config: Any = {"max_concurrency": max(1, concurrency), "run_name": "run_cases"}
    batch = RunnableLambda(work).batch_as_completed(list(enumerate(todo)), config)
    for _, record in batch:
        assert isinstance(record, RunRecord)  # run_job never raises for a run
        if watcher is not None:
            watcher.finished(record)
    return [results.get(job.key(fingerprint)) or _missing(job) for job in jobs]


def results_store(path: Path, report: Path | None = None) -> ResultsStore:
    """The results file at `path`; when it is missing, made first from the saved `report`.

    A saved report (`compare.json`, a solve-rate or an experiment report: committed, unlike the
    results file) holds every run, the model and the fingerprint of what each agent read in each
    language. Each of its runs is written back under the key a job would give it now
    (`Job.key`), with the fingerprint it was run with. So the same command on a fresh clone
    skips every run, and after a prompt change it runs again exactly the runs whose agent reads
    another prompt in their language: those keys no longer match (`--check` names them).
    """
    if report is not None and report.is_file() and not path.is_file():
        data = json.loads(report.read_text(encoding="utf-8"))
        read = data.get("settings", data)["prompt_fingerprints"]
        store = ResultsStore(path)
        for saved in data["records"]:
            case = Question(saved["question"], saved["question_id"])
            job = Job(case, saved["agent"], data["model"])
            key = job.key(lambda agent, language: read.get(agent, {}).get(language, ""))
            store.append(key, RunRecord.from_dict(saved))
    return ResultsStore(path)


def _as_list(servers: Servers) -> list[BaseChatModel]:
    return [servers] if isinstance(servers, BaseChatModel) else list(servers)


def _missing(job: Job) -> RunRecord:  # pragma: no cover - every planned job is stored above
    raise RuntimeError(f"no result for {job.case.id} / {job.agent} / {job.model}")
