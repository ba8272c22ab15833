"""The experiments' chart: the kind of every step, read back from a run's saved transcript."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from custom_react.compare import Question
from custom_react.compare.harness import run_one
from custom_react.experiments import react_runner
from custom_react.experiments.plot import run_steps
from custom_react.testing import Script
from tools import default_tools

PRODUCT = Question("What is 17 * 23?", "product", 391)
REPLIES = {
    "en": [
        "Thought: multiply\nAction: calculator\nAction Input: 17 * 23",
        "Thought: check\nAction: calculator\nAction Input: 17 * 23",
        "Thought: let me think about it\nAction Input: 17 * 23",
        "Thought: look\nAction: abacus\nAction Input: 17 * 23",
        "Thought: done\nFinal Answer: 391",
    ],
    "zh": [
        "思考：相乘\n行动：calculator\n行动输入：17 * 23",
        "思考：再算一次\n行动：calculator\n行动输入：17 * 23",
        "思考：我再想想\n行动输入：17 * 23",
        "思考：查一下\n行动：abacus\n行动输入：17 * 23",
        "思考：好了\n最终答案：391",
    ],
}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_each_model_call_is_one_box_of_its_kind(
    language: str, script: Callable[..., Script]
) -> None:
    model = script(*REPLIES[language]).model
    runner = react_runner(language=language)
    record = run_one("ReAct", runner, PRODUCT, model, default_tools, 8)
    steps = run_steps(record.transcript)
    assert steps == ["tool", "memory", "format", "failed", "answer"]
    assert len(steps) == record.model_calls


def test_a_run_stopped_by_its_step_limit_ends_in_a_limit_box(
    script: Callable[..., Script],
) -> None:
    calls = [f"Thought: try\nAction: calculator\nAction Input: 17 * {n}" for n in range(20, 23)]
    record = run_one("ReAct", react_runner(), PRODUCT, script(*calls).model, default_tools, 3)
    assert run_steps(record.transcript) == ["tool", "tool", "tool", "limit"]
    assert record.model_calls == 3
