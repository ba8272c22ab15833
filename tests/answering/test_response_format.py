"""`response_format=`: the Final Answer as a validated object, on a model with no tool calls."""

from __future__ import annotations

import json
from typing import TypedDict

import pytest
from pydantic import BaseModel

from custom_react import CustomReActAgent, FinalAnswerEvent, ParseFailure
from custom_react.answering import AnswerInvalid, AnswerSchema
from tests.conftest import run_by


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
QUESTIONS = {
    "en": "How much taller is the Skytree (634 m) than the Eiffel Tower (330 m)?",
    "zh": "晴空塔（634 米）比埃菲尔铁塔（330 米）高多少？",
}
QUESTION = QUESTIONS["en"]
# (an answer whose field is wrong, then a valid one) in each step format and language
REPLIES = {
    ("text", "en"): (
        'Thought: 634 - 330 is about 300\nFinal Answer: {"metres": "about 304"}',
        'Final Answer: {"metres": 304}',
    ),
    ("text", "zh"): (
        '思考：634 - 330 大约是 300\n最终答案：{"metres": "大约 304"}',
        '最终答案：{"metres": 304}',
    ),
    ("xml", "en"): (
        '<thought>634 - 330 is about 300</thought>\n<final_answer>{"metres": "about 304"}'
        "</final_answer>",
        '<final_answer>{"metres": 304}</final_answer>',
    ),
    ("xml", "zh"): (
        '<thought>634 - 330 大约是 300</thought>\n<final_answer>{"metres": "大约 304"}</final_answer>',
        '<final_answer>{"metres": 304}</final_answer>',
    ),
    ("json", "en"): (
        '{"thought": "634 - 330 is about 300", "final_answer": {"metres": "about 304"}}',
        '{"final_answer": {"metres": 304}}',
    ),
    ("json", "zh"): (
        '{"thought": "634 - 330 大约是 300", "final_answer": {"metres": "大约 304"}}',
        '{"final_answer": {"metres": 304}}',
    ),
}
OBSERVATION_OPENS = {"text": "\nObservation: ", "xml": "<observation>", "json": '{"observation": "'}
INVALID = {
    "en": "Invalid answer: field 'metres': Input should be a valid integer",
    "zh": "答案无效：字段 'metres'：Input should be a valid integer",
}
SCHEMA_IS = {
    "en": "The Final Answer must be one JSON object, and nothing else, that matches this JSON schema:",
    "zh": "最终答案必须是一个 JSON 对象（不要写别的内容），并符合下面的 JSON schema：",
}
WRITE_IT = {"en": "Write it like this: ", "zh": "写法示例："}
WRITTEN = {
    "text": "Final Answer: {...}",
    "xml": "<final_answer>{...}</final_answer>",
    "json": '{"final_answer": {...}}',
}


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("step_format", ["text", "xml", "json"])
@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream"])
def test_an_invalid_answer_goes_back_naming_the_field_then_the_object_is_returned(
    script, way, step_format, language
):
    model = script(*REPLIES[step_format, language])
    agent = CustomReActAgent(
        model.model, [], response_format=Diff, format=step_format, language=language
    )
    result, events = run_by(agent, way, QUESTIONS[language])
    assert isinstance(result["structured_response"], Diff)
    assert result["structured_response"] == Diff(metres=304)
    assert (result["output"], result["iterations"], result["stop_reason"]) == (
        '{"metres": 304}',
        2,
        "final_answer",
    )
    assert len(model.prompts) == 2
    assert OBSERVATION_OPENS[step_format] + INVALID[language] in model.prompts[1][-1].text
    schema = json.dumps(Diff.model_json_schema(), ensure_ascii=False)
    assert (
        model.prompts[0][0]
        .text.rstrip()
        .endswith(f"{SCHEMA_IS[language]}\n{schema}\n{WRITE_IT[language]}{WRITTEN[step_format]}")
    )
    if way == "stream":
        assert [type(event).__name__ for event in events] == [
            "ParseFailure",
            "FinalAnswerEvent",
            "RunFinished",
        ]


@pytest.mark.parametrize(
    ("schema", "missing"),
    [
        (Price, "field 'yuan': Field required"),
        (PRICE_SCHEMA, "field 'yuan': 'yuan' is a required property"),
    ],
    ids=["TypedDict", "JSON schema"],
)
def test_a_typed_dict_and_a_json_schema_give_a_dict(script, schema, missing):
    model = script(
        "Final Answer: {'item': 'rose'}",  # the price is missing: named in the error
        'Final Answer: ```json\n{"item": "rose", "yuan": 1.2}\n```',
    )
    result = CustomReActAgent(model.model, [], response_format=schema).invoke("Rose price?")
    assert result["structured_response"] == {"item": "rose", "yuan": 1.2}
    assert f"Observation: Invalid answer: {missing}. Write" in model.prompts[1][-1].text


