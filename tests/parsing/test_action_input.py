"""What models put around an Action Input: stray bold, lone quotes, JSON written inside a string.

Dialects from crewAI's parser tests (`crewAIInc/crewAI:tests/agents/test_crew_agent_parser.py`:
a `** ` prefix, unbalanced quotes); our own strings.
"""

from __future__ import annotations

import pytest

from custom_react.parsing.action_input import parse_action_input


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("** Harbin ice festival dates", "Harbin ice festival dates"),
        ("** 哈尔滨 冰雪节 日期", "哈尔滨 冰雪节 日期"),
        ('** {"query": "rose price"}', {"query": "rose price"}),
        ("**bold all the way**", "bold all the way"),
        ("** starred both ends **", "starred both ends"),
        ('"{\\"query\\": \\"Lijiang old town\\"}"', {"query": "Lijiang old town"}),
        ('{\\"expression\\": \\"2 + 2\\"}', {"expression": "2 + 2"}),
        ('"Kunming flower market', "Kunming flower market"),
        ("2 * 3", "2 * 3"),  # a star inside the input is the input
    ],
)
def test_wrappers_around_an_input_are_removed(raw, expected):
    assert parse_action_input(raw) == expected
