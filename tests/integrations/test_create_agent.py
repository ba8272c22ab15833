"""`TextReActMiddleware` gives `create_agent` text ReAct: scripted replies, the real graph."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import ModelCallLimitMiddleware, dynamic_prompt
from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.outputs import ChatGenerationChunk
from langchain_core.tools import BaseTool, tool
from pydantic import BaseModel

from custom_react import CustomReActAgent
from custom_react.compare.runners import create_agent_outcome
from custom_react.integrations.create_agent import TextReActMiddleware
from custom_react.prompt import bundled_examples
from custom_react.prompts import message
from custom_react.scratchpad import is_format_error
from custom_react.steps import PARSE_ERROR_TOOL
from custom_react.testing import RecordingChatModel, Script
from tests.conftest import Calls

ACTION = "Thought: I need the product.\nAction: calculator\nAction Input: 17 * 23"


def run(agent: Any, question: str = "What is 17 * 23?") -> list[BaseMessage]:
    """The messages a `create_agent` graph ends with."""
    return agent.invoke({"messages": [HumanMessage(question)]})["messages"]


def test_a_text_action_becomes_a_tool_call_the_graph_runs(
    script: Callable[..., Script], tools: list[BaseTool], calls: Calls
) -> None:
    model = script(ACTION, "Thought: I know it.\nFinal Answer: 391")
    agent = create_agent(model.model, tools, middleware=[TextReActMiddleware()])

    messages = run(agent)

    assert calls.calls == [("calculator", "17 * 23")]  # create_agent's tools node ran it
    first = messages[1]
    assert isinstance(first, AIMessage)
    assert [(c["name"], c["args"]) for c in first.tool_calls] == [
        ("calculator", {"expression": "17 * 23"})
    ]
    observation = messages[2]
    assert isinstance(observation, ToolMessage) and observation.text == "391"
    assert observation.tool_call_id == first.tool_calls[0]["id"]
    final = messages[-1]
    assert isinstance(final, AIMessage) and final.text == "391" and not final.tool_calls
    assert "Final Answer: 391" in final.response_metadata["react_log"]


def test_a_call_wrapped_in_code_runs_the_tool_it_calls(
    script: Callable[..., Script], tools: list[BaseTool], calls: Calls
) -> None:
    wrapped = "Thought: I need the product.\nAction: python\nAction Input: calculator('17 * 23')"
    model = script(wrapped, "Final Answer: 391")
    agent = create_agent(model.model, tools, middleware=[TextReActMiddleware()])

    messages = run(agent)

    assert calls.calls == [("calculator", "17 * 23")]
    assert [(c["name"], c["args"]) for c in messages[1].tool_calls] == [  # type: ignore[attr-defined]
        ("calculator", {"expression": "17 * 23"})
    ]


def test_the_model_sees_tools_in_the_prompt_and_the_steps_as_a_transcript(
    script: Callable[..., Script], tools: list[BaseTool]
) -> None:
    model = script(ACTION, "Final Answer: 391")
    agent = create_agent(
        model.model, tools, system_prompt="Be brief.", middleware=[TextReActMiddleware()]
    )

    run(agent)

    first, second = model.prompts
    system = first[0].text
    assert system.startswith("Be brief.")  # create_agent's system prompt comes first
    assert "calculator" in system and "search" in system and "Action Input" in system
    assert PARSE_ERROR_TOOL not in system  # the middleware's own tool is not offered
    assert first[-1].text == "Question: What is 17 * 23?\nThought: "  # as our loop starts
    assert second[-1].text.endswith(
        "Question: What is 17 * 23?\n" + ACTION + "\nObservation: 391\nThought: "
    )
    assert model.stops == [["\nObservation:"], ["\nObservation:"]]
    assert all(not prompt_has_tools(prompt) for prompt in model.prompts)


def prompt_has_tools(messages: list[BaseMessage]) -> bool:
    """True when a message carries provider tool calls (a bound-tools prompt would)."""
    return any(isinstance(m, AIMessage) and m.tool_calls for m in messages)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_an_answer_repeating_a_format_error_goes_back_too(
    script: Callable[..., Script], tools: list[BaseTool], language: str
) -> None:
    broken = "Thought: let me think about it.\nAction Input: 17 * 23"
    probe = script(broken, "Final Answer: 391")
    middleware = [TextReActMiddleware(language=language)]
    error = run(create_agent(probe.model, tools, middleware=middleware))[2].text
    model = script(broken, f"Final Answer: {error}", "Final Answer: 391")

    messages = run(create_agent(model.model, tools, middleware=middleware))

    assert messages[-1].text == "391"  # the copied error was not the answer
    assert messages[4].text == message("answer_echo", language)
    assert is_format_error(messages[3]) and is_format_error(messages[4])


def test_a_format_error_goes_back_to_the_model_as_an_observation(
    script: Callable[..., Script], tools: list[BaseTool], calls: Calls
) -> None:
    model = script(
        "Thought: let me think about it.\nAction Input: 17 * 23", ACTION, "Final Answer: 391"
    )
    agent = create_agent(model.model, tools, middleware=[TextReActMiddleware()])

    messages = run(agent)

    failed = messages[1]  # kept as written, with no tool call: no internal name anywhere
    assert isinstance(failed, AIMessage) and not failed.tool_calls
    assert failed.text == "Thought: let me think about it.\nAction Input: 17 * 23"
    error = messages[2]
    assert isinstance(error, HumanMessage) and error.text.startswith("Invalid format")
    assert all(is_format_error(m) for m in (failed, error))
    assert not any(is_format_error(m) for m in (messages[0], *messages[3:]))
    second_prompt = model.prompts[1][-1].text
    assert "Action Input: 17 * 23\nObservation: Invalid format" in second_prompt
    assert calls.calls == [("calculator", "17 * 23")]  # the next reply was read and run
    assert messages[-1].text == "391"
    outcome = create_agent_outcome(messages)
    assert outcome.output == "391" and outcome.iterations == 3


def test_a_cut_reply_runs_its_step_only_when_the_step_ended_before_the_cut(
    script: Callable[..., Script], tools: list[BaseTool], calls: Calls
) -> None:
    cut = {"finish_reason": "length"}  # the token limit ended these replies
    went_on = ACTION + "\nThought: and 2 * 3.\nAction: calculator\nAction Input: 2 *"
    cut_inside = "Thought: and 5 * 4.\nAction: calculator\nAction Input: 5 *"
    model = script(
        AIMessage(went_on, response_metadata=cut),
        AIMessage(cut_inside, response_metadata=cut),
        "Final Answer: 391",
    )
    agent = create_agent(model.model, tools, middleware=[TextReActMiddleware()])

    messages = run(agent)

    assert calls.calls == [("calculator", "17 * 23")]  # the whole step ran, the cut one did not
    errors = [m.text for m in messages if isinstance(m, HumanMessage) and is_format_error(m)]
    assert errors == [message("cut_off")] and messages[-1].text == "391"


def test_the_middleware_reads_any_providers_token_limit(
    script: Callable[..., Script], tools: list[BaseTool]
) -> None:
    cut = AIMessage("Final Answer: signed in 17", response_metadata={"stop_reason": "max_tokens"})
    model = script(cut, "Final Answer: signed in 1783")  # Anthropic's words for the limit
    agent = create_agent(model.model, tools, middleware=[TextReActMiddleware()])

    messages = run(agent, "When was the Treaty of Paris signed?")

    errors = [m.text for m in messages if isinstance(m, HumanMessage) and is_format_error(m)]
    assert errors == [message("cut_off")] and messages[-1].text == "signed in 1783"


def test_a_dynamic_prompt_listed_before_it_opens_the_react_system_turn(
    script: Callable[..., Script], tools: list[BaseTool]
) -> None:
    """The order `docs/python-api.md` asks for: a prompt middleware first, then the ReAct one."""

    @dynamic_prompt
    def terse(request: Any) -> str:
        return "You are terse."

    model = script("Final Answer: ok")
    run(create_agent(model.model, tools, middleware=[terse, TextReActMiddleware()]))

    system = model.prompts[0][0].text
    assert system.startswith("You are terse.") and "Action Input" in system


def test_the_input_s_system_message_joins_the_one_system_turn(
    script: Callable[..., Script], tools: list[BaseTool]
) -> None:
    model = script("Final Answer: Arr, 391.")
    middleware = [TextReActMiddleware()]
    agent = create_agent(model.model, tools, system_prompt="Be brief.", middleware=middleware)

    given = [SystemMessage("You are a pirate."), HumanMessage("What is 17 * 23?")]
    agent.invoke({"messages": given})

    (prompt,) = model.prompts
    assert [m.type for m in prompt].count("system") == 1 and isinstance(prompt[0], SystemMessage)
    assert prompt[0].text.startswith("You are a pirate.\n\nBe brief.\n\nAnswer the")


def test_a_final_answer_ends_the_graph_at_once(
    script: Callable[..., Script], tools: list[BaseTool], calls: Calls
) -> None:
    model = script("Thought: easy.\nFinal Answer: 4")
    agent = create_agent(model.model, tools, middleware=[TextReActMiddleware()])

    messages = run(agent, "What is 2 + 2?")

    assert [type(m).__name__ for m in messages] == ["HumanMessage", "AIMessage"]
    assert messages[-1].text == "4" and calls.calls == []


def test_an_unknown_tool_is_the_graphs_error_observation_and_the_model_goes_on(
    script: Callable[..., Script], tools: list[BaseTool]
) -> None:
    model = script("Action: weather\nAction Input: Paris", "Final Answer: I cannot tell.")
    agent = create_agent(model.model, tools, middleware=[TextReActMiddleware()])

    messages = run(agent)

    error = messages[2]
    assert isinstance(error, HumanMessage) and "weather" in error.text
    assert "calculator" in error.text and PARSE_ERROR_TOOL not in str(messages)
    assert "Observation: " in model.prompts[1][-1].text
    assert messages[-1].text == "I cannot tell."


def test_a_misspelled_tool_name_and_json_input_are_resolved_like_the_loop_does(
    script: Callable[..., Script], tools: list[BaseTool], calls: Calls
) -> None:
    model = script('Action: `Calculator`\nAction Input: {"expr": "2 * 21"}', "Final Answer: 42")
    agent = create_agent(model.model, tools, middleware=[TextReActMiddleware()])

    run(agent)

    assert calls.calls == [("calculator", "2 * 21")]


def test_the_model_call_limit_stops_a_model_that_never_answers(
    script: Callable[..., Script], tools: list[BaseTool]
) -> None:
    model = script(*["Thought: hmm\nAction Input: 1"] * 3)
    limit = ModelCallLimitMiddleware(run_limit=3, exit_behavior="end")
    agent = create_agent(model.model, tools, middleware=[TextReActMiddleware(), limit])

    messages = run(agent)

    assert len(model.prompts) == 3
    assert not create_agent_outcome(messages).output


def test_chinese_prompt_and_async_run(
    script: Callable[..., Script], tools: list[BaseTool], calls: Calls
) -> None:
    model = script("思考：查一下。\n行动：search\n行动输入：玫瑰", "最终答案：1.2 元")
    agent = create_agent(model.model, tools, middleware=[TextReActMiddleware(language="zh")])

    state = asyncio.run(agent.ainvoke({"messages": [HumanMessage("玫瑰批发价多少？")]}))

    assert calls.calls == [("search", "玫瑰")]
    assert state["messages"][-1].text == "1.2 元"
    assert "问题" in model.prompts[0][-1].text or "玫瑰批发价多少" in model.prompts[0][-1].text


@pytest.mark.parametrize("step_format", ["xml", "json"])
def test_the_other_step_formats_parse_too(
    script: Callable[..., Script], tools: list[BaseTool], calls: Calls, step_format: str
) -> None:
    replies = {
        "xml": (
            "<tool>calculator</tool><tool_input>6 * 7</tool_input>",
            "<final_answer>42</final_answer>",
        ),
        "json": (
            '```json\n{"action": "calculator", "action_input": "6 * 7"}\n```',
            '```json\n{"action": "Final Answer", "action_input": "42"}\n```',
        ),
    }[step_format]
    model = script(*replies)
    agent = create_agent(
        model.model,
        tools,
        middleware=[TextReActMiddleware(format=step_format)],  # type: ignore[arg-type]
    )

    messages = run(agent)

    assert calls.calls == [("calculator", "6 * 7")]
    assert messages[-1].text == "42"


def test_a_run_to_the_call_limit_ends_by_the_limit_not_a_recursion_error(
    script: Callable[..., Script], tools: list[BaseTool]
) -> None:
    """Eight tool steps, each a call: the harness's runner stops at the limit and reports it."""
    from custom_react.compare.runners import text_react_runner

    steps = [f"Action: calculator\nAction Input: {n} + 1" for n in range(8)]
    model = script(*steps)
    outcome = text_react_runner(model.model, tools, 8)("What is 1 + 1?", {})
    assert (outcome.iterations, outcome.stop_reason) == (8, "max_iterations")


