"""The forms read after the third batch of real replies (`wild3/*` in
`bench/parser_replies_wild.jsonl`) and the peers' own parser tests: one table per kind, in English
and with Chinese content. Every string here is our own.

Each kind is a way of writing a step that reached an agent as text: a chat template's call form
a server left in the content, another framework's markers, or a call after a weak answer marker.
"""

from __future__ import annotations

import pytest
from langchain_core.tools import tool

from custom_react.arguments import bind_arguments
from tests.parsing.test_parser import Act, Final, check, kind_params, parse_or_error, variants

# MiniCPM5's call: `<function name=...>` with `<param name=...>` tags, bare or after prose.
MINICPM_TAGS = [
    *variants(
        "alone",
        '<function name="search"><param name="query">{q}</param></function>',
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    *variants(
        "after prose, single quotes, on lines",
        "{t}\n<function name='search'>\n<param name='query'>{q}</param>\n</function>",
        Act("search", {"query": "{q}"}, "{t}"),
        chinese_markers=False,
    ),
]

# The name as an attribute of `<tool_call>` (DeepSeek V4), the arguments one JSON object.
NAME_ATTRIBUTE = [
    *variants(
        "with an id before the name",
        '<tool_call id="call_1" name="search">\n{"query": "{q}"}\n</tool_call>',
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    *variants(
        "the name first",
        '{t}\n<tool_call name="search" id="x">{"query": "{q}"}</tool_call>',
        Act("search", {"query": "{q}"}, "{t}"),
        chinese_markers=False,
    ),
]

# dspy-go's ReAct XML: `<tool_name>` and `<arg key=...>` inside `<action>`, under `## action:`.
TOOL_NAME_TAGS = [
    *variants(
        "under markdown headings",
        "## thought:\n{t}\n\n## action:\n<action>\n<tool_name>search</tool_name>\n"
        '<arguments><arg key="query">{q}</arg></arguments>\n</action>\n\n## observation:\nx',
        Act("search", {"query": "{q}"}, "{t}"),
    ),
]

# Gemma 4's own tokens (`<|"|>` quotes its strings), and gpt-oss's header with its tokens stripped.
CALL_TOKENS = [
    *variants(
        "Gemma 4",
        '<|tool_call>call:search{query:<|"|>{q}<|"|>}<tool_call|>',
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    *variants(
        "Gemma 4, a number and a string",
        '{t}\n<|tool_call>call:convert{amount:3,to:<|"|>{q}<|"|>}<tool_call|>',
        Act("convert", {"amount": 3, "to": "{q}"}, "{t}"),
        chinese_markers=False,
    ),
    *variants(
        "gpt-oss stripped",
        'commentary to=functions.search json{"query": "{q}"}',
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    *variants(
        "the recipient in a sentence stays prose",
        "{a} (to=functions.search is the header)",
        Final("{a} (to=functions.search is the header)"),
        chinese_markers=False,
    ),
]

# GLM-4-0414's bare form: the name alone on the first line, then its JSON arguments. A code
# fence's language word that lost its backticks is no name.
NAME_LINE = [
    *variants(
        "a name, then the object",
        'search\n{"query": "{q}"}',
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    *variants(
        "json, then data",
        'json\n{"answer": "{a}"}',
        Final('json\n{"answer": "{a}"}'),
        chinese_markers=False,
    ),
]

# A call after a weak answer marker (`Answer:`) is the step: the marker counts only without one.
CALL_AFTER_ANSWER = [
    *variants(
        "a JSON blob",
        'Answer:\n{"action": "search", "action_input": "{q}"}',
        Act("search", "{q}"),
    ),
    *variants("data stays the answer", 'Answer: {"city": "{a}"}', Final('{"city": "{a}"}')),
]

# Semantic Kernel's stepwise markers, and self-ask's last line.
BRACKET_MARKERS = [
    *variants("final answer", "{t}\n[FINAL ANSWER] {a}", Final("{a}", "{t}")),
    *variants("final_answer on its own line", "{t}\n[FINAL_ANSWER]\n {a}", Final("{a}", "{t}")),
    *variants("final-answer", "[FINAL-ANSWER]{a}", Final("{a}")),
    *variants(
        "action with action_variables",
        '{t}\n[ACTION]\n{"action": "search", "action_variables": {"query": "{q}"}}',
        Act("search", {"query": "{q}"}, "{t}"),
    ),
    *variants(
        "words in brackets stay prose",
        "[Action items] {a}",
        Final("[Action items] {a}"),
        chinese_markers=False,
    ),
    *variants("self-ask", "Intermediate answer: 4.\nSo the final answer is: {a}", Final("{a}")),
]

# A tool's or function's arguments under any spelling of that key (`tool_arguments`, ...).
ARGUMENT_KEYS = [
    *variants(
        "tool_name and tool_arguments",
        'Action:\n{\n  "tool_name": "search",\n  "tool_arguments": {"query": "{q}"}\n}',
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    *variants(
        "function_name and function_params",
        '{"function_name": "search", "function_params": {"query": "{q}"}}',
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
]

# The step written inside the thinking, with nothing after it (a template ended the turn there).
STEP_IN_THINKING = [
    *variants(
        "a tool-call tag",
        "<think>\n{t}\n<tool_call>\n<function=search>\n<parameter=query>\n{q}\n</parameter>\n"
        "</function>\n</tool_call>\n</think>",
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    *variants(
        "an Action line",
        "<think>{t}\nAction: search\nAction Input: {q}</think>\n",
        Act("search", "{q}", "{t}"),
        chinese_markers=False,
    ),
]

KINDS = {
    "argument-keys": ARGUMENT_KEYS,
    "step-in-thinking": STEP_IN_THINKING,
    "minicpm-tags": MINICPM_TAGS,
    "name-attribute": NAME_ATTRIBUTE,
    "tool-name-tags": TOOL_NAME_TAGS,
    "call-tokens": CALL_TOKENS,
    "name-line": NAME_LINE,
    "call-after-answer": CALL_AFTER_ANSWER,
    "bracket-markers": BRACKET_MARKERS,
}


@pytest.mark.parametrize(
    ("text", "expected"),
    kind_params(KINDS),
)
def test_kind(text: str, expected: Act | Final) -> None:
    check(parse_or_error(text), expected)


@tool
def fetch(request: list[str]) -> str:
    """Send a request given as its parts."""
    return ""


@tool
def lookup(query: str) -> str:
    """Look a text up."""
    return ""


@pytest.mark.parametrize(
    ("tool_", "expected"),
    [(fetch, {"request": ["GET", "/a"]}), (lookup, {"query": "GET, /a"})],
    ids=["an array argument keeps the list", "a text argument joins it"],
)
def test_a_json_array_input(tool_: object, expected: dict[str, object]) -> None:
    step = parse_or_error('{"action": "fetch", "action_input": ["GET", "/a"]}')
    assert bind_arguments(tool_, step.tool_input)[0] == expected  # type: ignore[arg-type,union-attr]
