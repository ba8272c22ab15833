"""A JSON call in LM Studio's `[TOOL_REQUEST]` block, and a name alone inside call tags.

Two kinds small models write when a server leaves their call as text: LM Studio's own block,
`[TOOL_REQUEST]{"name": ..., "arguments": ...}[END_TOOL_REQUEST]` (in any case, with `tool` or the
tool's own name in the opener, the latter also closed by `[/name]`), read as one more wrapper of the JSON call `<tool_call>` holds
(`parsing/call_wrappers.py`); and a call with no "arguments" key inside call tags
(`<tool_call>{"name": "current_date"}</tool_call>`), a call with no arguments, where a bare
`{"name": ...}` stays data. One table per kind, in English and with Chinese content, each with
the replies it must leave alone: prose naming the tags, a made-up Observation after a step, a
Final Answer quoting a block, a broken block (a format error, not an answer). Every string here is
our own.
"""

from __future__ import annotations

import pytest

from custom_react.parser import ParseError, parse_llm_response
from custom_react.parsing.action import find_call
from custom_react.parsing.call_wrappers import read_wrapped, unreadable_call
from tests.parsing.test_parser import (
    Act,
    Error,
    Final,
    check,
    kind_params,
    parse_or_error,
    variants,
)

CALL = '{"name": "search", "arguments": {"query": "{q}"}}'
BROKEN = Error(("tool call", "name", "arguments", "Action", "Final Answer"))