def test_a_second_question_in_the_thread_sees_the_first_exchange_not_its_steps(
    script: Callable[..., Script], tools: list[BaseTool]
) -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    model = script(ACTION, "Final Answer: 391", "Final Answer: 782")
    agent = create_agent(
        model.model, tools, middleware=[TextReActMiddleware()], checkpointer=InMemorySaver()
    )
    thread = {"configurable": {"thread_id": "t"}}
    agent.invoke({"messages": [HumanMessage("What is 17 * 23?")]}, thread)

    state = agent.invoke({"messages": [HumanMessage("And twice that?")]}, thread)

    third = model.prompts[2]
    assert [type(m).__name__ for m in third] == [
        "SystemMessage",
        "HumanMessage",
        "AIMessage",
        "HumanMessage",
    ]
    assert third[1].text == "What is 17 * 23?" and third[2].text == "391"
    assert not prompt_has_tools(third)  # the first question's tool step is not replayed
    assert state["messages"][-1].text == "782"


def test_a_return_direct_tool_s_answer_is_its_turn_s_answer_later_as_in_the_agent(
    script: Callable[..., Script], tools: list[BaseTool]
) -> None:
    """The turns before the question read as `CustomReActAgent` reads them; this turn's steps
    are still the transcript."""
    from langgraph.checkpoint.memory import InMemorySaver

    @tool(return_direct=True)
    def order_status(order_id: str) -> str:
        """The status of an order."""
        return f"Order {order_id} shipped via DHL."

    everything = [*tools, order_status]
    model = script("Action: order_status\nAction Input: 42", ACTION, "Final Answer: DHL; 391.")
    agent = create_agent(
        model.model, everything, middleware=[TextReActMiddleware()], checkpointer=InMemorySaver()
    )
    thread = {"configurable": {"thread_id": "t"}}
    first = agent.invoke({"messages": [HumanMessage("Where is order 42?")]}, thread)["messages"]
    assert isinstance(first[-1], ToolMessage)  # the tool's output ended the turn: its answer
    follow_up = HumanMessage("Which carrier? And what is 17 * 23?")
    agent.invoke({"messages": [follow_up]}, thread)

    second, third = model.prompts[1:]
    assert [(m.type, m.text) for m in second[1:3]] == [
        ("human", "Where is order 42?"),
        ("ai", "Order 42 shipped via DHL."),
    ]
    assert third[-1].text.endswith(ACTION + "\nObservation: 391\nThought: ")
    reference = script("Final Answer: DHL.")
    CustomReActAgent(reference.model, everything).invoke({"messages": [*first, follow_up]})
    assert [(m.type, m.text) for m in reference.prompts[0]] == [(m.type, m.text) for m in second]


