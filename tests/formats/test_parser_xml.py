"""Tests for `custom_react.formats.xml_format` (the call syntax on its own: `tests/parsing/`).

1. A table of replies in the XML format: well-formed, sloppy (what small models write) and broken.
2. The contract on any text (property test) and on adversarial 100 KB replies, with a time bound.
"""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from custom_react.formats.xml_format import parse_xml_response
from custom_react.parser import Action, FinalAnswer, ParseError
from custom_react.parsing.call_syntax import POSITIONAL_ARGS

# -- 1. The table ------------------------------------------------------------------------------

PAGE = '<!DOCTYPE html>\n<html><head><link rel="stylesheet" href="style.css"></head></html>'

ACTIONS = [
    # (id, reply, tool, tool_input, thought)
    ("well-formed", '<thought>look it up</thought>\n<action>search("rose")</action>',
     "search", "rose", "look it up"),
    ("single quotes", "<thought>t</thought><action>search('rose price')</action>",
     "search", "rose price", "t"),
    ("unquoted argument", "<thought>t</thought><action>calculator(2 * (3 + 4))</action>",
     "calculator", "2 * (3 + 4)", "t"),
    ("no arguments", "<thought>t</thought><action>current_date()</action>", "current_date", "", "t"),
    ("keyword arguments", '<thought>t</thought><action>write_file(path="a.txt", content="hi")</action>',
     "write_file", {"path": "a.txt", "content": "hi"}, "t"),
    ("positional arguments", '<thought>t</thought><action>write_file("a.txt", "hi")</action>',
     "write_file", {POSITIONAL_ARGS: ["a.txt", "hi"]}, "t"),
    ("mixed arguments, trailing comma",
     '<thought>t</thought><action>write_file("a.txt", content="hi",)</action>',
     "write_file", {POSITIONAL_ARGS: ["a.txt"], "content": "hi"}, "t"),
    ("triple-quoted HTML", f'<thought>t</thought><action>write_file("index.html", """{PAGE}""")</action>',
     "write_file", {POSITIONAL_ARGS: ["index.html", PAGE]}, "t"),
    ("unescaped quotes in HTML", f'<thought>t</thought><action>write_file("index.html", "{PAGE}")</action>',
     "write_file", {POSITIONAL_ARGS: ["index.html", PAGE]}, "t"),
    ("escaped newline", '<thought>t</thought><action>write_file("a.js", "let a = 1;\\nlet b = /\\d/;")</action>',
     "write_file", {POSITIONAL_ARGS: ["a.js", "let a = 1;\nlet b = /\\d/;"]}, "t"),
    ("missing closing tags", '<thought>look it up\n<action>search("rose")', "search", "rose", "look it up"),
    ("missing closing quote and parenthesis", '<thought>t</thought><action>search("rose',
     "search", "rose", "t"),
    ("tag case and spaces", '<THOUGHT >t</ Thought><Action>search("rose")</ACTION>', "search", "rose", "t"),
    ("text before the first tag is the thought", 'I should search.\n<action>search("rose")</action>',
     "search", "rose", "I should search."),
    ("made-up observation is cut", '<thought>t</thought><action>search("rose")</action>\n'
     "<observation>1 yuan</observation>\n<final_answer>1 yuan</final_answer>", "search", "rose", "t"),
    ("a step after the action is dropped", '<thought>t</thought><action>search("rose")</action>'
     '<thought>again</thought><action>search("tulip")</action>', "search", "rose", "t"),
    ("separate action_input", "<thought>t</thought><action>search</action>\n"
     "<action_input>rose</action_input>", "search", "rose", "t"),
    ("JSON action_input", '<thought>t</thought><action>search</action><action_input>{"query": "rose"}'
     "</action_input>", "search", {"query": "rose"}, "t"),
    ("paper's bracket form", "<thought>t</thought><action>search[rose price]</action>",
     "search", "rose price", "t"),
    ("name with input below it", "<thought>t</thought><action>search\nrose price</action>",
     "search", "rose price", "t"),
    ("provider tool call", '<tool_call>\n{"name": "search", "arguments": {"query": "rose"}}\n</tool_call>',
     "search", {"query": "rose"}, ""),
    ("think block", '<think>hmm <action>nope()</action></think><thought>t</thought>'
     '<action>search("rose")</action>', "search", "rose", "t"),
    ("echoed question", '<question>q</question><thought>t</thought><action>search(query="rose")</action>',
     "search", {"query": "rose"}, "t"),
    ("Chinese content", "<thought>先查价格</thought><action>search(\"玫瑰 批发价\")</action>",
     "search", "玫瑰 批发价", "先查价格"),
    ("text markers inside XML thought", "<thought>t</thought>\nAction: search\nAction Input: rose",
     "search", "rose", "t"),
    ("no tags at all: text format", "Thought: t\nAction: search\nAction Input: rose", "search", "rose", "t"),
    # LangChain's XML agent (langchain-ai/langchain .../agents/output_parsers/test_xml.py).
    ("LangChain tool tags", "<tool>search</tool><tool_input>rose</tool_input>", "search", "rose", ""),
    ("LangChain tags cut at the stop", "<tool>search</tool><tool_input>rose price", "search", "rose price", ""),
    ("LangChain tags, JSON input", '<tool>search</tool><tool_input>{"query": "玫瑰"}</tool_input>',
     "search", {"query": "玫瑰"}, ""),
    ("entities decoded", '<thought>t</thought><action>write_file("a.html", "&lt;p&gt;hi&lt;/p&gt;")</action>',
     "write_file", {POSITIONAL_ARGS: ["a.html", "<p>hi</p>"]}, "t"),
    ("markdown around the name", "<thought>t</thought><action>**search**</action><action_input>rose"
     "</action_input>", "search", "rose", "t"),
    ("no tool, then a tool", "<thought>t</thought><action>N/A</action><action>search(\"rose\")</action>",
     "search", "rose", "t"),
    ("a tool, then a made-up answer", "<thought>t</thought><action>search(\"rose\")</action>"
     "<final_answer>5 yuan</final_answer>", "search", "rose", "t"),
]  # fmt: skip

