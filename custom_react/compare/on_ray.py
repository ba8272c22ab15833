"""The harness on a Ray cluster: the same jobs, results file and resume, on many machines.

`run_cases_on_ray` plans the jobs as `run_cases` does and skips those already in the results
file, then starts one Ray actor (`Worker`) per model source (`custom_react.compare.sources`): an
OpenAI-compatible server (`Endpoint`, e.g. vLLM on a GPU machine), or the bundled model started
on every node of the cluster (`BundledServer`). Each worker opens its model once and answers up
to its source's slots of jobs at once (a threaded actor); the driver keeps them that busy, and
appends each result to the store as it arrives, so resuming works as on one machine. A worker
that dies (a killed process, a lost node) is restarted by Ray, which runs the calls it had in
flight again (`max_task_retries`), so only those runs are lost, and are redone. Needs the `scale`
extra (`pip install -e ".[scale]"`); nothing else in the package imports this module or Ray.
"""

from __future__ import annotations

import contextlib
import os
from collections import deque
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from typing import Any

from langchain_core.language_models import BaseChatModel

from custom_react.compare.grid import Watcher, plan_jobs
from custom_react.compare.harness import DEFAULT_RUNNERS, made_with
from custom_react.compare.job import Job, RunnerFactory, ToolsFactory, run_job
from custom_react.compare.questions import Question
from custom_react.compare.report import ComparisonReport, RunRecord
from custom_react.compare.runners.fingerprint import fingerprint_with
from custom_react.compare.sources import BundledServer, Endpoint, ModelSource
from custom_react.compare.store import ResultsStore

RETRIES = 3
"""Times Ray restarts a dead worker, and runs a call it lost again."""


class Worker:
    """Runs jobs on one opened model source; a Ray actor with `max_concurrency` = its slots."""

    def __init__(
        self,
        source: ModelSource,
        agents: Mapping[str, RunnerFactory],
        tools_factory: ToolsFactory,
        max_iterations: int,
        time_limit: float | None,
    ) -> None:
        """Open the source (start a bundled server) for the worker's life."""
        self._stack = ExitStack()
        self.llm: BaseChatModel = self._stack.enter_context(source.open())
        self.agents = dict(agents)
        self.tools_factory = tools_factory
        self.max_iterations = max_iterations
        self.time_limit = time_limit

    def run(self, job: Job) -> RunRecord:
        """Run one job (`custom_react.compare.job.run_job`)."""
        factory = self.agents[job.agent]
        return run_job(
            job, factory, self.llm, self.tools_factory, self.max_iterations, self.time_limit
        )

    def pid(self) -> int:
        """The worker's process id (the tests kill it)."""
        return os.getpid()

    def close(self) -> None:
        """Close the model source (stop a bundled server)."""
        self._stack.close()


def run_cases_on_ray(
    cases: Sequence[Question],
    agents: Mapping[str, RunnerFactory],
    sources: Sequence[ModelSource],
    tools_factory: ToolsFactory,
    *,
    store: ResultsStore | None = None,
    address: str | None = None,
    concurrency: int | None = None,
    time_limit: float | None = None,
    max_iterations: int = 8,
    rerun_errors: bool = False,
    watcher: Watcher | None = None,
) -> list[RunRecord]:
    """`run_cases` on Ray: every (case, agent, source model), one worker per source.

    Args:
        cases: The cases; ids must be unique.
        agents: Agent name -> runner factory (importable functions: Ray pickles them).
        sources: The models' sources; several with one model name share its jobs.
        tools_factory: Makes a fresh tool list for each run (importable, as `agents`).
        store: The results file (see `run_cases`).
        address: A cluster's address ("auto": the one this machine has joined; "local": a new
            one on this machine), used unless Ray is already initialised in this process.
        concurrency: Most runs at a time in all (default: the sources' slots added up).
        time_limit: Seconds one run may take.
        max_iterations: The step limit every agent gets.
        rerun_errors: Run again the jobs whose stored result is a crash.
        watcher: Told how many jobs there are and of each finished one.
    """
    import ray

    if not ray.is_initialized():
        if address in (None, "local") and not os.environ.get("RAY_ADDRESS"):
            init_local_ray(ray)  # a new cluster on this machine, on loopback only
        else:
            ray.init(address=address)  # "auto", or a cluster's address
    fingerprint = fingerprint_with(list(tools_factory()))
    store = store if store is not None else ResultsStore.in_memory()
    jobs = plan_jobs(cases, list(agents), list(dict.fromkeys(s.model for s in sources)))
    todo = [job for job in jobs if not store.done(job.key(fingerprint), rerun_errors=rerun_errors)]
    if watcher is not None:
        watcher.started(len(jobs), len(jobs) - len(todo))
    placed = _placements(ray, sources)
    options = (dict(agents), tools_factory, max_iterations, time_limit)
    workers = [
        _actor(ray, source, strategy).remote(source, *options) for source, strategy in placed
    ]
    try:
        for job, record in _dispatch(ray, todo, workers, [s for s, _ in placed], concurrency):
            store.append(job.key(fingerprint), record)
            if watcher is not None:
                watcher.finished(record)
    finally:
        _stop(ray, workers)
    return [record for job in jobs if (record := store.get(job.key(fingerprint))) is not None]


