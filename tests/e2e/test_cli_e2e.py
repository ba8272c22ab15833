"""The README's first command, for real: `custom-react ask` on the bundled local model."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from custom_react.serving.process import LAUNCHER

pytestmark = pytest.mark.e2e


def llama_servers() -> set[int]:
    pids = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if str(LAUNCHER).encode() in command:
                pids.add(int(entry.name))
    return pids


def offline_env() -> dict[str, str]:
    """This process's environment without any key or endpoint: the CLI falls back to the bundled model."""
    return {k: v for k, v in os.environ.items() if not k.endswith(("API_KEY", "BASE_URL"))}


def test_ask_answers_offline_and_leaves_no_server_behind():
    before = llama_servers()
    env = offline_env()
    completed = subprocess.run(
        [sys.executable, "-m", "custom_react.cli.app", "ask", "What is 12.5% of 2480?"],
        capture_output=True, text=True, env=env, timeout=900, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    assert "Action: calculator" in completed.stdout
    assert "Final Answer:" in completed.stdout and "310" in completed.stdout
    assert "local qwen2.5-coder-1.5b" in completed.stderr
    assert llama_servers() <= before


def test_a_command_that_needs_approval_pauses_and_resumes_from_the_checkpoint_file(tmp_path):
    """`ask --checkpoint` pauses before the terminal command; `runs` lists it; `resume --approve`
    runs the command and the model answers from its output."""
    work, db = tmp_path / "work", tmp_path / "runs.db"
    work.mkdir()
    (work / "notes.txt").write_text("hello", encoding="utf-8")
    env = offline_env()
    cli = [sys.executable, "-m", "custom_react.cli.app"]
    question = "Use run_terminal_command to run `ls` in the workspace, then name the files."
    stored = ["--workspace", str(work), "--checkpoint", str(db)]

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [*cli, *args]
        return subprocess.run(command, capture_output=True, text=True, env=env, timeout=900)

    asked = run("ask", question, *stored)
    assert asked.returncode == 3, asked.stdout + asked.stderr  # paused, waiting for approval
    assert "Action: run_terminal_command" in asked.stdout
    assert "paused: run_terminal_command(" in asked.stderr and "custom-react resume" in asked.stderr
    listed = run("runs", "--checkpoint", str(db))
    run_id = listed.stdout.split()[0]
    assert "needs_approval" in listed.stdout and question in listed.stdout
    resumed = run("resume", run_id, *stored, "--approve")
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert "Decision: approved" in resumed.stdout
    assert "notes.txt" in resumed.stdout  # the command's output, as the observation
    assert "Final Answer:" in resumed.stdout


# The project's seed question (from a Chinese tutorial) and its English translation. The shop's
# buying price is the wholesale price, about 1 yuan a stem; the snapshot also holds the retail
# price (about 15 yuan), which a small model used to take for it (15.75 instead of 1.05).
SEED_QUESTIONS = {
    "zh": "在中国，目前市场上玫瑰花的一般进货价格是多少？如果我在此基础上加价 5% 出售，应该如何定价？",
    "en": (
        "In China, what is the usual wholesale price of roses on the market today? "
        "If I sell at a 5% markup on that, how should I price them?"
    ),
}


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_seed_question_is_answered_from_the_wholesale_price(language: str) -> None:
    """`ask` on the seed question: the answer is 1 yuan plus 5%, 1.05, with the shipped tools."""
    env = offline_env()
    question = SEED_QUESTIONS[language]
    completed = subprocess.run(
        [sys.executable, "-m", "custom_react.cli.app", "ask", "--lang", language, question],
        capture_output=True, text=True, env=env, timeout=900, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    marker = "最终答案：" if language == "zh" else "Final Answer:"
    answer = completed.stdout.rsplit(marker, 1)[-1]
    assert "1.05" in answer and "15.75" not in answer, completed.stdout
