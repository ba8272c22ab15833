"""A runtime context for tools: `invoke(question, context=...)`, read by `runtime: ToolRuntime`."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, TypedDict

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


def agent_with_export() -> CustomReActAgent:
    @tool
    def export(table: str, runtime: ToolRuntime) -> str:
        """Export a table, reporting progress."""
        runtime.stream_writer({"progress": f"exporting {table}"})
        return f"{table} exported"

    model = Script("Action: export\nAction Input: users", "Final Answer: users exported").model
    return CustomReActAgent(model, [export])


def test_a_sub_agent_s_tool_streams_to_the_graph_s_custom_mode() -> None:
    from langchain.agents import create_agent

    from custom_react.integrations.create_agent import TextReActMiddleware

    helper = agent_with_export().as_tool(name="helper", description="Exports tables.")
    outer = Script("Action: helper\nAction Input: Export users.", "Final Answer: exported")
    graph = create_agent(outer.model, [helper], middleware=[TextReActMiddleware()])
    chunks = graph.stream({"messages": [("user", "Export users.")]}, stream_mode="custom")
    assert list(chunks) == [{"progress": "exporting users"}]


class Task(TypedDict, total=False):
    input: str
    output: str


def node_running(way: str) -> Any:
    """A graph node: the agent itself, or a function that runs it (its config found by LangChain)."""
    agent = agent_with_export()
    if way == "node":
        return agent

    async def ainvoking(state: Task) -> Task:
        return {"output": (await agent.ainvoke(state["input"]))["output"]}

    if way == "ainvoke":
        return ainvoking
    return lambda state: {"output": agent.invoke(state["input"])["output"]}


@pytest.mark.parametrize("way", ["node", "invoke", "ainvoke"])
def test_an_agent_in_a_graph_node_streams_its_tool_s_writes(way: str) -> None:
    from langgraph.graph import START, StateGraph

    graph = StateGraph(Task).add_node("agent", node_running(way)).add_edge(START, "agent").compile()

    async def drain() -> list[Any]:
        return [chunk async for chunk in graph.astream({"input": "x"}, stream_mode="custom")]

    chunks = (
        asyncio.run(drain())
        if way == "ainvoke"
        else graph.stream({"input": "x"}, stream_mode="custom")
    )
    assert list(chunks) == [{"progress": "exporting users"}]


def test_outside_a_graph_the_tool_s_stream_writer_does_nothing() -> None:
    """As LangGraph's own ToolRuntime when nobody streams: the tool runs, its writes go nowhere."""
    result = agent_with_export().invoke("Export users.")
    assert result["intermediate_steps"][0][1] == "users exported"
