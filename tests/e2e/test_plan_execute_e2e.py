"""End to end: PlanAndExecuteAgent on the bundled local model, with the real offline search.

The planner's and replanner's replies are plain text read by `plan_parser`; the executor is a real
`CustomReActAgent`. Small limits keep the run to a few minutes on two cores.
"""

from __future__ import annotations

import pytest

from custom_react import CustomReActAgent
from custom_react.plan import events as pe
from custom_react.plan.agent import PlanAndExecuteAgent
from tools import default_tools

pytestmark = pytest.mark.e2e

QUESTION = "Who won the 2025 Australian Open men's singles, and what is his hometown?"


def test_plan_execute_answers_the_two_part_question(local_chat_model, monkeypatch):
    monkeypatch.delenv("TAVILY_API_KEY", raising=False)
    executor = CustomReActAgent(local_chat_model, default_tools(), examples=True, max_iterations=4)
    agent = PlanAndExecuteAgent(local_chat_model, executor, max_steps=4)
    events = list(agent.stream(QUESTION))
    plans = [event for event in events if isinstance(event, pe.PlanMade)]
    steps = [event for event in events if isinstance(event, pe.StepResult)]
    assert len(plans) == 1 and plans[0].steps, "the local model's plan could not be read"
    assert 1 <= len(steps) <= 4
    assert any(event.type == "action" for event in events), "no step used a tool"
    result = events[-1].result
    assert result.stop_reason in ("final_answer", "max_iterations"), result.stop_reason
    if result.stop_reason == "final_answer":
        assert "Sinner" in result.output, result.output
    assert result.usage["total_tokens"] > 0
