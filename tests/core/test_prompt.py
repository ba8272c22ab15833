"""The prompt builder and the scratchpad renderer: pure functions, checked exactly."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from langchain_core.tools import tool

from custom_react import CustomReActAgent
from custom_react.compare.runners.fingerprint import prompt_fingerprint, text_fingerprint
from custom_react.formats import get_format
from custom_react.prompt import (
    build_react_prompt,
    bundled_examples,
    check_template_variables,
    render_tools,
)
from custom_react.prompts import load_template, message
from custom_react.scratchpad import render_scratchpad
from custom_react.steps import FinalAnswerEvent, ParseFailure, ToolStep
from tests.conftest import change_prompt, run_by

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
MARKERS = ("Question:", "Thought:", "Action:", "Action Input:", "Observation:", "Final Answer:")


@tool
def calculator(expression: str) -> str:
    """Evaluate arithmetic such as 12.5% of 2480."""
    return expression


@tool
def write_file(path: str, content: str) -> str:
    """Write text to a file in the workspace."""
    return path


@tool
def current_date() -> str:
    """Today's date."""
    return "today"


TOOLS = [calculator, write_file, current_date]


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"(?<!\{)\{(\w+)\}(?!\})", text))


def test_both_templates_have_identical_placeholders_and_markers():
    english, chinese = load_template("react", "en"), load_template("react", "zh")
    assert placeholders(english) == placeholders(chinese) == {"tools", "tool_names", "examples"}
    for marker in MARKERS:
        assert marker in english and marker in chinese, marker
    for language in ("en", "zh"):
        example = load_template("examples", language)
        assert all(marker in example for marker in MARKERS), language


@tool
def search(query: str) -> str:
    """Look a fact up."""
    return query


EXAMPLE_FILES = ["examples", "examples_xml", "examples_json", "examples_action_first"]


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("name", EXAMPLE_FILES)
def test_bundled_examples_are_whole_with_the_tools_they_call(name, language):
    tools = [search, calculator, write_file]
    assert bundled_examples(name, language, tools) == load_template(name, language)


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("name", EXAMPLE_FILES)
def test_an_example_calling_a_tool_the_agent_lacks_is_left_out(name, language):
    """An example would teach the model to call a tool it does not have."""
    assert bundled_examples(name, language, [current_date]) == ""
    calculator_only = bundled_examples(name, language, [calculator])
    assert "calculator" in calculator_only and "search" not in calculator_only
    assert calculator_only.startswith("\n") and calculator_only.endswith("\n")
    prompt = build_react_prompt([write_file], language=language, examples=True)
    assert "calculator" not in prompt.format_messages(input="q")[0].content


def test_tools_are_rendered_with_name_description_and_arguments():
    # One text argument: no input line, so there is no description of an input to copy as one.
    assert render_tools(TOOLS).splitlines() == [
        "calculator: Evaluate arithmetic such as 12.5% of 2480.",
        "write_file: Write text to a file in the workspace.",
        '  Action Input: a JSON object such as {"path": "...", "content": "..."}',
        "    - path (string, required)",
        "    - content (string, required)",
        "current_date: Today's date.",
        "  Action Input: none",
    ]


@pytest.mark.parametrize("name", ["text", "xml", "json"])
@pytest.mark.parametrize("language", ["en", "zh"])
def test_an_agent_without_tools_is_told_to_answer_without_one(script, name, language):
    system = CustomReActAgent(script().model, [], format=name, language=language).prompt
    text = system.format_messages(input="2 + 2?")[0].text
    assert message("no_tools", language) in text  # not an empty list under "these tools"


def test_a_single_argument_that_is_not_text_keeps_its_type_line():
    @tool
    def page(number: int) -> str:
        """Read one page of the manual."""
        return str(number)

    assert (
        render_tools([page])
        == "page: Read one page of the manual.\n  Action Input: number (integer)"
    )


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("examples", [False, True], ids=["plain", "few-shot"])
def test_rendered_prompt_matches_golden_file(language, examples, regenerate):
    prompt = build_react_prompt(TOOLS, language=language, examples=examples)
    first_call = {"input": "What is 12.5% of 2480?", "agent_scratchpad": render_scratchpad([])}
    messages = prompt.invoke(first_call).to_messages()  # what the model reads on its first call
    text = "\n\n".join(f"[{m.type}]\n{m.content}" for m in messages)
    golden = GOLDEN / f"prompt_{language}{'_examples' if examples else ''}.txt"
    if regenerate:
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")
    assert "{" + "tools}" not in text and "calculator, write_file, current_date" in text


def test_prompt_leaves_only_the_run_variables():
    prompt = build_react_prompt(TOOLS)
    assert set(prompt.input_variables) == {"input"}
    assert set(prompt.optional_variables) == {"chat_history"}
    assert prompt.partial_variables["agent_scratchpad"] == ""  # no steps yet: just the question


@pytest.mark.parametrize(
    ("template", "message"),
    [
        ("Tools: {tools}", r"missing \{tool_names\}"),
        ("No variables at all", r"missing \{tool_names\}, \{tools\}"),
        ("{tools} {tool_names} {context}", r"uses \{context\}"),
    ],
)
def test_a_template_missing_a_variable_fails_at_construction(template, message):
    with pytest.raises(ValueError, match=message):
        build_react_prompt(TOOLS, template=template)
    with pytest.raises(ValueError, match=message):
        check_template_variables(template)


