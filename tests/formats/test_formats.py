"""The three ReAct formats (text, XML, JSON) in one loop, and the environment facts in the prompt.

1. Scripted runs: the same question gives the same events, tool calls and history in every format;
   the model reads observations, format errors and the last-answer nudge in its own format.
2. The registry and the templates: placeholders, tags and worked examples, English and Chinese.
3. Positional call arguments mapped onto a tool's schema.
4. The environment block: a pure renderer, and what it reads from a folder.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tools import BaseTool, tool

from custom_react import CustomReActAgent
from custom_react.arguments import tool_arguments
from custom_react.environment import describe_environment, render_environment
from custom_react.formats import FORMAT_NAMES, get_format
from custom_react.parsing.call_syntax import POSITIONAL_ARGS
from custom_react.prompt import build_react_prompt
from custom_react.prompts import load_template
from custom_react.steps import ToolStep
from tests.conftest import summarize

ROSE = "A rose stem costs 1.2 yuan wholesale in Kunming."

# -- 1. Scripted runs --------------------------------------------------------------------------

# The same run written in each format: look up, compute, answer.
ROSE_RUN = {
    "text": [
        "Thought: find the price\nAction: search\nAction Input: rose price",
        "Thought: add 5%\nAction: calculator\nAction Input: 1.2 * 1.05",
        "Thought: I now know the final answer\nFinal Answer: 1.26 yuan",
    ],
    "xml": [
        '<thought>find the price</thought>\n<action>search("rose price")</action>',
        "<thought>add 5%</thought>\n<action>calculator(1.2 * 1.05)</action>",
        "<thought>I now know the final answer</thought>\n<final_answer>1.26 yuan</final_answer>",
    ],
    "json": [
        '{"thought": "find the price", "action": "search", "action_input": "rose price"}',
        '{"thought": "add 5%", "action": "calculator", "action_input": "1.2 * 1.05"}',
        '{"thought": "I now know the final answer", "final_answer": "1.26 yuan"}',
    ],
}
ROSE_EVENTS = [
    ("action", "search", "rose price"),
    ("observation", "ok", ROSE),
    ("action", "calculator", "1.2 * 1.05"),
    ("observation", "ok", "1.26"),
    ("final_answer", "1.26 yuan"),
    ("result", "final_answer", 3),
]

# A troubled run: a broken reply, an unknown tool, a failing tool, a repeat, then the answer.
TROUBLED_RUN = {
    "text": [
        "Thought: hmm\nAction Input: rose",
        "Action: web_browser\nAction Input: rose",
        "Action: calculator\nAction Input: two plus two",
        'Action: search\nAction Input: {"query": "rose"}',
        "Action: search\nAction Input: rose",
        "Final Answer: 1.2 yuan",
    ],
    "xml": [
        "<thought>hmm</thought><action_input>rose</action_input>",
        '<action>web_browser("rose")</action>',
        '<action>calculator("two plus two")</action>',
        "<action>search(query='rose')</action>",
        "<action>search('rose')</action>",
        "<final_answer>1.2 yuan</final_answer>",
    ],
    "json": [
        '{"thought": "hmm"}',
        '{"action": "web_browser", "action_input": "rose"}',
        "{'action': 'calculator', 'action_input': 'two plus two'}",
        '{"action": "search", "action_input": {"query": "rose"}}',
        '```json\n{"action": "search", "action_input": "rose",}\n```',
        '{"final_answer": "1.2 yuan"}',
    ],
}


def run(agent: CustomReActAgent) -> tuple[list[Any], dict[str, Any]]:
    events = list(agent.stream("What does a rose cost, plus 5%?"))
    return summarize(events), events[-1].result.to_dict()


def history(result: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The message history without the format-specific text: types, tool calls, observations."""
    rows: list[tuple[Any, ...]] = []
    for message in result["messages"]:
        calls = [(c["name"], c["args"]) for c in getattr(message, "tool_calls", [])]
        text = message.content if message.type == "tool" else ""
        rows.append((message.type, calls, text))
    return rows


def tool_steps(result: dict[str, Any]) -> list[tuple[Any, ...]]:
    """`intermediate_steps` without format errors (their input is the format-specific reply)."""
    steps = result["intermediate_steps"]
    return [(a.tool, a.tool_input, o) for a, o in steps if a.tool != "_Exception"]


