"""The ReAct dialects models write in the wild, and what `parse_llm_response` makes of each.

1. One table per dialect group of `bench/parser_dialects.jsonl`, each reply in English and with
   Chinese content (most also with the Chinese marker words). Above each table: the peer files whose
   published parser tests show the dialect (the `source` of its cases in the jsonl). Every string
   here is our own.
2. The name a parsed action resolves to: the silent failure (`search Action Input: x` taken for
   `search` with an empty input) must be loud.
3. `DIFFERENCES`: where a dialect conflicts with one of our choices and we keep ours. It is the
   table in docs/parser.md and docs/parser.zh.md (a test checks both), and every row
   is checked against us and against the LangChain parsers it names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from langchain_core.tools import tool

from custom_react import CustomReActAgent
from custom_react.parser import Action, parse_llm_response
from custom_react.testing import Script
from custom_react.toolbox import resolve_tool
from tests.parsing.test_parser import (
    CHINESE,
    ENGLISH,
    SEARCH,
    SEARCH_ANY_THOUGHT,
    Act,
    Error,
    Expected,
    Final,
    _fill,
    check,
    parse_or_error,
    variants,
)

ROOT = Path(__file__).resolve().parents[2]
ANSWER = Final("{a}")
ANSWER_AFTER_THOUGHT = Final("{a}", "{t}")
QUERY = Act("search", {"query": "{q}"})

# -- 1. The dialects -----------------------------------------------------------------------------

# An `Observation:` before the step: the model echoes the last observation, or writes one between
# two thoughts. It is skipped; an echo with no step after it is still a format error.
# Peers: langchain-ai/langchainjs langchain/src/agents/tests/react.test.ts and
# mrkl_agent_output_parser.test.ts; langchain-ai/langchain .../agents/test_mrkl_output_parser.py.
OBSERVATION_FIRST = [
    *variants(
        "echo, then thought and action",
        "Observation: {a}\nThought: {t}\nAction: search\nAction Input: {q}",
        SEARCH,
    ),
    *variants(
        "echo, then the final answer",
        "Observation: {a}\nThought: {t}\nFinal Answer: {a}",
        ANSWER_AFTER_THOUGHT,
    ),
    *variants(
        "echo over two lines, blank line, action",
        "Observation: {a}\n{a}\n\nAction: search\nAction Input: {q}",
        SEARCH_ANY_THOUGHT,
    ),
    *variants(
        "thought, observation, thought, action",
        "Thought: {t}\nObservation: {a}\nThought: {t}\nAction: search\nAction Input: {q}",
        Act("search", "{q}", "{t}\n{t}"),
    ),
    *variants(
        "indented bold echo",
        "  **Observation:** {a}\n  **Thought:** {t}\n  **Final Answer:** {a}",
        ANSWER_AFTER_THOUGHT,
    ),
    *variants(
        "numbered echo",
        "Observation 2: {a}\nThought 3: {t}\nAction 3: search\nAction Input 3: {q}",
        SEARCH,
    ),
    *variants(
        "echo, step, made-up rest",
        "Observation: {a}\nAction: search\nAction Input: {q}\nObservation: {a}\nFinal Answer: {a}",
        SEARCH_ANY_THOUGHT,
    ),
    *variants("an echo alone is an error", "Observation: {a}", Error()),
    *variants(
        "an echo, then a thought only, is an error", "Observation: {a}\nThought: {t}", Error()
    ),
]

# LangChain's JSON blob `{"action": ..., "action_input": ...}` after `Action:` (structured chat),
# after a Thought (ReAct-JSON), fenced with or without a language tag, or with prose around it.
# Peers: langchain-ai/langchain .../agents/test_structured_chat.py, .../output_parsers/
# test_react_json_single_input.py and test_json.py; langchainjs structured_chat_output_parser.test.ts.
BLOB = '{"action": "search", "action_input": "{q}"}'
JSON_BLOB = [
    *variants("action, fenced blob", "{t}\n\nAction:\n```json\n" + BLOB + "\n```", SEARCH),
    *variants("action, fence without a tag", "{t}\n\nAction:\n```\n" + BLOB + "\n```", SEARCH),
    *variants(
        "action, blob with an object input",
        'Action:\n```json\n{"action": "search", "action_input": {"query": "{q}"}}\n```',
        QUERY,
    ),
    *variants("thought, fenced blob", "Thought: {t}\n```\n" + BLOB + "\n```", SEARCH),
    *variants("thought, bare blob", "Thought: {t}\n" + BLOB, SEARCH),
    *variants("blob on the Action line", "Action: " + BLOB, SEARCH_ANY_THOUGHT),
    *variants(
        "final answer blob",
        'Thought: {t}\nAction:\n```json\n{"action": "Final Answer", "action_input": "{a}"}\n```',
        ANSWER_AFTER_THOUGHT,
    ),
    *variants(
        "prose around the fence",
        "Here is the step:```json\n" + BLOB + "\n``` and that is all.",
        SEARCH_ANY_THOUGHT,
        chinese_markers=False,
    ),
    *variants(
        "single-quoted blob",
        "Action:\n```\n{'action': 'search', 'action_input': '{q}'}\n```",
        SEARCH_ANY_THOUGHT,
    ),
    *variants(
        "blob, then a made-up rest",
        "Action:\n```\n" + BLOB + "\n```\nObservation: {a}\nFinal Answer: {a}",
        SEARCH_ANY_THOUGHT,
    ),
    *variants(
        "two blobs: the first wins",
        "Action:\n```json\n"
        + BLOB
        + '\n```\n```json\n{"action": "calculator", "action_input": "1"}',
        SEARCH_ANY_THOUGHT,
    ),
    *variants(
        "an empty final answer blob is an error",
        '{"action": "Final Answer", "action_input": " "}',
        Error(("Final Answer",)),
        chinese_markers=False,
    ),
]

# JSON tool calls in other key conventions, bare or in <tool_call> tags, and JSON data that is not
# a call. Peers: huggingface/smolagents tests/test_models.py; vllm-project/vllm
# tests/tool_parsers/test_hermes_tool_parser.py and test_llama3_json_tool_parser.py;
# NousResearch/Hermes-Function-Calling README.md.
CALL = '{"name": "search", "arguments": {"query": "{q}"}}'
JSON_KEYS = [
    *variants("name and arguments", CALL, QUERY, chinese_markers=False),
    *variants(
        "name and parameters",
        '{"name": "search", "parameters": {"query": "{q}"}}',
        QUERY,
        chinese_markers=False,
    ),
    *variants(
        "action and arguments",
        '{"action": "search", "arguments": {"query": "{q}"}}',
        QUERY,
        chinese_markers=False,
    ),
    *variants(
        "tool and tool_input",
        '{"tool": "search", "tool_input": "{q}"}',
        SEARCH_ANY_THOUGHT,
        chinese_markers=False,
    ),
    *variants(
        "in tool_call tags", "<tool_call>\n" + CALL + "\n</tool_call>", QUERY, chinese_markers=False
    ),
    *variants(
        "Python dict in tool_call tags",
        "<tool_call>\n{'arguments': {'query': '{q}'}, 'name': 'search'}\n</tool_call>",
        QUERY,
        chinese_markers=False,
    ),
    *variants(
        "arguments as a JSON string",
        '{"name": "search", "arguments": "{\\"query\\": \\"{q}\\"}"}',
        QUERY,
        chinese_markers=False,
    ),
    *variants(
        "prose, then the call",
        "{t}\n<tool_call>" + CALL + "</tool_call>",
        Act("search", {"query": "{q}"}, "{t}"),
        chinese_markers=False,
    ),
    *variants(
        "a call after prose on the same line",
        "Here is the call: " + CALL + " Shall I go on?",
        QUERY,
        chinese_markers=False,
    ),
    *variants(
        "thought, then the call", "Thought: {t}\n" + CALL, Act("search", {"query": "{q}"}, "{t}")
    ),
    *variants("Action, then the call", "Action:\n" + CALL, QUERY),
    *variants(
        "OpenAI-style function object",
        '{"type": "function", "function": {"name": "search", "arguments": "{\\"query\\": \\"{q}\\"}"}}',
        QUERY,
        chinese_markers=False,
    ),
    *variants(
        "a list of calls: the first", "[" + CALL + ', {"name": "x", "arguments": {}}]', QUERY
    ),
    *variants(
        "final_answer call is the answer",
        '{"name": "final_answer", "arguments": {"answer": "{a}"}}',
        ANSWER,
        chinese_markers=False,
    ),
    *variants(
        "data with a name key is an answer",
        '{"name": "{q}", "price": 25}',
        Final('{"name": "{q}", "price": 25}'),
        chinese_markers=False,
    ),
    *variants(
        "a name without arguments is data",
        '{"name": "search"}',
        Final('{"name": "search"}'),
        chinese_markers=False,
    ),
]

# The action on one line with its input, `tool, 'input'`, calls, and names in markdown or with a
# gloss. Peers: tmc/langchaingo agents/mrkl_test.go; crewAIInc/crewAI
# tests/agents/test_crew_agent_parser.py; run-llama/llama_index .../test_react_output_parser.py;
# langchain-ai/langchain .../agents/test_react.py.
ACTION_LINE = [
    *variants("one line", "Action: search Action Input: {q}", SEARCH_ANY_THOUGHT),
    *variants("one line, quoted input", 'Thought: {t}\nAction: search Action Input: "{q}"', SEARCH),
    *variants("one line, comma", "Action: search, Action Input: {q}", SEARCH_ANY_THOUGHT),
    *variants("name, empty quotes", "Action: get_date, ''", Act("get_date", "")),
    *variants("name, quoted input", 'Action: search, "{q}"', SEARCH_ANY_THOUGHT),
    *variants(
        "call, unquoted argument",
        "Action: calculator(2 * (3 + 4))",
        Act("calculator", "2 * (3 + 4)"),
    ),
    *variants("call, keyword argument", 'Action: search(query="{q}")', QUERY),
    *variants("empty call", "Action: get_date()", Act("get_date", "")),
    *variants("call in backticks", 'Action: `search("{q}")`', SEARCH_ANY_THOUGHT),
    *variants("name in backticks", "Action: `search`\nAction Input: {q}", SEARCH_ANY_THOUGHT),
    *variants(
        "bold name, escaped underscore",
        "Action: **get\\_date**\nAction Input:",
        Act("get_date", ""),
    ),
    *variants(
        "name with a gloss",
        "Action: search (looks things up)\nAction Input: {q}",
        SEARCH_ANY_THOUGHT,
    ),
    *variants("paper brackets", "Action: Search[{q}]", Act("Search", "{q}")),
]

# The ReAct paper's `Finish[answer]`, and `Final Answer` written as the action's name.
# Peers: langchain-ai/langchain .../agents/test_react.py and .../output_parsers/test_json.py.
FINISH = [
    *variants("finish", "Thought: {t}\nAction: Finish[{a}]", ANSWER_AFTER_THOUGHT),
    *variants("numbered finish", "Thought 4: {t}\nAction 4: Finish[{a}]", ANSWER_AFTER_THOUGHT),
    *variants("lowercase finish", "Action: finish[{a}]", ANSWER),
    *variants("bold finish", "Action: **Finish[{a}]**", ANSWER),
    *variants("nested brackets", "Action: Finish[{a} [1, 2]]", Final("{a} [1, 2]")),
    *variants("over several lines", "Action: Finish[{a}\n{t}]", Final("{a}\n{t}")),
    *variants("then a made-up observation", "Action: Finish[{a}]\nObservation: done", ANSWER),
    *variants("Final Answer as the action", "Action: Final Answer\nAction Input: {a}", ANSWER),
    # The answer on the Action line itself, nothing in the input (seen in our own thought-ablation
    # run: the loop refused it as an unknown tool twice and the run ended with no answer).
    *variants("the answer on the Action line", "Action: Final Answer: {a}", ANSWER),
    *variants(
        "the answer on the Action line, empty input",
        "Thought: {t}\nAction: Final Answer: {a}\nAction Input:",
        ANSWER_AFTER_THOUGHT,
    ),
    *variants("bold, the answer on the Action line", "Action: **Final Answer**: {a}", ANSWER),
    *variants(
        "with an input, the line stays a tool name",
        "Action: Final Answer: draft\nAction Input: {q}",
        Act("Final Answer: draft", "{q}"),
        chinese_markers=False,
    ),
    *variants(
        "final_answer with an answer object",
        'Action: final_answer\nAction Input: {"answer": "{a}"}',
        ANSWER,
    ),
    *variants("an empty finish is an error", "Action: Finish[]", Error(("Final Answer",))),
]

# LlamaIndex's `Answer:`, a conversational `AI:`, and `Final Answer` without a colon -- weak markers
# that count only when there is no real step; "answer" inside a thought never counts.
# Peers: run-llama/llama_index .../test_react_output_parser.py; tmc/langchaingo
# agents/conversational_parseoutput_test.go; langchain-ai/langchain .../test_convo_output_parser.py.
ANSWER_MARKER = [
    *variants("answer", "Thought: {t}\nAnswer: {a}", ANSWER_AFTER_THOUGHT, chinese_markers=False),
    *variants(
        "answer over lines", "Answer: {a}\n\n{t}", Final("{a}\n\n{t}"), chinese_markers=False
    ),
    *variants(
        "Chinese answer word", "思考：{t}\n答案：{a}", ANSWER_AFTER_THOUGHT, chinese_markers=False
    ),
    *variants("AI prefix", "AI: {a}", ANSWER, chinese_markers=False),
    *variants(
        "conversational thought, then AI",
        "Thought: Do I need to use a tool? No\nAI: {a}",
        ANSWER,
        chinese_markers=False,
    ),
    *variants(
        "final answer without a colon", "Thought: {t}\nFinal Answer {a}", ANSWER_AFTER_THOUGHT
    ),
    *variants(
        "final answer, answer below", "Thought: {t}\nFinal Answer\n{a}", ANSWER_AFTER_THOUGHT
    ),
    *variants("final answer - dash", "Final Answer - {a}", ANSWER, chinese_markers=False),
    *variants("AI inside the final answer", "Final Answer: AI: {a}", ANSWER),
    *variants(
        "the word answer in a thought",
        "Thought: the answer needs a search\nAction: search\nAction Input: {q}",
        SEARCH_ANY_THOUGHT,
    ),
    *variants(
        "a weak answer loses to a real step",
        "Answer: maybe {a}\nAction: search\nAction Input: {q}",
        SEARCH_ANY_THOUGHT,
        chinese_markers=False,
    ),
    *variants(
        "a tool question alone is an error",
        "Thought: Do I need to use a tool? Yes",
        Error(),
        chinese_markers=False,
    ),
]

# Action Inputs as models write them. Peers: run-llama/llama_index .../test_react_output_parser.py;
# crewAIInc/crewAI tests/agents/test_crew_agent_parser.py.
INPUT = "Action: search\nAction Input: "
INPUTS = [
    *variants("Python dict", INPUT + "{'query': '{q}'}", QUERY),
    *variants("cut-off JSON", INPUT + '{"query": "{q}"', QUERY),
    *variants("stray stars before the JSON", INPUT + '** {"query": "{q}"}', QUERY),
    *variants("lone leading quote", INPUT + '"{q}', SEARCH_ANY_THOUGHT),
    *variants("lone trailing quote", INPUT + '{q}"', SEARCH_ANY_THOUGHT),
    *variants("block comment", INPUT + '{"query": "{q}" /* what to look up */}', QUERY),
    *variants("line comment", INPUT + '{\n  "query": "{q}" // what to look up\n}', QUERY),
    *variants("extra closing brace", INPUT + '{"query": "{q}"}}', QUERY),
    *variants("prose after the object", INPUT + "{'query': '{q}'}, or so.", QUERY),
    *variants("trailing comma", INPUT + "{'query': '{q}',}", QUERY),
    *variants(
        "apostrophe inside", INPUT + "{'query': \"{q}'s\"}", Act("search", {"query": "{q}'s"})
    ),
    *variants("object wrapped in a call", INPUT + 'SearchTool({"query": "{q}"})', QUERY),
    *variants("keywords under the tool's name", INPUT + 'search(query="{q}")', QUERY),
    *variants(
        "a call of another name stays text",
        "Action: calculator\nAction Input: max(a=3, b=4)",
        Act("calculator", "max(a=3, b=4)"),
    ),
]

# Other frameworks' markers. Peers: deepset-ai/haystack test/agents/test_tools_manager.py (Haystack
# 1.x); langchain-ai/langchain .../agents/output_parsers/test_xml.py (LangChain's XML agent).
OTHER_MARKERS = [
    *variants("haystack", "{t}\nTool: search\nTool Input: {q}", SEARCH, chinese_markers=False),
    *variants(
        "haystack, blank lines",
        "{t}\n\nTool: search\n\nTool Input: {q}",
        SEARCH,
        chinese_markers=False,
    ),
    *variants(
        "haystack on one line",
        '{t}. Tool: search Tool Input: "{q}"',
        Act("search", "{q}", "{t}."),
        chinese_markers=False,
    ),
    *variants("haystack, no input", "{t}\nTool: get_date\nTool Input:", Act("get_date", "", "{t}")),
    *variants(
        "Chinese tool words", "{t}\n工具：search\n工具输入：{q}", SEARCH, chinese_markers=False
    ),
    *variants("xml tool", "<tool>search</tool><tool_input>{q}</tool_input>", SEARCH_ANY_THOUGHT),
    *variants("xml final answer", "<final_answer>{a}</final_answer>", ANSWER),
    *variants("xml cut at the stop", "<tool>search</tool><tool_input>{q}", SEARCH_ANY_THOUGHT),
    *variants("xml after prose", "{t}\n<tool>search</tool>\n<tool_input>{q}</tool_input>", SEARCH),
    *variants("xml, no input", "<tool>get_date</tool>", Act("get_date", "")),
    *variants(
        "xml JSON input", '<tool>search</tool><tool_input>{"query": "{q}"}</tool_input>', QUERY
    ),
    *variants(
        "xml entities",
        "<tool>search</tool><tool_input>{q} &amp; more</tool_input>",
        Act("search", "{q} & more"),
    ),
    *variants(
        "an empty xml final answer is an error",
        "<final_answer></final_answer>",
        Error(("Final Answer",)),
    ),
]

DIALECTS = {
    "observation-first": OBSERVATION_FIRST,
    "json-blob": JSON_BLOB,
    "json-keys": JSON_KEYS,
    "action-line": ACTION_LINE,
    "finish": FINISH,
    "answer-marker": ANSWER_MARKER,
    "inputs": INPUTS,
    "other-markers": OTHER_MARKERS,
}


@pytest.mark.parametrize(
    ("text", "expected"),
    [pytest.param(*case.values, id=f"{group}: {case.id}") for group, table in DIALECTS.items()
     for case in table],
)  # fmt: skip
def test_dialect(text: str, expected: Expected) -> None:
    check(parse_or_error(text), expected)


def test_every_dialect_table_has_english_and_chinese_cases() -> None:
    for table in DIALECTS.values():
        ids = [case.id for case in table]
        assert len(ids) == len(set(ids)) and len(ids) >= 16
        for name in {case_id.rsplit("/", 1)[0] for case_id in ids}:
            assert f"{name}/en" in ids and f"{name}/zh" in ids


def test_the_log_drops_an_echoed_observation_and_keeps_one_step() -> None:
    step = parse_llm_response("Observation: 25\nThought: I know it\nFinal Answer: 25 dollars")
    assert step.log == "Thought: I know it\nFinal Answer: 25 dollars"
    assert parse_llm_response(step.log) == step


# -- 2. Resolving what was parsed ----------------------------------------------------------------


@tool
def search(query: str) -> str:
    """Search."""
    return query


@tool
def calculator(expression: str) -> str:
    """Calculate."""
    return expression


@pytest.mark.parametrize(
    ("reply", "tool_name", "tool_input"),
    [
        ("Action: search Action Input: rose price", "search", "rose price"),
        ("Action: **search**\nAction Input: rose price", "search", "rose price"),
        ("Action: Calculator (does math)\nAction Input: 2 * 3", "calculator", "2 * 3"),
    ],
)
def test_a_parsed_name_resolves_with_its_input(reply: str, tool_name: str, tool_input: str) -> None:
    step = parse_llm_response(reply)
    assert isinstance(step, Action)
    found = resolve_tool(step.tool, [search, calculator])
    assert found is not None and (found.name, step.tool_input) == (tool_name, tool_input)


@pytest.mark.parametrize(
    ("name", "meant"),
    [
        ("Search for information on Canada's population.", search),  # opens with the name
        ("The tool to use is `calculator`", calculator),  # ends with it
        ("search rose price", search),
        ("search the calculator", None),  # names two tools
        ("calc 2 * 3", None),  # a prefix counts for a name of one word only
        ("calc", calculator),
    ],
)
def test_a_sentence_that_opens_or_ends_with_one_tool_name_is_that_tool(name, meant) -> None:
    assert resolve_tool(name, [search, calculator]) is meant


def test_a_name_that_ran_on_into_its_input_does_not_run_with_the_input_lost() -> None:
    # `Action: search rose price`, no Action Input: the tool is search, and its missing query is
    # asked for instead of searching for nothing.
    model = Script("Action: search rose price", "Final Answer: unknown")
    result = CustomReActAgent(model.model, [search, calculator]).invoke("Rose price?")
    ((action, observation),) = result["intermediate_steps"]
    assert action.tool == "search" and "the required argument query" in observation


# -- 3. Where we part ways with other parsers -----------------------------------------------------


@dataclass(frozen=True)
class Difference:
    """One row of the docs table: our choice, a reply showing it, and the peers that disagree."""

    key: str
    text: str
    expected: Expected
    peers: frozenset[str]
    """Column names of `bench/parser_robustness.py` (`legacy`, `mrkl`, ... `crewai`), and `vllm`."""


def _peers(*names: str) -> frozenset[str]:
    return frozenset(names)


DIFFERENCES = [
    Difference(
        "first-step-wins",
        "Thought: {t}\nAction: search\nAction Input: {q}\nFinal Answer: {a}",
        SEARCH,
        _peers("legacy", "mrkl", "react-json", "convo", "crewai"),
    ),
    Difference(
        "answer-first-wins",
        "Thought: {t}\nFinal Answer: {a}\nAction: search\nAction Input: {q}",
        ANSWER_AFTER_THOUGHT,
        _peers("legacy", "mrkl", "react-json", "convo", "crewai"),
    ),
    Difference(
        "one-call-per-step",
        "<tool_call>\n" + CALL + '\n</tool_call>\n<tool_call>\n{"name": "calculator", '
        '"arguments": {"expression": "2 * 3"}}\n</tool_call>',
        QUERY,
        _peers("vllm"),
    ),
    Difference("prose-is-an-answer", "{a}", ANSWER,
               _peers("legacy", "mrkl", "react-json", "convo", "xml", "crewai")),
    Difference(
        "data-is-an-answer",
        '{"name": "{q}", "price": 25}',
        Final('{"name": "{q}", "price": 25}'),
        _peers("legacy", "mrkl", "react-json", "convo", "xml", "crewai"),
    ),
    Difference(
        "fences-are-stripped",
        "Thought: {t}\nAction: search\nAction Input:\n```\n{q}\n```",
        SEARCH,
        _peers("legacy", "mrkl", "crewai"),
    ),
    Difference(
        "json-input-is-arguments",
        'Thought: {t}\nAction: search\nAction Input: {"query": "{q}"}',
        Act("search", {"query": "{q}"}, "{t}"),
        _peers("legacy", "mrkl", "convo"),
    ),
    Difference(
        "final-answer-call-is-the-answer",
        '{"name": "final_answer", "arguments": {"answer": "{a}"}}',
        ANSWER,
        _peers("struct-chat", "vllm"),
    ),
    Difference(
        "xml-input-cut-at-stop",
        "<tool>search</tool><tool_input>{q}",
        SEARCH_ANY_THOUGHT,
        _peers("xml"),
    ),
]  # fmt: skip


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("row", DIFFERENCES, ids=[row.key for row in DIFFERENCES])
def test_our_side_of_each_difference(row: Difference, language: str) -> None:
    words = ENGLISH if language == "en" else CHINESE
    check(parse_or_error(_fill(row.text, words)), _fill(row.expected, words))


@pytest.mark.parametrize("row", DIFFERENCES, ids=[row.key for row in DIFFERENCES])
def test_each_langchain_parser_named_in_a_row_does_disagree(row: Difference) -> None:
    peer_parsers = pytest.importorskip("bench.peer_parsers", reason="needs langchain-classic")
    from bench.parser_robustness import TOOLS, normalize, ours

    text = _fill(row.text, ENGLISH)
    named = sorted(row.peers & set(peer_parsers.LANGCHAIN_PARSERS))
    for name in named:
        theirs = peer_parsers.langchain_peer(name)([text], TOOLS)[0]
        assert normalize(theirs) != normalize(ours(text)), f"{name} agrees with us on {row.key}"


def _docs_table(page: str) -> dict[str, frozenset[str]]:
    """key -> peers of the differences table on a docs page: the rows whose first cell is a
    backticked key; the peers are the backticked names in the third cell."""
    rows: dict[str, frozenset[str]] = {}
    for line in (ROOT / "docs" / page).read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        key = re.fullmatch(r"`([a-z-]+)`", cells[0]) if len(cells) == 4 else None
        if key is not None and key.group(1) in KEYS:
            rows[key.group(1)] = frozenset(re.findall(r"`([a-z-]+)`", cells[2]))
    return rows


KEYS = {row.key for row in DIFFERENCES}


@pytest.mark.parametrize("page", ["parser.md", "parser.zh.md"])
def test_the_docs_table_lists_exactly_these_differences(page: str) -> None:
    assert _docs_table(page) == {row.key: row.peers for row in DIFFERENCES}
