"""Real replies that broke agents in the wild (`bench/parser_replies_wild.jsonl`), and the kinds of
failure they showed.

1. The case file: every reply labelled, its thread named, and a thread's replies in one split.
2. The tune split, case by case, as `bench/parser_robustness.py` scores it: every case reads as
   labelled except the kinds we leave on purpose (`LEFT`, with the reason; docs/parser.md lists them).
   The holdout split stays the benchmark's.
3. One table per kind fixed from the tune split's misses, in English and with Chinese content (and,
   where the markers stay, with the Chinese marker words). Every string in the tables is our own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.parser_robustness import case_tools, load_cases, normalize, ours
from tests.parsing.test_parser import (
    Act,
    Error,
    Final,
    check,
    kind_params,
    parse_or_error,
    variants,
)

WILD = Path(__file__).resolve().parents[2] / "bench" / "parser_replies_wild.jsonl"
CASES = load_cases(WILD)
TUNE = [case for case in CASES if case["split"] == "tune"]
ANSWER = Final("{a}")

# -- 1. The case file ----------------------------------------------------------------------------


def test_every_reply_is_labelled_with_its_thread_and_split() -> None:
    assert len(CASES) >= 60 and len({case["id"] for case in CASES}) == len(CASES)
    assert len({case["source"] for case in CASES}) >= 25
    splits: dict[str, str] = {}
    for case in CASES:
        assert case["source"].startswith("https://github.com/")
        assert len({"action", "final", "error"} & set(case["expected"])) == 1
        assert splits.setdefault(case["source"], case["split"]) == case["split"]
    assert set(splits.values()) == {"tune", "holdout"}


# -- 2. The tune split ---------------------------------------------------------------------------

SENTENCE_FOR_NAME = (
    "a sentence in place of the tool name: the loop answers that no such tool exists"
)
LEFT = {
    "wild/langchain-7709": "code written where the tool name goes: only the tool list says which "
    "tool runs it",
    "wild/langchain-10792": SENTENCE_FOR_NAME,
    "wild/easy-llm-cli-57": "one prompt's own pseudo-call in prose (`[tool_call: read_file for "
    "absolute_path '...']`)",
    "wild2/langchain-2276-b": "a call of a tool the agent does not have: read as that call, the loop "
    "answers that no such tool exists",
    "wild3/langchain-7116": "the template's thought with no answer (`I now know the final answer.`): "
    "prose with no markers is an answer",
    "wild3/langchain-13826-a": "the words `[empty string]` as the input: read as written",
    "wild3/langchain-13826-b": "an empty input (`tool, ''`) for a stand-in whose argument is required; "
    "the real tool's argument defaults to the empty text, and the loop runs it",
    "wild3/langchain-2127": "made-up questions and three Action Inputs: the first step wins",
    "wild3/smolagents-97": "a call cut off mid-string, under a `_name` key: data, so prose; the loop "
    "refuses a reply cut at the token limit when the server reports the cut",
    "wild3/github-app-2128": "the tail of a call with no name: prose with no markers is an answer",
    "wild4/oh-my-pi-8495": "kimi-k3's `<|open|>`/`<|sep|>`/`<|close|>` markup, garbled (a value runs "
    "into a broken closer, the text arguments missing), seen once: prose with no markers is an answer",
    "wild4/goose-7235": "the tool's description echoed under a clipped name, then an argument object "
    "with no tool name: prose with no markers is an answer",
    "wild5/odysseus-4085": "a sentence naming the tool, then a bare object of its arguments: read "
    "with the tools known it also turned drafts and reports of arguments into calls (a mail "
    "drafted, not to be sent, was sent), so it stays an answer",
    "wild5/crewai-20-a": SENTENCE_FOR_NAME,
    "wild5/crewai-20-c": SENTENCE_FOR_NAME,
}


@pytest.mark.parametrize("case", TUNE, ids=[case["id"] for case in TUNE])
def test_tune_case(case: dict[str, Any]) -> None:
    read_as_labelled = normalize(ours(case["text"], case_tools(case))) == normalize(
        case["expected"]
    )
    assert read_as_labelled is (case["id"] not in LEFT), LEFT.get(case["id"], "")


# -- 3. The kinds fixed --------------------------------------------------------------------------

# `Action: None` (or `N/A`, `null`, `无`) names no tool: the reply is refused with the message that
# 'Action:' needs a tool name, not run as a tool called "None".
NO_TOOL = [
    *variants("action none", "Thought: {t}\nAction: None\nAction Input: None", Error()),
    *variants("action N/A with a gloss", "Action: N/A (no tool needed)\n{a}", Error()),
    *variants("action null, no input", "Thought: {t}\nAction: null", Error()),
    *variants("Chinese word for none", "Thought: {t}\nAction: 无\nAction Input: 无", Error()),
    *variants(
        "a JSON call of None",
        '{"action": "None", "action_input": "{q}"}',
        Error(),
        chinese_markers=False,
    ),
    *variants(
        "a tool named on the line", "Action: search\nAction Input: {q}", Act("search", "{q}")
    ),
]

# An action that names no tool, then a Final Answer: the model answered without a tool, and the
# answer is the step. A later Action is the step the same way; with nothing after it, the reply is
# still refused (above). A tool's name, then an answer, stays the action: the answer is made up.
NO_TOOL_THEN_ANSWER = [
    *variants(
        "action none, then the answer",
        "Thought: {t}\nAction: None\nAction Input: None\nFinal Answer: {a}",
        Final("{a}", "{t}"),
    ),
    *variants("action N/A, no input", "Thought: {t}\nAction: N/A\nFinal Answer: {a}", ANSWER),
    *variants(
        "no tool needed, in words",
        "Thought: {t}\nAction: No tool needed.\nAction Input:\nFinal Answer: {a}",
        ANSWER,
    ),
    *variants("in bold", "Action: **None**\n\n**Final Answer:** {a}", ANSWER),
    *variants(
        "Chinese words for none", "Thought: {t}\nAction: 无需工具\nFinal Answer: {a}", ANSWER
    ),
    *variants(
        "none, then a made-up observation, then the answer",
        "Action: None\nAction Input: None\nObservation: None\nFinal Answer: {a}",
        ANSWER,
    ),
    *variants(
        "none, then a real action",
        "Action: None\nAction Input: None\nAction: search\nAction Input: {q}\nObservation: x",
        Act("search", "{q}"),
    ),
    *variants(
        "a tool, then a made-up answer",
        "Action: search\nAction Input: {q}\nFinal Answer: {a}",
        Act("search", "{q}"),
    ),
    *variants(
        "a tool whose name starts like none",
        "Action: notion\nAction Input: {q}\nFinal Answer: {a}",
        Act("notion", "{q}"),
    ),
]

# A reply that is nothing but a call of the final answer written like code -- the way a prompt
# spelled the action -- is that answer. Any other bare call, or prose that merely starts with the
# word, stays prose: a direct answer.
FINAL_CALL = [
    *variants("bare finish call", 'finish(answer="{a}")', ANSWER, chinese_markers=False),
    *variants("bare Finish in brackets", "Finish[{a}]", ANSWER, chinese_markers=False),
    *variants("bare final_answer call", "final_answer('{a}')", ANSWER, chinese_markers=False),
    *variants(
        "prose that starts with the word",
        "Finish (the race) first: {a}",
        Final("Finish (the race) first: {a}"),
        chinese_markers=False,
    ),
    *variants(
        "a bare call of a tool stays prose",
        'search("{q}")',
        Final('search("{q}")'),
        chinese_markers=False,
    ),
]

# Underscores escaped as markdown escapes them (`web\_search`): when the Action line shows the
# escape, the model escaped its input the same way, and the input is read without it too.
ESCAPED_UNDERSCORES = [
    *variants(
        "escaped name and input",
        "Action: web\\_search\nAction Input: {q} site\\_name",
        Act("web_search", "{q} site_name"),
    ),
    *variants(
        "escaped name and JSON keys",
        'Action: web\\_search\nAction Input: {"search\\_query": "{q}"}',
        Act("web_search", {"search_query": "{q}"}),
    ),
    *variants(
        "an escape in the input alone is kept",
        "Action: search\nAction Input: {q} LIKE 'a\\_b'",
        Act("search", "{q} LIKE 'a\\_b'"),
    ),
]

# A call written in MiniMax-M2's tags (`<invoke name=...>` with `<parameter name=...>`, the form
# Claude's `<function_calls>` text has too), whether its wrapper opens it or not, after prose.
INVOKE_TAGS = [
    *variants(
        "in its wrapper",
        '<minimax:tool_call>\n<invoke name="search">\n<parameter name="query">{q}</parameter>\n'
        "</invoke>\n</minimax:tool_call>",
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    *variants(
        "after prose, the wrapper's opening lost",
        '{t}\n<invoke name="search">\n<parameter name="query">{q}</parameter>\n</invoke>\n'
        "</minimax:tool_call>",
        Act("search", {"query": "{q}"}, "{t}"),
        chinese_markers=False,
    ),
    *variants(
        "in function_calls tags",
        "<function_calls>\n<invoke name='search'>\n<parameter name='query'>{q}</parameter>\n"
        "</invoke>\n</function_calls>",
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
]

# The tool list's line copied onto the Action line: the name, then its signature or a dash and its
# description. The name is the tool; a hyphen inside a name stays part of it.
NAME_WITH_ITS_LINE = [
    *variants(
        "signature and description",
        "Thought: {t}\nAction: search(query) - Search the web.\nAction Input: {q}",
        Act("search", "{q}", "{t}"),
    ),
    *variants(
        "a dash and the description",
        "Thought: {t}\nAction: search — looks things up\nAction Input: {q}",
        Act("search", "{q}", "{t}"),
    ),
    *variants(
        "a hyphen in the name", "Action: web-search\nAction Input: {q}", Act("web-search", "{q}")
    ),
]

# Markdown's escaped underscore inside a JSON string (`"file\\_name"`: not JSON's escape) reads
# as the underscore, as JSON5 reads any escaped character; a backslash JSON escapes stays one.
ESCAPED_IN_JSON = [
    *variants(
        "in a value",
        '{"action": "search", "action_input": {"query": "{q} file\\_name"}}',
        Act("search", {"query": "{q} file_name"}),
        chinese_markers=False,
    ),
    *variants(
        "a JSON backslash kept",
        'Action: search\nAction Input: {"query": "{q} \\\\d+"}',
        Act("search", {"query": "{q} \\d+"}),
    ),
]

# MiniMax's `[TOOL_CALL]` block: a Ruby-like hash of the tool and its arguments, each argument a
# command-line flag and its value; the first block is the step, JSON arguments are read as JSON.
FLAG_CALLS = [
    *variants(
        "one flag",
        '[TOOL_CALL]\n{tool => "search", args => {\n--query "{q}"\n}}\n[/TOOL_CALL]',
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    *variants(
        "after prose, two blocks, a bare value",
        '{t}\n[TOOL_CALL]\n{tool => "search", args => {\n  --query "{q}"\n  --limit 3\n}}\n'
        '[/TOOL_CALL]\n[TOOL_CALL]\n{tool => "calculator", args => {--expression "1+1"}}\n'
        "[/TOOL_CALL]",
        Act("search", {"query": "{q}", "limit": "3"}, "{t}"),
        chinese_markers=False,
    ),
    *variants(
        "JSON arguments",
        '[TOOL_CALL]{tool => "search", args => {"query": "{q}"}}[/TOOL_CALL]',
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
]

KINDS = {
    "no-tool": NO_TOOL,
    "no-tool-then-answer": NO_TOOL_THEN_ANSWER,
    "final-call": FINAL_CALL,
    "escaped-underscores": ESCAPED_UNDERSCORES,
    "invoke-tags": INVOKE_TAGS,
    "name-with-its-line": NAME_WITH_ITS_LINE,
    "escaped-in-json": ESCAPED_IN_JSON,
    "flag-calls": FLAG_CALLS,
}


@pytest.mark.parametrize(
    ("text", "expected"),
    kind_params(KINDS),
)
def test_kind(text: str, expected: Act | Final | Error) -> None:
    check(parse_or_error(text), expected)