@pytest.mark.parametrize("scripts", [ROSE_RUN, TROUBLED_RUN], ids=["rose", "troubled"])
def test_the_same_run_gives_the_same_events_and_history_in_every_format(script, tools, scripts):
    outcomes = {}
    for name, replies in scripts.items():
        model = script(*replies)
        outcomes[name] = run(CustomReActAgent(model.model, tools, format=name))
        model.assert_consumed()
    (text_events, text_result) = outcomes["text"]
    for name, (events, result) in outcomes.items():
        assert events == text_events, name
        assert history(result) == history(text_result), name
        assert tool_steps(result) == tool_steps(text_result), name
    if scripts is ROSE_RUN:
        assert text_events == ROSE_EVENTS


def test_the_troubled_run_has_every_kind_of_event(script, tools):
    events, result = run(CustomReActAgent(script(*TROUBLED_RUN["xml"]).model, tools, format="xml"))
    assert [row[:2] for row in events] == [
        ("parse_failure", 1),
        ("action", "web_browser"), ("observation", "unknown_tool"),
        ("action", "calculator"), ("observation", "error"),
        ("action", "search"), ("observation", "ok"),
        ("action", "search"), ("observation", "repeated"),
        ("final_answer", "1.2 yuan"), ("result", "final_answer"),
    ]  # fmt: skip
    assert result["output"] == "1.2 yuan"


OBSERVED = {
    "text": f"Observation: {ROSE}",
    "xml": f"<observation>{ROSE}</observation>",
    "json": json.dumps({"observation": ROSE}),
}
CUE = {"text": "\nThought: ", "xml": "", "json": ""}  # what the transcript shown ends with


@pytest.mark.parametrize("name", list(FORMAT_NAMES))
def test_the_model_reads_each_observation_in_its_format(script, tools, name):
    model = script(*ROSE_RUN[name])
    seen = model.prompts
    run(CustomReActAgent(model.model, tools, format=name))
    first, second = seen[:2]
    assert [m.type for m in first] == [m.type for m in second] == ["system", "human"]
    shown = second[-1].content  # one transcript: the question, the step, its observation
    assert shown.startswith(first[-1].content.removesuffix(CUE[name]))
    assert shown.endswith(f"\n{OBSERVED[name]}{CUE[name]}")
    step = shown.removesuffix(f"\n{OBSERVED[name]}{CUE[name]}").split("\n", 1)[1]
    assert get_format(name).parse(step).tool == "search"  # its step, cleaned up


@pytest.mark.parametrize("name", list(FORMAT_NAMES))
def test_a_format_error_is_fed_back_in_the_format(script, tools, name):
    model = script(TROUBLED_RUN[name][0], ROSE_RUN[name][-1])
    seen = model.prompts
    _, result = run(CustomReActAgent(model.model, tools, format=name))
    feedback = result["messages"][2]
    assert isinstance(feedback, HumanMessage) and feedback.content.startswith(OBSERVED[name][:6])
    assert "Invalid format" in feedback.content
    assert seen[1][-1].content.endswith(f"\n{feedback.content}{CUE[name]}")  # the model reads it


@pytest.mark.parametrize("name", list(FORMAT_NAMES))
def test_on_a_limit_generate_asks_in_the_format(script, tools, name):
    model = script(ROSE_RUN[name][0], ROSE_RUN[name][-1])
    seen = model.prompts
    agent = CustomReActAgent(
        model.model, tools, format=name, max_iterations=1, early_stopping_method="generate"
    )
    _, result = run(agent)
    assert seen[-1][-1].content.endswith(f"\n{get_format(name).nudge('en')}{CUE[name]}")
    assert result["output"] == "1.26 yuan" and result["stop_reason"] == "max_iterations"


def test_stop_sequences_default_to_the_format(script, tools):
    model = script().model
    assert CustomReActAgent(model, tools).stop == ["\nObservation:"]
    assert CustomReActAgent(model, tools, format="xml").stop == ["<observation>"]
    assert CustomReActAgent(model, tools, format="json").stop == ['"observation"']
    assert CustomReActAgent(model, tools, format="xml", stop=["</action>"]).stop == ["</action>"]
    assert CustomReActAgent(model, tools, format="xml", stop=None).stop is None


