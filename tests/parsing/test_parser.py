"""Tests for `custom_react.parser`: what real models write, and what the parser makes of it.

1. A table of replies, each in English and with Chinese content (ASCII markers with Chinese text, and
   most also with the Chinese marker words 思考/行动/行动输入/观察/最终答案).
2. A differential test against LangChain's legacy `ReActSingleInputOutputParser` on well-formed
   replies, and a table of the differences we intend.
3. Property tests: any text parses to a valid step or raises `ParseError`, never anything else.
4. Adversarial 100 KB replies (shared with `bench/parser_speed.py`, which times them finely): each
   parses or raises `ParseError`, in under half a second.

The dialects of other frameworks have their own tables in `tests/parsing/test_dialects.py`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields, replace
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from langchain_core.exceptions import OutputParserException

from bench.parser_speed import ADVERSARIAL_INPUTS
from custom_react.formats import get_format
from custom_react.parser import (
    Action,
    ActionInput,
    FinalAnswer,
    ParseError,
    parse_llm_response,
)
from custom_react.parsing.action_input import parse_action_input
from custom_react.scratchpad import TEXT_CUE, with_cue

try:  # the legacy parser is an optional extra (`pip install -e .[legacy]`)
    from langchain_classic.agents.output_parsers import ReActSingleInputOutputParser
except ImportError:  # pragma: no cover
    ReActSingleInputOutputParser = None

needs_legacy = pytest.mark.skipif(
    ReActSingleInputOutputParser is None, reason="langchain-classic is not installed"
)

# -- 1. The table --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Act:
    """Expect an Action; `thought=None` means "not checked"."""

    tool: str
    tool_input: ActionInput
    thought: str | None = None


@dataclass(frozen=True)
class Final:
    """Expect a FinalAnswer; `thought=None` means "not checked"."""

    output: str
    thought: str | None = None


@dataclass(frozen=True)
class Error:
    """Expect a ParseError whose message (written for the model) mentions each of `mentions`."""

    mentions: tuple[str, ...] = ("Action", "Final Answer")


Expected = Act | Final | Error

# Placeholders in the table: {t} a thought, {q} a tool input, {a} an answer.
ENGLISH = {"{t}": "I need the price of a dozen roses.", "{q}": "rose price"}
ENGLISH["{a}"] = "A dozen roses cost 25 dollars."
CHINESE = {"{t}": "我需要查一下一打玫瑰的价格。", "{q}": "玫瑰 价格", "{a}": "一打玫瑰 25 元。"}
# ASCII marker -> Chinese marker word (longest first, so "Action Input" is not read as "Action").
CHINESE_MARKERS = {"Action Input": "行动输入", "Final Answer": "最终答案", "Thought": "思考"}
CHINESE_MARKERS |= {"Observation": "观察", "Action": "行动"}


def _fill(value: Any, words: dict[str, str]) -> Any:
    if isinstance(value, str):
        for placeholder, word in words.items():
            value = value.replace(placeholder, word)
        return value
    if isinstance(value, dict):
        return {key: _fill(item, words) for key, item in value.items()}
    if isinstance(value, (Act, Final)):
        return replace(
            value, **{f.name: _fill(getattr(value, f.name), words) for f in fields(value)}
        )
    return value


def _with_chinese_markers(text: str) -> str:
    for ascii_marker, chinese in CHINESE_MARKERS.items():
        text = text.replace(ascii_marker, chinese)
    return text


def variants(
    name: str, text: str, expected: Expected, *, chinese_markers: bool = True
) -> list[Any]:
    """The case in English, with Chinese text, and (optionally) with Chinese marker words."""
    params = [
        pytest.param(_fill(text, ENGLISH), _fill(expected, ENGLISH), id=f"{name}/en"),
        pytest.param(_fill(text, CHINESE), _fill(expected, CHINESE), id=f"{name}/zh"),
    ]
    if chinese_markers:
        zh_markers = _with_chinese_markers(_fill(text, CHINESE))
        params.append(pytest.param(zh_markers, _fill(expected, CHINESE), id=f"{name}/zh-markers"))
    return params


def kind_params(kinds: dict[str, list[Any]]) -> list[Any]:
    """Every case of every kind's table, each named by its kind: a test of a table of kinds."""
    return [
        pytest.param(*case.values, id=f"{kind}: {case.id}")
        for kind, table in kinds.items()
        for case in table
    ]


ACTION = "Thought: {t}\nAction: search\nAction Input: {q}"
SEARCH = Act("search", "{q}", "{t}")
SEARCH_ANY_THOUGHT = Act("search", "{q}")

