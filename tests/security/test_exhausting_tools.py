"""Exhausting tools: slow, silent, endless or huge tools cannot hold a run past its limits.

Slow sync and async tools, one that never returns, one that raises `GeneratorExit` or
`StopIteration`, under invoke, ainvoke and stream, with the agent's `tool_timeout`, a tool's
`metadata["timeout"]` and `max_execution_time`; then the bundled workspace tools against endless
output, a fork of sleepers, a `setsid` child holding stdout and a huge file. Each asserts the
wall time, what the tool got to do, and the observation.
"""

from __future__ import annotations

import asyncio
import os
import time
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from langchain_core.tools import StructuredTool, tool

from custom_react import CustomReActAgent
from custom_react.pausing.approval import APPROVAL_CONFIG_KEY
from custom_react.testing import Script
from tests.conftest import run_by
from tools.workspace import make_workspace_tools

WAYS = ["invoke", "ainvoke", "stream"]
ASK = "Thought: wait for it\nAction: wait\nAction Input: now"
FINAL = "Final Answer: gave up waiting"


def slow_sync(done: list[str], seconds: float) -> Any:
    def wait(what: str) -> str:
        """Wait for something."""
        time.sleep(seconds)
        done.append(what)  # the side effect the run must not wait for
        return "finished"

    return StructuredTool.from_function(func=wait, name="wait", description="Wait for something.")


def slow_async(done: list[str], seconds: float | None) -> Any:
    async def wait(what: str) -> str:
        """Wait for something."""
        if seconds is None:
            await asyncio.Event().wait()  # never returns
        else:
            await asyncio.sleep(seconds)
        done.append(what)
        return "finished"

    return StructuredTool.from_function(
        coroutine=wait, name="wait", description="Wait for something."
    )


TOOLS = {
    "slow sync": lambda done: slow_sync(done, 3),
    "slow async": lambda done: slow_async(done, 5),
    "async that never returns": lambda done: slow_async(done, None),
}
LIMITS = {
    "tool_timeout": ({"tool_timeout": 0.15}, {}),
    "metadata timeout": ({}, {"timeout": 0.15}),
    "metadata timeout under a larger tool_timeout": ({"tool_timeout": 30}, {"timeout": 0.15}),
    "max_execution_time": ({"max_execution_time": 0.2}, {}),
}


SLOW_CASES = [
    (kind, limit, way)
    for kind in TOOLS
    for limit in LIMITS
    for way in WAYS
    # the endless coroutine holds a thread under a plain driver: one such try is enough
    if kind != "async that never returns" or way == "ainvoke" or limit == "tool_timeout"
]


@pytest.mark.parametrize(("kind", "limit", "way"), SLOW_CASES)
def test_a_slow_tool_times_out_into_an_error_observation(kind, limit, way):
    done: list[str] = []
    options, meta = LIMITS[limit]
    wait = TOOLS[kind](done)
    wait.metadata = meta
    replies = [ASK] if limit == "max_execution_time" else [ASK, FINAL]
    model = Script(*replies)
    agent = CustomReActAgent(model.model, [wait], **options)
    result, events, took, done_then = timed_run(agent, way, "Wait for the build.", done)
    assert took < 2, took  # cut at its limit (0.15 or 0.2 s), with room for a busy machine
    assert done_then == []
    (observation,) = [obs for _, obs in result["intermediate_steps"]]
    assert "did not finish within" in observation
    if limit == "max_execution_time":
        assert result["stop_reason"] == "max_execution_time"
    else:
        assert result["stop_reason"] == "final_answer"
    if events:
        assert type(events[-1]).__name__ == "RunFinished"
        (step,) = [e.step for e in events if type(e).__name__ == "ObservationEvent"]
        assert step.status == "timed_out"


@pytest.mark.parametrize("way", WAYS)
def test_a_call_that_timed_out_is_not_tried_again_while_it_may_still_run(way):
    done: list[str] = []
    agent = CustomReActAgent(
        Script(ASK, FINAL).model, [slow_sync(done, 0.4)], tool_timeout=0.1, tool_retries=2
    )
    result, _ = run_by(agent, way, "Wait for the build.")
    time.sleep(0.6)  # every call started has finished by now
    assert done == ["now"]  # one call, not one per retry running side by side
    assert result["messages"][2].status == "error" and result["output"] == "gave up waiting"


def timed_run(
    agent: Any, way: str, given: Any, done: list[str]
) -> tuple[dict[str, Any], list[Any], float, list[str]]:
    """`run_by`, timed, with what the tool had done when the run returned (for ainvoke: inside
    the event loop, since `asyncio.run` then waits for its default executor, where an abandoned
    sync tool goes on running to its end)."""
    if way in ("ainvoke", "astream"):

        async def main() -> tuple[dict[str, Any], list[Any], float, list[str]]:
            started = time.monotonic()
            if way == "ainvoke":
                result, events = await agent.ainvoke(given), []
            else:
                events = [event async for event in agent.astream(given)]
                result = events[-1].result.to_dict()
            return result, events, time.monotonic() - started, list(done)

        return asyncio.run(main())
    started = time.monotonic()
    result, events = run_by(agent, way, given)
    return result, events, time.monotonic() - started, list(done)


RAISED = {
    "GeneratorExit": GeneratorExit,
    "StopIteration": StopIteration,
    "StopAsyncIteration": StopAsyncIteration,
}