class Product(BaseModel):
    """A product of two numbers."""

    value: int


@pytest.mark.parametrize("way", ["invoke", "ainvoke"])
def test_create_agent_gets_a_structured_response_from_a_text_model(
    script: Callable[..., Script], tools: list[BaseTool], way: str
) -> None:
    model = script(ACTION, "Final Answer: 391", 'Final Answer: {"value": 391}')
    agent = create_agent(
        model.model, tools, middleware=[TextReActMiddleware()], response_format=Product
    )
    state = {"messages": [HumanMessage("What is 17 * 23?")]}
    result = agent.invoke(state) if way == "invoke" else asyncio.run(agent.ainvoke(state))
    assert result["structured_response"] == Product(value=391)
    assert "one JSON object" in model.prompts[2][-1].text  # the invalid answer went back
    assert '"value"' in model.prompts[0][0].text  # the schema is in the prompt, not bound


def test_create_agent_text_react_takes_the_bundled_example_as_the_agent_does(
    script: Callable[..., Script], tools: list[BaseTool]
) -> None:
    model = script("Final Answer: 391")
    run(create_agent(model.model, tools, middleware=[TextReActMiddleware()]))
    example = bundled_examples("examples", "en", tools)
    assert example.strip() and example.strip() in model.prompts[0][0].text