def test_unknown_language_is_refused():
    with pytest.raises(ValueError, match="Unsupported language"):
        build_react_prompt(TOOLS, language="fr")


def test_scratchpad_writes_the_steps_as_one_transcript():
    step = ToolStep(
        thought="add",
        tool="calculator",
        tool_input="1+1",
        args={"expression": "1+1"},
        tool_call_id="call_1",
        iteration=1,
        log="Thought: add\nAction: calculator\nAction Input: 1+1",
        observation="2",
        status="ok",
    )
    failure = ParseFailure("oops", "Invalid format", 1, 2)  # a reply without the Thought label
    final = FinalAnswerEvent("2", "", 3, "Final Answer: 2")
    assert render_scratchpad([step, failure]) == (
        "\nThought: add\nAction: calculator\nAction Input: 1+1"
        "\nObservation: 2"
        "\nThought: oops"
        "\nObservation: Invalid format"
        "\nThought: "
    )
    assert render_scratchpad([final], note="Answer now.") == (
        "\nThought: Final Answer: 2\nAnswer now.\nThought: "
    )
    assert render_scratchpad([], cue="") == ""


SYSTEM = "You are a careful assistant for a bakery. Give prices in euros."


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("step_format", ["text", "xml", "json"])
def test_a_system_prompt_opens_the_system_turn_before_the_tool_list(
    step_format, language, regenerate
):
    react_format = get_format(step_format)
    plain = react_format.build_prompt(TOOLS, language=language)
    given = react_format.build_prompt(TOOLS, language=language, system_prompt=f"  {SYSTEM}\n")
    system, *turns = given.format_messages(input="What is 12.5% of 2480?")
    assert system.text == f"{SYSTEM}\n\n" + plain.format_messages(input="q")[0].text
    assert system.text.index(SYSTEM) < system.text.index("calculator")
    assert turns == plain.format_messages(input="What is 12.5% of 2480?")[1:]
    golden = GOLDEN / f"prompt_{step_format}_{language}_system.txt"
    if regenerate:
        golden.write_text(system.text, encoding="utf-8")
    assert system.text == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream"])
def test_the_agent_sends_its_system_prompt_first_and_refuses_a_non_string(script, way, language):
    model = script("Final Answer: 4" if language == "en" else "最终答案：4")
    agent = CustomReActAgent(model.model, TOOLS, system_prompt=SYSTEM, language=language)
    result, _ = run_by(agent, way, "2 + 2?")
    assert result["output"] == "4"
    assert model.prompts[0][0].text.startswith(SYSTEM + "\n\n")
    with pytest.raises(TypeError, match="system_prompt must be a string"):
        CustomReActAgent(model.model, TOOLS, system_prompt=["not", "text"])


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_fingerprint_is_the_hash_of_one_languages_system_prompt(monkeypatch, language):
    other = "zh" if language == "en" else "en"
    system = build_react_prompt(TOOLS, language=language, examples=True)
    expected = text_fingerprint(system.format_messages(input="")[0].text)
    assert prompt_fingerprint(TOOLS, language=language) == expected
    untouched = prompt_fingerprint(TOOLS, language=other)
    change_prompt(monkeypatch, language)
    assert prompt_fingerprint(TOOLS, language=language) != expected
    assert prompt_fingerprint(TOOLS, language=other) == untouched


def test_the_xml_format_shows_a_call_only_of_a_tool_the_agent_has():
    # The rule names no tool; a one-line call of each bundled tool the agent has shows the form.
    def system(tools: list) -> str:
        prompt = get_format("xml").build_prompt(tools, examples=True)
        return prompt.format_messages(input="q")[0].text

    assert 'write_file("notes.txt", "hello")' in system([write_file])
    assert 'search("rose price")' not in system([write_file])
    assert 'search("rose price")' in system([search, calculator])
    assert "rose price" not in system([calculator]) and "notes.txt" not in system([calculator])


def test_messages_handed_over_after_the_question_become_exchanges_in_order() -> None:
    # Each provider call with the result that answers it (several calls of one reply too); a
    # text-ReAct step as it was written; a result no call asked for, and plain words, on their own.
    from langchain_core.messages import AIMessage, ToolMessage

    from custom_react.scratchpad import handed_exchanges
    from custom_react.steps import REACT_LOG

    two_calls = [
        {"name": "s", "args": {"q": "b"}, "id": "c2"},
        {"name": "t", "args": {}, "id": "c3"},
    ]
    messages = [
        AIMessage(
            "x",
            tool_calls=[{"name": "s", "args": {"q": "a"}, "id": "c1"}],
            response_metadata={REACT_LOG: "Action: s\nAction Input: a"},
        ),
        ToolMessage("ra", tool_call_id="c1"),
        AIMessage("Both.", tool_calls=two_calls),
        ToolMessage("rt", tool_call_id="c3"),  # answered out of order: matched by id
        ToolMessage("rb", tool_call_id="c2"),
        ToolMessage("orphan", tool_call_id="zz"),
        AIMessage("Retrieved: 45 days."),
    ]
    assert handed_exchanges(messages) == [
        ("Action: s\nAction Input: a", "ra"),
        ('Both.\n{"name": "s", "arguments": {"q": "b"}}', "rb"),
        ('{"name": "t", "arguments": {}}', "rt"),
        ("", "orphan"),
        ("Retrieved: 45 days.", None),
    ]