FINALS = [
    # (id, reply, output, thought)
    ("well-formed", "<thought>I know</thought>\n<final_answer>Paris</final_answer>", "Paris", "I know"),
    ("missing closing tag", "<thought>I know</thought>\n<final_answer>Paris", "Paris", "I know"),
    ("multi-line answer", "<final_answer>line 1\nline 2</final_answer>", "line 1\nline 2", ""),
    ("answer tag", "<thought>t</thought><answer>42</answer>", "42", "t"),
    ("final answer with a space", "<final answer>42</final answer>", "42", ""),
    ("Chinese", "<thought>我知道了</thought><final_answer>1.26 元</final_answer>", "1.26 元", "我知道了"),
    ("prose: a direct answer", "Paris is the capital of France.", "Paris is the capital of France.", ""),
    ("a final_answer call", '<thought>t</thought><action>final_answer("Paris")</action>', "Paris", "t"),
    ("the paper's Finish", "<action>Finish[巴黎]</action>", "巴黎", ""),
    ("a final_answer tool call", '<tool_call>{"name": "final_answer", "arguments": {"answer": "Paris"}}'
     "</tool_call>", "Paris", ""),
    ("entities in the answer", "<final_answer>3 &lt; 4 &amp;&amp; 4 &gt; 3</final_answer>", "3 < 4 && 4 > 3", ""),
    ("an action naming no tool, then the answer", "<thought>I know</thought><action>None</action>"
     "<action_input>None</action_input><final_answer>Paris</final_answer>", "Paris", "I know"),
    ("no tool, in Chinese", "<thought>我知道</thought><action>无需工具</action><final_answer>巴黎</final_answer>",
     "巴黎", "我知道"),
]  # fmt: skip

