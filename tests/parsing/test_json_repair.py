"""JSON repair: what a model writes as JSON, cut off or loosely written, read as an object."""

from __future__ import annotations

import pytest

from custom_react.parsing.json_repair import read_json_object, repair_json

REPAIRS = [
    ('{"a": 1}', {"a": 1}),
    ("{'a': 'it\\'s'}", {"a": "it's"}),
    ("{'a': 'say \"hi\"'}", {"a": 'say "hi"'}),
    ('{"a": [1, 2,], "b": {"c": 3,},}', {"a": [1, 2], "b": {"c": 3}}),
    ('{"a": "tab\there"}', {"a": "tab\there"}),
    ('{"a": [1, 2}', {"a": [1, 2]}),
    ('{"a": {"b": [1', {"a": {"b": [1]}}),
    ('{"a":', {"a": None}),
    ('{"a": True, "b": None, "c": false}', {"a": True, "b": None, "c": False}),
    ('{"a": -1.5e3}', {"a": -1500.0}),
    ('{"a": "caf\\u00e9"}', {"a": "café"}),
    ('{"a": "trailing backslash \\', {"a": "trailing backslash \\"}),
    ('{"a": 1} and then {"b": 2}', {"a": 1}),
    ('{"a": "x" /* a note */}', {"a": "x"}),
    ('{"a": 1, // a note\n "b": "//not a comment"}', {"a": 1, "b": "//not a comment"}),
    ('{"a": 1}}', {"a": 1}),
    ("[" * 500, None),  # deeper than any tool call: given up at once
]


@pytest.mark.parametrize(("text", "expected"), REPAIRS, ids=[text for text, _ in REPAIRS])
def test_repair(text: str, expected: object) -> None:
    assert read_json_object(text) == expected


def test_valid_json_is_copied_unchanged() -> None:
    text = '{"a": [1, 2.5, "x\\n\\"y\\""], "b": {"c": null, "d": true}}'
    assert repair_json(text) == (text, len(text))
