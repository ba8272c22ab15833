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
    assert (out / "results.jsonl").read_text(encoding="utf-8").splitlines() == lines
