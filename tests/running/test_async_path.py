"""One loop, two ways of running it: plain calls under `invoke`, awaited calls under `ainvoke`.

1. The same script gives the same events, history and callback tree through `invoke`, `stream`,
   `ainvoke` and `astream`.
2. Under `ainvoke` the model and the tools are awaited in the caller's event loop (no worker
   thread); an async-only tool (what langchain-mcp-adapters makes) runs under `invoke` too, also
   from code that already runs an event loop.
3. Errors raised by an awaited call land in the loop like plain ones: a tool error becomes an
   observation, a model that fails for good ends the run with `model_error`.
4. Polling: a `repeatable` tool is let through the repeated-action guard, waits its
   `poll_interval` between identical calls and stops at its call budget.
"""

from __future__ import annotations

import asyncio
import re
import threading
from typing import Any, ClassVar
from uuid import UUID

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool, StructuredTool, tool

from custom_react import CustomReActAgent
from custom_react.events import (
    ObservationEvent,
)
from custom_react.running.tool_output import observation_text
from custom_react.toolbox import REPEATABLE_MAX_CALLS

REPLIES = (
    "Thought: look it up\nAction: search\nAction Input: rose",
    "Thought: broken\nAction: calculator\nAction Input: two plus two",
    "Thought: compute\nAction: calculator\nAction Input: 1.2 * 1.5",
    "Final Answer: 1.8 yuan",
)
CALL_ID = re.compile(r"call_[0-9a-f]{12}|run-[0-9a-f-]+|lc_run--[0-9a-f-]+")


def shape(events: list[Any]) -> list[str]:
    """The events with their random ids blanked out."""
    return [CALL_ID.sub("ID", repr(event)) for event in events]


def history(result: dict[str, Any]) -> list[tuple[str, str]]:
    return [(type(m).__name__, CALL_ID.sub("ID", str(m.content))) for m in result["messages"]]


class Tree(BaseCallbackHandler):
    """Records the run tree: (kind, name, parent's name) for each chain, model and tool run."""

    def __init__(self) -> None:
        self.names: dict[UUID, str] = {}
        self.edges: list[tuple[str, str, str]] = []

    def _add(self, kind: str, name: str, run_id: UUID, parent_run_id: UUID | None) -> None:
        self.names[run_id] = name
        parent = self.names.get(parent_run_id, "-") if parent_run_id else "-"
        self.edges.append((kind, name, parent))

    def on_chain_start(self, serialized: Any, inputs: Any, *, run_id: UUID, **kw: Any) -> None:
        self._add("chain", kw.get("name") or "chain", run_id, kw.get("parent_run_id"))

    def on_chat_model_start(
        self, serialized: Any, messages: Any, *, run_id: UUID, **kw: Any
    ) -> None:
        self._add("model", "model", run_id, kw.get("parent_run_id"))

    def on_tool_start(self, serialized: Any, input_str: str, *, run_id: UUID, **kw: Any) -> None:
        self._add("tool", serialized.get("name", "tool"), run_id, kw.get("parent_run_id"))


def test_invoke_stream_ainvoke_and_astream_give_the_same_run(script, tools):
    runs = {}
    for way in ("invoke", "stream", "ainvoke", "astream"):
        tree = Tree()
        agent = CustomReActAgent(script(*REPLIES).model, tools)
        config = {"callbacks": [tree], "run_name": "agent"}
        if way == "invoke":
            events, result = None, agent.invoke("rose price * 1.5?", config)
        elif way == "ainvoke":
            events, result = None, asyncio.run(agent.ainvoke("rose price * 1.5?", config))
        elif way == "stream":
            events = list(agent.stream("rose price * 1.5?", config))
            result = events[-1].result.to_dict()
        else:

            async def collect(agent=agent, config=config) -> list[Any]:
                return [event async for event in agent.astream("rose price * 1.5?", config)]

            events = asyncio.run(collect())
            result = events[-1].result.to_dict()
        runs[way] = (events, history(result), sorted(tree.edges))
    assert shape(runs["stream"][0]) == shape(runs["astream"][0])
    statuses = [e.step.status for e in runs["astream"][0] if isinstance(e, ObservationEvent)]
    assert statuses == ["ok", "error", "ok"]
    assert {way: run[1] for way, run in runs.items()} == dict.fromkeys(runs, runs["invoke"][1])
    trees = {way: run[2] for way, run in runs.items()}
    assert trees == dict.fromkeys(runs, trees["invoke"])
    assert ("model", "model", "agent") in trees["invoke"]
    assert ("tool", "calculator", "agent") in trees["invoke"]
    assert sum(edge[0] == "model" for edge in trees["ainvoke"]) == len(REPLIES)


