"""A tool with `return_direct=True` ends the run with its output, as `AgentExecutor` did."""

from __future__ import annotations

import pytest
from langchain_core.messages import ToolMessage
from langchain_core.tools import tool

from custom_react import CustomReActAgent, ObservationEvent, RunFinished
from custom_react.console.printing import ConsolePrinter
from tests.conftest import run_by


@tool(return_direct=True)
def lookup_order(order_id: str) -> str:
    """Look an order up; its status is the answer."""
    if order_id == "0":
        raise ValueError("no order 0")
    return f"Order {order_id}: shipped on 2 December."


STEP = "Thought: look it up\nAction: lookup_order\nAction Input: 17"
STEPS = {"en": STEP, "zh": "思考：查一下订单\n行动：lookup_order\n行动输入：17"}
THOUGHTS = {"en": "look it up", "zh": "查一下订单"}
FORMATTED_STEPS = {
    "xml": '<thought>{thought}</thought>\n<action>lookup_order("17")</action>',
    "json": '{{"thought": "{thought}", "action": "lookup_order", "action_input": "17"}}',
}


def step_in(step_format: str, language: str) -> str:
    """The one reply of a run that looks order 17 up, in `step_format` and `language`."""
    if step_format == "text":
        return STEPS[language]
    return FORMATTED_STEPS[step_format].format(thought=THOUGHTS[language])


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("step_format", ["text", "xml", "json"])
@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream"])
def test_the_tool_output_is_the_answer_with_no_further_model_call(
    script, way, step_format, language
):
    model = script(step_in(step_format, language))  # one reply: a second call would fail
    agent = CustomReActAgent(model.model, [lookup_order], format=step_format, language=language)
    question = "Where is order 17?" if language == "en" else "17 号订单到哪儿了？"
    result, events = run_by(agent, way, question)
    if way == "stream":
        assert [type(e).__name__ for e in events] == [
            "ActionEvent", "ObservationEvent", "FinalAnswerEvent", "RunFinished",
        ]  # fmt: skip
        assert events[2].returned_by == "lookup_order"
    assert result["output"] == "Order 17: shipped on 2 December."
    assert (result["stop_reason"], result["iterations"], len(model.prompts)) == (
        "final_answer",
        1,
        1,
    )
    ((action, observation),) = result["intermediate_steps"]
    assert (action.tool, action.tool_input, observation) == (
        "lookup_order",
        "17",
        "Order 17: shipped on 2 December.",
    )
    assert isinstance(result["messages"][-1], ToolMessage)  # as create_agent ends such a run


@pytest.mark.parametrize(
    "options",
    [{"approval": "interrupt"}, {"interrupt_before": ["lookup_order"]}],
    ids=["requires_approval", "interrupt_before"],
)
@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream"])
def test_after_a_pause_the_tool_output_is_still_the_answer(script, way, options):
    """Approved after a pause, a `return_direct` tool ends the run as it does unpaused."""
    guarded = lookup_order.model_copy(update={"metadata": {"requires_approval": True}})
    model = script(STEP)  # one reply: a call after the resume would fail the script
    agent = CustomReActAgent(model.model, [guarded], **options)
    paused, _ = run_by(agent, way, "Where is order 17?")
    assert paused["stop_reason"] == "needs_approval"
    result, _ = run_by(agent, way, {"resume": paused["state"], "decision": {"approve": True}})
    assert (result["output"], result["stop_reason"]) == (
        "Order 17: shipped on 2 December.",
        "final_answer",
    )
    assert len(model.prompts) == 1


def test_a_tool_that_fails_goes_back_to_the_model(script):
    model = script(STEP.replace("17", "0"), "Final Answer: There is no order 0.")
    events = list(CustomReActAgent(model.model, [lookup_order]).stream("Order 0?"))
    assert [e.step.status for e in events if isinstance(e, ObservationEvent)] == ["error"]
    assert (
        isinstance(events[-1], RunFinished) and events[-1].result.output == "There is no order 0."
    )


@pytest.mark.parametrize(
    ("language", "label"),
    [
        ("en", "Final Answer (the output of lookup_order): "),
        ("zh", "最终答案（lookup_order 的输出）："),
    ],
)
def test_the_console_says_whose_output_the_answer_is(script, language, label):
    lines: list[str] = []
    printer = ConsolePrinter(lines.append, language=language, color=False, stream_tokens=False)
    agent = CustomReActAgent(script(STEPS[language]).model, [lookup_order], language=language)
    for event in agent.stream("Order 17?"):
        printer(event)
    assert lines[-1] == label + "Order 17: shipped on 2 December."
