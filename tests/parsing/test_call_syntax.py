"""The call syntax: `name(args)` as a model writes it, read as a tool name and its arguments."""

from __future__ import annotations

import pytest

from custom_react.parsing.call_syntax import POSITIONAL_ARGS, parse_tool_call

CALLS = [
    ('search("rose")', ("search", "rose")),
    ("search ( 'rose' )", ("search", "rose")),
    ("calculator(12)", ("calculator", "12")),
    ('search({"query": "rose"})', ("search", {"query": "rose"})),
    ("search(query='rose', limit=3)", ("search", {"query": "rose", "limit": 3})),
    ('f("a, b", [1, 2])', ("f", {POSITIONAL_ARGS: ["a, b", [1, 2]]})),
    ('f("x == 1")', ("f", "x == 1")),
    ('f("a") and more text', ("f", "a")),
    ('f(r"\\d+")', ("f", "\\d+")),
    ('f("caf\\u00e9 \\"quoted\\"")', ("f", 'café "quoted"')),
    ('write_file("a.js", """const o = {"a": 1}; f(", ");""")',
     ("write_file", {POSITIONAL_ARGS: ["a.js", 'const o = {"a": 1}; f(", ");']})),
    ('write_file("a.js", "const o = {"a": 1};")',
     ("write_file", {POSITIONAL_ARGS: ["a.js", 'const o = {"a": 1};']})),
    # Keywords written with a signature's colon, among several arguments.
    ('area(height: 3, base: 10)', ("area", {"height": 3, "base": 10})),
    ('area(10, unit: "m")', ("area", {POSITIONAL_ARGS: [10], "unit": "m"})),
    # One argument is the text itself (the binding reads `name: value` there, knowing the names).
    ("area(height: 3)", ("area", "height: 3")),
    # A colon inside a quoted value, a URL or a drive is no keyword.
    ('note("a.txt", "title: hi")', ("note", {POSITIONAL_ARGS: ["a.txt", "title: hi"]})),
    ('fetch("a", https://x.org)', ("fetch", {POSITIONAL_ARGS: ["a", "https://x.org"]})),
    ('save("a", C:\\notes)', ("save", {POSITIONAL_ARGS: ["a", "C:\\notes"]})),
    # A name or keyword in any script, as a tool list in Chinese shows it.
    ('查询天气(city="北京")', ("查询天气", {"city": "北京"})),
    ('查询天气(城市="北京", 天数=3)', ("查询天气", {"城市": "北京", "天数": 3})),
    ('météo("Paris")', ("météo", "Paris")),
]  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), CALLS, ids=[text for text, _ in CALLS])
def test_call_syntax(text: str, expected: tuple[str, object]) -> None:
    assert parse_tool_call(text) == expected


@pytest.mark.parametrize("text", ["search", "", "123(4)", "- item", "３号(x)", "（北京）"])
def test_text_that_is_not_a_call(text: str) -> None:
    assert parse_tool_call(text) is None
