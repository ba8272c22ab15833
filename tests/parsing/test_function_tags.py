"""Tool calls written in tags as text: Qwen3-Coder's `<function=...><parameter=...>`, Llama's
`<function=...>{...}`, GLM's, MiniMax-M2's `<invoke name=...><parameter name=...>`, and the same
parameter tags after Roo Code's `[Tool Use: name]` marker."""

from __future__ import annotations

import pytest
from langchain_core.tools import tool

from custom_react import CustomReActAgent
from custom_react.arguments import bind_arguments
from custom_react.parser import Action, FinalAnswer, parse_llm_response
from custom_react.parsing.function_tags import find_function_tags
from tests.parsing.test_parser import Act, Final, check, kind_params, parse_or_error, variants

CALL = (
    "<tool_call>\n<function=get_weather>\n<parameter=city>\nDallas\n</parameter>\n"
    "<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>"
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (CALL, ("get_weather", {"city": "Dallas", "days": "3"})),
        # Flattened onto one line (as an error message quotes it): one-line values are trimmed.
        ("<function=run> <parameter=command> ls -la </parameter> </function>",
         ("run", {"command": "ls -la"})),
        # A value of several lines keeps its indentation; one newline goes on each side.
        ("<function=write>\n<parameter=code>\n  if x:\n    y()\n</parameter>\n</function>",
         ("write", {"code": "  if x:\n    y()"})),
        # Closing tags forgiven: a value ends at the next parameter, or at the end.
        ("<function=f>\n<parameter=a>\n1\n<parameter=b>\n2", ("f", {"a": "1", "b": "2"})),
        # ... or at the call's closing tag, with blank lines around a one-line value trimmed.
        ("<tool_call>\n<function=f>\n<parameter=n>\n1024\n\n\n</tool_call>", ("f", {"n": "1024"})),
        # A value holding JSON or tag-like text stays text for the binding.
        ('<function=f><parameter=data>{"x": [1, 2]}</parameter></function>',
         ("f", {"data": '{"x": [1, 2]}'})),
        # The first value of a repeated parameter wins; so does the first call.
        ("<function=f><parameter=a>1</parameter><parameter=a>2</parameter></function>"
         "<function=g><parameter=b>3</parameter></function>", ("f", {"a": "1"})),
        ("<function=ping>\n</function>", ("ping", {})),
        # Llama 3.1 to 3.3: the arguments as one JSON object (repaired like every JSON input).
        ('<function=get_weather>{"city": "Dallas", "days": 3}</function>',
         ("get_weather", {"city": "Dallas", "days": 3})),
        ("<function=get_weather> {'city': 'Dallas'}", ("get_weather", {"city": "Dallas"})),
        ('<function=f>[1, 2]</function>', ("f", {})),  # not an object: no arguments
        # GLM-4.5's form: the name after <tool_call>, then key and value tags.
        ("<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Dallas</arg_value>\n"
         "<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n</tool_call>",
         ("get_weather", {"city": "Dallas", "days": "3"})),
        ("<tool_call>ping</tool_call>", ("ping", {})),
        # MiniMax-M2 (and Claude's `<function_calls>` as text): names in attributes, any quotes.
        ('<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Dallas'
         '</parameter>\n<parameter name="days">3</parameter>\n</invoke>\n</minimax:tool_call>',
         ("get_weather", {"city": "Dallas", "days": "3"})),
        ("<invoke name='f'><parameter name='a'>1</parameter><parameter name=b>2</invoke>",
         ("f", {"a": "1", "b": "2"})),
        ('<invoke name="ping">\n</invoke>', ("ping", {})),
    ],
)  # fmt: skip
def test_function_tags_are_read(text: str, expected: tuple[str, dict[str, str]]) -> None:
    found = find_function_tags(text)
    assert found is not None and found[1:] == expected


@pytest.mark.parametrize(
    "text",
    [
        "no call here",
        "<function>x</function>",
        "<parameter=a>1",
        '<tool_call>{"name": "x"}',
        '<invoke>x</invoke><parameter name="a">1',
    ],
)
def test_text_without_a_function_tag_is_no_call(text: str) -> None:
    assert find_function_tags(text) is None


