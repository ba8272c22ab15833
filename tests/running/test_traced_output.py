"""Tracing sees one root run whose output is the result dict, however the agent is run."""

from __future__ import annotations

import asyncio
from typing import Any
from uuid import UUID

import pytest
from langchain_core.callbacks import BaseCallbackHandler

from custom_react import CustomReActAgent, RunFinished
from custom_react.testing import Script

STEPS = ("Thought: compute\nAction: calculator\nAction Input: 6 * 7", "Final Answer: 42")


class EndRecorder(BaseCallbackHandler):
    """Keeps the output of every root chain run (`on_chain_end` without a parent)."""

    def __init__(self) -> None:
        self.outputs: list[Any] = []

    def on_chain_end(
        self, outputs: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any
    ) -> None:
        if parent_run_id is None:
            self.outputs.append(outputs)


def run(agent: CustomReActAgent, way: str, config: dict[str, Any]) -> dict[str, Any]:
    """The result of one run by `way`, the callbacks in `config`."""
    if way == "invoke":
        return agent.invoke("6 times 7?", config)
    if way == "ainvoke":
        return asyncio.run(agent.ainvoke("6 times 7?", config))
    if way == "stream":
        return list(agent.stream("6 times 7?", config))[-1].result.to_dict()

    async def astream() -> dict[str, Any]:
        return [e async for e in agent.astream("6 times 7?", config)][-1].result.to_dict()

    return asyncio.run(astream())


@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream", "astream"])
@pytest.mark.parametrize("stream_tokens", [False, True])
def test_the_root_run_ends_with_the_result_dict(script, tools, way: str, stream_tokens) -> None:
    recorder = EndRecorder()
    agent = CustomReActAgent(script(*STEPS).model, tools, verbose=stream_tokens)
    result = run(agent, way, {"callbacks": [recorder]})
    assert len(recorder.outputs) == 1
    traced = recorder.outputs[0]
    assert isinstance(traced, dict) and traced["output"] == "42"
    assert {k: v for k, v in traced.items() if k != "run_id"} == {
        k: v for k, v in result.items() if k != "run_id"
    }


def test_astream_events_ends_with_the_result_dict(script, tools) -> None:
    async def main() -> list[dict[str, Any]]:
        agent = CustomReActAgent(script(*STEPS).model, tools)
        return [e async for e in agent.astream_events("6 times 7?", version="v2")]

    events = asyncio.run(main())
    last = events[-1]
    assert (last["event"], last["name"]) == ("on_chain_end", "CustomReActAgent")
    assert isinstance(last["data"]["output"], dict) and last["data"]["output"]["output"] == "42"
    assert last["data"]["output"]["stop_reason"] == "final_answer"


def test_astream_log_s_final_output_is_the_last_event_holding_the_result(script, tools) -> None:
    """As documented (python-api.md): LangChain adds up what `astream` yields, the step events."""

    async def main() -> Any:
        agent = CustomReActAgent(script(*STEPS).model, tools)
        with pytest.warns(DeprecationWarning):  # LangChain points to astream / astream_events
            states = [state async for state in agent.astream_log("6 times 7?", diff=False)]
        return states[-1].state

    state = asyncio.run(main())
    assert isinstance(state["final_output"], RunFinished)
    assert state["final_output"].result.to_dict()["output"] == "42"
    assert state["streamed_output"][-1] == state["final_output"]


def test_a_stream_closed_early_ends_its_run_without_a_result(script, tools) -> None:
    recorder = EndRecorder()
    model = Script(*STEPS)  # not the fixture: the run stops before the second reply
    stream = CustomReActAgent(model.model, tools).stream("6 times 7?", {"callbacks": [recorder]})
    next(stream)  # the Action
    stream.close()
    assert recorder.outputs == [{}]
