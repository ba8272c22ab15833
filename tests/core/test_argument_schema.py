"""The Action Input checked against the tool's schema: JSON-schema and pydantic tools alike.

An unambiguous coercion (`"10"` to 10, `"true"` to true, one value to `[value]`) is made, and the
step keeps both the input as written and the arguments the tool ran with; an input that still
breaks the schema goes back as the Observation (the argument, its type, the allowed values), in
every format, and as a format error in `TextReActMiddleware`. Scripted models, in invoke, ainvoke
and stream; the tool list shows typed examples and one line per argument.
"""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Any, Literal

import pytest
from langchain_core.messages import AIMessage
from langchain_core.tools import StructuredTool, tool
from pydantic import AliasChoices, BaseModel, ConfigDict, Field

from custom_react import CustomReActAgent
from custom_react.argument_checks import argument_problem
from custom_react.arguments import bind_arguments, coerce
from custom_react.formats import get_format
from custom_react.prompt import describe_input
from custom_react.testing import Script
from tests.conftest import run_by

WAYS = ["invoke", "ainvoke", "stream"]
AREA_SCHEMA = {
    "type": "object",
    "properties": {
        "base": {"type": "integer", "description": "The base."},
        "height": {"type": "number", "description": "The height."},
        "unit": {"type": "string", "enum": ["cm", "m"], "default": "cm"},
        "exact": {"type": "boolean"},
        "tags": {"type": "array", "items": {"type": "integer"}},
    },
    "required": ["base", "height"],
}


def area_tool(calls: list[dict[str, Any]]) -> StructuredTool:
    def area(**args: Any) -> str:
        calls.append(args)
        return "area computed"

    return StructuredTool.from_function(
        func=area, name="area", description="Area of a triangle.", args_schema=AREA_SCHEMA
    )


@tool
def repeat(word: str, times: int, loud: bool = False) -> str:
    """Repeat a word."""
    return " ".join([word.upper() if loud else word] * times)


@pytest.mark.parametrize(
    ("value", "schema", "expected"),
    [
        ("10", {"type": "integer"}, 10),
        (" -3 ", {"type": "integer"}, -3),
        (5.0, {"type": "integer"}, 5),
        ("2.5", {"type": "number"}, 2.5),
        ("7", {"type": "number"}, 7),
        ("true", {"type": "boolean"}, True),
        ("False", {"type": "boolean"}, False),
        ("a", {"type": "array", "items": {"type": "string"}}, ["a"]),
        ("3", {"type": "array", "items": {"type": "integer"}}, [3]),
        ('[1, "2"]', {"type": "array", "items": {"type": "integer"}}, [1, 2]),
        ('{"a": 1}', {"type": "object"}, {"a": 1}),
        (12, {"type": "string"}, "12"),
        ("12", {"anyOf": [{"type": "integer"}, {"type": "null"}]}, 12),
        # every digit kept: never read through a float
        ("9007199254740993", {"type": "integer"}, 9007199254740993),
        ("18446744073709551617", {"type": "number"}, 18446744073709551617),
        ("1e3", {"type": "integer"}, 1000),
        # ambiguous or impossible: left for the check to name
        ("1.0000000000000001", {"type": "integer"}, "1.0000000000000001"),
        ("1e999999999", {"type": "integer"}, "1e999999999"),
        ("9" * 5000, {"type": "integer"}, "9" * 5000),
        ("2.5", {"type": "integer"}, "2.5"),
        ("ten", {"type": "integer"}, "ten"),
        ("yes", {"type": "boolean"}, "yes"),
        (True, {"type": "integer"}, True),
        ("1", {"anyOf": [{"type": "integer"}, {"type": "string"}]}, "1"),
    ],
)
def test_only_unambiguous_coercions_are_made(value: Any, schema: Any, expected: Any) -> None:
    assert coerce(value, schema) == expected
    assert type(coerce(value, schema)) is type(expected)


