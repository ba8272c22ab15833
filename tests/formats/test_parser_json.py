"""Tests for `custom_react.formats.json_format` (the JSON repair on its own: `tests/parsing/`).

1. A table of replies in the JSON format: well-formed, sloppy (what small models write) and broken.
2. The contract on any text (property test) and on adversarial 100 KB replies, with a time bound.
"""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from custom_react.formats.json_format import parse_json_response
from custom_react.parser import Action, FinalAnswer, ParseError
from custom_react.parsing.call_syntax import POSITIONAL_ARGS

# -- 1. The table ------------------------------------------------------------------------------

ACTIONS = [
    # (id, reply, tool, tool_input, thought)
    ("well-formed", '{"thought": "look it up", "action": "search", "action_input": "rose"}',
     "search", "rose", "look it up"),
    ("object input", '{"thought": "t", "action": "write_file", "action_input": '
     '{"path": "a.txt", "content": "hi"}}', "write_file", {"path": "a.txt", "content": "hi"}, "t"),
    ("code fence", '```json\n{"thought": "t", "action": "search", "action_input": "rose"}\n```',
     "search", "rose", "t"),
    ("single quotes", "{'thought': 't', 'action': 'search', 'action_input': 'rose'}", "search", "rose", "t"),
    ("trailing commas", '{"thought": "t", "action": "search", "action_input": "rose",}', "search", "rose", "t"),
    ("cut off by the stop sequence", '{"thought": "t", "action": "search", "action_input": "rose", ',
     "search", "rose", "t"),
    ("cut off inside a string", '{"thought": "t", "action": "search", "action_input": "rose pri',
     "search", "rose pri", "t"),
    ("raw newline in a string", '{"thought": "t", "action": "write_file", "action_input": '
     '{"path": "a.txt", "content": "line 1\nline 2"}}', "write_file",
     {"path": "a.txt", "content": "line 1\nline 2"}, "t"),
    ("unescaped quotes in HTML", '{"action": "write_file", "action_input": {"path": "i.html", '
     '"content": "<a href="x">go</a>"}}', "write_file", {"path": "i.html", "content": '<a href="x">go</a>'}, ""),
    ("regex escape kept", '{"action": "f", "action_input": "\\d+"}', "f", "\\d+", ""),
    ("Python literals and bare words", "{thought: 't', action: search, action_input: 'rose', ok: True}",
     "search", "rose", "t"),
    ("key case and spacing", '{"Thought": "t", "Action": "search", "Action Input": "rose"}',
     "search", "rose", "t"),
    ("camelCase keys", '{"thought": "t", "action": "search", "actionInput": "rose"}', "search", "rose", "t"),
    ("action as a call", '{"thought": "t", "action": "search(\\"rose\\")"}', "search", "rose", "t"),
    ("action as a call with keywords", '{"action": "write_file(path=\'a.txt\', content=\'hi\')"}',
     "write_file", {"path": "a.txt", "content": "hi"}, ""),
    ("list input: positional arguments", '{"action": "write_file", "action_input": ["a.txt", "hi"]}',
     "write_file", {POSITIONAL_ARGS: ["a.txt", "hi"]}, ""),
    ("one-item list", '{"action": "search", "action_input": ["rose"]}', "search", "rose", ""),
    ("number input", '{"action": "calculator", "action_input": 12}', "calculator", "12", ""),
    ("JSON text as input", '{"action": "search", "action_input": "{\\"query\\": \\"rose\\"}"}',
     "search", {"query": "rose"}, ""),
    ("provider tool call", '<tool_call>\n{"name": "search", "arguments": {"query": "rose"}}\n</tool_call>',
     "search", {"query": "rose"}, ""),
    ("nested action object", '{"thought": "t", "action": {"name": "search", "arguments": {"query": "rose"}}}',
     "search", {"query": "rose"}, "t"),
    ("no input", '{"thought": "t", "action": "current_date"}', "current_date", "", "t"),
    ("prose before the object is the thought", 'I will look it up.\n{"action": "search", "action_input": "rose"}',
     "search", "rose", "I will look it up."),
    ("made-up observation key is cut", '{"thought": "t", "action": "search", "action_input": "rose", '
     '"observation": "1 yuan", "final_answer": "1 yuan"}', "search", "rose", "t"),
    ("made-up second object is dropped", '{"thought": "t", "action": "search", "action_input": "rose"}\n'
     '{"observation": "1 yuan"}\n{"final_answer": "1 yuan"}', "search", "rose", "t"),
    ("think block", '<think>{"action": "nope"}</think>{"thought": "t", "action": "search", "action_input": "rose"}',
     "search", "rose", "t"),
    ("Chinese content", '{"thought": "先查价格", "action": "search", "action_input": "玫瑰 批发价"}',
     "search", "玫瑰 批发价", "先查价格"),
    ("text markers with a JSON input", 'Thought: t\nAction: search\nAction Input: {"query": "rose"}',
     "search", {"query": "rose"}, "t"),
    ("no object: text format", "Thought: t\nAction: search\nAction Input: rose", "search", "rose", "t"),
    # Other key conventions (vllm-project/vllm tests/tool_parsers/, huggingface/smolagents tests/).
    ("name and parameters", '{"name": "search", "parameters": {"query": "rose"}}', "search", {"query": "rose"}, ""),
    ("tool and tool_input", '{"tool": "search", "tool_input": "玫瑰"}', "search", "玫瑰", ""),
    ("OpenAI function object", '{"type": "function", "function": {"name": "search", '
     '"arguments": "{\\"query\\": \\"rose\\"}"}}', "search", {"query": "rose"}, ""),
    ("markdown around the name", '{"action": "**search**", "action_input": "rose"}', "search", "rose", ""),
    ("comment in the object", '{"action": "search", /* look it up */ "action_input": "rose"}',
     "search", "rose", ""),
]  # fmt: skip