LM_STUDIO = [
    *variants(
        "the block alone",
        f"[TOOL_REQUEST]{CALL}[END_TOOL_REQUEST]",
        Act("search", {"query": "{q}"}, ""),
        chinese_markers=False,
    ),
    *variants(
        "after a Thought line, on lines of its own",
        f"Thought: {{t}}\n[TOOL_REQUEST]\n{CALL}\n[END_TOOL_REQUEST]",
        Act("search", {"query": "{q}"}, "{t}"),
    ),
    *variants(
        "after prose",
        f"{{t}} [TOOL_REQUEST]{CALL}[END_TOOL_REQUEST]",
        Act("search", {"query": "{q}"}, "{t}"),
        chinese_markers=False,
    ),
    *variants(
        "lower case",
        f"[tool_request]{CALL}[end_tool_request]",
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    *variants(
        "`tool` in the opener",
        f"[tool]{CALL}[END_TOOL_REQUEST]",
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    *variants(
        "the tool's name in the opener, its arguments in the object",
        '{t}\n[search]\n{"query": "{q}"}\n[END_TOOL_REQUEST]',
        Act("search", {"query": "{q}"}, "{t}"),
        chinese_markers=False,
    ),
    *variants(
        "the tool's name in the opener, a whole call in the object",
        '[lookup]{"name": "search", "arguments": {"query": "{q}"}}[END_TOOL_REQUEST]',
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    *variants(
        "the end tag cut off by a stop sequence",
        f"Thought: {{t}}\n[TOOL_REQUEST]{CALL}",
        Act("search", {"query": "{q}"}, "{t}"),
    ),
    *variants(
        "the object cut short before the end tag: the tag is no part of a value",
        '[TOOL_REQUEST]{"name": "search", "arguments": {"query": "{q}"[END_TOOL_REQUEST]',
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    *variants(
        "after an Action marker",
        f"Thought: {{t}}\nAction: [TOOL_REQUEST]{CALL}[END_TOOL_REQUEST]",
        Act("search", {"query": "{q}"}, "{t}"),
    ),
    *variants(
        "inside the thinking, with nothing after it",
        f"<think>{{t}}\n[TOOL_REQUEST]{CALL}[END_TOOL_REQUEST]</think>",
        Act("search", {"query": "{q}"}, "{t}"),
        chinese_markers=False,
    ),
    *variants(
        "the tool's name in the opener, closed by its own [/name]",
        '{t}\n[search]\n{"query": "{q}"}\n[/search]',
        Act("search", {"query": "{q}"}, "{t}"),
        chinese_markers=False,
    ),
    *variants(
        "the tool's own closer in another case, on one line after a Thought",
        'Thought: {t}\n[search]{"query": "{q}"}[/Search]',
        Act("search", {"query": "{q}"}, "{t}"),
    ),
    *variants(
        "the tool's name and its own closer inside the thinking, with nothing after it",
        '<think>{t}\n[search]\n{"query": "{q}"}\n[END_TOOL_REQUEST]\n</think>',
        Act("search", {"query": "{q}"}, "{t}"),
        chinese_markers=False,
    ),
    *variants(
        "a bracketed word closed by another word's closer stays prose",
        '[note]\n{"name": "{a}", "pages": 3}\n[/quote]',
        Final('[note]\n{"name": "{a}", "pages": 3}\n[/quote]'),
        chinese_markers=False,
    ),
    *variants(
        "a markdown link before an object stays prose",
        '{a} See [search](https://example.com/api):\n{"query": "{q}"}',
        Final('{a} See [search](https://example.com/api):\n{"query": "{q}"}'),
        chinese_markers=False,
    ),
    *variants(
        "the tags named in prose stay prose",
        "LM Studio wraps a call in [TOOL_REQUEST] and [END_TOOL_REQUEST]. {a}",
        Final("LM Studio wraps a call in [TOOL_REQUEST] and [END_TOOL_REQUEST]. {a}"),
        chinese_markers=False,
    ),
    *variants(
        "a bracketed word before data, with no end tag, stays prose",
        '[note] {"name": "{a}", "pages": 3}',
        Final('[note] {"name": "{a}", "pages": 3}'),
        chinese_markers=False,
    ),
    *variants(
        "a made-up Observation with a block, after the step: the step",
        "Thought: {t}\nAction: search\nAction Input: {q}\nObservation: "
        '[TOOL_REQUEST]{"name": "calculator", "arguments": {"expression": "1 + 1"}}'
        "[END_TOOL_REQUEST]",
        Act("search", "{q}", "{t}"),
    ),
    *variants(
        "a Final Answer quoting a block: the answer",
        f"Thought: {{t}}\nFinal Answer: LM Studio writes [TOOL_REQUEST]{CALL}[END_TOOL_REQUEST]",
        Final(f"LM Studio writes [TOOL_REQUEST]{CALL}[END_TOOL_REQUEST]", "{t}"),
    ),
    *variants(
        "broken JSON in the block: a format error",
        '[TOOL_REQUEST]{"name": search, "arguments": }[END_TOOL_REQUEST]',
        BROKEN,
        chinese_markers=False,
    ),
    *variants(
        "a block with no name after a Thought: a format error, not a Thought alone",
        'Thought: {t}\n[TOOL_REQUEST]{"query": "{q}"}[END_TOOL_REQUEST]',
        BROKEN,
    ),
]

NAME_IN_CALL_TAGS = [
    *variants(
        "a name alone in <tool_call>",
        '<tool_call>{"name": "current_date"}</tool_call>',
        Act("current_date", ""),
        chinese_markers=False,
    ),
    *variants(
        "a name alone in <tool_call>, after a Thought",
        'Thought: {t}\n<tool_call>\n{"name": "current_date"}\n</tool_call>',
        Act("current_date", "", "{t}"),
    ),
    *variants(
        "a name alone in [TOOL_REQUEST]",
        '[TOOL_REQUEST]{"name": "current_date"}[END_TOOL_REQUEST]',
        Act("current_date", ""),
        chinese_markers=False,
    ),
    *variants(
        "a name alone after Action:",
        'Thought: {t}\nAction: {"name": "current_date"}',
        Act("current_date", "", "{t}"),
    ),
    *variants(
        "a call in <tool_call> cut short: the closing tag is no part of a value",
        '<tool_call>{"name": "search", "arguments": {"query": "{q}"</tool_call>',
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    *variants(
        "a bare name object stays data: an answer",
        '{"name": "{a}"}',
        Final('{"name": "{a}"}'),
        chinese_markers=False,
    ),
    *variants(
        "a name object in a fence stays data: a fence is no call tag",
        '```json\n{"name": "{a}"}\n```',
        Final('```json\n{"name": "{a}"}\n```'),
        chinese_markers=False,
    ),
    *variants(
        "broken JSON in <tool_call>: a format error",
        '<tool_call>{"name": search, "arguments": }</tool_call>',
        BROKEN,
        chinese_markers=False,
    ),
]

KINDS = {"lm-studio": LM_STUDIO, "name-in-call-tags": NAME_IN_CALL_TAGS}


@pytest.mark.parametrize(("text", "expected"), kind_params(KINDS))
def test_kind(text: str, expected: Act | Final | Error) -> None:
    check(parse_or_error(text), expected)


def test_the_block_is_read_as_the_json_call_tool_call_tags_hold() -> None:
    block = '[TOOL_REQUEST]{"name": "f", "arguments": {"a": 1}}[END_TOOL_REQUEST]'
    tags = '<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>'
    assert find_call("ok " + block) == find_call("ok " + tags)
    found = find_call("ok " + block)
    assert found is not None and found[0] == 3  # the call opens at the block's opener
    assert parse_llm_response(block).log == block  # the step as written


def test_the_wrapper_says_what_the_object_is() -> None:
    text = '[TOOL_REQUEST]{"name": "f"}[END_TOOL_REQUEST]'
    wrapped = read_wrapped(text, text.index("{"))
    assert (wrapped.value, wrapped.start, wrapped.named_by_tag) == ({"name": "f"}, 0, True)
    named = '[get_time]{"zone": "UTC"}[END_TOOL_REQUEST]'
    assert read_wrapped(named, named.index("{")).tool == "get_time"
    no_end = '[get_time]{"zone": "UTC"}'
    assert read_wrapped(no_end, no_end.index("{")).tool == ""
    fenced = '```json\n{"name": "f"}\n```'
    assert not read_wrapped(fenced, fenced.index("{")).named_by_tag


def test_unreadable_call_needs_a_tag_opening_an_object() -> None:
    assert unreadable_call("[TOOL_REQUEST] {")
    assert unreadable_call("<tool_call>\n```json\n{")
    assert not unreadable_call("[TOOL_REQUEST] and [END_TOOL_REQUEST]")
    assert not unreadable_call('{"name": "x"}')


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_broken_block_is_a_format_error_in_the_runs_language(language: str) -> None:
    with pytest.raises(ParseError) as raised:
        parse_llm_response("[TOOL_REQUEST]{broken: }[END_TOOL_REQUEST]", language)
    assert not raised.value.thought_only
    assert ("tool call" if language == "en" else "工具调用") in str(raised.value)