def test_a_pydantic_tool_is_coerced_and_checked_like_a_json_schema_tool() -> None:
    args, written = bind_arguments(repeat, {"word": "hi", "times": "3", "loud": "true"})
    assert args == {"word": "hi", "times": 3, "loud": True}
    assert written == {"word": "hi", "times": "3", "loud": "true"}  # as the model wrote it
    problem = argument_problem(repeat, {"word": "hi", "times": "many"})
    assert problem is not None and "times" in problem and "integer" in problem


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ({"base": "ten", "height": 2}, ["base", "integer", '"ten"']),
        ({"base": 1, "height": 2, "unit": "km"}, ["unit", '"cm", "m"', '"km"']),
        ({"height": 2}, ["base", "integer", "missing"]),
        ({"base": 1, "height": 2, "size": 3}, ["size", "base, height, unit, exact, tags"]),
    ],
)
def test_an_input_that_breaks_the_schema_is_named_with_its_type_or_values(
    args: dict[str, Any], words: list[str]
) -> None:
    problem = argument_problem(area_tool([]), args)
    assert problem is not None
    assert all(word in problem for word in words), problem


class Line(BaseModel):
    item: str
    qty: int


def place_order(line: Line, note: str = "") -> str:
    """Place an order for one line."""
    return f"placed {line.item}"


LINE = {
    "type": "object",
    "properties": {"item": {"type": "string"}, "qty": {"type": "integer"}},
    "required": ["item", "qty"],
}
ORDER_SCHEMA = {  # as an MCP server sends a nested object: a `$ref` into `$defs`
    "type": "object",
    "properties": {
        "line": {"$ref": "#/$defs/Line"},
        "extra": {"type": "array", "items": {"$ref": "#/$defs/Line"}},
        "rush": {"anyOf": [{"$ref": "#/$defs/Speed"}, {"type": "null"}]},
    },
    "required": ["line", "rush"],
    "$defs": {"Line": LINE, "Speed": {"type": "string", "enum": ["fast", "slow"]}},
}
LINE_ROSE = {"item": "rose", "qty": 3}


@pytest.mark.parametrize(
    ("schema", "args", "named"),
    [
        (None, {"line": {"item": "rose"}}, "argument line.qty (a JSON integer) is missing"),
        (None, {"note": "x"}, "argument line (a JSON object) is missing"),
        (ORDER_SCHEMA, {"line": {"qty": 3}, "rush": None}, "line.item (a JSON string) is missing"),
        (ORDER_SCHEMA, {"rush": "fast"}, "argument line (a JSON object) is missing"),
        (ORDER_SCHEMA, {"line": LINE_ROSE}, "argument rush (a JSON string) is missing"),
        (
            ORDER_SCHEMA,
            {"line": LINE_ROSE, "extra": [LINE_ROSE, {"item": "tulip"}], "rush": None},
            "argument extra.1.qty (a JSON integer) is missing",
        ),
    ],
)
def test_a_missing_field_is_named_by_its_path_with_its_type(
    schema: dict[str, Any] | None, args: dict[str, Any], named: str
) -> None:
    # Named alone (`qty`, "a JSON any"), a nested field read as a missing top-level argument.
    order = StructuredTool.from_function(place_order, args_schema=schema)
    assert named in (argument_problem(order, args) or "")
    if "line.qty" in named:
        assert "参数 line.qty（JSON integer）" in (argument_problem(order, args, "zh") or "")


def test_a_model_that_adds_the_missing_field_where_it_is_named_runs_the_tool() -> None:
    replies = [
        'Action: place_order\nAction Input: {"line": {"item": "rose"}}',
        'Action: place_order\nAction Input: {"line": {"item": "rose", "qty": 3}}',
        "Final Answer: ordered",
    ]
    order = StructuredTool.from_function(place_order)
    result = CustomReActAgent(Script(*replies).model, [order]).invoke("Order 3 roses.")
    (refused, _), (placed, _) = [(obs, step) for step, obs in result["intermediate_steps"]]
    assert "line.qty" in refused and placed == "placed rose"


def test_an_unknown_argument_is_refused_with_the_input_left_without_it() -> None:
    problem = argument_problem(area_tool([]), {"base": 1, "height": 2, "size": 3})
    assert problem is not None and problem.endswith('Action Input: {"base": 1, "height": 2}')
    # Without it the input would still break the schema (height missing): no input is offered.
    problem = argument_problem(area_tool([]), {"base": 1, "size": 3})
    assert problem is not None and "size" in problem and '{"base": 1}' not in problem
    problem = argument_problem(area_tool([]), {"base": 1, "height": 2, "size": 3}, "zh")
    assert problem is not None and problem.endswith('写成：{"base": 1, "height": 2}')


