"""The harness on a real local Ray cluster: two workers, two loopback servers, one killed mid-run.

One Ray instance per module (two CPUs), started here; the servers are `SimulatedServer`s in this
process (text ReAct, a set latency), reached by the workers over HTTP as vLLM would be. A worker
is killed with SIGKILL from outside, as a lost machine would be: Ray restarts it and runs its
calls in flight again. Needs the `scale` extra (scripts/install.sh installs it).
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ray = pytest.importorskip("ray", reason='Ray is the scale extra: pip install -e ".[scale]"')

from custom_react.compare import ResultsStore, RunRecord, arithmetic_cases  # noqa: E402
from custom_react.compare.on_ray import init_local_ray, run_cases_on_ray  # noqa: E402
from custom_react.compare.runners import custom_runner  # noqa: E402
from custom_react.compare.simulated_server import SimulatedServer  # noqa: E402
from custom_react.compare.sources import Endpoint  # noqa: E402
from tools import default_tools  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SLOTS = 4


@pytest.fixture(scope="module", autouse=True)
def cluster() -> Iterator[None]:
    """A local Ray cluster whose workers import this checkout."""
    init_local_ray(
        ray,
        num_cpus=2,
        log_to_driver=False,
        runtime_env={"env_vars": {"PYTHONPATH": str(ROOT)}},
    )
    yield
    ray.shutdown()


class WatchedServer(SimulatedServer):
    """A simulated server that knows how many requests it is answering right now."""

    def __init__(self, latency: float) -> None:
        super().__init__(latency=latency)
        self.in_flight = 0
        self.counting = threading.Lock()

    def answer(self, body: dict[str, Any]) -> str:
        with self.counting:
            self.in_flight += 1
        try:
            return super().answer(body)
        finally:
            with self.counting:
                self.in_flight -= 1


@pytest.fixture
def servers() -> Iterator[list[WatchedServer]]:
    with WatchedServer(latency=0.2) as first, WatchedServer(latency=0.2) as second:
        yield [first, second]


def endpoints(servers: list[WatchedServer]) -> list[Endpoint]:
    return [Endpoint(server.url, "simulated", slots=SLOTS) for server in servers]


def keys(path: Path) -> list[tuple[str, str]]:
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    return [(line["key"]["case"], line["key"]["agent"]) for line in lines]


def test_two_workers_answer_every_case_once_and_a_rerun_runs_nothing(
    servers: list[WatchedServer], tmp_path: Path
) -> None:
    cases = arithmetic_cases(16)
    path = tmp_path / "results.jsonl"
    records = run_cases_on_ray(
        cases,
        {"custom": custom_runner},
        endpoints(servers),
        default_tools,
        store=ResultsStore(path),
    )
    assert [record.question_id for record in records] == [case.id for case in cases]
    assert all(record.correct and record.model_calls == 2 for record in records)
    assert sorted(keys(path)) == sorted((case.id, "custom") for case in cases)
    asked = [sum(server.requests.values()) for server in servers]
    assert sum(asked) == 2 * 16 and min(asked) > 0  # both servers worked
    again = run_cases_on_ray(
        cases,
        {"custom": custom_runner},
        endpoints(servers),
        default_tools,
        store=ResultsStore(path),
    )
    assert again == records and sum(sum(s.requests.values()) for s in servers) == 2 * 16


def worker_pids() -> list[int]:
    """The processes of the harness's Ray actors (`ray::Worker`), found through /proc."""
    pids = []
    for entry in Path("/proc").iterdir():
        try:
            title = (entry / "cmdline").read_bytes() if entry.name.isdigit() else b""
        except OSError:
            continue
        if title.startswith(b"ray::Worker"):
            pids.append(int(entry.name))
    return pids


def no_workers_left(timeout: float = 30.0) -> bool:
    """Wait until no harness worker process is left (`ray.kill` ends them a moment later)."""
    deadline = time.monotonic() + timeout
    while worker_pids() and time.monotonic() < deadline:
        time.sleep(0.1)
    return not worker_pids()


@pytest.fixture(autouse=True)
def each_test_starts_with_no_worker() -> None:
    assert no_workers_left(), "a worker of an earlier run is still alive"