@pytest.mark.parametrize(
    ("options", "error", "problem"),
    [
        ({"language": "fr"}, ValueError, "Unsupported language 'fr'"),
        ({"language": 5}, TypeError, r"language takes str, not 5 \(int\)"),
        ({"format": "yaml"}, TypeError, "format takes 'text', 'xml' or 'json', not 'yaml'"),
        ({"examples": 3}, TypeError, r"examples takes str, bool or None, not 3 \(int\)"),
    ],
)
def test_the_middlewares_options_are_checked_when_built(
    options: dict[str, Any], error: type[Exception], problem: str
) -> None:
    with pytest.raises(error, match=problem):
        TextReActMiddleware(**options)


@pytest.mark.parametrize(
    ("language", "broken", "action", "answer", "marker"),
    [
        ("en", "Thought: hmm.\nAction Input: 1", ACTION, "Final Answer: 391", "Invalid format"),
        (
            "zh",
            "思考：嗯。\n行动输入：1",
            "思考：算一下。\n行动：calculator\n行动输入：17 * 23",
            "最终答案：391",
            "格式",
        ),
    ],
)
@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream"])
def test_a_format_error_stores_no_internal_name_in_any_language_and_way(
    script: Callable[..., Script],
    tools: list[BaseTool],
    calls: Calls,
    language: str,
    broken: str,
    action: str,
    answer: str,
    marker: str,
    way: str,
) -> None:
    model = script(broken, "Action: weather\nAction Input: Paris", action, answer)
    middleware = [TextReActMiddleware(language=language)]
    agent = create_agent(model.model, tools, middleware=middleware)
    state = {"messages": [HumanMessage("17 * 23?")]}
    if way == "invoke":
        messages = agent.invoke(state)["messages"]
    elif way == "ainvoke":
        messages = asyncio.run(agent.ainvoke(state))["messages"]
    else:
        messages = list(agent.stream(state, stream_mode="values"))[-1]["messages"]
    assert [type(m).__name__ for m in messages] == [
        "HumanMessage", "AIMessage", "HumanMessage", "AIMessage", "HumanMessage",
        "AIMessage", "ToolMessage", "AIMessage",
    ]  # fmt: skip
    assert marker in messages[2].text and "weather" in messages[4].text
    assert "calculator" in messages[4].text and "search" in messages[4].text
    assert all(
        call["name"] == "calculator" for m in messages for call in getattr(m, "tool_calls", [])
    )
    assert PARSE_ERROR_TOOL not in str(messages) and PARSE_ERROR_TOOL not in str(model.prompts)
    assert calls.calls == [("calculator", "17 * 23")] and messages[-1].text == "391"
    assert messages[2].text in model.prompts[1][-1].text  # read as the next Observation
    outcome = create_agent_outcome(messages)
    assert outcome.output == "391" and outcome.iterations == 4