CASES = [
    # The format as the prompt asks for it.
    *variants("action", ACTION, SEARCH),
    *variants("final answer", "Thought: {t}\nFinal Answer: {a}", Final("{a}", "{t}")),
    *variants(
        "prose before the action is the thought", "{t}\nAction: search\nAction Input: {q}", SEARCH
    ),
    *variants("empty thought, then a thought", "Thought:\n" + ACTION, SEARCH),
    *variants(
        "thought over several lines",
        "Thought: {t}\n{t}\nAction: search\nAction Input: {q}",
        Act("search", "{q}", "{t}\n{t}"),
    ),
    # Marker case.
    *variants(
        "lowercase markers",
        "thought: {t}\naction: search\naction input: {q}",
        SEARCH,
        chinese_markers=False,
    ),
    *variants(
        "uppercase markers",
        "THOUGHT: {t}\nACTION: search\nACTION INPUT: {q}",
        SEARCH,
        chinese_markers=False,
    ),
    *variants("lowercase final answer", "final answer: {a}", Final("{a}"), chinese_markers=False),
    *variants("uppercase final answer", "FINAL ANSWER: {a}", Final("{a}"), chinese_markers=False),
    *variants(
        "action_input with underscore",
        "Action: search\naction_input: {q}",
        SEARCH_ANY_THOUGHT,
        chinese_markers=False,
    ),
    *variants(
        "Action-Input with hyphen",
        "Action: search\nAction-Input: {q}",
        SEARCH_ANY_THOUGHT,
        chinese_markers=False,
    ),
    *variants(
        "indented markers", "  Thought: {t}\n\tAction: search\n\u3000Action Input: {q}", SEARCH
    ),
    # Full-width colons.
    *variants("full-width colons", "Thought：{t}\nAction：search\nAction Input：{q}", SEARCH),
    *variants(
        "full-width colon, final answer", "Thought： {t}\nFinal Answer： {a}", Final("{a}", "{t}")
    ),
    # Markdown around markers.
    *variants(
        "bold markers, colon inside",
        "**Thought:** {t}\n**Action:** search\n**Action Input:** {q}",
        SEARCH,
    ),
    *variants(
        "bold markers, colon outside",
        "**Thought**: {t}\n**Action**: search\n**Action Input**: {q}",
        SEARCH,
    ),
    *variants("backtick markers", "`Thought`: {t}\n`Action`: search\n`Action Input`: {q}", SEARCH),
    *variants(
        "backtick markers, colon inside",
        "`Action:` search\n`Action Input:` {q}",
        SEARCH_ANY_THOUGHT,
    ),
    *variants("italic markers", "*Thought:* {t}\n_Action:_ search\n*Action Input:* {q}", SEARCH),
    *variants("bold final answer", "**Final Answer:** {a}", Final("{a}")),
    *variants("bold final answer, answer on next line", "**Final Answer**:\n{a}", Final("{a}")),
    *variants(
        "bold markers with full-width colon",
        "**Action：** search\n**Action Input：** {q}",
        SEARCH_ANY_THOUGHT,
    ),
    # Markdown around tool names and inputs: names are reported as the model meant them (the loop
    # matches them to tools); backticks or bold around an input are unwrapped.
    *variants(
        "backticks around name and input",
        "Action: `search`\nAction Input: `{q}`",
        Act("search", "{q}"),
    ),
    *variants("bold name", "Action: **search**\nAction Input: {q}", Act("search", "{q}")),
    *variants("bold input", "Action: search\nAction Input: **{q}**", Act("search", "{q}")),
    *variants(
        "backticks around markers, name and input",
        "`Action`: `search`\n`Action Input`: `{q}`",
        Act("search", "{q}"),
    ),
    *variants(
        "bold markers, backticks around name and input",
        "**Action:** `search`\n**Action Input:** `{q}`",
        Act("search", "{q}"),
    ),
    *variants(
        "name under a bold marker",
        "**Action:**\nsearch\n**Action Input:**\n{q}",
        SEARCH_ANY_THOUGHT,
    ),
    # Numbered markers.
    *variants("numbered markers", "Thought 1: {t}\nAction 2: search\nAction Input 2: {q}", SEARCH),
    *variants(
        "number inside Action Input",
        "Thought 2: {t}\nAction 2: search\nAction 2 Input 2: {q}",
        SEARCH,
        chinese_markers=False,
    ),
    *variants("numbered final answer", "Thought 3: {t}\nFinal Answer 3: {a}", Final("{a}", "{t}")),
    *variants(
        "bold numbered markers", "**Action 2:** search\n**Action Input 2:** {q}", SEARCH_ANY_THOUGHT
    ),
    # List, heading and quote prefixes.
    *variants("dash list", "- Thought: {t}\n- Action: search\n- Action Input: {q}", SEARCH),
    *variants("numbered list", "1. Thought: {t}\n2. Action: search\n3. Action Input: {q}", SEARCH),
    *variants(
        "bullet and bold",
        "* **Thought:** {t}\n* **Action:** search\n* **Action Input:** {q}",
        SEARCH,
    ),
    *variants("headings", "### Thought: {t}\n### Final Answer: {a}", Final("{a}", "{t}")),
    *variants("quote", "> Final Answer: {a}", Final("{a}")),
    # <think> blocks.
    *variants("think block first", "<think>{t}</think>\n" + ACTION, SEARCH),
    *variants(
        "markers inside the think block are ignored",
        "<think>\nThought: maybe arithmetic\nAction: calculator\nAction Input: 1+1\n"
        "Observation: 2\nFinal Answer: 2\n</think>\nAction: search\nAction Input: {q}",
        Act("search", "{q}", ""),
    ),
    *variants(
        "final answer after a think block",
        "<think>Final Answer: not yet</think>\n\nFinal Answer: {a}",
        Final("{a}", ""),
    ),
    *variants("uppercase think tags", "<THINK>Action: calculator</THINK>\n" + ACTION, SEARCH),
    *variants(
        "think block then prose", "<think>{t}</think>\n{a}", Final("{a}", ""), chinese_markers=False
    ),
    *variants(
        "unclosed think block after the step", ACTION + "\n<think>Final Answer: too early", SEARCH
    ),
    *variants("unclosed think block holding the whole reply", "<think>\n" + ACTION, SEARCH),
    *variants(
        "closing tag only (the template opened the block)",
        "{t}\nAction: calculator\nAction Input: 1+1\n</think>\n\n" + ACTION,
        SEARCH,
    ),
    *variants(
        "only a closed think block, holding a step: the step (nothing else was written)",
        "<think>{t}\nAction: search\nAction Input: {q}</think>",
        SEARCH,
        chinese_markers=False,
    ),
    *variants(
        "only a closed think block, no step in it",
        "<think>{t}</think>",
        Error(),
        chinese_markers=False,
    ),
    # Action inputs.
    *variants(
        "JSON input",
        'Action: search\nAction Input: {"query": "{q}", "max_results": 3}',
        Act("search", {"query": "{q}", "max_results": 3}),
    ),
    *variants(
        "fenced JSON input",
        'Action: search\nAction Input:\n```json\n{"query": "{q}"}\n```',
        Act("search", {"query": "{q}"}),
    ),
    *variants(
        "fenced text input", "Action: search\nAction Input:\n```\n{q}\n```", SEARCH_ANY_THOUGHT
    ),
    *variants(
        "inline triple backticks", "Action: search\nAction Input: ```{q}```", SEARCH_ANY_THOUGHT
    ),
    *variants(
        "Python-style dict",
        "Action: search\nAction Input: {'query': '{q}', 'max_results': 3,}",
        Act("search", {"query": "{q}", "max_results": 3}),
    ),
    *variants(
        "multi-line JSON",
        'Action: search\nAction Input: {\n  "query": "{q}",\n  "limit": 2\n}',
        Act("search", {"query": "{q}", "limit": 2}),
    ),
    *variants(
        "multi-line text input",
        "Action: write_file\nAction Input: {q}\n{a}\n\n{t}",
        Act("write_file", "{q}\n{a}\n\n{t}"),
    ),
    *variants("double-quoted input", 'Action: search\nAction Input: "{q}"', SEARCH_ANY_THOUGHT),
    *variants("single-quoted input", "Action: search\nAction Input: '{q}'", SEARCH_ANY_THOUGHT),
    *variants(
        "JSON list stays text",
        'Action: search\nAction Input: ["{q}", "{a}"]',
        Act("search", '["{q}", "{a}"]'),
    ),
    *variants(
        "cut-off JSON is repaired",
        'Action: search\nAction Input: {"query": "{q}"',
        Act("search", {"query": "{q}"}),
    ),
    *variants(
        "unreadable JSON stays text",
        "Action: search\nAction Input: {1, 2}",
        Act("search", "{1, 2}"),
    ),
    # A made-up Observation and everything after it are cut.
    *variants(
        "made-up observation, then a final answer",
        ACTION + "\nObservation: {a}\nThought: I know now\nFinal Answer: {a}",
        SEARCH,
    ),
    *variants(
        "made-up bold observation", ACTION + "\n\n**Observation:** {a}\nFinal Answer: {a}", SEARCH
    ),
    *variants(
        "an observation before the step is skipped, not a cut",
        "Thought: {t}\nObservation: {a}\nFinal Answer: {a}",
        Final("{a}", "{t}"),
    ),
    *variants("an observation and nothing else", "Observation: {a}", Error()),
    # A partial stop word the server let through.
    *variants("leaked 'Observ'", ACTION + "\nObserv", SEARCH),
    *variants("leaked 'Obs'", ACTION + "\nObs", SEARCH),
    *variants(
        "leaked 'Observation' without colon",
        ACTION + "\nObservation",
        SEARCH,
        chinese_markers=False,
    ),
    *variants("leaked 'Observ' after a final answer", "Final Answer: {a}\nObserv", Final("{a}")),
    # An action and a final answer in one reply: the first one wins.
    *variants("action, then final answer", ACTION + "\nFinal Answer: {a}", SEARCH),
    *variants(
        "final answer, then action",
        "Thought: {t}\nFinal Answer: {a}\nAction: search\nAction Input: {q}",
        Final("{a}", "{t}"),
    ),
    *variants("two actions", ACTION + "\nAction: calculator\nAction Input: 1+1", SEARCH),
    *variants(
        "a thought after the step is not its thought",
        "Action: search\nAction Input: {q}\nThought: {t}",
        Act("search", "{q}", ""),
    ),
    # Prose with no markers is a direct answer.
    *variants("prose", "{a}", Final("{a}", ""), chinese_markers=False),
    *variants(
        "prose over several lines", "{a}\n\n{t}\n", Final("{a}\n\n{t}", ""), chinese_markers=False
    ),
    # LangChain's JSON agent format, with no markers, is read as a step, not as prose.
    *variants(
        "JSON action blob, fenced",
        '```json\n{"action": "search", "action_input": "{q}"}\n```',
        SEARCH_ANY_THOUGHT,
        chinese_markers=False,
    ),
    *variants(
        "JSON action blob with JSON input",
        '{"action": "search", "action_input": {"query": "{q}"}}',
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    *variants(
        "JSON final answer blob",
        '<think>{t}</think>\n{"action": "Final Answer", "action_input": "{a}"}',
        Final("{a}"),
        chinese_markers=False,
    ),
    *variants(
        "JSON without an action is prose",
        '{"answer": "{a}"}',
        Final('{"answer": "{a}"}'),
        chinese_markers=False,
    ),
    # Format errors: the message says what to write.
    *variants("bare thought", "Thought:", Error()),
    *variants("thought without action", "Thought: {t}", Error()),
    *variants("thought and action input, no action", "Thought: {t}\nAction Input: {q}", Error()),
    *variants(
        "action without a name", "Thought: {t}\nAction:\nAction Input: {q}", Error(("Action",))
    ),
    *variants(
        "action named only with markdown", "Action: **\nAction Input: {q}", Error(("Action",))
    ),
    *variants("empty final answer", "Thought: {t}\nFinal Answer:", Error(("Final Answer",))),
    *variants("blank final answer", "Thought: {t}\nFinal Answer:   \n\n", Error(("Final Answer",))),
    pytest.param("", Error(), id="empty reply"),
    pytest.param(" \n\t \n", Error(), id="whitespace-only reply/en"),
    pytest.param("\u3000\n\u3000", Error(), id="whitespace-only reply/zh"),  # full-width spaces
    # The ReAct paper's own action form.
    *variants("paper form with brackets", "Thought: {t}\nAction: search[{q}]", SEARCH),
    *variants("call form with quotes", 'Action: search("{q}")', SEARCH_ANY_THOUGHT),
    *variants(
        "call form with JSON", 'Action: search({"query": "{q}"})', Act("search", {"query": "{q}"})
    ),
    # The input after the tool's name and a colon, on the Action line (no Action Input).
    *variants("name colon input", "Thought: {t}\nAction: search: {q}", SEARCH),
    *variants("name colon input, no space", "Action: search:{q}", SEARCH_ANY_THOUGHT),
    *variants("name full-width colon input", "Action: search：{q}", SEARCH_ANY_THOUGHT),
    pytest.param(
        "Action: https://example.com/page",
        Act("https://example.com/page", ""),
        id="a URL stays the name",
    ),
    # The template's `Question:` line: after the step, a made-up next turn (it ends the step);
    # before it, an echo of the question (text, as before). Not a marker in an answer's text.
    *variants("made-up next question", ACTION + "\n\nQuestion: and tulips?\nThought: x", SEARCH),
    *variants(
        "echoed question",
        "Question: what do roses cost?\nThought: {t}\nAction: search\nAction Input: {q}",
        Act("search", "{q}", "{t}"),
    ),
    pytest.param("Question: which roses?", Final("Question: which roses?"), id="only a question"),
    # A conversation's next `Human:` turn, made up after the step or a conversational answer.
    *variants(
        "a final answer may hold a dialogue",
        "Thought: {t}\nFinal Answer: {a}\nHuman: thanks!",
        Final("{a}\nHuman: thanks!", "{t}"),
    ),
    pytest.param(
        "Final Answer: A quiz:\nQuestion: What is 2 + 2?\nAnswer: 4",
        Final("A quiz:\nQuestion: What is 2 + 2?\nAnswer: 4"),
        id="a final answer may hold a quiz",
    ),
    *variants(
        "human turn after AI:", "Thought: no tool\nAI: {a}\nHuman: and tulips?", Final("{a}")
    ),
    *variants("human turn after the input", ACTION + "\nHuman: ok", SEARCH),
    pytest.param(
        "Final Answer: Human: and AI: label the turns.",
        Final("Human: and AI: label the turns."),
        id="a human label inside the answer's line stays",
    ),
    # A step written in a code block: the fence that closes it is not part of the input/answer.
    *variants("fenced step", "Here it is:\n```\n" + ACTION + "\n```", SEARCH),
    *variants("fenced final answer", "```\nThought: {t}\nFinal Answer: {a}\n```", Final("{a}")),
    *variants(
        "fenced name and input",
        "Thought: {t}\nAction:\n```\nsearch\n```\nAction Input:\n```\n{q}\n```",
        SEARCH,
    ),
    # Other words for the name's and the input's markers, and an input labelled on its own line.
    *variants(
        "action name",
        "Thought: {t}\nAction Name: search\nAction Input: {q}",
        SEARCH,
        chinese_markers=False,
    ),
    *variants("tool name", "Thought: {t}\nTool Name: search\nTool Input: {q}", SEARCH),
    *variants(
        "function name and arguments",
        'Thought: {t}\nFunction Name: search\nFunction Arguments: {"query": "{q}"}',
        Act("search", {"query": "{q}"}, "{t}"),
    ),
    *variants("tool call", 'Thought: {t}\nTool Call: search("{q}")', SEARCH),
    *variants("input labelled below the name", "Thought: {t}\nAction: search\nInput: {q}", SEARCH),
    pytest.param(
        'Thought: t\nAction: search\nParameters: {"query": "rose"}',
        Act("search", {"query": "rose"}, "t"),
        id="parameters labelled below the name",
    ),
    # A chat template's end-of-turn token left in the text ends the reply; a made-up turn after
    # it goes too. `</s>` counts only at the very end.
    *variants("im_end after the input", ACTION + "<|im_end|>", SEARCH),
    *variants(
        "eot_id, then a made-up user turn",
        "Thought: {t}\nFinal Answer: {a}<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nok",
        Final("{a}", "{t}"),
    ),
    *variants("end_of_turn after the answer", "Final Answer: {a}<end_of_turn>\n", Final("{a}")),
    *variants("closing s tag at the end", "Final Answer: {a}</s>", Final("{a}")),
    pytest.param(
        "Final Answer: <s>was</s> is 25 dollars",
        Final("<s>was</s> is 25 dollars"),
        id="a closing s tag inside the text stays",
    ),
    pytest.param("<|im_end|>Final Answer: 25", Final("25"), id="nothing before the token"),
    # The start of a made-up next turn: ChatML, Llama 2's [INST], Phi's <|user|>, Llama 3's header.
    *variants("im_start of a user turn", "Final Answer: {a}<|im_start|>user\nmore", Final("{a}")),
    *variants("llama 2 instruction", "Final Answer: {a}\n[INST] and tulips? [/INST]", Final("{a}")),
    *variants(
        "an echoed [/INST] first", "[/INST] Thought: {t}\nFinal Answer: {a}", Final("{a}", "{t}")
    ),
    *variants("phi user turn", ACTION + "\n<|user|>\nthanks", SEARCH),
    pytest.param(
        "<|start_header_id|>assistant<|end_header_id|>\n\nThought: t\nFinal Answer: 25",
        Final("25", "t"),
        id="a llama 3 header first",
    ),
    # A JSON blob in a fence whose language runs into it (LangChain's structured-chat test).
    *variants(
        "fence language glued to the blob",
        'I can use search.\n\nAction:\n```json{"action": "search", "action_input": "{q}"}```',
        SEARCH_ANY_THOUGHT,
    ),
    # An action with no Action Input: the input is "" (a tool without arguments).
    *variants(
        "action without action input", "Thought: {t}\nAction: get_date", Act("get_date", "", "{t}")
    ),
    *variants(
        "empty action input", "Thought: {t}\nAction: get_date\nAction Input:", Act("get_date", "")
    ),
    *variants(
        "quoted empty action input", 'Action: get_date\nAction Input: ""', Act("get_date", "")
    ),
]


def check(result: Action | FinalAnswer | ParseError, expected: Expected) -> None:
    if isinstance(expected, Error):
        assert isinstance(result, ParseError), f"expected ParseError, got {result!r}"
        for word in expected.mentions:
            assert word in str(result), f"{str(result)!r} should mention {word!r}"
    elif isinstance(expected, Act):
        assert isinstance(result, Action), f"expected an Action, got {result!r}"
        assert (result.tool, result.tool_input) == (expected.tool, expected.tool_input)
        if expected.thought is not None:
            assert result.thought == expected.thought
    else:
        assert isinstance(result, FinalAnswer), f"expected a FinalAnswer, got {result!r}"
        assert result.output == expected.output
        if expected.thought is not None:
            assert result.thought == expected.thought


def parse_or_error(text: str) -> Action | FinalAnswer | ParseError:
    try:
        return parse_llm_response(text)
    except ParseError as error:
        return error


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_parse_llm_response(text: str, expected: Expected) -> None:
    check(parse_or_error(text), expected)


def test_table_covers_english_and_chinese() -> None:
    ids = [case.id for case in CASES]
    assert len(ids) == len(set(ids))
    names = {case_id.rsplit("/", 1)[0] for case_id in ids if "/" in case_id}
    for name in names:
        assert f"{name}/en" in ids and f"{name}/zh" in ids
    assert sum(case_id.endswith("/zh-markers") for case_id in ids) >= 60


def test_log_keeps_the_step_and_drops_thinking_and_the_made_up_rest() -> None:
    text = "<think>hmm</think>\n**Thought:** I need a price.\n**Action:** search\n"
    text += "**Action Input:** rose price\nObservation: 25\nFinal Answer: 25"
    step = parse_llm_response(text)
    assert step.log == "Thought: I need a price.\nAction: search\nAction Input: rose price"


@pytest.mark.parametrize(
    "text",
    [
        "Question: what do roses cost?\nThought: I need a price.\nAction: search\nAction Input: rose",
        "**Question:** what do roses cost?\n**Thought:** I need a price.\nAction: search\n"
        "Action Input: rose",
        "Question: 玫瑰多少钱？\n思考：I need a price.\n行动：search\n行动输入：rose",
    ],
    ids=["plain", "markdown", "chinese markers"],
)
def test_a_restated_question_stays_out_of_the_thought_and_the_log(text: str) -> None:
    """The template's `Question:` line copied before the step is an echo: the model reads the step
    again without it (`Thought: Question: ...` would teach it to write the echo once more)."""
    step = parse_llm_response(text)
    assert (step.tool, step.tool_input, step.thought) == ("search", "rose", "I need a price.")
    assert step.log == "Thought: I need a price.\nAction: search\nAction Input: rose"
    assert with_cue(step.log, TEXT_CUE) == step.log
    answer = parse_llm_response("Question: what do roses cost?\nFinal Answer: 25 dollars")
    assert (answer.output, answer.log) == ("25 dollars", "Final Answer: 25 dollars")


def test_a_question_written_after_words_is_kept_as_written() -> None:
    """Only a reply that opens with `Question:` restates it; one in the middle stays text."""
    text = "I should search.\nQuestion: what do roses cost?\nAction: search\nAction Input: rose"
    assert parse_llm_response(text).log.startswith("I should search.\nQuestion: what do roses")


def test_parse_error_carries_the_reply() -> None:
    with pytest.raises(ParseError) as caught:
        parse_llm_response("思考：我需要查价格。")
    assert caught.value.text == "思考：我需要查价格。"
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        pytest.param("  rose price  ", "rose price", id="stripped"),
        pytest.param('"玫瑰 价格"', "玫瑰 价格", id="double quotes"),
        pytest.param("`玫瑰 价格`", "玫瑰 价格", id="backticks"),
        pytest.param('```json\n{"q": "玫瑰"}\n```', {"q": "玫瑰"}, id="fenced JSON"),
        pytest.param("{'q': 'rose', 'n': [1, 2],}", {"q": "rose", "n": [1, 2]}, id="Python dict"),
        pytest.param("{'q': __import__('os')}", "{'q': __import__('os')}", id="code is not run"),
        pytest.param('{"q": "rose" /* a note */}', {"q": "rose"}, id="block comment"),
        pytest.param('{"q": "rose", // a note\n "n": 2}', {"q": "rose", "n": 2}, id="line comment"),
        pytest.param('{"q": "rose"}} and more', {"q": "rose"}, id="extra brace, prose after"),
        pytest.param('** {"q": "玫瑰"}', {"q": "玫瑰"}, id="stray stars"),
        pytest.param('"rose price', "rose price", id="lone leading quote"),
        pytest.param('rose price"', "rose price", id="lone trailing quote"),
        pytest.param("Xi'an", "Xi'an", id="an apostrophe is kept"),
        pytest.param("**玫瑰**", "玫瑰", id="bold"),
        pytest.param("{1, 2}", "{1, 2}", id="a set stays text"),
        pytest.param("2 ** 10", "2 ** 10", id="arithmetic untouched"),
        pytest.param("", "", id="empty"),
    ],
)
def test_parse_action_input(raw: str, expected: ActionInput) -> None:
    assert parse_action_input(raw) == expected