def test_the_chinese_message_comes_from_the_chinese_table() -> None:
    problem = argument_problem(area_tool([]), {"base": "ten", "height": 2}, "zh")
    assert problem is not None and "没有运行" in problem and "base" in problem


@pytest.mark.parametrize("way", WAYS)
def test_the_loop_coerces_records_both_and_sends_a_bad_input_back(script: Any, way: str) -> None:
    calls: list[dict[str, Any]] = []
    model = script(
        'Thought: area.\nAction: area\nAction Input: {"base": "ten", "height": "2.5"}',
        'Thought: again.\nAction: area\nAction Input: {"base": "10", "height": "2.5"}',
        "Final Answer: 12.5",
    )
    agent = CustomReActAgent(model.model, [area_tool(calls)])
    result, _ = run_by(agent, way, "Area of base 10, height 2.5?")
    assert calls == [{"base": 10, "height": 2.5}]  # only the valid input ran, coerced
    (refused, _), (ran, observation) = result["intermediate_steps"]
    assert refused.tool_input == {"base": "ten", "height": "2.5"}
    assert ran.tool_input == {"base": "10", "height": "2.5"}  # the input as written ...
    replies = [m for m in result["messages"] if isinstance(m, AIMessage) and m.tool_calls]
    tool_calls = [m.tool_calls[0] for m in replies]
    assert tool_calls[1]["args"] == {"base": 10, "height": 2.5}  # ... and as it ran
    assert observation == "area computed"
    second_prompt = model.prompts[1][-1].content
    assert "base takes a JSON integer" in second_prompt and '"ten"' in second_prompt


@pytest.mark.parametrize("step_format", ["xml", "json"])
def test_every_format_checks_the_input(script: Any, step_format: str) -> None:
    calls: list[dict[str, Any]] = []
    wrong = {
        "xml": '<thought>t</thought><action>area(base=1, height=2, unit="km")</action>',
        "json": '{"thought": "t", "action": "area", "action_input": '
        '{"base": 1, "height": 2, "unit": "km"}}',
    }[step_format]
    answer = {"xml": "<final_answer>2</final_answer>", "json": '{"final_answer": "2"}'}
    model = script(wrong, answer[step_format])
    agent = CustomReActAgent(model.model, [area_tool(calls)], format=step_format)
    result = agent.invoke("Area?")
    assert calls == [] and result["output"] == "2"
    ((_, observation),) = result["intermediate_steps"]
    assert '"cm", "m"' in observation


WORDS_AROUND = {
    "text": 'Thought: t\nAction: area\nAction Input: a JSON object such as {"base": 4, "height": 2}',
    "json": '{"thought": "t", "action": "area", '
    '"action_input": "a JSON object such as {\\"base\\": 4, \\"height\\": 2}"}',
}


@pytest.mark.parametrize("step_format", ["text", "json", "middleware"])
def test_the_arguments_written_inside_other_words_run(script: Any, step_format: str) -> None:
    # The tool list's "a JSON object such as {...}" copied before the object: the object runs.
    calls: list[dict[str, Any]] = []
    answer = '{"final_answer": "4"}' if step_format == "json" else "Final Answer: 4"
    model = script(WORDS_AROUND.get(step_format, WORDS_AROUND["text"]), answer)
    if step_format == "middleware":
        pytest.importorskip("langchain.agents")
        from langchain.agents import create_agent

        from custom_react.integrations.create_agent import TextReActMiddleware

        graph = create_agent(model.model, [area_tool(calls)], middleware=[TextReActMiddleware()])
        assert graph.invoke({"messages": [("user", "Area?")]})["messages"][-1].content == "4"
    else:
        agent = CustomReActAgent(model.model, [area_tool(calls)], format=step_format)
        assert agent.invoke("Area?")["output"] == "4"
    assert calls == [{"base": 4, "height": 2}]