def test_a_format_error_is_not_a_turn_of_the_conversation_later(
    script: Callable[..., Script], tools: list[BaseTool]
) -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    model = script("Thought: hmm.\nAction Input: 1", "Final Answer: 391", "Final Answer: 782")
    agent = create_agent(
        model.model, tools, middleware=[TextReActMiddleware()], checkpointer=InMemorySaver()
    )
    thread = {"configurable": {"thread_id": "t"}}
    agent.invoke({"messages": [HumanMessage("What is 17 * 23?")]}, thread)
    agent.invoke({"messages": [HumanMessage("And twice that?")]}, thread)
    third = model.prompts[2]
    assert [m.text for m in third[1:3]] == ["What is 17 * 23?", "391"]  # not the broken reply
    assert third[-1].text.startswith("Question: And twice that?")


def test_a_structured_answer_that_does_not_fit_is_kept_without_a_tool_call(
    script: Callable[..., Script], tools: list[BaseTool]
) -> None:
    model = script('Final Answer: {"value": "many"}', 'Final Answer: {"value": 391}')
    agent = create_agent(
        model.model, tools, middleware=[TextReActMiddleware()], response_format=Product
    )
    result = agent.invoke({"messages": [HumanMessage("What is 17 * 23?")]})
    assert result["structured_response"] == Product(value=391)
    rejected, error = result["messages"][1:3]
    assert not rejected.tool_calls and is_format_error(rejected)
    assert isinstance(error, HumanMessage) and "value" in error.text


