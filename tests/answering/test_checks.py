"""`final_answer_checks=`: an answer a check rejects goes back to the model, never silently kept."""

from __future__ import annotations

from decimal import Decimal

import pytest

from custom_react import AnswerRejected, CustomReActAgent, grounded_numbers
from custom_react.answering import RunSteps
from custom_react.answering.checks import fractions_in, numbers_in
from custom_react.steps import ToolStep
from tests.conftest import run_by

QUESTION = "What do 15 roses cost at 3.10 yuan each?"
MADE_UP = "Thought: 15 times 3.10\nFinal Answer: 46.75"
COMPUTE = "Thought: compute it\nAction: calculator\nAction Input: 15 * 3.10"
QUESTIONS = {"en": QUESTION, "zh": "15枝玫瑰，每枝3.10元，一共多少钱？"}
MADE_UPS = {"en": MADE_UP, "zh": "思考：15 乘 3.10\n最终答案：总价为46.75元"}
ANSWERS = {"en": "46.75", "zh": "总价为46.75元"}
COMPUTES = {"en": COMPUTE, "zh": "思考：算一下\n行动：calculator\n行动输入：15 * 3.10"}
OUTPUTS = {"en": "46.5", "zh": "共46.5元"}
COMPUTED = {"en": "Final Answer: 46.5", "zh": "最终答案：共46.5元"}  # the OUTPUTS, written
REJECTIONS = {
    "en": "grounded_numbers: The Final Answer gives 46.75, which neither",
    "zh": "grounded_numbers: 最终答案里的 46.75 既不在问题里，也不在任何观察里",
}


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


@pytest.mark.parametrize(
    ("answer", "made_up"),
    [
        ("总价为46.75元", "46.75"),  # a number glued to Chinese text on both sides
        ("共15枝，每枝3元", "3"),  # 15 is in the question; 3 is not 3.10
        ("合计1,240元，约1,250元", "1,250"),  # thousands separators after Chinese text
        ("15枝玫瑰共46.5元", None),  # 15 from the question, 46.5 from the observation
        ("每枝3.10元，共46.50元", None),  # 3.10 is in the question; 46.50 is 46.5
        ("共计1240.0元", None),
    ],
)
def test_grounded_numbers_reads_numbers_glued_to_chinese_text(answer, made_up):
    steps = RunSteps([observed("46.5"), observed("共1,240元")], QUESTIONS["zh"], "zh")
    message = grounded_numbers(answer, steps)
    if made_up is None:
        assert message is None
    else:
        assert message == (
            f"最终答案里的 {made_up} 既不在问题里，也不在任何观察里。"
            "请先用工具算出（或查到）它，再重新写最终答案。"
        )


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("15枝玫瑰，每枝3.10元", {"15", "3.1"}),
        ("总价为46.75元", {"46.75"}),
        ("约1,240.5元，即-3或−4", {"1240.5", "-3", "-4"}),
        ("abc123, v2 and x_9 are names; café2 too", set()),  # inside a word: not a number
        ("1,240 and 1240.0 and 7", {"1240", "7"}),
    ],
)
def test_numbers_are_found_next_to_chinese_text_but_not_inside_a_word(text, values):
    assert numbers_in(text) == {Decimal(value) for value in values}


@pytest.mark.parametrize(
    ("answer", "made_up"),
    [
        ("1 * (1 + 0.05) = 1.05", "1.05"),  # 0.05 is the question's 5%; 1.05 was never computed
        ("0.125 of it", None),  # 12.5% in an observation
        ("0.5", "0.5"),  # 5% is 0.05, not 0.5
        ("涨了12.5％，加价5%", None),
    ],
)
def test_a_percentage_grounds_its_fraction(answer, made_up):
    steps = RunSteps([observed("每枝约1元，涨了12.5%")], "1元加价 5% 出售是多少？", "zh")
    message = grounded_numbers(answer, steps)
    if made_up is None:
        assert message is None
    else:
        assert message is not None and message.startswith(f"最终答案里的 {made_up} ")
    assert fractions_in("5% 和 12.5％，1,250%") == {
        Decimal("0.05"),
        Decimal("0.125"),
        Decimal("12.5"),
    }


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream"])
def test_a_made_up_number_goes_back_and_the_computed_answer_is_returned(
    script, tools, calls, way, language
):
    model = script(MADE_UPS[language], COMPUTES[language], COMPUTED[language])
    agent = CustomReActAgent(
        model.model, tools, final_answer_checks=[grounded_numbers], language=language
    )
    question = QUESTIONS[language]
    result, events = run_by(agent, way, question)
    if way == "stream":
        rejected = [e for e in events if isinstance(e, AnswerRejected)]
        assert len(rejected) == 1 and "46.75" in rejected[0].message
    assert (result["output"], result["stop_reason"], result["checks_failed"]) == (
        OUTPUTS[language],
        "final_answer",
        [],
    )
    assert calls.calls == [("calculator", "15 * 3.10")] and len(model.prompts) == 3
    assert "Observation: " + REJECTIONS[language] in model.prompts[1][-1].text


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream"])
def test_when_retries_run_out_the_answer_is_returned_with_the_failed_checks(
    script, tools, calls, way, language
):
    model = script(*[MADE_UPS[language]] * 3)  # the answer, then the default 2 retries
    agent = CustomReActAgent(
        model.model, tools, final_answer_checks=[grounded_numbers], language=language
    )
    question = QUESTIONS[language]
    result, events = run_by(agent, way, question)
    if way == "stream":
        assert [type(e).__name__ for e in events] == [
            "AnswerRejected", "AnswerRejected", "FinalAnswerEvent", "RunFinished",
        ]  # fmt: skip
    assert (result["output"], result["stop_reason"], result["iterations"]) == (
        ANSWERS[language],
        "final_answer",
        3,
    )
    assert len(model.prompts) == 3 and calls.calls == []
    (failed,) = result["checks_failed"]
    assert failed.startswith(REJECTIONS[language])
    assert "Observation: " + REJECTIONS[language] in model.prompts[2][-1].text


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


