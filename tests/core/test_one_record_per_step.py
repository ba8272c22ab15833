"""Behaviours the old shape of the package hid, each proved on the real agent with a script."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import tool

from custom_react import CustomReActAgent
from custom_react.events import (
    ActionEvent,
    LimitReached,
    ObservationEvent,
    RunFinished,
)
from tests.conftest import run_by

STEP = "Thought: add\nAction: calculator\nAction Input: 2 + 2"


def test_a_bare_string_stop_is_refused_not_split_into_characters(script, tools):
    model = script()
    with pytest.raises(TypeError, match=r"stop=\['\\nObservation:'\]"):
        CustomReActAgent(model.model, tools, stop="\nObservation:")
    agent = CustomReActAgent(model.model, tools, stop=["\nObservation:"])
    assert agent.stop == ["\nObservation:"]
    assert CustomReActAgent(model.model, tools).stop == ["\nObservation:"]  # the format's own
    assert CustomReActAgent(model.model, tools, stop=None).stop is None


def _printed_run(script, tools, capsys, way: str) -> list[str]:
    model = script(STEP, "Final Answer: 4")
    agent = CustomReActAgent(model.model, tools, verbose=True)
    if way == "invoke":
        agent.invoke("What is 2 + 2?")
    elif way == "stream":
        list(agent.stream("What is 2 + 2?"))
    else:

        async def drain() -> None:
            async for _ in agent.astream("What is 2 + 2?"):
                pass

        asyncio.run(drain())
    return capsys.readouterr().out.splitlines()


def test_verbose_prints_the_same_transcript_for_every_way_of_running(script, tools, capsys):
    printed = {
        way: _printed_run(script, tools, capsys, way) for way in ("invoke", "stream", "astream")
    }
    assert printed["invoke"] == printed["stream"] == printed["astream"]
    assert printed["invoke"][:3] == ["Thought: add", "Action: calculator", "Action Input: 2 + 2"]
    assert printed["invoke"][-1] == "Final Answer: 4"


def test_every_event_after_a_model_call_carries_its_iteration(script, tools):
    model = script("Thought: hmm\nAction Input: 2 + 2", STEP, "Final Answer: 4")
    events: list[Any] = list(CustomReActAgent(model.model, tools).stream("What is 2 + 2?"))
    iterations = [
        (e.type, e.step.iteration if isinstance(e, ActionEvent | ObservationEvent) else e.iteration)
        for e in events
        if hasattr(e, "iteration") or isinstance(e, ActionEvent | ObservationEvent)
    ]
    assert iterations == [
        ("parse_failure", 1),
        ("action", 2),
        ("observation", 2),
        ("final_answer", 3),
    ]


def test_one_record_per_tool_step_is_yielded_stored_and_turned_into_history(script, tools):
    model = script(STEP, "Final Answer: 4")
    events = list(CustomReActAgent(model.model, tools).stream("What is 2 + 2?"))
    observed = next(e for e in events if isinstance(e, ObservationEvent))
    result = events[-1].result
    step = observed.step
    assert (step.tool, step.args, step.observation, step.status) == (
        "calculator",
        {"expression": "2 + 2"},
        "4",
        "ok",
    )
    ai, tool_message = result.messages[1], result.messages[2]
    assert ai.tool_calls[0]["id"] == tool_message.tool_call_id == step.tool_call_id
    assert result.intermediate_steps[0][1] == step.observation


class Rows:
    """An artifact JSON cannot hold: the caller gets this very object back."""

    def __init__(self, *rows: int) -> None:
        self.rows = rows


@tool(response_format="content_and_artifact")
def query(sql: str) -> tuple[str, Rows]:
    """Run a query; the model reads a summary, the caller gets the rows."""
    return f"3 rows for {sql}", Rows(7, 8, 9)


@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream"])
def test_a_tools_artifact_reaches_its_record_and_tool_message_but_never_the_model(
    script, tools, way
):
    model = script(
        "Action: query\nAction Input: select n",
        STEP,
        "Final Answer: 7, 8, 9 and 4",
    )
    result, events = run_by(CustomReActAgent(model.model, [query, *tools]), way, "Which n?")
    artifacts = [m.artifact for m in result["messages"] if isinstance(m, ToolMessage)]
    assert isinstance(artifacts[0], Rows) and artifacts[0].rows == (7, 8, 9)
    assert artifacts[1] is None  # a tool without an artifact
    if way == "stream":
        steps = [e.step for e in events if isinstance(e, ObservationEvent)]
        assert [step.artifact for step in steps] == artifacts
    shown = [message.text for prompt in model.prompts for message in prompt]
    assert "3 rows for select n" in shown[-1]
    assert not any("Rows" in text or "7, 8, 9" in text for text in shown)  # nor its repr


def scripted(text: str, number: int) -> AIMessage:
    """A reply as a provider sends it: an id, its token usage, and its response metadata."""
    usage = {"input_tokens": 10 * number, "output_tokens": number, "total_tokens": 11 * number}
    metadata = {"model_name": "scripted", "finish_reason": "stop", "number": number}
    return AIMessage(text, id=f"reply-{number}", usage_metadata=usage, response_metadata=metadata)


@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream", "stream_tokens"])
def test_each_ai_message_carries_what_its_reply_carried(script, tools, way):
    replies = [scripted("Thought: hmm\nAction Input: 2 + 2", 1), scripted(STEP, 2)]
    replies.append(scripted("Final Answer: 4", 3))
    agent = CustomReActAgent(script(*replies).model, tools)
    if way == "stream_tokens":
        last = list(agent.stream("What is 2 + 2?", stream_tokens=True))[-1]
        assert isinstance(last, RunFinished)
        result = last.result.to_dict()
    else:
        result, _ = run_by(agent, way, "What is 2 + 2?")
    written = [m for m in result["messages"] if isinstance(m, AIMessage)]
    assert [m.id for m in written] == [r.id for r in replies]
    assert [m.usage_metadata for m in written] == [r.usage_metadata for r in replies]
    for message, reply in zip(written, replies, strict=True):
        assert message.response_metadata.items() >= reply.response_metadata.items()
    assert written[1].tool_calls[0]["name"] == "calculator"  # and the parsed call, as before
    assert "react_log" in written[2].response_metadata
    total = sum(m.usage_metadata["total_tokens"] for m in written if m.usage_metadata)
    assert total == result["usage"]["total_tokens"]


def test_the_generate_fallback_is_recorded_on_the_event(script, tools):
    model = script(STEP, "Final Answer: 4")
    agent = CustomReActAgent(model.model, tools, max_iterations=1, early_stopping_method="generate")
    limit = next(e for e in agent.stream("What is 2 + 2?") if isinstance(e, LimitReached))
    assert limit.answer_generated is True
    forced = CustomReActAgent(script(STEP).model, tools, max_iterations=1)
    limit = next(e for e in forced.stream("What is 2 + 2?") if isinstance(e, LimitReached))
    assert limit.answer_generated is False