BROKEN = [
    # (id, reply, words in the message)
    ("thought only", "<thought>I am thinking</thought>", "<action>"),
    ("empty action", "<thought>t</thought><action></action>", "needs a tool call"),
    ("no tool and no answer", "<thought>t</thought><action>None</action>", "needs a tool call"),
    ("empty final answer", "<thought>t</thought><final_answer> </final_answer>", "was empty"),
    ("empty LangChain final answer", "<final_answer></final_answer>", "was empty"),
    ("empty Finish", "<action>Finish[]</action>", "was empty"),
    ("observation first", "<observation>made up</observation>", "<final_answer>"),
    ("empty reply", "", "empty"),
]


@pytest.mark.parametrize(("reply", "tool", "tool_input", "thought"),
                         [case[1:] for case in ACTIONS], ids=[case[0] for case in ACTIONS])  # fmt: skip
def test_actions(reply: str, tool: str, tool_input: object, thought: str) -> None:
    step = parse_xml_response(reply)
    assert isinstance(step, Action)
    assert (step.tool, step.tool_input, step.thought) == (tool, tool_input, thought)


@pytest.mark.parametrize(("reply", "output", "thought"),
                         [case[1:] for case in FINALS], ids=[case[0] for case in FINALS])  # fmt: skip
def test_final_answers(reply: str, output: str, thought: str) -> None:
    step = parse_xml_response(reply)
    assert isinstance(step, FinalAnswer)
    assert (step.output, step.thought) == (output, thought)


@pytest.mark.parametrize(("reply", "words"), [case[1:] for case in BROKEN],
                         ids=[case[0] for case in BROKEN])  # fmt: skip
def test_broken_replies_raise_a_message_for_the_model(reply: str, words: str) -> None:
    with pytest.raises(ParseError) as error:
        parse_xml_response(reply)
    assert words in str(error.value)
    assert str(error.value).startswith("Invalid format")


def test_the_log_is_the_step_with_clean_tags_and_without_the_made_up_rest() -> None:
    reply = 'I will search.\n<action>search("rose")\n<observation>made up</observation>'
    assert parse_xml_response(reply).log == (
        '<thought>I will search.</thought>\n<action>search("rose")</action>'
    )


# -- 2. The contract ---------------------------------------------------------------------------

SIZE = 100_000
ADVERSARIAL = {
    "open tags": "<thought>" * (SIZE // 9),
    "unclosed action": "<action>search(" + "(" * SIZE,
    "quotes": '<action>f("' + '" ' * (SIZE // 2),
    "escapes": '<action>f("' + "\\" * SIZE,
    "commas": "<action>f(" + "," * SIZE,
    "almost tags": "<thought" * (SIZE // 8),
    "triple quotes": '<action>f("""' + "a" * SIZE,
    "quote then spaces": '<action>f("' + ('"' + " " * 50) * (SIZE // 51),
    "long final answer": "<final_answer>" + "x" * SIZE,
}


def check_contract(text: str) -> None:
    try:
        step = parse_xml_response(text)
    except ParseError as error:
        assert str(error)
        return
    assert isinstance(step, Action | FinalAnswer)


@pytest.mark.parametrize("text", list(ADVERSARIAL.values()), ids=list(ADVERSARIAL))
def test_adversarial_100_kb_replies_parse_quickly(text: str) -> None:
    started = time.perf_counter()
    check_contract(text)
    assert time.perf_counter() - started < 1.0


PIECES = [*'<>/()"\', =\\\n', "<thought>", "<action>", "</action>", "<final_answer>",
          "<observation>", "search", '"""', "x"]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES)).map("".join) | st.text())
def test_any_text_parses_or_raises_parse_error(text: str) -> None:
    check_contract(text)