@pytest.mark.parametrize("step_format", ["text", "xml", "json", "middleware"])
def test_an_action_with_no_input_names_the_argument_it_needs(script: Any, step_format: str) -> None:
    # Nothing written after the tool's name: its required argument is missing (a format error,
    # nothing ran), and an argument with a default takes it.
    seen: list[tuple[str, str]] = []

    @tool
    def lookup(query: str) -> str:
        """Look a query up."""
        seen.append(("lookup", query))
        return "found"

    @tool
    def list_files(directory: str = ".") -> str:
        """List the files of a directory."""
        seen.append(("list_files", directory))
        return "a.txt"

    replies = {
        "text": ("Thought: t\nAction: lookup", "Thought: t\nAction: list_files", "Final Answer: a"),
        "xml": ("<action>lookup</action>", "<action>list_files</action>", "<final_answer>a"),
        "json": ('{"action": "lookup"}', '{"action": "list_files"}', '{"final_answer": "a"}'),
    }
    model = script(*replies.get(step_format, replies["text"]))
    if step_format == "middleware":
        pytest.importorskip("langchain.agents")
        from langchain.agents import create_agent

        from custom_react.integrations.create_agent import TextReActMiddleware

        graph = create_agent(model.model, [lookup, list_files], middleware=[TextReActMiddleware()])
        assert graph.invoke({"messages": [("user", "Files?")]})["messages"][-1].content == "a"
    else:
        agent = CustomReActAgent(model.model, [lookup, list_files], format=step_format)
        result = agent.invoke("Files?")
        assert result["output"] == "a"
        statuses = [m.status for m in result["messages"] if m.type == "tool"]
        assert statuses == ["error", "success"]
    assert seen == [("list_files", ".")]
    assert "the required argument query (a JSON string) is missing" in model.prompts[1][-1].content


def test_a_tool_without_a_schema_still_gets_the_empty_text() -> None:
    from langchain_core.tools import Tool

    legacy = Tool(name="now", func=lambda _: "12:00", description="The time.")
    assert bind_arguments(legacy, "") == ({"tool_input": ""}, "")
    assert bind_arguments(repeat, "") == ({}, "")


def test_a_call_that_names_its_one_argument_with_a_colon_runs_with_the_value(script: Any) -> None:
    # `tool(religion: "Buddhism")`: the argument's name and a colon inside the call (XML format).
    seen: list[str] = []

    @tool
    def religion_origin(religion: str) -> str:
        """Where a religion began."""
        seen.append(religion)
        return "India"

    reply = '<thought>t</thought><action>religion_origin(religion: "Buddhism")</action>'
    model = script(reply, "<final_answer>India</final_answer>")
    agent = CustomReActAgent(model.model, [religion_origin], format="xml")
    assert agent.invoke("Where did Buddhism begin?")["output"] == "India"
    assert seen == ["Buddhism"]


def test_the_middleware_sends_a_bad_input_back_as_a_format_error(script: Any) -> None:
    pytest.importorskip("langchain.agents")
    from langchain.agents import create_agent

    from custom_react.integrations.create_agent import TextReActMiddleware

    calls: list[dict[str, Any]] = []
    model = script(
        'Thought: t\nAction: area\nAction Input: {"base": "ten", "height": 2}',
        'Thought: t\nAction: area\nAction Input: {"base": "4", "height": 2}',
        "Thought: done\nFinal Answer: 4",
    )
    graph = create_agent(model.model, [area_tool(calls)], middleware=[TextReActMiddleware()])
    state = graph.invoke({"messages": [("user", "Area?")]})
    assert calls == [{"base": 4, "height": 2}]
    assert "base takes a JSON integer" in model.prompts[1][-1].content
    assert state["messages"][-1].content == "4"


def test_the_tool_list_shows_a_typed_example_and_every_argument() -> None:
    shown = describe_input(area_tool([]))
    first, *lines = shown.splitlines()
    assert first == 'Action Input: a JSON object such as {"base": 0, "height": 0.0}'
    assert lines[0].strip() == "- base (integer, required): The base."
    assert lines[2].strip() == '- unit (string, optional, one of "cm", "m", default "cm")'
    assert "tags (array, optional)" in lines[4]
    for name in ("xml", "json"):
        assert '- unit (string, optional, one of "cm", "m"' in get_format(name).render_tools(
            [area_tool([])]
        )


