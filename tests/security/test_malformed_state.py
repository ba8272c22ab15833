"""Malformed states: every field is checked before any tool runs, and the error names it.

A real paused state (one finished step, one waiting call) is broken one field at a time, then
resumed with approve, edit and reject: each must raise `ValueError` naming the field, with the
tool not run. The same for a state broken inside an SQLite store and resumed by id.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from custom_react import CustomReActAgent
from custom_react.pausing.checkpoints import SQLiteStore
from custom_react.pausing.state import STATE_VERSION
from custom_react.testing import Script
from tests.security.common import file_tool, lines

ASK = "Thought: first look\nAction: status\nAction Input: prod"
DEPLOY = "Thought: ship it\nAction: deploy\nAction Input: prod"
DECISIONS = [{"approve": True}, {"edit": "staging"}, {"reject": "no"}]


def agent(tmp_path: Path, *replies: str, store: Any = None) -> CustomReActAgent:
    tools = [
        file_tool(tmp_path / "deploy.log"),
        file_tool(tmp_path / "status.log", "status", False),
    ]
    return CustomReActAgent(Script(*replies).model, tools, approval="interrupt", checkpoint=store)


def pause(tmp_path: Path, store: Any = None) -> dict[str, Any]:
    result = agent(tmp_path, ASK, DEPLOY, store=store).invoke("Deploy to prod.")
    assert result["stop_reason"] == "needs_approval"
    (tmp_path / "status.log").unlink()
    return json.loads(json.dumps(result["state"]))


def at(path: str, value: Any) -> Callable[[dict[str, Any]], Any]:
    """Set (or, with `...`, delete) one field, `a.b.0.c` style."""

    def change(state: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = state
        for part in parents:
            target = target[int(part)] if isinstance(target, list) else target[part]
        if value is ...:
            del target[last]
        else:
            target[last] = value

    return change


BREAKS: dict[str, tuple[Callable[[dict[str, Any]], Any], str]] = {
    "question is a number": (at("question", 123), "question"),
    "question is null": (at("question", None), "question"),
    "question missing": (at("question", ...), "question"),
    "run_id is a number": (at("run_id", 5), "run_id"),
    "thread_id is a number": (at("thread_id", 7), "thread_id"),
    "version is a string": (at("version", "2"), "version"),
    "version missing": (at("version", ...), "version"),
    "version from the future": (at("version", STATE_VERSION + 1), "version"),
    "chat_history is a string": (at("chat_history", "hello"), "chat_history"),
    "chat_history holds a number": (at("chat_history", [1]), "chat_history"),
    "chat_history holds an unknown message": (
        at("chat_history", [{"type": "bogus", "data": {}}]),
        "chat_history",
    ),
    "steps is a string": (at("steps", "x"), "steps"),
    "steps holds a number": (at("steps", [5]), "steps"),
    "a step of kind bogus": (at("steps.0.kind", "bogus"), "bogus"),
    "a step without kind": (at("steps.0.kind", ...), "step 1"),
    "a step's iteration is a string": (at("steps.0.iteration", "1"), "iteration"),
    "a step's observation is a number": (at("steps.0.observation", 5), "observation"),
    "a step's status is unknown": (at("steps.0.status", "approved"), "status"),
    "a step's args is a string": (at("steps.0.args", "x"), "args"),
    "a step with an unknown field": (at("steps.0.approved", True), "approved"),
    "a step missing its tool": (at("steps.0.tool", ...), "tool"),
    "pending is a string": (at("pending", "deploy"), "pending"),
    "pending is a list": (at("pending", []), "pending"),
    "pending.args is a string": (at("pending.args", "100"), "args"),
    "pending.args is a list": (at("pending.args", ["prod"]), "args"),
    "pending.iteration is a string": (at("pending.iteration", "1"), "iteration"),
    "pending.iteration is a bool": (at("pending.iteration", True), "iteration"),
    "pending.iteration is a float": (at("pending.iteration", 1.0), "iteration"),
    "pending.tool is null": (at("pending.tool", None), "tool"),
    "pending.tool_call_id is a number": (at("pending.tool_call_id", 1), "tool_call_id"),
    "pending.thought is a list": (at("pending.thought", ["x"]), "thought"),
    "pending.tool_input is a number": (at("pending.tool_input", 3), "tool_input"),
    "pending.inner_state is a string": (at("pending.inner_state", "x"), "inner_state"),
    "pending with an unknown field": (at("pending.approved", True), "approved"),
    "pending missing its args": (at("pending.args", ...), "args"),
    "pending missing its log": (at("pending.log", ...), "log"),
    "an unknown top-level field": (at("approved_by", "admin"), "approved_by"),
}


@pytest.mark.parametrize("decision", DECISIONS, ids=["approve", "edit", "reject"])
@pytest.mark.parametrize(
    "broken",
    list(BREAKS),
)
def test_a_broken_field_is_named_and_nothing_runs(tmp_path, broken, decision):
    state = pause(tmp_path)
    change, field = BREAKS[broken]
    change(state)
    with pytest.raises(ValueError, match=field):
        agent(tmp_path, "Final Answer: x").invoke({"resume": state, "decision": decision})
    assert lines(tmp_path / "deploy.log") == [] and lines(tmp_path / "status.log") == []


@pytest.mark.parametrize("shape", [[], "", None, 42, {"steps": []}, {"pending": None}], ids=repr)
def test_something_that_is_no_state_is_refused(tmp_path, shape):
    with pytest.raises(ValueError):
        agent(tmp_path, "Final Answer: x").invoke({"resume": shape, "decision": {"approve": True}})
    assert lines(tmp_path / "deploy.log") == []


STORED_BREAKS = [
    "question is a number",
    "pending.args is a string",
    "pending.iteration is a string",
    "chat_history is a string",
    "pending with an unknown field",
]


@pytest.mark.parametrize("broken", STORED_BREAKS)
def test_a_state_broken_inside_the_store_is_refused_by_id(tmp_path, broken):
    db = tmp_path / "runs.db"
    state = pause(tmp_path, SQLiteStore(db))
    change, field = BREAKS[broken]
    change(state)
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE runs SET state = ?", (json.dumps(state),))
    with pytest.raises(ValueError, match=field):
        agent(tmp_path, "Final Answer: x", store=SQLiteStore(db)).invoke(
            {"resume": state["run_id"], "decision": {"approve": True}}
        )
    assert lines(tmp_path / "deploy.log") == []


@pytest.mark.parametrize(
    ("row", "field"),
    [
        ('{"kind": "bogus"}', "bogus"),
        ('{"kind": "tool_step", "iteration": "1"}', "step"),
        ("5", "step"),
    ],
)
def test_a_broken_stored_step_is_refused_by_id(tmp_path, row, field):
    db = tmp_path / "runs.db"
    state = pause(tmp_path, SQLiteStore(db))
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE steps SET step = ?", (row,))
    with pytest.raises(ValueError, match=field):
        agent(tmp_path, "Final Answer: x", store=SQLiteStore(db)).invoke(
            {"resume": state["run_id"], "decision": {"approve": True}}
        )
    assert lines(tmp_path / "deploy.log") == []