def test_a_thought_alone_is_shown_back_and_the_model_goes_on_as_in_the_loop(
    script: Callable[..., Script], tools: list[BaseTool], calls: Calls
) -> None:
    usage = {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15}
    thought = AIMessage("Thought: I need the product.", usage_metadata=usage)
    model = script(thought, "Action: calculator\nAction Input: 17 * 23", "Final Answer: 391")
    agent = create_agent(model.model, tools, middleware=[TextReActMiddleware()])

    messages = run(agent)

    assert calls.calls == [("calculator", "17 * 23")] and messages[-1].text == "391"
    assert not any(is_format_error(m) for m in messages)
    assert model.prompts[1][-1].text.endswith("\nThought: I need the product.\n")  # no cue after
    step = messages[1]  # the two replies, one step with its tool call
    assert isinstance(step, AIMessage) and step.tool_calls
    assert step.text == "Thought: I need the product.\nAction: calculator\nAction Input: 17 * 23"
    assert step.usage_metadata is not None and step.usage_metadata["total_tokens"] >= 15


def test_a_thought_alone_twice_is_one_format_error_in_the_middleware(
    script: Callable[..., Script], tools: list[BaseTool]
) -> None:
    model = script("Thought: hmm", "Thought: still hmm", "Final Answer: 391")
    agent = create_agent(model.model, tools, middleware=[TextReActMiddleware()])

    messages = run(agent)

    failed, error = messages[1], messages[2]
    assert failed.text == "Thought: hmm\nThought: still hmm" and is_format_error(error)
    assert messages[-1].text == "391"


@pytest.mark.parametrize(("cap", "language"), [(3, "en"), (2, "zh")])
def test_replies_that_keep_breaking_the_format_end_the_run_at_the_cap(
    script: Callable[..., Script], tools: list[BaseTool], cap: int, language: str
) -> None:
    model = script(*["Action: None"] * cap)
    middleware = TextReActMiddleware(language=language, max_consecutive_parse_failures=cap)
    agent = create_agent(model.model, tools, middleware=[middleware])
    messages = run(agent)
    assert len(model.prompts) == cap  # no call after the cap (the script has no more replies)
    outcome = create_agent_outcome(messages)
    assert (outcome.output, outcome.stop_reason, outcome.iterations) == ("", "parse_failures", cap)
    assert f"max_consecutive_parse_failures={cap}" in messages[-1].text


def test_a_step_that_runs_resets_the_middleware_s_count(
    script: Callable[..., Script], tools: list[BaseTool]
) -> None:
    broken, step = "Action: None", "Action: search\nAction Input: rose"
    model = script(broken, broken, step, broken, broken, "Final Answer: 1.2 yuan")
    agent = create_agent(model.model, tools, middleware=[TextReActMiddleware()])
    assert run(agent)[-1].text == "1.2 yuan"


