"""End to end: LangChain 1.x `create_agent` on the bundled model, natively and with text ReAct.

The local server starts with the chat template shipped for the bundled model
(`custom_react.serving.templates`), so `create_agent` gets real OpenAI `tool_calls`; with
`TextReActMiddleware` the same graph runs on text ReAct (tools in the prompt, calls parsed from
the reply). Real model, real server, real tools.
"""

from __future__ import annotations

import re

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import ModelCallLimitMiddleware
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from custom_react.compare.runners import CREATE_AGENT_SYSTEM_PROMPT
from custom_react.integrations.create_agent import TextReActMiddleware
from tools import calculator, default_tools

pytestmark = pytest.mark.e2e


def numbers(text: str) -> list[float]:
    return [float(n.replace(",", "")) for n in re.findall(r"\d[\d,]*(?:\.\d+)?", text)]


def test_create_agent_gets_native_tool_calls_and_answers_after_the_observation(local_chat_model):
    agent = create_agent(
        local_chat_model,
        [calculator],
        system_prompt=CREATE_AGENT_SYSTEM_PROMPT,
        middleware=[ModelCallLimitMiddleware(run_limit=4, exit_behavior="end")],
    )

    messages = agent.invoke({"messages": [HumanMessage("What is (17 * 23) + 144?")]})["messages"]

    calls = [call for m in messages if isinstance(m, AIMessage) for call in m.tool_calls]
    assert [call["name"] for call in calls][:1] == ["calculator"], messages
    results = [m.text for m in messages if isinstance(m, ToolMessage)]
    assert "535" in results, results
    final = messages[-1]
    assert isinstance(final, AIMessage) and not final.tool_calls
    assert 535 in numbers(final.text), final.text  # the answer is written, not empty


def test_the_middleware_runs_text_react_in_create_agents_graph(local_chat_model):
    agent = create_agent(
        local_chat_model,
        default_tools(),
        middleware=[
            TextReActMiddleware(examples=True),
            ModelCallLimitMiddleware(run_limit=6, exit_behavior="end"),
        ],
    )

    messages = agent.invoke({"messages": [HumanMessage("What is 12.5% of 2480?")]})["messages"]

    steps = [m for m in messages if isinstance(m, AIMessage) and m.tool_calls]
    assert steps and steps[0].tool_calls[0]["name"] == "calculator", messages
    assert "Action:" in steps[0].text  # the model wrote text ReAct; the middleware made the call
    final = messages[-1]
    assert isinstance(final, AIMessage) and not final.tool_calls
    assert 310 in numbers(final.text), final.text
    assert "Final Answer" in final.response_metadata["react_log"]
