"""`response_format=`: the Final Answer as a validated object, on a model with no tool calls."""

from __future__ import annotations

import asyncio
import json
from typing import Any, TypedDict

import pytest
from pydantic import BaseModel

from custom_react import CustomReActAgent, FinalAnswerEvent, ParseFailure, RunFinished
from custom_react.answering import AnswerInvalid, AnswerSchema


class Diff(BaseModel):
    """The difference between two heights."""

    metres: int


class Price(TypedDict):
    item: str
    yuan: float


PRICE_SCHEMA = {
    "title": "Price",
    "type": "object",
    "properties": {"item": {"type": "string"}, "yuan": {"type": "number"}},
    "required": ["item", "yuan"],
}
QUESTION = "How much taller is the Skytree (634 m) than the Eiffel Tower (330 m)?"


def run(
    agent: CustomReActAgent, way: str, question: str = QUESTION
) -> tuple[dict[str, Any], list[Any]]:
    """One run by `invoke`, `ainvoke` or `stream`: the result and the events (none for the first two)."""
    if way == "invoke":
        return agent.invoke(question), []
    if way == "ainvoke":
        return asyncio.run(agent.ainvoke(question)), []
    events = list(agent.stream(question))
    assert isinstance(events[-1], RunFinished)
    return events[-1].result.to_dict(), events


@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream"])
def test_an_invalid_answer_goes_back_naming_the_field_then_the_object_is_returned(script, way):
    model = script(
        'Thought: 634 - 330 is about 300\nFinal Answer: {"metres": "about 304"}',
        'Final Answer: {"metres": 304}',
    )
    result, events = run(CustomReActAgent(model.model, [], response_format=Diff), way)
    assert result["structured_response"] == Diff(metres=304)
    assert (result["output"], result["iterations"], result["stop_reason"]) == (
        '{"metres": 304}',
        2,
        "final_answer",
    )
    observation = model.prompts[1][-1].text
    assert "Observation: Invalid answer: field 'metres'" in observation
    assert "valid integer" in observation
    if way == "stream":
        assert [type(event).__name__ for event in events] == [
            "ParseFailure",
            "FinalAnswerEvent",
            "RunFinished",
        ]


def test_the_prompt_states_the_schema_and_how_to_write_the_answer(script):
    model = script('Final Answer: {"metres": 304}')
    CustomReActAgent(model.model, [], response_format=Diff).invoke(QUESTION)
    system = model.prompts[0][0].text
    assert json.dumps(Diff.model_json_schema(), ensure_ascii=False) in system
    assert system.rstrip().endswith("Final Answer: {...}")


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        (Price, {"item": "rose", "yuan": 1.2}),
        (PRICE_SCHEMA, {"item": "rose", "yuan": 1.2}),
    ],
    ids=["TypedDict", "JSON schema"],
)
def test_a_typed_dict_and_a_json_schema_give_a_dict(script, schema, expected):
    model = script(
        "Final Answer: {'item': 'rose'}",  # the price is missing: named in the error
        'Final Answer: ```json\n{"item": "rose", "yuan": 1.2}\n```',
    )
    result = CustomReActAgent(model.model, [], response_format=schema).invoke("Rose price?")
    assert result["structured_response"] == expected
    assert "yuan" in model.prompts[1][-1].text


@pytest.mark.parametrize(
    ("step_format", "invalid", "valid"),
    [
        (
            "xml",
            "<final_answer>304 m</final_answer>",
            '<final_answer>{"metres": 304}</final_answer>',
        ),
        ("json", '{"final_answer": "304 m"}', '{"final_answer": {"metres": 304}}'),
    ],
)
def test_the_xml_and_json_formats_read_the_answer_into_the_schema(
    script, step_format, invalid, valid
):
    model = script(invalid, valid)
    agent = CustomReActAgent(model.model, [], response_format=Diff, format=step_format)
    result = agent.invoke(QUESTION)
    assert result["structured_response"] == Diff(metres=304)
    written = (
        "<final_answer>{...}</final_answer>" if step_format == "xml" else '{"final_answer": {...}}'
    )
    assert written in model.prompts[0][0].text
    assert "Invalid answer" in model.prompts[1][-1].text


def test_a_chinese_run_is_told_in_chinese(script):
    model = script("Final Answer: 大约 304 米", 'Final Answer: {"metres": 304}')
    result = CustomReActAgent(model.model, [], response_format=Diff, language="zh").invoke(
        "高多少？"
    )
    assert result["structured_response"] == Diff(metres=304)
    assert "最终答案必须是一个 JSON 对象" in model.prompts[0][0].text
    assert "答案无效" in model.prompts[1][-1].text


def test_invalid_answers_count_like_format_errors(script):
    model = script(*["Final Answer: 304"] * 3)
    agent = CustomReActAgent(
        model.model, [], response_format=Diff, max_consecutive_parse_failures=3
    )
    events = list(agent.stream(QUESTION))
    assert [e.consecutive for e in events if isinstance(e, ParseFailure)] == [1, 2, 3]
    assert events[-1].result.stop_reason == "parse_failures"
    assert events[-1].result.structured_response is None
    assert not any(isinstance(e, FinalAnswerEvent) for e in events)


def test_a_tool_step_between_two_answers_runs_as_usual(script, tools):
    model = script(
        "Final Answer: 304",
        "Thought: compute it\nAction: calculator\nAction Input: 634 - 330",
        'Final Answer: {"metres": 304}',
    )
    result = CustomReActAgent(model.model, tools, response_format=Diff).invoke(QUESTION)
    assert result["structured_response"] == Diff(metres=304)
    assert result["intermediate_steps"][-1][1] == "304"


def test_a_schema_that_is_none_of_the_kinds_fails_when_the_agent_is_built(script):
    with pytest.raises(TypeError, match="response_format takes a Pydantic model"):
        CustomReActAgent(script().model, [], response_format=42)


def test_the_reader_forgives_what_small_models_write_around_the_json():
    schema = AnswerSchema(Diff)
    value, written = schema.read("The answer is {metres: 304,} as computed.")
    assert value == Diff(metres=304) and written == '{"metres": 304}'
    with pytest.raises(AnswerInvalid, match="one JSON object"):
        schema.read("about 304 metres")