def test_the_call_is_a_step_and_what_comes_before_it_the_thought() -> None:
    step = parse_llm_response(f"Let me check the weather.{CALL}")
    assert isinstance(step, Action)
    assert (step.tool, step.tool_input) == ("get_weather", {"city": "Dallas", "days": "3"})
    assert step.thought == "Let me check the weather."


def test_a_json_call_before_the_tags_is_the_step() -> None:
    text = '{"name": "search", "arguments": {"query": "rose"}}\n' + CALL
    step = parse_llm_response(text)
    assert isinstance(step, Action) and step.tool == "search"


def test_a_final_answer_call_in_tags_is_the_answer() -> None:
    text = "<function=final_answer>\n<parameter=answer>\n42 yuan\n</parameter>\n</function>"
    assert parse_llm_response(text) == FinalAnswer(output="42 yuan", log=text)


def test_values_take_the_tool_s_types_when_bound() -> None:
    @tool
    def get_weather(city: str, days: int, detailed: bool = False) -> str:
        """The forecast."""
        return city

    tags = (
        "<function=get_weather><parameter=city>Dallas</parameter><parameter=days>3</parameter>"
        "<parameter=detailed>true</parameter></function>"
    )
    step = parse_llm_response(tags)
    assert isinstance(step, Action)
    args, _ = bind_arguments(get_weather, step.tool_input)
    assert args == {"city": "Dallas", "days": 3, "detailed": True}


def test_the_agent_runs_a_call_written_in_tags(script, tools, calls) -> None:
    model = script(
        "<tool_call>\n<function=calculator>\n<parameter=expression>\n17 * 23\n</parameter>\n"
        "</function>\n</tool_call>",
        "Thought: I now know the final answer\nFinal Answer: 391",
    )
    result = CustomReActAgent(model.model, tools).invoke("What is 17 * 23?")
    assert result["output"] == "391"
    assert calls.calls == [("calculator", "17 * 23")]
    model.assert_consumed()


# Roo Code's history marker, `[Tool Use: name]` on a line of its own, written by a model as its
# call: MiniMax's parameter tags after it (closed by `</invoke>`, `</minimax:tool_call>` or
# nothing), or a JSON object of the arguments. Followed by prose, or inside a sentence, it is no call.
TOOL_USE_MARKER = [
    *variants(
        "parameter tags, no closer",
        '[Tool Use: search]\n<parameter name="query">{q}</parameter>',
        Act("search", {"query": "{q}"}, ""),
        chinese_markers=False,
    ),
    *variants(
        "after prose, with MiniMax's closers",
        '{t}\n[Tool Use: search]\n<parameter name="query">{q}</parameter>\n</invoke>\n'
        "</minimax:tool_call>",
        Act("search", {"query": "{q}"}, "{t}"),
        chinese_markers=False,
    ),
    *variants(
        "a JSON object of the arguments",
        '[Tool Use: search]\n{"query": "{q}"}',
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    *variants(
        "inside the thinking, with nothing after it",
        '<think>{t}\n[Tool Use: search]\n<parameter name="query">{q}</parameter>\n</think>',
        Act("search", {"query": "{q}"}, "{t}"),
        chinese_markers=False,
    ),
    *variants(
        "followed by prose: an answer",
        "[Tool Use: search]\n{a}",
        Final("[Tool Use: search]\n{a}"),
        chinese_markers=False,
    ),
    *variants(
        "inside a sentence: an answer",
        '{a} (it came from [Tool Use: search] <parameter name="query">{q}</parameter>)',
        Final('{a} (it came from [Tool Use: search] <parameter name="query">{q}</parameter>)'),
        chinese_markers=False,
    ),
]


@pytest.mark.parametrize(("text", "expected"), kind_params({"tool-use-marker": TOOL_USE_MARKER}))
def test_roo_code_s_tool_use_marker(text: str, expected: Act | Final) -> None:
    check(parse_or_error(text), expected)
