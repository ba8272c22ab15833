"""End to end on the bundled model: a structured answer, a chat over one thread in a terminal,
and ReAct in 40 lines. The real model behind the real OpenAI-compatible server, real tools."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import BaseModel, Field

from custom_react import CustomReActAgent
from tests.terminal import converse_in_terminal
from tools import calculator, default_tools

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]


class Share(BaseModel):
    """A part of an amount."""

    value: float = Field(description="The part, as a number")


class Height(BaseModel):
    """How tall a building is."""

    building: str
    metres: int


def test_a_computed_answer_comes_back_as_the_schema(local_chat_model):
    agent = CustomReActAgent(
        local_chat_model, [calculator], response_format=Share, max_iterations=6
    )
    result = agent.invoke("What is 12.5% of 2480?")
    assert result["stop_reason"] == "final_answer", result["messages"]
    assert result["structured_response"] == Share(value=310)


def test_a_looked_up_answer_comes_back_as_the_schema(local_chat_model):
    agent = CustomReActAgent(
        local_chat_model, default_tools(), response_format=Height, max_iterations=6
    )
    result = agent.invoke("How tall is the Eiffel Tower in metres, including its antennas?")
    assert result["stop_reason"] == "final_answer", result["messages"]
    answer = result["structured_response"]
    assert isinstance(answer, Height) and answer.metres == 330
    assert "eiffel" in answer.building.lower()


def environment() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.endswith(("API_KEY", "BASE_URL"))}


def test_chat_in_a_terminal_remembers_the_thread(tmp_path):
    command = [
        sys.executable, "-m", "custom_react.cli.app", "chat", "--no-stream",
        "--checkpoint", str(tmp_path / "chat.db"), "--thread", "li",
    ]  # fmt: skip
    lines = ["My name is Li. Say hello to me.", "What is my name? Answer with the name only."]
    code, shown = converse_in_terminal(command, environment(), lines, "You: ", timeout=900)
    assert code == 0, shown
    answers = [line for line in shown.splitlines() if line.startswith("Final Answer:")]
    assert len(answers) == 2, shown
    assert "Li" in answers[1]


def test_react_in_40_lines_answers_on_the_bundled_model():
    completed = subprocess.run(
        [sys.executable, str(ROOT / "demos" / "react_in_40_lines.py"), "What is 12.5% of 2480?"],
        capture_output=True, text=True, env=environment(), timeout=900, check=False, cwd=ROOT,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    assert "Action: calculator" in completed.stdout
    assert completed.stdout.strip().splitlines()[-1].startswith("Final Answer:")
    assert "310" in completed.stdout.strip().splitlines()[-1]
