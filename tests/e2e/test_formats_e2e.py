"""End to end: the same question in the text, XML and JSON formats, on the bundled local model."""

from __future__ import annotations

import re

import pytest

from custom_react import CustomReActAgent
from tools import calculator

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("name", ["text", "xml", "json"])
def test_calculator_question_in_each_format(local_chat_model, name):
    agent = CustomReActAgent(
        local_chat_model, [calculator], format=name, examples=True, max_iterations=6
    )
    result = agent.invoke("What is 12.5% of 2480?")
    assert result["stop_reason"] == "final_answer", result["output"]
    assert "310" in re.sub(r"(?<=\d),(?=\d)", "", result["output"]), result["output"]
    assert [action.tool for action, _ in result["intermediate_steps"]] == ["calculator"]