def test_an_unknown_format_is_refused(script, tools):
    with pytest.raises(ValueError, match="Unknown format 'yaml'"):
        CustomReActAgent(script().model, tools, format="yaml")  # type: ignore[arg-type]


# -- 2. The registry and the templates ---------------------------------------------------------

TAGS = {
    "xml": ["<question>", "<thought>", "<action>", "</action>", "<observation>", "<final_answer>"],
    "json": ['"thought"', '"action"', '"action_input"', '"observation"', '"final_answer"'],
}


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"(?<!\{)\{(\w+)\}(?!\})", text))


@pytest.mark.parametrize("name", ["xml", "json"])
def test_english_and_chinese_templates_match(name):
    found = get_format(name)
    english, chinese = (load_template(found.template, lang) for lang in ("en", "zh"))
    expected = {"tools", "tool_names", "examples", "environment"}
    assert placeholders(english) == placeholders(chinese) == expected
    for language in ("en", "zh"):
        template = load_template(found.template, language)
        example = load_template(found.examples, language)
        for tag in TAGS[name]:
            assert tag in template and tag in example, (language, tag)


@pytest.mark.parametrize("name", list(FORMAT_NAMES))
@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_worked_examples_parse_with_their_format(name, language):
    parse = get_format(name).parse
    blocks = load_template(get_format(name).examples, language).strip("\n").split("\n\n")
    worked = next(block for block in blocks if "observation" in block.lower())
    lines = [line for line in worked.splitlines() if line.strip()]
    cut = next(i for i, line in enumerate(lines) if "observation" in line.lower())
    step = parse("\n".join(lines[1:cut]))
    assert (step.tool, step.tool_input) == ("calculator", "3 * 4.5 * 1.10")
    answer = parse("\n".join(lines[cut + 1 :]))
    assert "14.85" in answer.output
    # Any other block is one call that shows the form (the XML format's `search`, `write_file`).
    calls = [parse(block) for block in blocks if block is not worked]
    assert all(isinstance(call, ToolStep) for call in calls)
    assert {call.tool for call in calls} <= {"search", "write_file"}


@tool
def write_file(path: str, content: str) -> str:
    """Write text to a file."""
    return f"Wrote {len(content)} characters to {path}."


def system_text(prompt: Any) -> str:
    return prompt.invoke({"input": "q"}).to_messages()[0].content


def test_each_format_prompt_describes_the_tools_its_way():
    xml = system_text(get_format("xml").build_prompt([write_file]))
    assert '- write_file(path="...", content="..."): Write text to a file.' in xml
    assert "call exactly one of [write_file]" in xml and "{" not in xml
    as_json = system_text(get_format("json").build_prompt([write_file]))
    assert '"action_input": {"path": "...", "content": "..."}' in as_json
    question = get_format("xml").build_prompt([write_file]).invoke({"input": "q"}).to_messages()
    assert question[1].content == "<question>q</question>"


def test_the_text_format_prompt_is_the_classic_one():
    for language in ("en", "zh"):
        for examples in (False, True):
            ours = get_format("text").build_prompt(
                [write_file], language=language, examples=examples
            )
            classic = build_react_prompt([write_file], language=language, examples=examples)
            assert system_text(ours) == system_text(classic)


# -- 3. Positional arguments -------------------------------------------------------------------


def test_positional_arguments_are_shown_and_run_by_name(script):
    replies = {
        "text": 'Action: write_file\nAction Input: {"path": "a.txt", "content": "hi"}',
        "xml": '<action>write_file("a.txt", "hi")</action>',
        "json": '{"action": "write_file", "action_input": ["a.txt", "hi"]}',
    }
    for name, reply in replies.items():
        agent = CustomReActAgent(
            script(reply, "Final Answer: done").model, [write_file], format=name
        )
        events, result = run(agent)
        assert events[:2] == [
            ("action", "write_file", {"path": "a.txt", "content": "hi"}),
            ("observation", "ok", "Wrote 2 characters to a.txt."),
        ], name
        assert result["messages"][1].tool_calls[0]["args"] == {"path": "a.txt", "content": "hi"}


