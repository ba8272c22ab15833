"""A runtime context for tools: `invoke(question, context=...)`, read by `runtime: ToolRuntime`."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pytest
from langchain.tools import ToolRuntime
from langchain_core.tools import tool

from custom_react import CustomReActAgent
from custom_react.testing import Script


@dataclass
class Context:
    user_name: str


ASKS = {
    "en": ("Thought: ask who\nAction: greet\nAction Input: Hello", "Final Answer: done"),
    "zh": ("思考：问是谁\n行动：greet\n行动输入：你好", "最终答案：好了"),
}


def agent_with_greet(language: str) -> tuple[CustomReActAgent, list[Any]]:
    seen: list[Any] = []

    @tool
    def greet(greeting: str, runtime: ToolRuntime[Context]) -> str:
        """Greet the user by name."""
        seen.append((runtime.context, runtime.tool_call_id))
        return f"{greeting}, {runtime.context.user_name}"

    model = Script(*ASKS[language]).model
    return CustomReActAgent(model, [greet], language=language), seen


def run(agent: CustomReActAgent, way: str, context: Any) -> dict[str, Any]:
    question = "Greet me."
    if way == "ainvoke":
        return asyncio.run(agent.ainvoke(question, context=context))
    if way == "stream":
        *_, last = agent.stream(question, context=context)
        return last.result.to_dict()
    if way == "astream":

        async def drain() -> Any:
            return [event async for event in agent.astream(question, context=context)][-1]

        return asyncio.run(drain()).result.to_dict()
    return agent.invoke(question, context=context)


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream", "astream"])
def test_a_tool_reads_the_context_given_at_invoke(way: str, language: str) -> None:
    agent, seen = agent_with_greet(language)
    result = run(agent, way, Context("Ada"))
    greeting = ASKS[language][0].rsplit("：" if language == "zh" else ": ", 1)[1]
    assert result["intermediate_steps"][0][1] == f"{greeting}, Ada"
    ((context, call_id),) = seen
    assert context == Context("Ada") and call_id == result["messages"][1].tool_calls[0]["id"]


def test_the_model_never_sees_the_runtime_parameter() -> None:
    agent, _ = agent_with_greet("en")
    assert "runtime" not in agent.prompt.format_messages(input="x", agent_scratchpad="")[0].text
    assert "ToolRuntime" not in str(agent.tools[0].args)


def test_the_same_tool_runs_under_create_agent_with_the_same_context() -> None:
    """The tool is written once, for either agent."""
    from langchain.agents import create_agent

    from custom_react.integrations.create_agent import TextReActMiddleware

    ours, seen = agent_with_greet("en")
    graph = create_agent(
        Script(*ASKS["en"]).model,
        ours.tools,
        middleware=[TextReActMiddleware()],
        context_schema=Context,
    )
    state = graph.invoke({"messages": [("user", "Greet me.")]}, context=Context("Ada"))
    tool_message = next(m for m in state["messages"] if m.type == "tool")
    assert tool_message.content == "Hello, Ada"
    assert [context for context, _ in seen] == [Context("Ada")]


def test_a_sub_agent_under_create_agent_passes_the_graph_s_context_to_its_tools() -> None:
    from langchain.agents import create_agent

    from custom_react.integrations.create_agent import TextReActMiddleware

    inner, seen = agent_with_greet("en")
    helper = inner.as_tool(name="helper", description="Greets people.")
    outer = Script("Action: helper\nAction Input: Greet me.", "Final Answer: greeted")
    graph = create_agent(
        outer.model, [helper], middleware=[TextReActMiddleware()], context_schema=Context
    )
    state = graph.invoke({"messages": [("user", "Greet me.")]}, context=Context("Ada"))
    assert state["messages"][-1].text == "greeted"
    assert [context for context, _ in seen] == [Context("Ada")]
