"""Behaviours the old shape of the package hid, each proved on the real agent with a script."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from custom_react import CustomReActAgent
from custom_react.events import (
    ActionEvent,
    LimitReached,
    ObservationEvent,
)

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


def test_the_generate_fallback_is_recorded_on_the_event(script, tools):
    model = script(STEP, "Final Answer: 4")
    agent = CustomReActAgent(model.model, tools, max_iterations=1, early_stopping_method="generate")
    limit = next(e for e in agent.stream("What is 2 + 2?") if isinstance(e, LimitReached))
    assert limit.answer_generated is True
    forced = CustomReActAgent(script(STEP).model, tools, max_iterations=1)
    limit = next(e for e in forced.stream("What is 2 + 2?") if isinstance(e, LimitReached))
    assert limit.answer_generated is False
