"""Shared pieces of the attack suite: tools that record what they ran, and replies per format.

Every attack asserts on a side effect: a list a tool appends to, or a line a tool writes to a
file, so a test fails when the tool ran when it must not (or ran other arguments than were shown).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from langchain_core.tools import BaseTool, tool

FORMATS = ("text", "xml", "json")
EVIL = "id -un > pwned.txt"
HARMLESS = "echo harmless"


def action_reply(fmt: str, name: str, tool_input: Any, thought: str = "t") -> str:
    """The model's reply calling `name` with `tool_input` (a string is written as it is)."""
    written = tool_input if isinstance(tool_input, str) else json.dumps(tool_input)
    if fmt == "text":
        return f"Thought: {thought}\nAction: {name}\nAction Input: {written}"
    if fmt == "xml":
        return (
            f"<thought>{thought}</thought>\n<action>{name}</action>\n"
            f"<action_input>{written}</action_input>"
        )
    return json.dumps({"thought": thought, "action": name, "action_input": tool_input})


def final_reply(fmt: str, answer: str = "done") -> str:
    """The model's Final Answer in the format."""
    if fmt == "text":
        return f"Thought: finished\nFinal Answer: {answer}"
    if fmt == "xml":
        return f"<thought>finished</thought>\n<final_answer>{answer}</final_answer>"
    return json.dumps({"thought": "finished", "final_answer": answer})


def command_tool(
    ran: list[Any], name: str = "run_terminal_command", approval: bool = True, **meta: Any
) -> BaseTool:
    """A one-argument tool that records each command it receives (and never runs it)."""

    @tool(name)
    def run_command(command: str) -> str:
        """Run a shell command in the workspace."""
        ran.append(command)
        return f"ran {command}"

    run_command.metadata = {"requires_approval": approval, **meta} if approval else dict(meta)
    return run_command


def file_tool(log: Path, name: str = "deploy", approval: bool = True) -> BaseTool:
    """A tool whose side effect is one line in `log` per call: what a test counts."""

    @tool(name)
    def deploy(target: str) -> str:
        """Deploy the build to a target."""
        with log.open("a", encoding="utf-8") as out:
            out.write(f"{target}\n")
        return f"deployed to {target}"

    deploy.metadata = {"requires_approval": approval}
    return deploy


def lines(log: Path) -> list[str]:
    """The lines a `file_tool` wrote (none when it never ran)."""
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


class Approver:
    """An `approve` callback that says yes and remembers every (name, args) it was shown."""

    def __init__(self, answer: bool = True) -> None:
        self.shown: list[tuple[str, dict[str, Any]]] = []
        self.answer = answer

    def __call__(self, name: str, args: dict[str, Any]) -> bool:
        self.shown.append((name, json.loads(json.dumps(args, default=str))))
        return self.answer