FINALS = [
    # (id, reply, output, thought)
    ("well-formed", '{"thought": "I know", "final_answer": "Paris"}', "Paris", "I know"),
    ("key spelled out", '{"Final Answer": "Paris"}', "Paris", ""),
    ("camelCase", '{"finalAnswer": "Paris"}', "Paris", ""),
    ("a number", '{"final_answer": 42}', "42", ""),
    ("LangChain's Final Answer action", '{"action": "Final Answer", "action_input": "Paris"}', "Paris", ""),
    ("cut off", '{"thought": "I know", "final_answer": "Paris', "Paris", "I know"),
    ("answer before a made-up action", '{"final_answer": "Paris", "action": "search"}', "Paris", ""),
    ("prose: a direct answer", "Paris is the capital of France.", "Paris is the capital of France.", ""),
    ("a final_answer call", '{"name": "final_answer", "arguments": {"answer": "巴黎"}}', "巴黎", ""),
    ("the paper's Finish", '{"thought": "t", "action": "Finish", "action_input": "Paris"}', "Paris", "t"),
    ("an action naming no tool, and the answer", '{"thought": "t", "action": "None", "action_input": "",'
     ' "final_answer": "Paris"}', "Paris", "t"),
    ("a null action, and the answer", '{"thought": "t", "action": null, "final_answer": "巴黎"}', "巴黎", "t"),
]  # fmt: skip

BROKEN = [
    # (id, reply, words in the message)
    ("thought only", '{"thought": "I am thinking"}', "no action and no final answer"),
    ("empty final answer", '{"thought": "t", "final_answer": "  "}', "was empty"),
    ("empty action", '{"thought": "t", "action": ""}', "needs a tool name"),
    (
        "no tool and no answer",
        '{"thought": "t", "action": "N/A", "action_input": "N/A"}',
        "needs a tool name",
    ),
    ("unreadable object", '{"thought": "t" "action": ', "could not be read"),
    ("observation only", '{"observation": "made up"}', "no action"),
    (
        "data with a name key is not a call",
        '{"name": "Alice", "age": 34}',
        "no action and no final answer",
    ),
    (
        "an empty final_answer call",
        '{"name": "final_answer", "arguments": {"answer": ""}}',
        "was empty",
    ),
    ("empty reply", "", "empty"),
]


@pytest.mark.parametrize(("reply", "tool", "tool_input", "thought"),
                         [case[1:] for case in ACTIONS], ids=[case[0] for case in ACTIONS])  # fmt: skip
def test_actions(reply: str, tool: str, tool_input: object, thought: str) -> None:
    step = parse_json_response(reply)
    assert isinstance(step, Action)
    assert (step.tool, step.tool_input, step.thought) == (tool, tool_input, thought)


@pytest.mark.parametrize(("reply", "output", "thought"),
                         [case[1:] for case in FINALS], ids=[case[0] for case in FINALS])  # fmt: skip
def test_final_answers(reply: str, output: str, thought: str) -> None:
    step = parse_json_response(reply)
    assert isinstance(step, FinalAnswer)
    assert (step.output, step.thought) == (output, thought)


@pytest.mark.parametrize(("reply", "words"), [case[1:] for case in BROKEN],
                         ids=[case[0] for case in BROKEN])  # fmt: skip
def test_broken_replies_raise_a_message_for_the_model(reply: str, words: str) -> None:
    with pytest.raises(ParseError) as error:
        parse_json_response(reply)
    assert words in str(error.value)
    assert str(error.value).startswith("Invalid format")


def test_the_log_is_the_step_as_canonical_json() -> None:
    step = parse_json_response(
        "```json\n{'thought': 'look', 'action': 'search', 'action_input': 'rose',"
    )
    assert json.loads(step.log) == {"thought": "look", "action": "search", "action_input": "rose"}
    final = parse_json_response('{"final_answer": "Paris", "observation": "x"}')
    assert json.loads(final.log) == {"final_answer": "Paris"}


# -- 2. The contract ---------------------------------------------------------------------------

SIZE = 100_000
ADVERSARIAL = {
    "open braces": "{" * SIZE,
    "nested lists": '{"a": ' + "[" * SIZE,
    "quotes": '{"a": "' + '" ' * (SIZE // 2),
    "single quotes": "{'a': '" + "'x" * (SIZE // 2),
    "escapes": '{"a": "' + "\\" * SIZE,
    "commas": "{" + '"a":1,' * (SIZE // 6),
    "bare words": "{" + "a " * (SIZE // 2),
    "fences": "```" * (SIZE // 3) + "{}",
    "many objects": '{"thought": "x"}' * (SIZE // 16),
    "long action input": '{"action": "search", "action_input": "' + "a" * SIZE + '"}',
}


def check_contract(text: str) -> None:
    try:
        step = parse_json_response(text)
    except ParseError as error:
        assert str(error)
        return
    assert isinstance(step, Action | FinalAnswer)


@pytest.mark.parametrize("text", list(ADVERSARIAL.values()), ids=list(ADVERSARIAL))
def test_adversarial_100_kb_replies_parse_quickly(text: str) -> None:
    started = time.perf_counter()
    check_contract(text)
    assert time.perf_counter() - started < 1.0


PIECES = [*"{}[]:,'\"\\ \n", "true", "None", '"action"', '"final_answer"', '"thought"', "x", "```"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES)).map("".join) | st.text())
def test_any_text_parses_or_raises_parse_error(text: str) -> None:
    check_contract(text)