@pytest.mark.parametrize("way", ["invoke", "ainvoke"])
def test_a_model_that_rejects_stop_is_asked_again_without_it(
    script: Callable[..., Script], tools: list[BaseTool], calls: Calls, way: str
) -> None:
    """As `CustomReActAgent` does: a reasoning model that takes no `stop` still runs the loop."""
    model = script(ACTION, "Final Answer: 391", rejects_stop=True)
    middleware = TextReActMiddleware()
    agent = create_agent(model.model, tools, middleware=[middleware])
    given = {"messages": [HumanMessage("What is 17 * 23?")]}
    state = agent.invoke(given) if way == "invoke" else asyncio.run(agent.ainvoke(given))
    assert state["messages"][-1].text == "391" and calls.calls == [("calculator", "17 * 23")]
    assert middleware.send_stop is False


NATIVE_CALL = {"name": "calculator", "args": {"expression": "17 * 23"}, "id": "call_1"}
"""A provider's tool call: a model bound to tools, or a server's tool parser, wrote it."""


@pytest.mark.parametrize(
    "reply",
    [
        AIMessage("", tool_calls=[NATIVE_CALL]),
        AIMessage("Thought: I need the product.", tool_calls=[NATIVE_CALL]),
        AIMessage("", tool_calls=[NATIVE_CALL, {**NATIVE_CALL, "args": {"expression": "2 * 3"}}]),
    ],
    ids=["call", "words_and_call", "two_calls"],
)
def test_a_reply_with_provider_tool_calls_runs_its_first_call_as_the_agent_does(
    script: Callable[..., Script], tools: list[BaseTool], calls: Calls, reply: AIMessage
) -> None:
    model = script(reply, "Final Answer: 391")
    messages = run(create_agent(model.model, tools, middleware=[TextReActMiddleware()]))
    ran, calls.calls = calls.calls, []
    reference = script(reply, "Final Answer: 391")
    CustomReActAgent(reference.model, tools).invoke("What is 17 * 23?")

    assert ran == calls.calls == [("calculator", "17 * 23")]  # one step a reply: the first call
    assert not any(is_format_error(m) for m in messages) and messages[-1].text == "391"
    assert [(c["name"], c["args"]) for c in messages[1].tool_calls] == [  # type: ignore[attr-defined]
        ("calculator", {"expression": "17 * 23"})
    ]
    assert model.prompts[1][-1].text == reference.prompts[1][-1].text  # the same transcript


@pytest.mark.parametrize(
    ("words", "ran", "answer"),
    [
        (
            "Thought: I add.\nAction: calculator\nAction Input: 2 + 2",
            [("calculator", "2 + 2")],
            "4",
        ),
        ("Thought: I know it.\nFinal Answer: 391", [], "391"),
    ],
    ids=["action", "final_answer"],
)
def test_a_reply_whose_words_hold_a_step_keeps_that_step_not_its_provider_call(
    script: Callable[..., Script],
    tools: list[BaseTool],
    calls: Calls,
    words: str,
    ran: list[Any],
    answer: str,
) -> None:
    # The call is not read into the written Action Input or answer: the first step wins.
    replies = [AIMessage(words, tool_calls=[NATIVE_CALL]), f"Final Answer: {answer}"][
        : 1 + len(ran)
    ]
    model = script(*replies)
    agent = create_agent(model.model, tools, middleware=[TextReActMiddleware()])
    messages = run(agent, "What is 2 + 2?")
    assert calls.calls == ran and messages[-1].text == answer
    assert not any(is_format_error(m) for m in messages)
    assert "17 * 23" not in str(messages) and "17 * 23" not in str(model.prompts)


