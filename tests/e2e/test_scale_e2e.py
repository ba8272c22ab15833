"""`custom-react compare` on the bundled model with two server slots, then run again: it resumes.

The command starts the bundled server with `--parallel 2` (two requests decoded in one batch),
runs our agent on three questions two at a time, writes each result to the results file, and a
second run of the same command finds them all there and asks the model nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

QUESTIONS = [
    {"id": "product", "question": "What is 17 * 23?", "expected": 391},
    {"id": "percent", "question": "What is 12.5% of 2480?", "expected": 310},
    {"id": "sum", "question": "What is 1234 + 4321?", "expected": 5555},
]


def test_compare_on_two_slots_answers_and_a_rerun_resumes(tmp_path: Path) -> None:
    questions = tmp_path / "questions.jsonl"
    questions.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS), encoding="utf-8")
    out = tmp_path / "out"
    command = [
        sys.executable,
        "-m",
        "custom_react.cli.app",
        "compare",
        "--questions",
        str(questions),
        "--agents",
        "custom",
        "--out",
        str(out),
        "--parallel",
        "2",
        "--time-limit",
        "600",
    ]
    env = {k: v for k, v in os.environ.items() if not k.endswith(("API_KEY", "BASE_URL"))}
    first = subprocess.run(command, capture_output=True, text=True, env=env, timeout=1200)
    assert first.returncode == 0, first.stderr
    lines = (out / "results.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line)["record"] for line in lines]
    assert sorted(r["question_id"] for r in records) == ["percent", "product", "sum"]
    assert all(r["error"] is None and r["model_calls"] >= 1 for r in records)
    assert sum(r["correct"] is True for r in records) >= 2  # the 1.5B model solves these
    assert "2 slots" in first.stderr
    again = subprocess.run(command, capture_output=True, text=True, env=env, timeout=1200)
    assert again.returncode == 0, again.stderr
    assert "no model is started" in again.stderr
    assert (out / "results.jsonl").read_text(encoding="utf-8").splitlines() == lines


def launchers() -> set[int]:
    """The bundled servers of this checkout that run (their launcher, by path, in /proc)."""
    from custom_react.serving.process import LAUNCHER

    found = set()
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes() if entry.name.isdigit() else b""
        except OSError:
            continue
        if str(LAUNCHER).encode() in command:
            found.add(int(entry.name))
    return found


def test_a_ray_worker_starts_the_bundled_server_on_its_node_and_stops_it(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray", reason='Ray is the scale extra: pip install -e ".[scale]"')
    from custom_react.compare import Question, ResultsStore
    from custom_react.compare.on_ray import init_local_ray, run_cases_on_ray
    from custom_react.compare.runners import custom_runner
    from custom_react.compare.sources import BundledServer
    from tools import default_tools

    root = Path(__file__).resolve().parents[2]
    before = launchers()
    cases = [Question(q["question"], q["id"], q["expected"]) for q in QUESTIONS[:2]]
    init_local_ray(
        ray,
        num_cpus=2,
        log_to_driver=False,
        runtime_env={"env_vars": {"PYTHONPATH": str(root)}},
    )
    try:
        records = run_cases_on_ray(
            cases,
            {"custom": custom_runner},
            [BundledServer(slots=2)],
            default_tools,
            store=ResultsStore(tmp_path / "results.jsonl"),
            time_limit=600,
        )
    finally:
        ray.shutdown()
    assert [r.question_id for r in records] == ["product", "percent"]
    assert all(r.error is None and r.model_calls >= 1 for r in records)
    assert any(r.correct for r in records)
    assert launchers() <= before  # the worker stopped its server
