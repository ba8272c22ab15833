"""The ten-line driver in `agent.py`'s docstring runs as written: `yield` reads as "ask"."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from custom_react import CustomReActAgent, FinalAnswerEvent, RunFinished
from custom_react import agent as agent_module
from custom_react.running.calls import Call

ROOT = Path(__file__).resolve().parents[2]


def driver_code() -> str:
    docstring = ast.get_docstring(ast.parse((ROOT / "custom_react" / "agent.py").read_text()))
    assert docstring is not None
    block = docstring.split("is ten lines:\n\n", 1)[1].split("\n\n", 1)[0]
    return "\n".join(line.removeprefix("    ") for line in block.splitlines())


def test_the_docstring_driver_runs_a_scripted_agent(script, tools):
    model = script("Thought: add\nAction: calculator\nAction Input: 17 * 23", "Final Answer: 391")
    shown: list[Any] = []
    code = driver_code()
    assert len(code.splitlines()) <= 12
    exec(code, {"agent": CustomReActAgent(model.model, tools), "Call": Call, "print": shown.append})
    assert isinstance(shown[-2], FinalAnswerEvent) and shown[-2].output == "391"
    assert isinstance(shown[-1], RunFinished) and shown[-1].result.stop_reason == "final_answer"
    assert [type(event).__name__ for event in shown][:2] == ["ActionEvent", "ObservationEvent"]


def test_the_docstring_names_the_driver_that_runs_it():
    assert agent_module.__doc__ is not None and "running/calls.py" in agent_module.__doc__