@pytest.mark.parametrize(
    ("answer", "accepted"),
    [
        ("about 22.22 degrees", True),  # the tool's 22.22222222, rounded
        ("about 22.2 degrees", True),
        ("0.0833 litres", True),  # 0.08333333 rounded
        ("about 22.23 degrees", False),  # not what it rounds to
        ("about 22 degrees", False),  # a whole number is never a rounding
        ("0.08 litres", True),
    ],
)
def test_a_tool_s_number_rounded_to_the_answer_s_places_is_grounded(answer, accepted):
    steps = RunSteps([observed("22.22222222"), observed("0.08333333")], "How warm? How much?")
    assert (grounded_numbers(answer, steps) is None) == accepted


def test_an_answer_generated_at_a_limit_is_checked_and_returned_with_what_fails(script, tools):
    """No retry can follow the last answer: what the checks find is returned with it."""
    model = script("Action: calculator\nAction Input: 2 * 3", "Final Answer: It is 7.")
    agent = CustomReActAgent(
        model.model,
        tools,
        final_answer_checks=[grounded_numbers],
        max_iterations=1,
        early_stopping_method="generate",
    )
    result = agent.invoke("What is 2 * 3?")
    assert result["output"] == "It is 7."
    assert result["stop_reason"] == "max_iterations"
    assert [problem.split(":")[0] for problem in result["checks_failed"]] == ["grounded_numbers"]


@pytest.mark.parametrize(
    ("question", "answer", "made_up"),
    [
        ("whats 12,5 % of 2.480,00 ??", "12.5% of 2480 is 310.", None),  # 310 from the tool
        ("Was kosten 3,5 kg zu 2,20 €?", "3.5 kg at 2.20 € cost 7.7 €.", None),
        ("What is 1,240 plus 60?", "1,240 plus 60 is 1300.", None),
        ("whats 12,5 % of 2.480,00 ??", "12.5% of 2.48 is 0.31.", "0.31"),
    ],
)
def test_a_number_with_a_decimal_comma_is_read_either_way(question, answer, made_up):
    steps = RunSteps([observed("310 7.7 1300")], question)
    problem = grounded_numbers(answer, steps)
    assert (problem is None) if made_up is None else (made_up in (problem or ""))


def test_numbers_of_the_conversation_before_the_question_are_grounded(script, tools):
    """A thread's earlier answer gave the rate: the next answer may use it (and its year)."""
    from custom_react.pausing.store import MemoryStore

    store, thread = MemoryStore(), {"configurable": {"thread_id": "t"}}
    first = script(
        "Thought: look it up\nAction: calculator\nAction Input: 1.08 * 1",
        "Final Answer: The rate at the end of March 2025 was 1.08 dollars per euro.",
    )
    agent = CustomReActAgent(
        first.model, tools, checkpoint=store, final_answer_checks=[grounded_numbers]
    )
    agent.invoke("What was the euro rate at the end of March 2025?", thread)
    second = script(
        "Thought: compute it\nAction: calculator\nAction Input: 400 * 1.08",
        "Final Answer: At 1.08 (March 2025), 400 euros are 432 dollars.",
    )
    again = CustomReActAgent(
        second.model, tools, checkpoint=store, final_answer_checks=[grounded_numbers]
    )
    result = again.invoke("How many dollars would 400 euros be?", thread)
    assert result["output"].endswith("432 dollars.") and result["checks_failed"] == []


@pytest.mark.parametrize("given", ["system_prompt", "input system message"])
def test_a_number_in_what_the_model_read_before_the_question_is_grounded(script, given):
    # The agent's own `system_prompt` is shown to the model as the input's system message is:
    # a number in either is no made-up number. (The CLI's `--system` is the agent's.)
    fact = "The shop closes at 18:30."
    model = script("Final Answer: It closes at 18:30.")
    own = fact if given == "system_prompt" else ""
    agent = CustomReActAgent(
        model.model, [], system_prompt=own, final_answer_checks=[grounded_numbers]
    )
    asked = "When does the shop close?"
    result = agent.invoke(asked if own else [("system", fact), ("user", asked)])
    assert (result["output"], result["checks_failed"]) == ("It closes at 18:30.", [])
    assert len(model.prompts) == 1  # not sent back
