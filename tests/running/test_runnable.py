"""CustomReActAgent as a LangChain Runnable: invoke, stream, async, batch, config and callbacks."""

from __future__ import annotations

import asyncio
from operator import itemgetter
from typing import Any

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.runnables import RunnableLambda
from langchain_core.tracers.base import BaseTracer
from langchain_core.tracers.schemas import Run

from custom_react import CustomReActAgent, RunFinished
from custom_react.testing import Script

STEPS = ("Thought: compute\nAction: calculator\nAction Input: 6 * 7", "Final Answer: 42")


class Recorder(BaseTracer):
    """Keeps finished root runs so the run tree can be inspected."""

    def __init__(self) -> None:
        super().__init__()
        self.roots: list[Run] = []

    def _persist_run(self, run: Run) -> None:
        self.roots.append(run)


def tree(run: Run) -> list[Any]:
    return [(run.run_type, run.name), [tree(child) for child in run.child_runs]]


def test_invoke_returns_the_documented_keys(script, tools):
    result = CustomReActAgent(script(*STEPS).model, tools).invoke({"input": "6 times 7?"})
    assert set(result) == {
        "input", "output", "messages", "intermediate_steps", "iterations", "stop_reason", "usage",
        "error", "run_id", "state", "structured_response", "checks_failed",
    }  # fmt: skip
    assert (result["output"], result["iterations"], result["stop_reason"]) == (
        "42",
        2,
        "final_answer",
    )


def test_one_chain_run_with_model_and_tool_runs_as_children(script, tools):
    recorder = Recorder()
    CustomReActAgent(script(*STEPS).model, tools).invoke("q", config={"callbacks": [recorder]})
    (root,) = recorder.roots
    assert tree(root) == [
        ("chain", "CustomReActAgent"),
        [
            [("llm", "RecordingChatModel"), []],  # its inputs hold the whole prompt
            [("tool", "calculator"), []],
            [("llm", "RecordingChatModel"), []],
        ],
    ]
    assert root.outputs is not None and root.outputs["output"] == "42"


def test_stream_run_is_also_one_chain(script, tools):
    recorder = Recorder()
    agent = CustomReActAgent(script(*STEPS).model, tools)
    events = list(agent.stream("q", config={"callbacks": [recorder], "run_name": "rose-agent"}))
    assert [event.type for event in events] == ["action", "observation", "final_answer", "result"]
    (root,) = recorder.roots
    assert root.name == "rose-agent" and len(root.child_runs) == 3


def test_async_invoke_and_stream(script, tools):
    async def main() -> tuple[dict[str, Any], list[str]]:
        result = await CustomReActAgent(script(*STEPS).model, tools).ainvoke("q")
        agent = CustomReActAgent(script(*STEPS).model, tools)
        types = [event.type async for event in agent.astream("q")]
        return result, types

    result, types = asyncio.run(main())
    assert result["output"] == "42"
    assert types == ["action", "observation", "final_answer", "result"]


def test_astream_events_reports_the_agent_model_and_tool(script, tools):
    async def main() -> list[tuple[str, str]]:
        agent = CustomReActAgent(script(*STEPS).model, tools)
        return [(e["event"], e["name"]) async for e in agent.astream_events("q", version="v2")]

    seen = asyncio.run(main())
    assert seen[0] == ("on_chain_start", "CustomReActAgent")
    assert seen[-1] == ("on_chain_end", "CustomReActAgent")
    assert ("on_tool_end", "calculator") in seen
    assert ("on_chat_model_end", "RecordingChatModel") in seen
    streamed = [name for event, name in seen if event == "on_chain_stream"]
    assert len(streamed) == 4  # one per step event


def test_batch_abatch_and_with_config(script, tools):
    first, second = (CustomReActAgent(script(*STEPS).model, tools) for _ in range(2))
    assert [r["output"] for r in first.with_config(run_name="x").batch(["a"])] == ["42"]
    outputs = asyncio.run(second.abatch(["b"]))
    assert [r["output"] for r in outputs] == ["42"]


@pytest.mark.parametrize("way", ["invoke", "stream", "astream", "astream_events"])
def test_in_a_chain_the_agent_gives_its_result_dict_however_the_chain_is_run(script, tools, way):
    """`agent | next_step`: the next step reads the result dict, streamed or not, with one run."""
    recorder = Recorder()
    agent = CustomReActAgent(script(*STEPS).model, tools)
    chain = RunnableLambda(lambda question: question) | agent | itemgetter("output")
    config = {"callbacks": [recorder]}
    if way == "invoke":
        outputs = [chain.invoke("6 times 7?", config)]
    elif way == "stream":
        outputs = list(chain.stream("6 times 7?", config))
    elif way == "astream":
        outputs = asyncio.run(_collect(chain.astream("6 times 7?", config)))
    else:
        events = asyncio.run(_collect(chain.astream_events("6 times 7?", config, version="v2")))
        outputs = [e["data"]["output"] for e in events if e["event"] == "on_chain_end"][-1:]
    assert outputs == ["42"]
    agent_runs = [r for r in recorder.roots[0].child_runs if r.name == "CustomReActAgent"]
    assert len(agent_runs) == 1 and agent_runs[0].outputs["output"] == "42"