# -- 2. Differential test against the legacy parser ----------------------------------------------


def parse_legacy(text: str) -> Any:
    return ReActSingleInputOutputParser().parse(text)


WELL_FORMED = [
    *variants("action", ACTION, SEARCH, chinese_markers=False),
    *variants(
        "final answer", "Thought: {t}\nFinal Answer: {a}", Final("{a}"), chinese_markers=False
    ),
    *variants(
        "no thought", "Action: search\nAction Input: {q}", SEARCH_ANY_THOUGHT, chinese_markers=False
    ),
    *variants(
        "quoted input",
        'Thought: {t}\nAction: search\nAction Input: "{q}"',
        SEARCH,
        chinese_markers=False,
    ),
    *variants(
        "numbered markers",
        "Thought 1: {t}\nAction 1: search\nAction Input 1: {q}",
        SEARCH,
        chinese_markers=False,
    ),
    *variants(
        "no spaces after colons",
        "Thought:{t}\nAction:search\nAction Input:{q}",
        SEARCH,
        chinese_markers=False,
    ),
    *variants(
        "multi-line final answer",
        "Thought: {t}\nFinal Answer: {a}\n{t}",
        Final("{a}\n{t}"),
        chinese_markers=False,
    ),
    *variants(
        "JSON input",
        'Thought: {t}\nAction: search\nAction Input: {"query": "{q}"}',
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    pytest.param(
        "Thought: I need arithmetic.\nAction: calculator\nAction Input: 3 * 4.5 * 1.10",
        Act("calculator", "3 * 4.5 * 1.10"),
        id="calculator/en",
    ),
    pytest.param(
        "Thought: 我需要计算。\nAction: calculator\nAction Input: 3 * 4.5 * 1.10",
        Act("calculator", "3 * 4.5 * 1.10"),
        id="calculator/zh",
    ),
]


@needs_legacy
@pytest.mark.parametrize(("text", "expected"), WELL_FORMED)
def test_same_result_as_legacy_parser_on_well_formed_replies(text: str, expected: Expected) -> None:
    ours, legacy = parse_llm_response(text), parse_legacy(text)
    check(ours, expected)
    if isinstance(ours, Action):
        # Legacy strips spaces and double quotes from the input, and keeps JSON as text.
        legacy_input = legacy.tool_input
        if isinstance(ours.tool_input, dict):
            legacy_input = json.loads(legacy_input)
        assert (ours.tool, ours.tool_input) == (legacy.tool, legacy_input)
    else:
        assert ours.output == legacy.return_values["output"]


# Where we part ways with the legacy parser on purpose. "raises": legacy raises OutputParserException;
# "differs": legacy returns a different step.
INTENDED_DIFFERENCES = [
    pytest.param(
        ACTION + "\nFinal Answer: {a}", SEARCH, "raises", id="action and final answer: first wins"
    ),
    pytest.param(
        "Thought: {t}\nFinal Answer: {a}\nAction: search\nAction Input: {q}",
        Final("{a}"),
        "raises",
        id="final answer, then a made-up action: first wins",
    ),
    pytest.param(
        "Thought: {t}\nAction: get_date",
        Act("get_date", ""),
        "raises",
        id="no Action Input: empty input",
    ),
    pytest.param(
        ACTION + "\nObservation: {a}\nThought: done",
        SEARCH,
        "differs",
        id="made-up observation is cut (legacy keeps it in the input)",
    ),
    pytest.param(ACTION + "\nObserv", SEARCH, "differs", id="leaked stop word is cut"),
    pytest.param(
        "**Thought:** {t}\n**Action:** search\n**Action Input:** {q}",
        SEARCH,
        "differs",
        id="markdown markers (legacy puts the ** in the tool name)",
    ),
    pytest.param(
        "Thought：{t}\nAction：search\nAction Input：{q}", SEARCH, "raises", id="full-width colons"
    ),
    pytest.param(
        "思考：{t}\n行动：search\n行动输入：{q}", SEARCH, "raises", id="Chinese marker words"
    ),
    pytest.param(
        "thought: {t}\naction: search\naction input: {q}", SEARCH, "raises", id="lowercase markers"
    ),
    pytest.param("最终答案：{a}", Final("{a}"), "raises", id="Chinese final answer"),
    pytest.param("{a}", Final("{a}"), "raises", id="prose is a direct answer"),
    pytest.param(
        "<think>Action: calculator\n</think>\n" + ACTION,
        SEARCH,
        "differs",
        id="think block is ignored (legacy reads the action inside)",
    ),
    pytest.param("Thought: {t}\nAction: search[{q}]", SEARCH, "raises", id="ReAct paper form"),
    pytest.param(
        '{"action": "search", "action_input": "{q}"}',
        SEARCH_ANY_THOUGHT,
        "raises",
        id="JSON action blob",
    ),
    pytest.param(
        'Action: search\nAction Input: {"query": "{q}"}',
        Act("search", {"query": "{q}"}),
        "differs",
        id="JSON input becomes a dict",
    ),
    pytest.param(
        "Action: search\nAction Input: '{q}'",
        SEARCH_ANY_THOUGHT,
        "differs",
        id="single quotes are unwrapped",
    ),
]


@needs_legacy
@pytest.mark.parametrize("language", [ENGLISH, CHINESE], ids=["en", "zh"])
@pytest.mark.parametrize(("text", "expected", "legacy_behaviour"), INTENDED_DIFFERENCES)
def test_intended_differences_from_legacy_parser(
    text: str, expected: Expected, legacy_behaviour: str, language: dict[str, str]
) -> None:
    text, expected = _fill(text, language), _fill(expected, language)
    ours = parse_llm_response(text)
    check(ours, expected)
    if legacy_behaviour == "raises":
        with pytest.raises(OutputParserException):
            parse_legacy(text)
        return
    legacy = parse_legacy(text)
    if isinstance(ours, Action):
        assert (legacy.tool, legacy.tool_input) != (ours.tool, ours.tool_input)
    else:
        assert legacy.return_values["output"] != ours.output


# -- 3. Properties -------------------------------------------------------------------------------

FRAGMENTS = [
    *["Thought:", "Action:", "Action Input:", "Observation:", "Final Answer:", "Action 2:"],
    *["思考：", "行动：", "行动输入：", "观察：", "最终答案：", "action input：", "Observ"],
    *["**", "`", "```", "```json\n", "：", ":", "<think>", "</think>", "<THINK>", "{", "}"],
    *["[", "]", "(", ")", "'", '"', ",", "\n", "\n", " ", "\t", "- ", "### ", "1. ", "2", "\u3000"],
    *["search", "get_date", "rose price", "玫瑰价格", "一打玫瑰 25 元。", '{"query": "玫瑰"}'],
    *["{'a': 1,}", "search[rose]", 'search("x")', "null", "[1, 2]"],
    # The dialects of other frameworks (tests/parsing/test_dialects.py).
    *["Tool:", "Tool Input:", "Answer:", "AI:", "答案：", "Final Answer", "Finish[", ". ", "\\_"],
    *["<tool>", "</tool>", "<tool_input>", "</tool_input>", "<final_answer>", "</final_answer>"],
    *["<tool_call>", '{"name": "search", "arguments": {"query": "x"}}', '"name": ', '"arguments"'],
    *[
        '{"action": "Final Answer", "action_input": ',
        "final_answer",
        " (",
        "/*",
        "*/",
        "//",
        "&amp;",
    ],
]
REPLIES = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=3)), max_size=40).map(
    "".join
)