def async_only_tool(record: list[Any]) -> StructuredTool:
    async def lookup(query: str) -> str:
        await asyncio.sleep(0)
        record.append((query, threading.current_thread() is threading.main_thread()))
        return f"async result for {query}"

    return StructuredTool.from_function(
        coroutine=lookup, name="lookup", description="Look something up."
    )


def test_ainvoke_awaits_an_async_only_tool_in_the_callers_loop(script):
    record: list[Any] = []
    model = script("Action: lookup\nAction Input: rose", "Final Answer: done")
    agent = CustomReActAgent(model.model, [async_only_tool(record)])
    result = asyncio.run(agent.ainvoke("Look up rose."))
    assert record == [("rose", True)]  # awaited on the main thread: no worker thread
    assert result["intermediate_steps"][0][1] == "async result for rose"


def test_invoke_runs_an_async_only_tool(script):
    record: list[Any] = []
    model = script("Action: lookup\nAction Input: rose", "Final Answer: done")
    result = CustomReActAgent(model.model, [async_only_tool(record)]).invoke("Look up rose.")
    assert [m.content for m in result["messages"] if isinstance(m, ToolMessage)] == [
        "async result for rose"
    ]
    assert result["stop_reason"] == "final_answer"


def test_invoke_runs_an_async_only_tool_from_inside_a_running_event_loop(script):
    record: list[Any] = []
    model = script("Action: lookup\nAction Input: rose", "Final Answer: done")
    agent = CustomReActAgent(model.model, [async_only_tool(record)])

    async def notebook_cell() -> dict[str, Any]:
        return agent.invoke("Look up rose.")  # plain invoke while a loop runs (a notebook)

    result = asyncio.run(notebook_cell())
    assert result["intermediate_steps"][0][1] == "async result for rose"
    assert record == [("rose", False)]  # its own loop, in a worker thread


class Lookup(BaseTool):
    """A tool written async-first, as `BaseTool` subclasses over async clients are."""

    name: str = "lookup"
    description: str = "Look an order up."

    def _run(self, order: str) -> str:
        """`BaseTool` requires a sync method: this one refuses."""
        raise NotImplementedError("lookup is async only")

    async def _arun(self, order: str) -> str:
        await asyncio.sleep(0)
        return f"order {order}: shipped"


class Both(Lookup):
    """A subclass with sync and async code: `invoke` runs the sync one."""

    def _run(self, order: str) -> str:
        return f"order {order}: shipped (sync)"


@pytest.mark.parametrize("way", ["invoke", "ainvoke"])
def test_a_base_tool_subclass_with_only_async_code_runs_either_way(script, way):
    model = script("Action: lookup\nAction Input: 42", "Final Answer: shipped")
    agent = CustomReActAgent(model.model, [Lookup()])
    result = (
        agent.invoke("Order 42?") if way == "invoke" else asyncio.run(agent.ainvoke("Order 42?"))
    )
    assert result["intermediate_steps"][0][1] == "order 42: shipped"