def test_a_one_text_argument_tool_is_shown_as_before() -> None:
    @tool
    def search(query: str) -> str:
        """Search."""
        return query

    @tool
    def pick(level: Literal["low", "high"], note: str | None = None) -> str:
        """Pick a level."""
        return level

    assert describe_input(search) == ""
    assert '{"level": "low"}' in describe_input(pick)
    assert "note (string, optional, default null)" in describe_input(pick)


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("language", ["en", "zh"])
def test_inputs_the_schema_refuses_count_like_format_errors(script, way, language):
    """Three refused inputs in a row end the run at `max_consecutive_parse_failures`."""
    calls: list[dict[str, Any]] = []
    bad = 'Action: area\nAction Input: {"base": "ten", "height": 2}'
    model = script(bad, bad, bad)
    agent = CustomReActAgent(model.model, [area_tool(calls)], language=language)
    result, _ = run_by(agent, way, "Area of a 10 by 2 triangle?")
    assert calls == []
    assert [m.status for m in result["messages"] if m.type == "tool"] == ["error"] * 3
    assert result["stop_reason"] == "parse_failures" and result["error"]
    assert result["iterations"] == 3


def test_a_step_that_runs_resets_the_count(script):
    calls: list[dict[str, Any]] = []
    bad = 'Action: area\nAction Input: {"base": "ten", "height": 2}'
    good = 'Action: area\nAction Input: {"base": 10, "height": 2}'
    model = script(bad, bad, good, bad, bad, "Final Answer: 10")
    result = CustomReActAgent(model.model, [area_tool(calls)]).invoke("Area?")
    assert len(calls) == 1 and result["stop_reason"] == "final_answer"


class Address(BaseModel):
    city: str
    street: str = ""


class Colour(StrEnum):
    RED = "red"
    BLUE = "blue"


def nested_tools(shipped: list[Any]) -> list[StructuredTool]:
    def ship(item: str, addr: Address, colour: Colour) -> str:
        """Ship an item."""
        shipped.append((item, addr, colour))
        return f"{item} to {addr.city} in {colour.value}"

    def locate(addr: Address) -> str:
        """Locate an address."""
        shipped.append(addr)
        return f"found {addr.city}"

    return [StructuredTool.from_function(ship), StructuredTool.from_function(locate)]


def test_a_nested_model_and_an_enum_are_shown_as_they_are_not_as_text() -> None:
    ship, locate = nested_tools([])
    shown = describe_input(ship)
    assert '{"item": "...", "addr": {"city": "..."}, "colour": "red"}' in shown
    assert "- addr (object, required)" in shown
    assert '- colour (string, required, one of "red", "blue")' in shown
    assert '{"addr": {"city": "..."}}' in describe_input(locate)


@pytest.mark.parametrize("way", WAYS)
def test_a_model_that_writes_what_the_tool_list_shows_runs_the_nested_tool(
    script: Any, way: str
) -> None:
    shipped: list[Any] = []
    replies = [
        'Action: ship\nAction Input: {"item": "rose", "addr": {"city": "Kunming"}, "colour": "pink"}',
        'Action: ship\nAction Input: {"item": "rose", "addr": {"city": "Kunming"}, "colour": "red"}',
        'Action: locate\nAction Input: {"addr": {"city": "Dali"}}',
        "Final Answer: sent",
    ]
    agent = CustomReActAgent(script(*replies).model, nested_tools(shipped))
    result, _ = run_by(agent, way, "Ship a rose to Kunming.")
    (refused, _), (sent, _), (found, _) = [
        (observation, step) for step, observation in result["intermediate_steps"]
    ]
    assert '"red", "blue"' in refused  # the enum's values, named
    assert sent == "rose to Kunming in red" and found == "found Dali"
    assert shipped == [("rose", Address(city="Kunming"), Colour.RED), Address(city="Dali")]


class Forecast(BaseModel):
    city_name: str = Field(alias="city", description="The city.")
    days: int = Field(default=1, description="Days ahead.")


