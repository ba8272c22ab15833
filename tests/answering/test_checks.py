"""`final_answer_checks=`: an answer a check rejects goes back to the model, never silently kept."""

from __future__ import annotations

import asyncio

import pytest

from custom_react import AnswerRejected, CustomReActAgent, FinalAnswerEvent, grounded_numbers
from custom_react.answering import RunSteps
from custom_react.events import ToolStep

QUESTION = "What do 15 roses cost at 3.10 yuan each?"
MADE_UP = "Thought: 15 times 3.10\nFinal Answer: 46.75"
COMPUTE = "Thought: compute it\nAction: calculator\nAction Input: 15 * 3.10"


def observed(observation: str) -> ToolStep:
    return ToolStep("", "calculator", "x", {"expression": "x"}, "c1", 1, "", observation, "ok")


@pytest.mark.parametrize(
    ("answer", "accepted"),
    [
        ("46.5 yuan", True),  # in the observation
        ("15 roses cost 46.50", True),  # 15 from the question; 46.50 is 46.5
        ("About 1,240 yuan", True),  # 1240 is in the observation
        ("46.75", False),
        ("15 roses, 3 bunches", False),
        ("No numbers at all.", True),
    ],
)
def test_grounded_numbers_compares_numbers_by_value(answer, accepted):
    steps = RunSteps([observed("46.5"), observed("1240.0 in all")], QUESTION)
    message = grounded_numbers(answer, steps)
    assert (message is None) == accepted
    if message is not None:
        assert "neither the question nor any Observation" in message


@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream"])
def test_a_made_up_number_goes_back_and_the_computed_answer_is_returned(script, tools, way):
    model = script(MADE_UP, COMPUTE, "Final Answer: 46.5")
    agent = CustomReActAgent(model.model, tools, final_answer_checks=[grounded_numbers])
    if way == "stream":
        events = list(agent.stream(QUESTION))
        rejected = [e for e in events if isinstance(e, AnswerRejected)]
        assert len(rejected) == 1 and "46.75" in rejected[0].message
        result = events[-1].result.to_dict()
    else:
        result = agent.invoke(QUESTION) if way == "invoke" else asyncio.run(agent.ainvoke(QUESTION))
    assert (result["output"], result["stop_reason"], result["checks_failed"]) == (
        "46.5",
        "final_answer",
        [],
    )
    assert (
        "Observation: grounded_numbers: The Final Answer gives 46.75" in model.prompts[1][-1].text
    )


def test_when_retries_run_out_the_answer_is_returned_with_the_failed_checks(script, tools):
    model = script(MADE_UP)
    agent = CustomReActAgent(
        model.model, tools, final_answer_checks=[grounded_numbers], max_answer_retries=0
    )
    result = agent.invoke(QUESTION)
    assert result["output"] == "46.75"
    assert len(result["checks_failed"]) == 1
    assert result["checks_failed"][0].startswith("grounded_numbers: The Final Answer gives 46.75")


def test_any_function_is_a_check_and_its_name_leads_the_message(script):
    def in_euros(answer: str, steps: RunSteps) -> str | None:
        return None if "EUR" in answer else "Give the price in EUR."

    model = script("Final Answer: 12 dollars", "Final Answer: 11 EUR")
    result = CustomReActAgent(model.model, [], final_answer_checks=[in_euros]).invoke("Price?")
    assert result["output"] == "11 EUR"
    assert "Observation: in_euros: Give the price in EUR." in model.prompts[1][-1].text
    assert [type(m).__name__ for m in result["messages"]] == [
        "HumanMessage", "AIMessage", "HumanMessage", "AIMessage",
    ]  # fmt: skip


def test_a_chinese_run_reads_the_check_in_chinese(script, tools):
    model = script("Final Answer: 46.75 元", COMPUTE, "Final Answer: 46.5 元")
    agent = CustomReActAgent(
        model.model, tools, final_answer_checks=[grounded_numbers], language="zh"
    )
    events = list(agent.stream("15 枝玫瑰，每枝 3.10 元，一共多少钱？"))
    assert "既不在问题里，也不在任何观察里" in model.prompts[1][-1].text
    assert isinstance(events[-2], FinalAnswerEvent) and events[-2].output == "46.5 元"


def test_checks_and_a_schema_work_together(script, tools):
    from pydantic import BaseModel

    class Cost(BaseModel):
        yuan: float

    model = script('Final Answer: {"yuan": 46.75}', COMPUTE, 'Final Answer: {"yuan": 46.5}')
    agent = CustomReActAgent(
        model.model, tools, response_format=Cost, final_answer_checks=[grounded_numbers]
    )
    result = agent.invoke(QUESTION)
    assert result["structured_response"] == Cost(yuan=46.5)
