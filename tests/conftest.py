"""Shared test helpers: scripted chat models and small tools whose calls we can count."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import settings
from langchain_core.messages import AIMessage
from langchain_core.tools import BaseTool, tool

from custom_react.events import ActionEvent, AgentEvent, LimitReached, ObservationEvent, RunFinished
from custom_react.steps import FinalAnswerEvent, ParseFailure
from custom_react.testing import Script

ROOT = Path(__file__).resolve().parents[1]

# Property tests check what is parsed, never how fast: no per-example deadline, which a busy
# machine (a model server on both cores) would fail at random.
settings.register_profile("no-deadline", deadline=None)
settings.load_profile("no-deadline")


def load_script(relative_path: str) -> ModuleType:
    """Import a demo, benchmark or script file of the repository by its path (they are not packages)."""
    path = ROOT / relative_path
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module  # dataclasses in the module look themselves up here
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def script() -> Iterator[Callable[..., Script]]:
    """Make scripted models; at teardown, fail if any of them has replies the agent never used."""
    made: list[Script] = []

    def make(*replies: str | AIMessage | Exception, **options: Any) -> Script:
        made.append(Script(*replies, **options))
        return made[-1]

    yield make
    for each in made:
        each.assert_consumed()


class Calls:
    """Records tool calls."""

    def __init__(self) -> None:
        self.calls: list[Any] = []


@pytest.fixture
def calls() -> Calls:
    return Calls()


@pytest.fixture
def tools(calls: Calls) -> list[BaseTool]:
    @tool
    def calculator(expression: str) -> str:
        """Evaluate an arithmetic expression such as 2 * (3 + 4)."""
        calls.calls.append(("calculator", expression))
        allowed = set("0123456789+-*/(). ")
        if not set(expression) <= allowed:
            raise ValueError(f"cannot evaluate {expression!r}")
        return str(eval(expression))  # test-only tool over digits and operators

    @tool
    def search(query: str) -> str:
        """Look up facts and prices."""
        calls.calls.append(("search", query))
        facts = {
            "rose": "A rose stem costs 1.2 yuan wholesale in Kunming.",
            "玫瑰": "玫瑰批发价每枝 1.2 元。",
        }
        return next((text for key, text in facts.items() if key in query), "No result.")

    return [calculator, search]


def run_by(agent: Any, way: str, given: Any, **config: Any) -> tuple[dict[str, Any], list[Any]]:
    """One run by `invoke`, `ainvoke` or `stream`: the result dict and the events (streamed only)."""
    if way == "invoke":
        return agent.invoke(given, config=config), []
    if way == "ainvoke":
        return asyncio.run(agent.ainvoke(given, config=config)), []
    events = list(agent.stream(given, config=config))
    assert isinstance(events[-1], RunFinished)
    return events[-1].result.to_dict(), events


def summarize(events: list[AgentEvent]) -> list[tuple[Any, ...]]:
    """Events without their random call ids, for exact comparison."""
    rows: list[tuple[Any, ...]] = []
    for event in events:
        match event:
            case ActionEvent():
                rows.append(("action", event.step.tool, event.step.tool_input))
            case ObservationEvent():
                rows.append(("observation", event.step.status, event.step.observation))
            case ParseFailure():
                rows.append(("parse_failure", event.consecutive))
            case LimitReached():
                rows.append(("limit_reached", event.reason, event.iterations))
            case FinalAnswerEvent():
                rows.append(("final_answer", event.output))
            case RunFinished():
                rows.append(("result", event.result.stop_reason, event.result.iterations))
    return rows


def change_prompt(monkeypatch: pytest.MonkeyPatch, language: str, template: str = "react") -> None:
    """Change one line of the shipped `<template>_<language>.txt`, as an edit of the file would.

    Every fingerprint reads the templates through `load_template` (`custom_react.prompt` the text
    format's, `custom_react.formats` the XML and JSON formats').
    """
    import custom_react.formats
    import custom_react.prompt

    shipped = custom_react.prompt.load_template

    def edited(name: str, read: str = "en") -> str:
        text = shipped(name, read)
        if (name, read) != (template, language):
            return text
        first, rest = text.split("\n", 1)
        return f"{first} (edited)\n{rest}"

    monkeypatch.setattr(custom_react.prompt, "load_template", edited)
    monkeypatch.setattr(custom_react.formats, "load_template", edited)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--regenerate-golden",
        action="store_true",
        help="rewrite the golden files under tests/golden from the current output",
    )


@pytest.fixture
def regenerate(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--regenerate-golden"))