def check_contract(text: str) -> None:
    """Any text parses to a usable step, or raises a ParseError that says what to write."""
    try:
        step = parse_llm_response(text)
    except ParseError as error:
        assert "Action" in str(error) or "Final Answer" in str(error)
        return
    if isinstance(step, Action):
        assert step.tool.strip()
        assert isinstance(step.tool_input, (str, dict))
    else:
        assert isinstance(step, FinalAnswer)
        assert step.output.strip()


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_text_parses_or_raises_parse_error(text: str) -> None:
    check_contract(text)


@settings(max_examples=300, deadline=None)
@given(REPLIES)
def test_any_mix_of_marker_fragments_parses_or_raises_parse_error(text: str) -> None:
    check_contract(text)


@settings(max_examples=300, deadline=None)
def assert_parses_again_to(step: Action | FinalAnswer, shown: str) -> None:
    """`shown` (the step as the model reads it later) parses to the same step.

    A text whose last line would read as a leaked stop word (`Obs`) is skipped: alone it is cut.
    """
    last_line = shown.strip().splitlines()[-1].strip().lower()
    assume(len(last_line) < 3 or not "observation:".startswith(last_line))
    again = parse_llm_response(shown)
    assert type(again) is type(step)
    if isinstance(step, Action):
        assert isinstance(again, Action)
        assert (again.tool, again.tool_input) == (step.tool, step.tool_input)
    else:
        assert isinstance(again, FinalAnswer)
        assert again.output == step.output


