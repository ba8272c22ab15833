"""The approval callback's answer: only `True` lets a tool run, and an async callback is refused.

An `async def approve` returns a coroutine, which is truthy: read as an answer it approved every
call. It is refused when the agent is built (as is an async answer check, whose coroutine would
fail every answer), and whatever else a callback answers that is not `True` -- a string, a
number, a coroutine from a plain function -- is a no: the tool never runs, and nothing is left
un-awaited. Async tools are still welcome: their calls are awaited.
"""

from __future__ import annotations

import asyncio
import warnings
from typing import Any

import pytest

from custom_react import CustomReActAgent
from custom_react.testing import Script
from tests.security.common import command_tool

ACT = "Thought: go\nAction: run_terminal_command\nAction Input: rm -rf /"
FINAL = "Final Answer: done"


async def approve_async(name: str, args: dict[str, Any]) -> bool:
    return False


class AsyncApprover:
    async def __call__(self, name: str, args: dict[str, Any]) -> bool:
        return False


async def check_async(answer: str, steps: Any) -> str | None:
    return None


@pytest.mark.parametrize("approve", [approve_async, AsyncApprover()], ids=["function", "object"])
def test_an_async_approval_callback_is_refused_when_the_agent_is_built(approve: Any) -> None:
    with pytest.raises(TypeError, match="approve takes plain functions, not the async function"):
        CustomReActAgent(Script(FINAL).model, [command_tool([])], approve=approve)


def test_an_async_answer_check_is_refused_when_the_agent_is_built() -> None:
    with pytest.raises(TypeError, match="final_answer_checks takes plain functions"):
        CustomReActAgent(Script(FINAL).model, [], final_answer_checks=[check_async])


async def _never_awaited() -> bool:
    return True


@pytest.mark.parametrize(
    "answer",
    ["n", "yes", 1, [True], lambda: True, "coroutine"],
    ids=["n", "yes", "one", "list", "function", "coroutine"],
)
def test_only_true_lets_the_tool_run(answer: Any) -> None:
    ran: list[str] = []

    def approve(name: str, args: dict[str, Any]) -> Any:
        return _never_awaited() if answer == "coroutine" else answer

    agent = CustomReActAgent(Script(ACT, FINAL).model, [command_tool(ran)], approve=approve)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a coroutine left un-awaited would warn here
        result = agent.invoke("clean up")
    assert ran == []
    assert "did not approve" in result["intermediate_steps"][0][1]


def test_true_runs_it_and_an_async_tool_is_still_a_tool() -> None:
    ran: list[str] = []

    async def echo(text: str) -> str:
        """Say the text back."""
        return text

    agent = CustomReActAgent(
        Script(ACT, "Action: echo\nAction Input: hi", FINAL).model,
        [command_tool(ran), echo],
        approve=lambda name, args: True,
    )
    result = asyncio.run(agent.ainvoke("clean up"))
    assert ran == ["rm -rf /"]
    assert result["intermediate_steps"][1][1] == "hi"