@pytest.mark.parametrize(
    ("tool_input", "args"),
    [
        ({POSITIONAL_ARGS: ["a.txt", "hi"]}, {"path": "a.txt", "content": "hi"}),
        ({POSITIONAL_ARGS: ["hi"], "path": "a.txt"}, {"path": "a.txt", "content": "hi"}),
        ({POSITIONAL_ARGS: ["a.txt", "one", "two"]}, {"path": "a.txt", "content": "one, two"}),
        ({POSITIONAL_ARGS: ["a.txt"]}, {"path": "a.txt"}),
    ],
)
def test_tool_arguments_maps_positional_arguments_in_schema_order(tool_input, args):
    assert tool_arguments(write_file, tool_input) == args


def test_extra_positional_arguments_join_into_a_single_argument(tools: list[BaseTool]):
    search = next(t for t in tools if t.name == "search")
    assert tool_arguments(search, {POSITIONAL_ARGS: ["rose", "price"]}) == {"query": "rose, price"}


# -- 4. The environment block ------------------------------------------------------------------


def test_render_environment_is_a_pure_function():
    assert render_environment("Linux 6.1", "/work", ["a.txt", "src/"], more=2) == (
        "Environment:\n- Operating system: Linux 6.1\n- Working folder: /work\n"
        "- Files in the working folder:\n  a.txt\n  src/\n  ... and 2 more"
    )
    assert render_environment("Linux", "/w", [], language="zh") == (
        "环境信息：\n- 操作系统：Linux\n- 工作文件夹：/w\n- 工作文件夹中的文件：（空）"
    )


def test_describe_environment_lists_a_bounded_sorted_folder(tmp_path):
    for name in ("b.txt", "a.txt", "c.txt"):
        (tmp_path / name).write_text("x")
    (tmp_path / "src").mkdir()
    text = describe_environment(tmp_path, max_entries=3)
    assert f"- Working folder: {tmp_path.resolve()}" in text
    assert text.endswith("  a.txt\n  b.txt\n  c.txt\n  ... and 1 more")
    with pytest.raises(ValueError, match="does not exist"):
        describe_environment(tmp_path / "missing")


@pytest.mark.parametrize("name", list(FORMAT_NAMES))
def test_the_environment_option_puts_the_folder_in_the_prompt(script, tools, tmp_path, name):
    (tmp_path / "notes.txt").write_text("x")
    agent = CustomReActAgent(script().model, tools, format=name, environment=tmp_path)
    text = system_text(agent.prompt)
    assert f"- Working folder: {tmp_path.resolve()}" in text and "  notes.txt" in text
    assert "Environment:" not in system_text(CustomReActAgent(script().model, tools).prompt)


def test_environment_true_means_the_current_folder(script, tools, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    agent = CustomReActAgent(script().model, tools, format="xml", environment=True, language="zh")
    assert f"- 工作文件夹：{tmp_path.resolve()}" in system_text(agent.prompt)


def test_ai_messages_keep_the_step_in_the_format(script, tools):
    _, result = run(CustomReActAgent(script(*ROSE_RUN["xml"]).model, tools, format="xml"))
    first = result["messages"][1]
    assert isinstance(first, AIMessage)
    assert (
        first.content == '<thought>find the price</thought>\n<action>search("rose price")</action>'
    )


@pytest.mark.parametrize("name", FORMAT_NAMES)
def test_a_tool_named_in_chinese_runs_in_every_format(script, name):
    @tool("查询天气")
    def weather(city: str) -> str:
        """查询一个城市的天气。"""
        return f"{city}：晴"

    call = {
        "text": "Action: 查询天气\nAction Input: 北京",
        "xml": '<action>查询天气(city="北京")</action>',
        "json": '{"action": "查询天气", "action_input": {"city": "北京"}}',
    }[name]
    model = script(
        call,
        {
            "text": "最终答案：晴",
            "xml": "<final_answer>晴</final_answer>",
            "json": '{"final_answer": "晴"}',
        }[name],
    )
    result = CustomReActAgent(model.model, [weather], format=name, language="zh").invoke(
        "北京天气？"
    )
    assert result["intermediate_steps"][0][1] == "北京：晴" and result["output"] == "晴"