class StreamedCalls(RecordingChatModel):
    """A scripted model that streams a reply's tool calls in `tool_call_chunks`, as OpenAI does."""

    def _stream(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Iterator[Any]:
        reply = self._generate(messages, *args, **kwargs).generations[0].message
        for call in getattr(reply, "tool_calls", []):
            written = json.dumps(call["args"])  # the arguments in two pieces
            first = {"name": call["name"], "args": written[:5], "id": call["id"], "index": 0}
            rest = {"name": None, "args": written[5:], "id": None, "index": 0}
            for piece in (first, rest):
                chunk = AIMessageChunk(content="", tool_call_chunks=[piece])  # type: ignore[list-item]
                yield ChatGenerationChunk(message=chunk)
        if reply.text:
            yield ChatGenerationChunk(message=AIMessageChunk(content=reply.text))


@pytest.mark.parametrize("way", ["stream", "astream"])
def test_a_provider_tool_call_streamed_in_chunks_runs_too(
    tools: list[BaseTool], calls: Calls, way: str
) -> None:
    replies = iter([AIMessage("", tool_calls=[NATIVE_CALL]), AIMessage("Final Answer: 391")])
    model = StreamedCalls(messages=replies)
    agent = create_agent(model, tools, middleware=[TextReActMiddleware()])
    given = {"messages": [HumanMessage("What is 17 * 23?")]}

    async def drained() -> list[Any]:
        return [part async for part in agent.astream(given, stream_mode="messages")]

    if way == "stream":
        parts = list(agent.stream(given, stream_mode="messages"))
    else:
        parts = asyncio.run(drained())
    assert any(getattr(chunk, "tool_call_chunks", None) for chunk, _ in parts)  # it streamed them
    assert calls.calls == [("calculator", "17 * 23")] and len(model.prompts) == 2


CONVERT_SCHEMA = {
    "type": "object",
    "properties": {"amount": {"type": "number"}, "to": {"type": "string"}},
    "required": ["amount", "to"],
}
COPIED = 'Thought: t\nAction: convert_currency\nAction Input: {"amount": 0.0, "to": "EUR"}'


def convert_tool(ran: list[dict[str, Any]]) -> BaseTool:
    from langchain_core.tools import StructuredTool

    return StructuredTool.from_function(
        func=lambda **args: ran.append(args) or "converted",
        name="convert_currency",
        description="Convert an amount of money into another currency.",
        args_schema=CONVERT_SCHEMA,
    )


@pytest.mark.parametrize("way", ["invoke", "ainvoke"])
def test_a_call_keeping_the_examples_values_is_refused_once_as_in_the_loop(
    script: Callable[..., Script], way: str
) -> None:
    ran: list[dict[str, Any]] = []
    agent = create_agent(
        script(COPIED, "Final Answer: about 42 km").model,
        [convert_tool(ran)],
        middleware=[TextReActMiddleware()],
    )
    given = {"messages": [HumanMessage("How many kilometres is a marathon?")]}
    if way == "invoke":
        messages = agent.invoke(given)["messages"]
    else:
        messages = asyncio.run(agent.ainvoke(given))["messages"]
    assert ran == [] and messages[-1].text == "about 42 km"
    refusal = messages[2]
    assert is_format_error(refusal) and "0.0 is the example value" in refusal.text
    # Written again, the same call runs: the model means it, as in CustomReActAgent.
    insisting = create_agent(
        script(COPIED, COPIED, "Final Answer: 0 EUR").model,
        [convert_tool(ran)],
        middleware=[TextReActMiddleware()],
    )
    assert insisting.invoke(given)["messages"][-1].text == "0 EUR"
    assert ran == [{"amount": 0.0, "to": "EUR"}]


def test_a_zero_the_question_gives_runs_at_once_in_the_middleware(
    script: Callable[..., Script],
) -> None:
    ran: list[dict[str, Any]] = []
    agent = create_agent(
        script(COPIED, "Final Answer: 0 EUR").model,
        [convert_tool(ran)],
        middleware=[TextReActMiddleware()],
    )
    agent.invoke({"messages": [HumanMessage("What is 0 dollars in EUR?")]})
    assert ran == [{"amount": 0.0, "to": "EUR"}]