def init_local_ray(ray: Any, **options: Any) -> None:
    """Start a Ray cluster on this machine whose processes talk over loopback only (127.0.0.1).

    By default Ray binds a new cluster to the machine's network address; its own traffic then
    leaves loopback, which a sandboxed or firewalled machine may refuse or flag.
    """
    # Ray's switch for a one-machine cluster on loopback, read when Ray is imported: for the
    # processes it starts (the environment) and for this one (the constant it was read into).
    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
    ray._private.ray_constants.ENABLE_RAY_CLUSTER = False
    ray.init(_node_ip_address="127.0.0.1", include_dashboard=False, **options)


def _dispatch(
    ray: Any, todo: list[Job], workers: list[Any], sources: list[ModelSource], cap: int | None
) -> Any:
    """Keep each live worker at its slots (and all at `cap`); yield (job, record) as each ends.

    A worker whose restarts are spent is dropped, and the runs it lost go to the other workers
    of its model; with none left, each is recorded as that run's error.
    """
    queues: dict[str, deque[Job]] = {}
    for job in todo:
        queues.setdefault(job.model, deque()).append(job)
    load = [0] * len(workers)
    dead: set[int] = set()
    limit = cap or sum(source.slots for source in sources)
    flying: dict[Any, tuple[Job, int]] = {}
    while flying or any(queues.values()):
        for index, (worker, source) in enumerate(zip(workers, sources, strict=True)):
            queue = queues.get(source.model)
            while (
                index not in dead and queue and load[index] < source.slots and len(flying) < limit
            ):
                job = queue.popleft()
                flying[worker.run.remote(job)] = (job, index)
                load[index] += 1
        if not flying:  # runs are left, but no live worker serves their model
            for queue in queues.values():
                while queue:
                    job = queue.popleft()
                    yield job, _lost(job, "no live Ray worker serves its model")
            return
        (ready,), _ = ray.wait(list(flying), num_returns=1)
        job, index = flying.pop(ready)
        load[index] -= 1
        try:
            record: RunRecord = ray.get(ready)
        except ray.exceptions.RayActorError:  # the worker is gone for good: another one runs it
            dead.add(index)
            queues[job.model].appendleft(job)
            continue
        except ray.exceptions.RayError as error:
            record = _lost(job, f"{type(error).__name__}: {error}")
        yield job, record


def _lost(job: Job, why: str) -> RunRecord:
    """The record of a run that Ray could not make: an error, not solved."""
    record = RunRecord(agent=job.agent, question_id=job.case.id, question=job.case.question)
    record.error = f"the run was lost on Ray: {why}"[:500]
    record.stop_reason = "error"
    record.correct = False if job.case.expected is not None else None
    return record


def _placements(ray: Any, sources: Sequence[ModelSource]) -> list[tuple[ModelSource, Any]]:
    """Each source with where its worker runs: a bundled server on every alive node."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    nodes = [node["NodeID"] for node in ray.nodes() if node["Alive"]]
    placed: list[tuple[ModelSource, Any]] = []
    for source in sources:
        if isinstance(source, BundledServer):
            placed += [(source, NodeAffinitySchedulingStrategy(n, soft=False)) for n in nodes]
        else:
            placed.append((source, "DEFAULT"))
    return placed


def _actor(ray: Any, source: ModelSource, strategy: Any) -> Any:
    """The `Worker` actor class for one source: its slots, restarts and placement."""
    return ray.remote(Worker).options(
        max_concurrency=max(1, source.slots),
        max_restarts=RETRIES,
        max_task_retries=RETRIES,
        num_cpus=0,  # it waits on a server; a bundled server's threads are the llama.cpp ones
        scheduling_strategy=strategy,
    )


def _stop(ray: Any, workers: list[Any]) -> None:
    """Close every worker's source (stop bundled servers), then end the workers."""
    for worker in workers:
        with contextlib.suppress(Exception):  # a worker already gone has nothing left to close
            ray.get(worker.close.remote(), timeout=30)
        ray.kill(worker, no_restart=True)


def sources_for(model: str | None, base_urls: Sequence[str], slots: int) -> list[ModelSource]:
    """The sources the CLI's options name: one `Endpoint` per URL, else the environment's model.

    With no URL and no hosted model configured, that is the bundled model on every Ray node.
    """
    from custom_react.serving.models import ModelSettings

    settings = [ModelSettings.from_env(model=model, base_url=url) for url in base_urls]
    sources: list[ModelSource] = []
    for each in settings or [ModelSettings.from_env(model=model)]:
        if each.provider == "local":
            sources.append(BundledServer(each.model, slots))
        else:
            options = {"temperature": each.temperature}
            key = each.api_key or "not-needed"
            sources.append(Endpoint(each.base_url or "", each.model, key, slots, options))
    return sources


def compare_on_ray(
    cases: Sequence[Question], agents: Sequence[str], sources: Sequence[ModelSource], **options: Any
) -> ComparisonReport:
    """The CLI's comparison on Ray: the default runners and tools, as a `ComparisonReport`."""
    from tools import default_tools

    runners = {agent: DEFAULT_RUNNERS[agent] for agent in agents}
    records = run_cases_on_ray(cases, runners, sources, default_tools, **options)
    settings = {"max_iterations": options.get("max_iterations", 8), "ray": True}
    settings |= made_with(records, default_tools())
    return ComparisonReport(sources[0].model, list(agents), records, settings=settings)