def test_a_subclass_with_sync_code_runs_it_under_invoke(script):
    model = script("Action: lookup\nAction Input: 42", "Final Answer: shipped")
    result = CustomReActAgent(model.model, [Both()]).invoke("Order 42?")
    assert result["intermediate_steps"][0][1] == "order 42: shipped (sync)"


def test_an_async_tool_error_is_an_observation(script):
    async def broken(query: str) -> str:
        raise RuntimeError("server said no")

    failing = StructuredTool.from_function(coroutine=broken, name="lookup", description="Look up.")
    for way in ("invoke", "ainvoke"):
        agent = CustomReActAgent(
            script("Action: lookup\nAction Input: x", "Final Answer: no").model, [failing]
        )
        result = agent.invoke("q") if way == "invoke" else asyncio.run(agent.ainvoke("q"))
        observation = result["intermediate_steps"][0][1]
        assert observation == "Error: lookup failed: RuntimeError: server said no"


def test_a_model_that_fails_for_good_under_ainvoke_keeps_the_steps(script, tools, monkeypatch):
    waits: list[float] = []

    async def no_wait(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr("custom_react.running.calls.asyncio.sleep", no_wait)
    model = script("Action: search\nAction Input: rose", *[ConnectionError("down")] * 3)
    result = asyncio.run(CustomReActAgent(model.model, tools).ainvoke("rose?"))
    assert result["stop_reason"] == "model_error" and "ConnectionError: down" in result["error"]
    assert result["intermediate_steps"][0][1].startswith("A rose stem costs 1.2 yuan")
    assert waits == [1.0, 2.0]  # two retries with backoff, awaited


def job_tools(polls_needed: int, record: list[str], **status_metadata: Any) -> list[Any]:
    @tool
    def start_render(script_text: str) -> str:
        """Start rendering a video; returns a task id."""
        record.append("start")
        return "task-7"

    @tool
    def render_status(task_id: str) -> str:
        """The status of a render task."""
        record.append("status")
        done = record.count("status") >= polls_needed
        return "done: https://videos.example/task-7.mp4" if done else "rendering"

    render_status.metadata = {"repeatable": True, **status_metadata}
    return [start_render, render_status]


def polling_script(polls: int) -> list[str]:
    return [
        "Action: start_render\nAction Input: sunscreen ad",
        *["Thought: check it\nAction: render_status\nAction Input: task-7"] * polls,
        "Final Answer: https://videos.example/task-7.mp4",
    ]


@pytest.mark.parametrize("way", ["invoke", "ainvoke"])
def test_a_polled_job_runs_its_status_tool_until_done_waiting_between_polls(
    script, monkeypatch, way
):
    waits: list[float] = []

    async def await_wait(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr("custom_react.running.calls.time.sleep", waits.append)
    monkeypatch.setattr("custom_react.running.calls.asyncio.sleep", await_wait)
    record: list[str] = []
    model = script(*polling_script(4))
    agent = CustomReActAgent(model.model, job_tools(4, record, poll_interval=2.5))
    run = agent.invoke if way == "invoke" else lambda q: asyncio.run(agent.ainvoke(q))
    result = run("Render the ad and give me the link.")
    assert record == ["start", "status", "status", "status", "status"]
    observations = [obs for _, obs in result["intermediate_steps"]]
    assert observations[1:] == ["rendering"] * 3 + ["done: https://videos.example/task-7.mp4"]
    assert waits == [2.5, 2.5, 2.5]  # before each repeat of the same status call, not the first


def test_without_repeatable_the_second_status_call_is_answered_from_memory(script):
    record: list[str] = []
    tools = job_tools(2, record)
    tools[1].metadata = {}
    model = script(*polling_script(2))
    result = CustomReActAgent(model.model, tools).invoke("Render it.")
    assert record == ["start", "status"]
    assert "You already ran render_status with this input" in result["intermediate_steps"][2][1]


def test_polling_stops_at_the_tools_call_budget(script):
    record: list[str] = []
    model = script(*polling_script(5)[:-1], "Final Answer: still rendering")
    agent = CustomReActAgent(model.model, job_tools(99, record, max_calls=3))
    events = list(agent.stream("Render it."))
    statuses = [e.step.status for e in events if isinstance(e, ObservationEvent)]
    assert statuses == ["ok", "ok", "ok", "ok", "over_budget", "over_budget"]
    assert record.count("status") == 3
    over = [e.step.observation for e in events if isinstance(e, ObservationEvent)][-1]
    assert over.startswith("render_status already ran 3 times in this run")


def test_a_repeatable_tool_has_a_default_budget_and_the_agent_can_set_one(script):
    record: list[str] = []
    polls = REPEATABLE_MAX_CALLS + 1
    model = script(*polling_script(polls)[:-1], "Final Answer: gave up")
    agent = CustomReActAgent(model.model, job_tools(99, record), max_iterations=20)
    agent.invoke("Render it.")
    assert record.count("status") == REPEATABLE_MAX_CALLS
    record.clear()
    model = script("Action: start_render\nAction Input: a", "Action: start_render\nAction Input: b",
                   "Final Answer: one")  # fmt: skip
    result = CustomReActAgent(model.model, job_tools(1, record), max_tool_calls=1).invoke("Go.")
    assert record == ["start"] and "already ran 1 times" in result["intermediate_steps"][1][1]


def test_a_repeated_call_that_failed_runs_again_and_one_that_worked_does_not(script, tools, calls):
    model = script(
        *["Action: calculator\nAction Input: two plus two"] * 2,
        *["Action: calculator\nAction Input: 2 + 2"] * 2,
        "Final Answer: 4",
    )
    result = CustomReActAgent(model.model, tools).invoke("two plus two?")
    assert calls.calls == [("calculator", "two plus two")] * 2 + [("calculator", "2 + 2")]
    observations = [observation for _, observation in result["intermediate_steps"]]
    assert "cannot evaluate" in observations[1]  # tried again: a failure is not a repeat
    assert observations[3].startswith("You already ran calculator with this input")


@pytest.mark.parametrize(
    ("result", "text"),
    [
        ("plain", "plain"),
        ([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}], "a\nb"),
        (
            [{"type": "image", "mime_type": "image/png", "base64": "..."}],
            "[image: image/png, not shown]",
        ),
        ({"temp_c": 21, "sky": "晴"}, '{"temp_c": 21, "sky": "晴"}'),
        (42, "42"),
    ],
)
def test_tool_results_become_observation_text(result, text):
    assert observation_text(result) == text


def test_verbose_prints_the_same_transcript_under_invoke_and_ainvoke(script, tools, capsys):
    printed = {}
    for way in ("invoke", "ainvoke"):
        agent = CustomReActAgent(script(*REPLIES).model, tools, verbose=True)
        agent.invoke("q") if way == "invoke" else asyncio.run(agent.ainvoke("q"))
        printed[way] = capsys.readouterr().out
    assert "Action: calculator" in printed["invoke"] and "Final Answer" in printed["invoke"]
    assert printed["ainvoke"] == printed["invoke"]


def test_a_model_wrapper_with_only_invoke_runs_under_invoke(script, tools):
    """A hand-written wrapper (no `ainvoke`) is enough for plain `invoke`."""
    inner = script("Action: calculator\nAction Input: 2 + 2", "Final Answer: 4").model

    class OnlyInvoke:
        metadata: ClassVar[dict[str, Any]] = {}

        def invoke(self, messages: Any, config: Any = None, stop: Any = None) -> Any:
            return inner.invoke(messages, config=config, stop=stop)

    result = CustomReActAgent(OnlyInvoke(), tools).invoke("2 + 2?")  # type: ignore[arg-type]
    assert result["output"] == "4" and result["intermediate_steps"][0][1] == "4"
