"""Guards before approval: a call a guard refuses never reaches the person nor the tool.

Each guard (unknown tool, unknown arguments, placeholder input, repeated action, the tool's
`max_calls`, the agent's `max_tool_calls`) is tried with approval by callback and by pause, run
by invoke, ainvoke and stream. What must hold: the same calls run in both modes, the refused
call is neither shown to the callback nor paused for, and its step has the guard's status.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from custom_react import CustomReActAgent
from custom_react.pausing.store import MemoryStore
from custom_react.testing import Script
from tests.conftest import run_by
from tests.security.common import Approver, command_tool

NAME = "run_terminal_command"


def act(command: Any) -> str:
    written = command if isinstance(command, str) else json.dumps(command)
    return f"Thought: go\nAction: {NAME}\nAction Input: {written}"


FINAL = "Final Answer: done"
# name: (replies, tool metadata, agent options, commands that run, the guard's status)
CASES: dict[str, tuple[list[str], dict[str, Any], dict[str, Any], list[str], str]] = {
    "unknown tool": (
        ["Thought: go\nAction: delete_everything\nAction Input: /", FINAL],
        {},
        {},
        [],
        "unknown_tool",
    ),
    "unknown tool after a real call": (
        [act("ls"), "Thought: go\nAction: shell_exec\nAction Input: rm -rf /", FINAL],
        {},
        {},
        ["ls"],
        "unknown_tool",
    ),
    "unknown argument": (
        [act({"command": "ls", "sudo": True}), FINAL],
        {},
        {},
        [],
        "invalid_input",
    ),
    "unknown argument only": (
        [act({"cmd": "ls", "shell": "bash"}), FINAL],
        {},
        {},
        [],
        "invalid_input",
    ),
    "placeholder input": ([act("command"), FINAL], {}, {}, [], "placeholder_input"),
    "placeholder input, quoted": (
        [act('"the command itself"'), FINAL],
        {},
        {},
        [],
        "placeholder_input",
    ),
    "repeated action": ([act("ls"), act("ls"), FINAL], {}, {}, ["ls"], "repeated"),
    "repeated action, spaces": ([act("ls"), act("  ls "), FINAL], {}, {}, ["ls"], "repeated"),
    "repeated action as JSON": (
        [act("ls"), act({"command": "ls"}), FINAL],
        {},
        {},
        ["ls"],
        "repeated",
    ),
    "the tool's max_calls=1": (
        [act("ls"), act("pwd"), act("id"), FINAL],
        {"max_calls": 1},
        {},
        ["ls"],
        "over_budget",
    ),
    "the tool's max_calls=2": (
        [act("ls"), act("pwd"), act("id"), FINAL],
        {"max_calls": 2},
        {},
        ["ls", "pwd"],
        "over_budget",
    ),
    "the agent's max_tool_calls=1": (
        [act("ls"), act("pwd"), FINAL],
        {},
        {"max_tool_calls": 1},
        ["ls"],
        "over_budget",
    ),
}


def run_in(mode: str, way: str, case: str, store: Any) -> tuple[list[Any], int, list[Any], int]:
    """Run the case; in interrupt mode approve every pause. (ran, pauses, steps, shown)."""
    replies, meta, options, _, _ = CASES[case]
    ran: list[Any] = []
    model = Script(*replies)  # one model across the resumes: its replies go on in order
    approver = Approver()
    mode_options = {"approve": approver} if mode == "callback" else {"approval": "interrupt"}

    def agent() -> CustomReActAgent:
        tools = [command_tool(ran, **meta)]
        return CustomReActAgent(model.model, tools, checkpoint=store, **mode_options, **options)

    result, _ = run_by(agent(), way, "Look around the workspace.")
    pauses = 0
    while result["stop_reason"] == "needs_approval":
        pauses += 1
        assert pauses <= len(replies)
        given = {"resume": json.loads(json.dumps(result["state"])), "decision": {"approve": True}}
        result, _ = run_by(agent(), way, given)
    assert result["stop_reason"] == "final_answer"
    model.assert_consumed()
    steps = store.load(result["run_id"])["steps"] if store else result["intermediate_steps"]
    return ran, pauses, steps, len(approver.shown)


@pytest.mark.parametrize("store", [None, "memory"])
@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream"])
@pytest.mark.parametrize("mode", ["callback", "interrupt"])
@pytest.mark.parametrize("case", CASES)
def test_a_guard_refuses_before_approval_in_both_modes(mode, way, case, store):
    _, _, _, expected, status = CASES[case]
    ran, pauses, steps, shown = run_in(mode, way, case, MemoryStore() if store else None)
    assert ran == expected
    asked = pauses if mode == "interrupt" else shown
    assert asked == len(expected)  # the refused call was never put to the person
    tool_steps = [s for s in steps if not isinstance(s, dict) or s["kind"] == "tool_step"]
    assert len(tool_steps) == len(CASES[case][0]) - 1  # every Action became a step
    if store:
        statuses = [s["status"] for s in tool_steps]
        assert statuses.count("ok") == len(expected) and status in statuses, statuses