class KillOnce:
    """A watcher that kills one worker process with SIGKILL after the `after`th result.

    Each worker asks its own server, so the kill waits until both servers are answering a
    request: whichever worker dies, a run of its is waiting on a model call, never idle.
    """

    def __init__(self, after: int, servers: list[WatchedServer]) -> None:
        self.after, self.servers, self.seen, self.killed = after, servers, 0, 0

    def started(self, total: int, done: int) -> None:
        pass

    def finished(self, record: RunRecord) -> None:
        self.seen += 1
        if self.seen == self.after:
            pids = worker_pids()
            assert len(pids) == 2, pids
            self.killed = pids[0]
            threading.Thread(target=self.kill_in_flight, args=(pids[0],)).start()

    def kill_in_flight(self, pid: int) -> None:
        deadline = time.monotonic() + 30
        while not all(server.in_flight for server in self.servers):
            assert time.monotonic() < deadline, "no worker asked its server"
            time.sleep(0.005)
        os.kill(pid, signal.SIGKILL)


def test_a_worker_killed_mid_run_loses_only_its_runs_in_flight_and_ray_runs_them_again(
    servers: list[WatchedServer], tmp_path: Path
) -> None:
    cases = arithmetic_cases(40)
    path = tmp_path / "results.jsonl"
    killer = KillOnce(after=8, servers=servers)
    records = run_cases_on_ray(
        cases,
        {"custom": custom_runner},
        endpoints(servers),
        default_tools,
        store=ResultsStore(path),
        watcher=killer,
    )
    assert killer.killed
    assert all(record.correct and record.error is None for record in records)
    assert sorted(keys(path)) == sorted((case.id, "custom") for case in cases)  # each once
    requests = [server.requests for server in servers]
    asked_again = {q for counts in requests for q in counts if sum(c[q] for c in requests) > 2}
    assert 0 < len(asked_again) <= SLOTS  # only the killed worker's runs in flight


def test_the_command_runs_on_ray_and_resumes_from_the_same_results_file(tmp_path: Path) -> None:
    import subprocess
    import sys

    cases = arithmetic_cases(6)
    questions = tmp_path / "questions.jsonl"
    questions.write_text(
        "".join(
            json.dumps({"id": c.id, "question": c.question, "expected": c.expected}) + "\n"
            for c in cases
        )
    )
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OPENAI_API_KEY": "", "RAY_ADDRESS": ""}
    with SimulatedServer(latency=0.05) as server:
        command = [
            sys.executable,
            "-m",
            "custom_react.cli.app",
            "compare",
            "--ray",
            "local",
            "--questions",
            str(questions),
            "--agents",
            "custom",
            "--out",
            str(out),
            "--base-url",
            server.url,
            "--model",
            "simulated",
            "--parallel",
            "3",
        ]
        first = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        assert first.returncode == 0, first.stderr[-2000:]
        assert sum(server.requests.values()) == 2 * 6
        again = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        assert again.returncode == 0, again.stderr[-2000:]
        assert sum(server.requests.values()) == 2 * 6  # nothing run twice
    assert sorted(keys(out / "results.jsonl")) == sorted((c.id, "custom") for c in cases)
    assert "6/6" in again.stdout  # the totals, made from the results file


def test_a_worker_that_ray_may_not_restart_leaves_its_runs_to_the_other(
    servers: list[WatchedServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from custom_react.compare import on_ray

    monkeypatch.setattr(on_ray, "RETRIES", 0)  # a dead worker stays dead
    cases = arithmetic_cases(24)
    killer = KillOnce(after=4, servers=servers)
    records = run_cases_on_ray(
        cases,
        {"custom": custom_runner},
        endpoints(servers),
        default_tools,
        store=ResultsStore(tmp_path / "results.jsonl"),
        watcher=killer,
    )
    assert killer.killed and no_workers_left()  # both ended: one killed, one closed
    assert all(record.correct and record.error is None for record in records)
    assert sorted(keys(tmp_path / "results.jsonl")) == sorted((c.id, "custom") for c in cases)
