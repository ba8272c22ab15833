"""A Final Answer that only repeats the loop's own message to the model goes back, in every format.

Told that a call was refused ("convert_currency was not run: ... write the Action again ..."),
a small model sometimes copies that message as its Final Answer, and the user would read
instructions meant for the model. The loop sends such an answer back like a format error; an
answer that repeats a tool's own result, or a short one, is an answer. Scripted models, in invoke,
ainvoke and stream, and the answer stream.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.tools import StructuredTool, tool

from custom_react import CustomReActAgent
from custom_react.answering.echo import loop_messages, repeats_loop_message
from custom_react.prompts import load_messages
from custom_react.steps import ParseFailure, ToolStep
from custom_react.testing import Script
from tests.conftest import run_by

QUESTION = "How many kilometres is a marathon?"
CONVERT_SCHEMA = {
    "type": "object",
    "properties": {"amount": {"type": "number"}, "to": {"type": "string"}},
    "required": ["amount", "to"],
}
COPIED_CALL = {  # keeps the tool list's example value 0.0: refused once, not run
    "text": 'Thought: t\nAction: convert_currency\nAction Input: {"amount": 0.0, "to": "EUR"}',
    "xml": '<thought>t</thought><action>convert_currency(amount=0.0, to="EUR")</action>',
    "json": '{"thought": "t", "action": "convert_currency", '
    '"action_input": {"amount": 0.0, "to": "EUR"}}',
}


def answer(step_format: str, text: str) -> str:
    """A reply holding `text` as the Final Answer, in `step_format`."""
    if step_format == "xml":
        return f"<final_answer>{text}</final_answer>"
    if step_format == "json":
        return json.dumps({"final_answer": text})
    return f"Final Answer: {text}"


def convert_tool(calls: list[Any]) -> StructuredTool:
    return StructuredTool.from_function(
        func=lambda **args: calls.append(args) or "converted",
        name="convert_currency",
        description="Convert an amount of money into another currency.",
        args_schema=CONVERT_SCHEMA,
    )


def first_observation(step_format: str, language: str = "en") -> str:
    """What the loop tells the model after the copied call (a run of its own)."""
    model = Script(COPIED_CALL[step_format], answer(step_format, "42 km"))
    agent = CustomReActAgent(model.model, [convert_tool([])], format=step_format, language=language)
    ((_, observation),) = agent.invoke(QUESTION)["intermediate_steps"]
    assert "convert_currency" in observation and "0.0" in observation
    return observation


@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream"])
@pytest.mark.parametrize("step_format", ["text", "xml", "json"])
def test_an_answer_repeating_a_refusal_goes_back(script: Any, step_format: str, way: str):
    refusal = first_observation(step_format)
    calls: list[Any] = []
    model = script(
        COPIED_CALL[step_format],
        answer(step_format, refusal),  # the refusal, copied as the answer
        answer(step_format, "About 42 km."),
    )
    agent = CustomReActAgent(model.model, [convert_tool(calls)], format=step_format)
    result, events = run_by(agent, way, QUESTION)
    assert result["output"] == "About 42 km." and calls == []
    (_, (action, echo_error)) = result["intermediate_steps"]
    assert action.tool == "_Exception"
    assert echo_error == load_messages("en")["answer_echo"]
    assert "answer_echo" not in model.model.prompts[2][-1].text  # the model read the message
    assert load_messages("en")["answer_echo"] in model.model.prompts[2][-1].text
    if events:
        assert [type(e) for e in events if isinstance(e, ParseFailure)] == [ParseFailure]


def test_a_copy_cut_short_goes_back_and_the_message_is_in_chinese(script: Any):
    refusal = first_observation("text", "zh")
    model = script(
        COPIED_CALL["text"],
        answer("text", refusal[: len(refusal) * 3 // 4]),
        answer("text", "大约 42 公里。"),
    )
    agent = CustomReActAgent(model.model, [convert_tool([])], language="zh")
    result = agent.invoke("马拉松有多少公里？")
    assert result["output"] == "大约 42 公里。"
    assert result["intermediate_steps"][1][1] == load_messages("zh")["answer_echo"]


def test_an_answer_repeating_the_tools_result_is_an_answer(script: Any):
    @tool
    def lookup(query: str) -> str:
        """Look something up."""
        return "A marathon is 42.195 kilometres long, by the rules of World Athletics."

    model = script(
        "Thought: t\nAction: lookup\nAction Input: marathon length",
        "Final Answer: A marathon is 42.195 kilometres long, by the rules of World Athletics.",
    )
    result = CustomReActAgent(model.model, [lookup]).invoke(QUESTION)
    assert result["output"].startswith("A marathon is 42.195")
    assert len(result["intermediate_steps"]) == 1


def test_a_short_answer_after_a_refusal_is_an_answer(script: Any):
    model = script(COPIED_CALL["text"], "Final Answer: 42 km")
    result = CustomReActAgent(model.model, [convert_tool([])]).invoke(QUESTION)
    assert result["output"] == "42 km"


@pytest.mark.parametrize(
    "first_reply",
    [
        "Thought: t\nAction: teleport\nAction Input: home",  # an unknown tool
        "Thought: t\nAction:\nAction Input: home",  # a format error: no tool named
    ],
)
def test_an_answer_repeating_any_loop_message_goes_back(script: Any, first_reply: str):
    probe = Script(first_reply, "Final Answer: x")
    ((_, message),) = CustomReActAgent(probe.model, [convert_tool([])]).invoke(QUESTION)[
        "intermediate_steps"
    ]
    model = script(first_reply, f"Final Answer: {message}", "Final Answer: About 42 km.")
    result = CustomReActAgent(model.model, [convert_tool([])]).invoke(QUESTION)
    assert result["output"] == "About 42 km."
    assert result["intermediate_steps"][-1][1] == load_messages("en")["answer_echo"]


def test_the_answer_stream_never_gives_out_the_copied_message(script: Any):
    refusal = first_observation("text")
    model = script(COPIED_CALL["text"], f"Final Answer: {refusal}", "Final Answer: About 42 km.")
    agent = CustomReActAgent(model.model, [convert_tool([])])
    assert "".join(agent.stream_final_answer(QUESTION)) == "About 42 km."


def test_at_the_step_limit_a_copied_message_is_not_the_answer(script: Any):
    refusal = first_observation("text")
    model = script(COPIED_CALL["text"], f"Final Answer: {refusal}")
    agent = CustomReActAgent(
        model.model, [convert_tool([])], max_iterations=1, early_stopping_method="generate"
    )
    result = agent.invoke(QUESTION)
    assert result["stop_reason"] == "max_iterations" and refusal not in result["output"]


def test_which_answers_count_as_a_copy():
    refused = ToolStep("search", {"query": "x"}, "t", "log").observed(
        "search was not run: its calls are used up; write the Final Answer now.", "over_budget"
    )
    ran = ToolStep("search", {"query": "x"}, "t", "log").observed(
        "search was not run: the server said so.", "ok"
    )
    said = loop_messages([refused, ran])
    assert said == [refused.observation]  # the tool's own result is not the loop's message
    assert repeats_loop_message("Observation: " + refused.observation + " Sorry.", said)
    assert repeats_loop_message(refused.observation[:50], said)  # most of it
    assert not repeats_loop_message(refused.observation[:30], said)  # a start only
    assert not repeats_loop_message("used up", said)  # too short to be a copy
