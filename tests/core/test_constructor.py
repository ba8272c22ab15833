"""The typed constructor: every option a keyword-only parameter with its type and default.

The signature of `CustomReActAgent.__init__` and the fields of `settings.AgentSettings` agree (name,
default, annotation), so neither can drift; a wrong value of any option fails when the agent is
built, with a message naming the option and what it takes. Scripted models.
"""

from __future__ import annotations

import inspect
from dataclasses import MISSING, fields
from pathlib import Path
from typing import Any, get_type_hints

import pytest
from langchain_core.messages import SystemMessage
from langchain_core.tools import tool

from custom_react import CustomReActAgent
from custom_react.pausing.store import MemoryStore
from custom_react.settings import AgentSettings
from custom_react.testing import Script
from tests.conftest import run_by

PARAMETERS = inspect.signature(CustomReActAgent.__init__).parameters
OPTIONS = [field.name for field in fields(AgentSettings)]


def test_the_constructor_takes_every_option_by_keyword_and_nothing_else() -> None:
    assert list(PARAMETERS)[:3] == ["self", "llm", "tools"]
    assert list(PARAMETERS)[3:] == OPTIONS  # same names, same order, no **options
    assert all(PARAMETERS[name].kind is inspect.Parameter.KEYWORD_ONLY for name in OPTIONS)


@pytest.mark.parametrize("field", fields(AgentSettings), ids=lambda field: field.name)
def test_each_parameter_has_its_fields_default_and_type(field: Any) -> None:
    assert field.default is not MISSING  # every option has a default
    assert PARAMETERS[field.name].default == field.default
    constructor = get_type_hints(CustomReActAgent.__init__)
    assert constructor[field.name] == get_type_hints(AgentSettings)[field.name]


def test_the_signature_shows_the_options_with_their_defaults() -> None:
    shown = str(inspect.signature(CustomReActAgent))
    assert "*, max_iterations: 'int | None' = 10," in shown
    assert "language: 'str' = 'en'" in shown and "**" not in shown


def test_a_question_needs_no_tools(script: Any) -> None:
    assert CustomReActAgent(script("Final Answer: 4").model).invoke("2 + 2?")["output"] == "4"


WRONG = {
    "max_iterations": ("5", "max_iterations must be a whole number"),
    "max_execution_time": ("5", "max_execution_time must be a number of seconds"),
    "early_stopping_method": ("stop", "early_stopping_method must be 'force' or 'generate'"),
    "stop": (["\n", 3], "stop takes a list of str, 'format' or None, not"),
    "max_consecutive_parse_failures": (0, "max_consecutive_parse_failures must be at least 1"),
    "max_observation_chars": ("2000", "max_observation_chars must be a whole number"),
    "repeated_action": ("deny", "repeated_action must be 'warn' or 'allow'"),
    "max_tool_calls": (1.5, "max_tool_calls must be a whole number"),
    "system_prompt": (42, "system_prompt must be a string or a SystemMessage"),
    "language": ("fr", "Unsupported language 'fr'"),
    "examples": (3, r"examples takes str, bool or None, not 3 \(int\)"),
    "format": ("yaml", "Unknown format 'yaml'"),
    "environment": (3, r"environment takes bool, str or Path, not 3 \(int\)"),
    "approve": (True, "approve must be a function"),
    "approval": ("ask", "approval must be 'callback' or 'interrupt'"),
    "interrupt_before": ([1], r"interrupt_before takes a list of str, not \[1\]"),
    "state_key": ("short", "state_key must be a secret"),
    "tool_timeout": (0, "tool_timeout must be a number of seconds"),
    "tool_retries": (-1, "tool_retries must be at least 0"),
    "tool_retry_delay": ("1", "tool_retry_delay must be seconds"),
    "checkpoint": ("runs.db", "checkpoint takes a store, not a path"),
    "verbose": ("yes", r"verbose takes bool, not 'yes' \(str\)"),
    "max_prompt_tokens": (0, "max_prompt_tokens must be at least 1"),
    "max_tokens_per_run": ("1000", "max_tokens_per_run must be a whole number"),
    "model_retries": (None, "model_retries must be a whole number"),
    "response_format": (42, "response_format"),
    "final_answer_checks": (["not a check"], "final_answer_checks takes"),
    "max_answer_retries": (True, "max_answer_retries must be a whole number"),
}


def test_every_option_has_a_wrong_value_below() -> None:
    assert sorted(WRONG) == sorted(OPTIONS)


@pytest.mark.parametrize("option", OPTIONS)
def test_a_wrong_value_of_any_option_fails_when_built_naming_it(option: str) -> None:
    value, problem = WRONG[option]
    with pytest.raises((TypeError, ValueError), match=problem) as raised:
        CustomReActAgent(Script().model, [], **{option: value})
    assert option in str(raised.value)


RIGHT = {
    "stop": ["\nObservation:"],
    "system_prompt": SystemMessage("Be brief."),
    "examples": "Question: 1 + 1?\nFinal Answer: 2",
    "environment": Path("."),
    "approve": lambda name, args: True,
    "interrupt_before": ("add",),
    "state_key": b"0123456789abcdef",
    "tool_timeout": 5,
    "checkpoint": MemoryStore(),
    "final_answer_checks": (lambda answer, steps: None,),
    "max_execution_time": 30,
}


@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream"])
def test_right_values_of_every_kind_are_taken(script: Any, way: str) -> None:
    @tool
    def add(a: int, b: int) -> int:
        """Add two whole numbers."""
        return a + b

    agent = CustomReActAgent(script("Final Answer: 2").model, [add], **RIGHT)
    result, _ = run_by(agent, way, "1 + 1?")
    assert result["output"] == "2"