def forecast_tool(asked: list[tuple[str, int]]) -> StructuredTool:
    def forecast(city_name: str, days: int = 1) -> str:
        """Forecast the weather."""
        asked.append((city_name, days))
        return f"{city_name}: sunny for {days} days"

    return StructuredTool.from_function(forecast, args_schema=Forecast)


def test_an_aliased_argument_is_shown_by_the_name_the_tool_reads() -> None:
    # `Field(alias="city")`: the tool validates "city"; LangChain's `tool.args` says "city_name",
    # which the tool then refuses.
    shown = describe_input(forecast_tool([]))
    assert '{"city": "..."}' in shown and "- city (string, required): The city." in shown
    assert "city_name" not in shown


@pytest.mark.parametrize("step_format", ["text", "json", "middleware"])
def test_a_tool_with_an_aliased_argument_runs_by_its_alias_or_plain_text(
    script: Any, step_format: str
) -> None:
    asked: list[tuple[str, int]] = []
    step = {
        "text": 'Action: forecast\nAction Input: {"city": "Kunming", "days": 2}',
        "json": '{"thought": "t", "action": "forecast", "action_input": {"city": "Kunming", "days": 2}}',
        "middleware": "Action: forecast\nAction Input: 昆明",  # plain text: the one required one
    }[step_format]
    answer = '{"final_answer": "sunny"}' if step_format == "json" else "Final Answer: sunny"
    model = script(step, answer)
    if step_format == "middleware":
        pytest.importorskip("langchain.agents")
        from langchain.agents import create_agent

        from custom_react.integrations.create_agent import TextReActMiddleware

        graph = create_agent(
            model.model, [forecast_tool(asked)], middleware=[TextReActMiddleware()]
        )
        assert graph.invoke({"messages": [("user", "昆明天气？")]})["messages"][-1].text == "sunny"
        assert asked == [("昆明", 1)]
        return
    agent = CustomReActAgent(model.model, [forecast_tool(asked)], format=step_format)
    assert agent.invoke("Weather in Kunming?")["output"] == "sunny"
    assert asked == [("Kunming", 2)]


class ForecastByChoice(BaseModel):
    city_name: str = Field(validation_alias=AliasChoices("city", "town"))
    days: int = 1


class ForecastByName(BaseModel):
    model_config = ConfigDict(validate_by_name=True, validate_by_alias=False)
    city_name: str = Field(alias="city")
    days: int = 1


@pytest.mark.parametrize(
    ("schema", "name"), [(ForecastByChoice, "city"), (ForecastByName, "city_name")]
)
def test_an_argument_is_shown_and_checked_by_a_name_the_tool_validates(
    schema: type[BaseModel], name: str
) -> None:
    # `AliasChoices`: the first of its names; `validate_by_alias=False`: the field's own name.
    asked: list[str] = []

    def forecast(city_name: str, days: int = 1) -> str:
        """Forecast the weather."""
        asked.append(city_name)
        return "sunny"

    tool = StructuredTool.from_function(forecast, args_schema=schema)
    assert f'{{"{name}": "..."}}' in describe_input(tool)
    model = Script(
        f'Action: forecast\nAction Input: {{"{name}": "Kunming"}}', "Final Answer: sunny"
    )
    assert CustomReActAgent(model.model, [tool]).invoke("Weather?")["output"] == "sunny"
    assert asked == ["Kunming"]