async def _collect(items: Any) -> list[Any]:
    return [item async for item in items]


def test_chat_history_is_shown_to_the_model(script, tools):
    model = script("Final Answer: You are Ada.")
    seen = model.prompts  # every prompt the scripted model was sent
    history = [("human", "My name is Ada."), ("ai", "Hello Ada.")]
    CustomReActAgent(model.model, tools).invoke({"input": "Who am I?", "chat_history": history})
    assert [m.content for m in seen[0][1:]] == [
        "My name is Ada.",
        "Hello Ada.",
        "Question: Who am I?\nThought: ",
    ]


@pytest.mark.parametrize("bad", [42, {"question": "x"}, {"input": 3}, None])
def test_bad_input_is_a_clear_error(script, tools, bad):
    with pytest.raises(TypeError, match="question string"):
        CustomReActAgent(script().model, tools).invoke(bad)


def test_constructor_rejects_unknown_options(script, tools):
    with pytest.raises(ValueError, match="early_stopping_method"):
        CustomReActAgent(script().model, tools, early_stopping_method="guess")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="repeated_action"):
        CustomReActAgent(script().model, tools, repeated_action="never")  # type: ignore[arg-type]


def test_history_follows_the_tool_call_pairing_rules(script, tools):
    """Each ToolMessage answers the tool call of the AIMessage right before it (OpenAI's rule)."""
    model = script(
        "Action: calculator\nAction Input: 1 + 1",
        "Action: nope\nAction Input: x",
        "Thought: oops",
        "Action: calculator\nAction Input: 2 + 2",
        "Final Answer: 4",
    )
    messages = CustomReActAgent(model.model, tools).invoke("q")["messages"]
    for index, message in enumerate(messages):
        if isinstance(message, ToolMessage):
            previous = messages[index - 1]
            assert isinstance(previous, AIMessage)
            assert [call["id"] for call in previous.tool_calls] == [message.tool_call_id]
        if isinstance(message, AIMessage) and message.tool_calls:
            assert isinstance(messages[index + 1], ToolMessage)
            assert isinstance(message.tool_calls[0]["args"], dict)
    ids = [m.tool_call_id for m in messages if isinstance(m, ToolMessage)]
    assert len(ids) == len(set(ids)) == 3


def test_verbose_prints_the_transcript(script, tools, capsys):
    CustomReActAgent(script(*STEPS).model, tools, verbose=True).invoke("q")
    assert capsys.readouterr().out.splitlines() == [
        "Thought: compute",
        "Action: calculator",
        "Action Input: 6 * 7",
        "Observation: 42",
        "Final Answer: 42",
    ]


def test_stream_ends_with_the_result(script, tools):
    last = list(CustomReActAgent(script(*STEPS).model, tools).stream("q"))[-1]
    assert isinstance(last, RunFinished) and last.result.output == "42"


@pytest.mark.parametrize("way", ["invoke", "stream"])
def test_a_keyword_the_agent_does_not_use_is_warned_of_not_dropped_silently(way):
    agent = CustomReActAgent(Script("Final Answer: 1").model, [])
    with pytest.warns(UserWarning, match=r"ignores stream_mode: the agent takes `stream_tokens`"):
        if way == "invoke":
            agent.invoke("q", stream_mode="messages")
        else:
            list(agent.stream("q", stream_mode="messages"))


def test_langchain_s_wrappers_pass_no_keyword_to_warn_of(recwarn):
    agent = CustomReActAgent(
        Script("Final Answer: 1", "Final Answer: 2", "Final Answer: 3").model, []
    )
    agent.with_retry().invoke("q")
    agent.batch(["q", "q"])
    assert not [w for w in recwarn if "ignores" in str(w.message)]


class StepHandler(BaseCallbackHandler):
    """Keeps what `AgentExecutor`'s handlers are told: each action and the finish."""

    def __init__(self) -> None:
        self.told: list[tuple[str, Any]] = []

    def on_agent_action(self, action: Any, **kwargs: Any) -> None:
        self.told.append(("action", (action.tool, action.tool_input)))

    def on_agent_finish(self, finish: Any, **kwargs: Any) -> None:
        self.told.append(("finish", finish.return_values["output"]))


@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream", "astream"])
def test_handlers_are_told_each_action_and_the_finish_as_agent_executor_tells_them(way, tools):
    handler = StepHandler()
    replies = ("Action: calculator\nAction Input: 17 * 23", "Final Answer: 391")
    agent = CustomReActAgent(Script(*replies).model, tools)
    config = {"callbacks": [handler]}
    if way == "invoke":
        agent.invoke("17 * 23?", config)
    elif way == "ainvoke":
        asyncio.run(agent.ainvoke("17 * 23?", config))
    elif way == "stream":
        list(agent.stream("17 * 23?", config))
    else:

        async def drain() -> None:
            async for _ in agent.astream("17 * 23?", config):
                pass

        asyncio.run(drain())
    assert handler.told == [("action", ("calculator", "17 * 23")), ("finish", "391")]