@given(REPLIES)
def test_parsing_the_log_again_gives_the_same_step(text: str) -> None:
    """The log is what the model sees of its own turn later: it must say the same thing."""
    try:
        step = parse_llm_response(text)
    except ParseError:
        return
    assert_parses_again_to(step, step.log)


@given(REPLIES)
def test_the_step_as_the_transcript_shows_it_parses_to_the_same_step(text: str) -> None:
    """The model reads its step again after the `Thought: ` cue (`with_cue`) and copies that
    shape: `Final Answer: 2` comes back as `Thought: Final Answer: 2`, which must still parse."""
    try:
        step = parse_llm_response(text)
    except ParseError:
        return
    # A reply of prose alone is its answer with no marker: it is never shown as a step again.
    assume(step.log.startswith(("Thought:", "Action:", "Final Answer:")))
    shown = with_cue(step.log, TEXT_CUE)
    assert_parses_again_to(step, shown)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Thought: Final Answer: 15.75 元", FinalAnswer(output="15.75 元")),
        ("Thought: Action: search\nAction Input: roses", ("search", "roses")),
        ("思考：Final Answer: 1.05 元", FinalAnswer(output="1.05 元")),
        ("Thought:  Final Answer: 2\nObservation: made up", FinalAnswer(output="2")),
    ],
)
def test_a_step_right_after_an_empty_thought_on_its_line_is_the_step(
    text: str, expected: FinalAnswer | tuple[str, str]
) -> None:
    """Seen from the bundled model (a Chinese run): it wrote its answer as the transcript shows an
    answer written without a thought, and was told it broke the format, three times."""
    step = parse_llm_response(text)
    if isinstance(expected, FinalAnswer):
        assert isinstance(step, FinalAnswer) and step.output == expected.output
    else:
        assert isinstance(step, Action) and (step.tool, step.tool_input) == expected