def generator_signal_cases() -> list[Any]:
    cases = []
    for name in ("GeneratorExit", "StopIteration", "StopAsyncIteration"):
        for timeout in (None, 5.0):
            for way in ("invoke", "ainvoke", "stream", "astream"):
                cases.append(pytest.param(name, timeout, way))
    return cases


@pytest.mark.parametrize(("name", "timeout", "way"), generator_signal_cases())
def test_a_tool_raising_a_generator_signal_is_an_error_and_the_run_ends(name, timeout, way):
    ran: list[str] = []
    error = RAISED[name]

    @tool
    def wait(what: str) -> str:
        """Wait for something."""
        ran.append(what)
        raise error("from the tool")

    model = Script(ASK, FINAL)
    agent = CustomReActAgent(model.model, [wait], tool_timeout=timeout)
    result, events, _, _ = timed_run(agent, way, "Wait.", ran)
    assert ran == ["now"] and result["stop_reason"] == "final_answer"
    (observation,) = [obs for _, obs in result["intermediate_steps"]]
    assert observation.startswith("Error: wait failed")
    if events:
        assert type(events[-1]).__name__ == "RunFinished"


@pytest.mark.parametrize("way", ["invoke", "ainvoke"])
def test_every_one_of_many_slow_calls_is_cut(way):
    """Five slow calls in one run: each cut at its limit, so the run takes ~5 limits, not 5 x 5 s."""
    done: list[str] = []
    replies = [f"Action: wait\nAction Input: {n}" for n in range(5)]
    agent = CustomReActAgent(
        Script(*replies, FINAL).model, [slow_sync(done, 0.6)], tool_timeout=0.1, max_iterations=6
    )
    result, _, took, done_then = timed_run(agent, way, "Wait a lot.", done)
    assert took < 1.0 and done_then == []
    assert all("did not finish" in obs for _, obs in result["intermediate_steps"])


# -- The bundled workspace tools -----------------------------------------------------------------


def terminal(root: Path, timeout: float = 0.5, chars: int = 300) -> Any:
    tools = make_workspace_tools(root, command_timeout=timeout, max_output_chars=chars)
    return {t.name: t for t in tools}


APPROVED = {"configurable": {APPROVAL_CONFIG_KEY: True}}
COMMANDS = {
    "endless output": "yes",
    "endless output on both streams": "yes & yes >&2; wait",
    "endless lines without newlines": "while :; do printf x; done",
    "a fork of sleepers": "for i in 1 2 3 4 5 6 7 8; do sleep 30 & done; wait",
    "a fork bomb of sleepers, nested": "(sleep 30 & sleep 30 & (sleep 30 &) ; wait) & wait",
    "a setsid child holding stdout": "setsid sleep 30",
    "a setsid daemon holding stdout": "setsid sh -c 'sleep 30' & echo started",
    "a sleep that ignores SIGTERM": "trap '' TERM; sleep 30",
    "a silent long sleep": "sleep 30",
    "reading stdin forever": "cat",
}


@pytest.mark.parametrize("command", COMMANDS)
def test_the_terminal_returns_within_its_timeout_with_bounded_output(tmp_path, command):
    tools = terminal(tmp_path)
    started = time.monotonic()
    output = tools["run_terminal_command"].invoke({"command": COMMANDS[command]}, APPROVED)
    took = time.monotonic() - started
    assert took < 4.0, took
    assert len(output) < 2 * 300 + 400  # two streams of at most 300 characters, and labels


def test_a_timed_out_command_does_not_go_on_to_its_side_effect(tmp_path):
    tools = terminal(tmp_path, timeout=0.3)
    tools["run_terminal_command"].invoke({"command": "sleep 0.8; touch late.txt"}, APPROVED)
    time.sleep(1.0)
    assert not (tmp_path / "late.txt").exists()


def test_the_terminal_refuses_to_run_without_the_approval_flag(tmp_path):
    tools = terminal(tmp_path)
    with pytest.raises(Exception, match="approv"):
        tools["run_terminal_command"].invoke({"command": "touch made.txt"})
    with pytest.raises(Exception, match="approv"):
        tools["run_terminal_command"].invoke(
            {"command": "touch made.txt", "config": APPROVED}, {"configurable": {}}
        )
    assert not (tmp_path / "made.txt").exists()


@pytest.mark.parametrize("size_mb", [50, 400])
def test_read_file_reads_a_bounded_prefix_of_a_huge_file(tmp_path, size_mb):
    huge = tmp_path / "huge.log"
    with huge.open("wb") as out:
        out.write(b"line of log\n" * 1000)
        out.truncate(size_mb * 1024 * 1024)  # sparse: cheap to make, huge to read
    tools = terminal(tmp_path, chars=300)
    tracemalloc.start()
    started = time.monotonic()
    try:
        text = tools["read_file"].invoke({"path": "huge.log"})
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert time.monotonic() - started < 1.0
    assert peak < 5 * 1024 * 1024, peak
    assert text.startswith("line of log") and len(text) < 400


def test_read_file_on_a_pipe_does_not_hang(tmp_path):
    fifo = tmp_path / "pipe"
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(fifo)
    tools = terminal(tmp_path)
    agent = CustomReActAgent(
        Script("Action: read_file\nAction Input: pipe", FINAL).model,
        [tools["read_file"]],
        tool_timeout=0.5,
    )
    started = time.monotonic()
    result = agent.invoke("Read the pipe.")
    assert time.monotonic() - started < 3.0 and result["stop_reason"] == "final_answer"
