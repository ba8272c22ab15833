"""`custom-react compare` killed mid-run and run again: nothing lost, nothing run twice.

The real command runs in a child process against a simulated OpenAI-compatible server in this
one (`SimulatedServer`, 0.1 s a reply); the child is killed with SIGKILL (no clean-up at all)
once some results are written, then the same command runs to the end. The results file must
then hold every (case, agent) exactly once, and the server must have answered again only the
runs that were in flight at the kill.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from custom_react.compare import arithmetic_cases
from custom_react.compare.simulated_server import SimulatedServer

ROOT = Path(__file__).resolve().parents[2]
CASES, CONCURRENCY = 24, 4


def command(questions: Path, out: Path, url: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "custom_react.cli.app",
        "compare",
        "--questions",
        str(questions),
        "--agents",
        "custom,legacy",
        "--out",
        str(out),
        "--base-url",
        url,
        "--model",
        "simulated",
        "--concurrency",
        str(CONCURRENCY),
    ]


def as_from_a_terminal() -> None:
    """In the child, before it starts: Ctrl-C as a terminal delivers it (default, not blocked).

    A test run started in the background by a non-interactive shell ignores SIGINT, and a child
    inherits that: the comparison would never see the test's Ctrl-C.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])


def lines(path: Path) -> list[dict]:
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.endswith("}")]


def test_a_killed_comparison_resumes_without_losing_or_repeating_a_run(tmp_path: Path) -> None:
    questions = tmp_path / "questions.jsonl"
    cases = arithmetic_cases(CASES)
    questions.write_text(
        "".join(
            json.dumps({"id": c.id, "question": c.question, "expected": c.expected}) + "\n"
            for c in cases
        )
    )
    results = tmp_path / "out" / "results.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OPENAI_API_KEY": ""}
    with SimulatedServer(latency=0.1) as server:
        child = subprocess.Popen(
            command(questions, tmp_path / "out", server.url),
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 120
        while len(lines(results)) < 10 and child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert child.poll() is None, child.stderr.read().decode() if child.stderr else ""
        child.send_signal(signal.SIGKILL)
        child.wait()
        written_before = len(lines(results))
        assert 10 <= written_before < 2 * CASES
        rerun = subprocess.run(
            command(questions, tmp_path / "out", server.url),
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert rerun.returncode == 0, rerun.stderr
        third = subprocess.run(
            command(questions, tmp_path / "out", "http://127.0.0.1:9/v1"),  # no server there
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert third.returncode == 0 and "no model is started" in third.stderr, third.stderr
    keys = [(line["key"]["case"], line["key"]["agent"]) for line in lines(results)]
    assert sorted(keys) == sorted((c.id, a) for c in cases for a in ("custom", "legacy"))
    assert all(line["record"]["correct"] for line in lines(results))
    # Each run asks twice (the action, then the answer); only those in flight asked again.
    asked_again = [q for q, count in server.requests.items() if count > 2 * 2]
    assert len(asked_again) <= CONCURRENCY
    assert sum(server.requests.values()) <= 2 * 2 * CASES + 2 * CONCURRENCY


def test_ctrl_c_stops_at_once_keeping_every_finished_run(tmp_path: Path) -> None:
    questions = tmp_path / "questions.jsonl"
    cases = arithmetic_cases(CASES)
    questions.write_text(
        "".join(
            json.dumps({"id": c.id, "question": c.question, "expected": c.expected}) + "\n"
            for c in cases
        )
    )
    results = tmp_path / "out" / "results.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OPENAI_API_KEY": ""}
    # Slow enough that Ctrl-C lands mid-comparison on a busy machine too (48 runs take ~7 s).
    with SimulatedServer(latency=0.3) as server:
        child = subprocess.Popen(
            command(questions, tmp_path / "out", server.url),
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            preexec_fn=as_from_a_terminal,
        )
        deadline = time.monotonic() + 120
        while len(lines(results)) < 6 and child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        child.send_signal(signal.SIGINT)
        child.wait(timeout=30)  # the runs in flight end (a model call or two), the rest never start
        finished = len(lines(results))
    assert child.returncode != 0 and 6 <= finished < 2 * CASES, (child.returncode, finished)
    assert len(set(map(json.dumps, (line["key"] for line in lines(results))))) == finished