class ForecastByBoth(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    city_name: str = Field(alias="city")
    days: int = 1


@pytest.mark.parametrize("step_format", ["text", "json"])
@pytest.mark.parametrize(
    ("schema", "written"), [(ForecastByChoice, "town"), (ForecastByBoth, "city_name")]
)
def test_an_argument_written_by_another_name_the_tool_reads_runs_under_the_name_shown(
    schema: type[BaseModel], written: str, step_format: str
) -> None:
    # The later names of `AliasChoices`, and a field's own name with `populate_by_name`: the tool
    # accepts them, so the agent does not refuse them; the step records the name shown.
    asked: list[tuple[str, int]] = []

    def forecast(city_name: str, days: int = 1) -> str:
        """Forecast the weather."""
        asked.append((city_name, days))
        return "sunny"

    tool = StructuredTool.from_function(forecast, args_schema=schema)
    call = {"action": "forecast", "action_input": {written: "Kunming", "days": 2}}
    step = {
        "text": f"Action: forecast\nAction Input: {json.dumps(call['action_input'])}",
        "json": json.dumps({"thought": "t", **call}),
    }[step_format]
    answer = '{"final_answer": "sunny"}' if step_format == "json" else "Final Answer: sunny"
    agent = CustomReActAgent(Script(step, answer).model, [tool], format=step_format)
    result = agent.invoke("Weather in Kunming?")
    assert asked == [("Kunming", 2)]
    ((_, observation),) = result["intermediate_steps"]
    assert observation == "sunny"
    assert result["messages"][-3].tool_calls[0]["args"] == {"city": "Kunming", "days": 2}


def test_a_name_given_both_ways_is_not_guessed_between() -> None:
    # {"city": ..., "town": ...}: two values for one argument; the checks name the extra one.
    asked: list[str] = []

    def forecast(city_name: str, days: int = 1) -> str:
        """Forecast the weather."""
        asked.append(city_name)
        return "sunny"

    tool = StructuredTool.from_function(forecast, args_schema=ForecastByChoice)
    step = 'Action: forecast\nAction Input: {"city": "Kunming", "town": "Dali"}'
    result = CustomReActAgent(Script(step, "Final Answer: -").model, [tool]).invoke("Weather?")
    ((_, observation),) = result["intermediate_steps"]
    assert asked == [] and "town" in observation


@tool
def delete_user(user_id: int) -> str:
    """Delete a user."""
    DELETED.append(user_id)
    return "deleted"


delete_user.metadata = {"requires_approval": True}
DELETED: list[int] = []
BIG = 2**53 + 1  # the first integer a float cannot hold


def test_a_large_integer_is_approved_and_run_as_written(script: Any) -> None:
    # Read through a float, 9007199254740993 ran as ...992: another user deleted.
    DELETED.clear()
    shown: list[dict[str, Any]] = []
    model = script(f"Action: delete_user\nAction Input: {BIG}", "Final Answer: done")
    agent = CustomReActAgent(
        model.model, [delete_user], approve=lambda name, args: shown.append(args) or True
    )
    agent.invoke("Delete that user.")
    assert shown == [{"user_id": BIG}] and DELETED == [BIG]


def test_a_large_integer_a_person_edits_in_runs_as_written(script: Any) -> None:
    DELETED.clear()
    model = script("Action: delete_user\nAction Input: 1", "Final Answer: done")
    paused = CustomReActAgent(model.model, [delete_user], approval="interrupt").invoke("Delete.")
    assert paused["stop_reason"] == "needs_approval" and DELETED == []
    assert paused["state"]["pending"]["args"] == {"user_id": 1}
    agent = CustomReActAgent(model.model, [delete_user], approval="interrupt")
    agent.invoke({"resume": paused["state"], "decision": {"edit": str(BIG)}})
    assert DELETED == [BIG]


class Deploy(BaseModel):
    model_config = ConfigDict(populate_by_name=True, extra="allow")
    target: str = Field(alias="dest")


@pytest.mark.parametrize(
    "written", [{"target": "prod", "dest": "staging"}, {"dest": "a", "target": "b"}]
)
def test_an_argument_given_by_both_its_names_is_refused_though_extras_are_allowed(
    script: Any, written: dict[str, str]
) -> None:
    # Both keys reached the approver and the tool ran one of them: which, the person could not see.
    ran: list[dict[str, Any]] = []
    deploy = StructuredTool.from_function(
        func=lambda **args: ran.append(args) or "deployed",
        name="deploy",
        description="Deploy.",
        args_schema=Deploy,
    )
    model = script(f"Action: deploy\nAction Input: {json.dumps(written)}", "Final Answer: no")
    result = CustomReActAgent(model.model, [deploy], approve=lambda name, args: True).invoke("Go")
    ((_, observation),) = result["intermediate_steps"]
    assert ran == [] and "target" in observation
    one_name = script(
        'Action: deploy\nAction Input: {"target": "prod", "note": "x"}', "Final Answer: ok"
    )
    CustomReActAgent(one_name.model, [deploy], approve=lambda name, args: True).invoke("Go")
    assert len(ran) == 1  # one name and an extra argument: it runs