def test_a_json_schema_names_each_missing_property_where_it_is_missing():
    schema = {
        "type": "object",
        "properties": {"items": {"type": "array", "items": {"required": ["name", "yuan"]}}},
        "required": ["total", "items"],
    }
    with pytest.raises(AnswerInvalid) as raised:
        AnswerSchema(schema).read('{"items": [{"yuan": 1}, {}]}', "zh")
    problems = str(raised.value).removeprefix("答案无效：").split("。")[0].split("; ")
    assert sorted(problems) == [
        "字段 'items.0.name'：'name' is a required property",
        "字段 'items.1.name'：'name' is a required property",
        "字段 'items.1.yuan'：'yuan' is a required property",
        "字段 'total'：'total' is a required property",
    ]


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


def strategies() -> list[object]:
    """LangChain's `response_format` shapes for `create_agent` (`langchain`, the legacy extra)."""
    structured = pytest.importorskip("langchain.agents.structured_output")
    return [
        structured.ToolStrategy(Diff),
        structured.ProviderStrategy(Diff),
        structured.AutoStrategy(Diff),
        structured.ToolStrategy(PRICE_SCHEMA),
    ]


def test_a_schema_in_one_of_langchain_s_strategies_is_read_as_the_schema(script):
    for strategy in strategies():
        expected = {"metres": 304} if strategy.schema is Diff else {"item": "rose", "yuan": 1.2}
        model = script(f"Final Answer: {json.dumps(expected)}")
        agent = CustomReActAgent(model.model, [], response_format=strategy)
        result = agent.invoke(QUESTION)
        assert result["structured_response"] == (
            Diff(**expected) if strategy.schema is Diff else expected
        )
        assert '"title": "' in model.prompts[0][0].text  # the schema itself, in the prompt


def test_a_schema_that_is_none_of_the_kinds_fails_when_the_agent_is_built(script):
    with pytest.raises(TypeError, match="response_format takes a Pydantic model"):
        CustomReActAgent(script().model, [], response_format=42)


def test_the_reader_forgives_what_small_models_write_around_the_json():
    schema = AnswerSchema(Diff)
    value, written = schema.read("The answer is {metres: 304,} as computed.")
    assert value == Diff(metres=304) and written == '{"metres": 304}'
    with pytest.raises(AnswerInvalid, match="one JSON object"):
        schema.read("about 304 metres")


def test_an_answer_sent_back_is_read_again_with_plain_markers(script):
    # A Chinese reply in Chinese markers parses; the model then reads it as the prompt taught it
    # (plain markers), as it reads an Action, not as "Thought: 思考：...".
    model = script('思考：算一下\n最终答案：{"m": 1}', '思考：好\n最终答案：{"metres": 304}')
    result = CustomReActAgent(model.model, [], response_format=Diff, language="zh").invoke(
        "差多少？"
    )
    assert result["structured_response"] == Diff(metres=304)
    scratchpad = model.prompts[1][-1].text
    assert 'Thought: 算一下\nFinal Answer: {"m": 1}\nObservation: 答案无效' in scratchpad
    assert "思考：" not in scratchpad


@pytest.mark.parametrize("step_format", ["text", "xml", "json"])
def test_an_answer_generated_at_a_limit_is_held_to_the_schema(script, tools, step_format):
    """`early_stopping_method="generate"`: the last answer is read with the schema as well."""
    wrong, right = REPLIES[step_format, "en"]
    first = {"text": "Action: calculator\nAction Input: 634 - 330"}
    first |= {"xml": "<action>calculator(634 - 330)</action>"}
    first |= {"json": '{"action": "calculator", "action_input": "634 - 330"}'}
    for answer, structured in ((right, Diff(metres=304)), (wrong, None)):
        agent = CustomReActAgent(
            script(first[step_format], answer).model,
            tools,
            response_format=Diff,
            format=step_format,
            max_iterations=1,
            early_stopping_method="generate",
        )
        result = agent.invoke(QUESTION)
        assert result["structured_response"] == structured
        assert result["stop_reason"] == "max_iterations"
        if structured is None:  # not the JSON asked for: the limit's message, not the answer
            assert result["output"] == result["error"] != ""
        else:
            assert json.loads(result["output"]) == {"metres": 304}
            assert result["error"] == ""


def test_the_output_writes_a_field_by_its_alias_as_the_schema_asks(script):
    """The prompt shows the schema's names (the aliases); the output JSON reads back with it."""
    from pydantic import Field

    class Answer(BaseModel):
        item_name: str = Field(alias="item")
        yuan: float

    model = script('Final Answer: {"item": "rose", "yuan": 1.05}')
    result = CustomReActAgent(model.model, [], response_format=Answer).invoke("rose?")
    assert json.loads(result["output"]) == {"item": "rose", "yuan": 1.05}
    assert Answer.model_validate_json(result["output"]) == result["structured_response"]
