"""A call that keeps the tool list's example values is refused once, in every format.

A tool with several arguments is shown by a JSON example whose values are placeholders of their
types (`{"amount": 0.0, "to": "..."}`). Asked what no tool does, a small model copies them and
calls a tool anyway; the loop refuses such a call (`placeholder_input`), says that answering
without a tool is allowed, and runs it when the model writes it again. A zero the question or a
result writes is meant. Scripted models, in invoke, ainvoke and stream.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.tools import BaseTool, StructuredTool, tool
from pydantic import BaseModel

from custom_react import CustomReActAgent
from custom_react.argument_checks import example_values
from custom_react.events import ObservationEvent
from custom_react.steps import ToolStep
from custom_react.tool_schemas import input_example
from tests.conftest import run_by

CONVERT_SCHEMA = {
    "type": "object",
    "properties": {
        "amount": {"type": "number", "description": "How much money."},
        "to": {"type": "string", "description": "The currency to convert into."},
        "rounding": {"type": "integer", "default": 2},
        "exact": {"type": "boolean"},
    },
    "required": ["amount", "to", "exact"],
}
QUESTION = "How many kilometres is a marathon?"


def statuses(agent: CustomReActAgent, question: str) -> list[str]:
    """The status of each step's Observation, as the stream gives them."""
    return [e.step.status for e in agent.stream(question) if isinstance(e, ObservationEvent)]


def convert_tool(calls: list[dict[str, Any]]) -> StructuredTool:
    def convert_currency(**args: Any) -> str:
        calls.append(args)
        return "converted"

    return StructuredTool.from_function(
        func=convert_currency,
        name="convert_currency",
        description="Convert an amount of money into another currency.",
        args_schema=CONVERT_SCHEMA,
    )


COPIED = {
    "text": 'Thought: t\nAction: convert_currency\nAction Input: {"amount": 0.0, "to": "EUR", '
    '"exact": false}',
    "xml": '<thought>t</thought><action>convert_currency(amount=0.0, to="EUR", exact=False)'
    "</action>",
    "json": '{"thought": "t", "action": "convert_currency", "action_input": '
    '{"amount": 0.0, "to": "EUR", "exact": false}}',
}
ANSWER = {
    "text": "Final Answer: about 42 km",
    "xml": "<final_answer>about 42 km</final_answer>",
    "json": '{"final_answer": "about 42 km"}',
}


@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream"])
@pytest.mark.parametrize("step_format", ["text", "xml", "json"])
def test_a_call_keeping_the_examples_zero_is_not_run(script: Any, step_format: str, way: str):
    calls: list[dict[str, Any]] = []
    model = script(COPIED[step_format], ANSWER[step_format])
    agent = CustomReActAgent(model.model, [convert_tool(calls)], format=step_format)
    result, events = run_by(agent, way, QUESTION)
    assert calls == [] and result["output"] == "about 42 km"
    ((_, observation),) = result["intermediate_steps"]
    if events:
        (observed,) = [event for event in events if isinstance(event, ObservationEvent)]
        assert observed.step.status == "placeholder_input"
    assert "amount=0.0" in observation and "without a tool" in observation
    assert "amount=0.0" in model.prompts[1][-1].content  # the model read why


def test_the_same_call_written_again_runs(script: Any):
    calls: list[dict[str, Any]] = []
    model = script(COPIED["text"], COPIED["text"], ANSWER["text"])
    agent = CustomReActAgent(model.model, [convert_tool(calls)])
    assert statuses(agent, QUESTION) == ["placeholder_input", "ok"]
    assert calls == [{"amount": 0.0, "to": "EUR", "exact": False}]


def test_a_call_with_a_value_of_its_own_runs(script: Any):
    calls: list[dict[str, Any]] = []
    fixed = COPIED["text"].replace("0.0", "12.5")
    model = script(COPIED["text"], fixed, ANSWER["text"])
    agent = CustomReActAgent(model.model, [convert_tool(calls)])
    assert statuses(agent, QUESTION) == ["placeholder_input", "ok"] and calls[0]["amount"] == 12.5


@pytest.mark.parametrize(
    "question", ["Convert 0 dollars to EUR.", "Convert 0.0 USD to EUR", "换算 0 美元"]
)
def test_a_zero_the_question_gives_runs_at_once(script: Any, question: str):
    calls: list[dict[str, Any]] = []
    model = script(COPIED["text"], ANSWER["text"])
    agent = CustomReActAgent(model.model, [convert_tool(calls)])
    assert statuses(agent, question) == ["ok"] and len(calls) == 1


@tool
def balance(account: str) -> str:
    """The balance of an account."""
    return "The balance is 0 dollars."


def test_a_zero_an_observation_gives_runs_at_once(script: Any):
    calls: list[dict[str, Any]] = []
    first = "Action: balance\nAction Input: savings"
    model = script(first, COPIED["text"], ANSWER["text"])
    agent = CustomReActAgent(model.model, [balance, convert_tool(calls)])
    assert statuses(agent, "Convert my savings to EUR.") == ["ok", "ok"] and len(calls) == 1


def test_the_refusal_is_in_the_agents_language(script: Any):
    calls: list[dict[str, Any]] = []
    model = script(COPIED["text"], "Final Answer: 约 42 公里")
    agent = CustomReActAgent(model.model, [convert_tool(calls)], language="zh")
    result = agent.invoke("马拉松有多少公里？")
    ((_, observation),) = result["intermediate_steps"]
    assert "示例的占位值" in observation and "amount=0.0" in observation and calls == []


class Range(BaseModel):
    low: float
    high: float


@tool
def plot(title: str, window: Range, points: list[int]) -> str:
    """Plot points."""
    return "plotted"


@tool
def square(n: int) -> int:
    """Square a number."""
    return n * n


def _kept(target: BaseTool, args: dict[str, Any], question: str = QUESTION) -> list[str]:
    return example_values(target, args, question, [])


def test_which_values_count_as_the_examples() -> None:
    convert = convert_tool([])
    assert input_example(convert) == {"amount": 0.0, "to": "...", "exact": False}
    assert _kept(convert, {"amount": 0, "to": "...", "exact": False}) == ["amount", "to"]
    assert _kept(convert, {"amount": 0.5, "to": "…", "exact": False}) == ["to"]
    # a default, an optional argument and `false` are values of their own
    assert _kept(convert, {"amount": 3, "to": "EUR", "exact": False, "rounding": 0}) == []
    example = input_example(plot)
    assert example == {"title": "...", "window": {"low": 0.0, "high": 0.0}, "points": []}
    assert _kept(plot, example) == ["title", "window", "points"]
    assert _kept(plot, {"title": "t", "window": {"low": 0.0, "high": 5.0}, "points": [1]}) == []
    # one plain argument is not shown by an example: its zero is not a copy
    assert _kept(square, {"n": 0}) == []


@pytest.mark.parametrize(
    ("question", "kept"),
    [
        ("from 0 to 10", ["title", "points"]),
        ("it costs 10 or 0.5 or 100", ["title", "window", "points"]),
        ("version v2.0", ["title", "window", "points"]),
    ],
)
def test_only_a_zero_written_as_a_number_is_given(question: str, kept: list[str]) -> None:
    example = input_example(plot)
    assert _kept(plot, example, question) == kept


def test_a_zero_in_an_observation_counts(script: Any) -> None:
    step = ToolStep(tool="balance", tool_input="x", log="", observation="0 left")
    assert example_values(plot, input_example(plot), QUESTION, [step]) == ["title", "points"]