@pytest.mark.parametrize(
    "text",
    ["Thought: the Final Answer: is near", "Thought: final answer: 3", "Thought: so Action: x"],
)
def test_a_marker_after_words_of_the_thought_is_still_text(text: str) -> None:
    with pytest.raises(ParseError):
        parse_llm_response(text)


# -- 4. Adversarial inputs (timed finely by bench/parser_speed.py, coarsely here) -----------------


def test_adversarial_inputs_are_about_100_kb() -> None:
    assert all(len(text) >= 99_000 for text in ADVERSARIAL_INPUTS.values())


@pytest.mark.parametrize("text", list(ADVERSARIAL_INPUTS.values()), ids=list(ADVERSARIAL_INPUTS))
def test_adversarial_input_parses_or_raises_parse_error(text: str) -> None:
    check_contract(text)


@pytest.mark.parametrize(
    ("reply", "thought_only"),
    [
        ("Thought: I need to search for the winner.", True),
        ("Thought: first\n\nThought: second", True),
        ("思考：我需要查一下。", True),
        ("<thought>I need to search.</thought>", True),
        ("Thought: a\nAction Input: rose", False),  # an input with no action: a broken step
        ("Thought: a\nObservation: made up", False),  # a made-up result is not shown back
        ("<thought>a</thought><observation>made up</observation>", False),
        ("Observation: the last result", False),
        ("Question: which roses cost least?\nThought: I need to search.", True),  # the echo skipped
        ("", False),
    ],
)
def test_a_thought_alone_is_marked_for_the_loop_to_go_on_from(
    reply: str, thought_only: bool
) -> None:
    """The loop shows a Thought alone back to the model (`agent.py`); every other error is one."""
    parse = get_format("xml").parse if reply.startswith("<") else parse_llm_response
    with pytest.raises(ParseError) as raised:
        parse(reply, "en")
    assert raised.value.thought_only is thought_only
