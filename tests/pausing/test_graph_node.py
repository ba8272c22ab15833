"""An agent as a node of a LangGraph graph with a checkpointer pauses the graph: its `interrupt`.

1. With `approval="interrupt"`, the graph's result has `__interrupt__` naming the agent and the
   waiting call; the tool has not run (the paused run was not lost in the graph's state).
2. `Command(resume=decision)` resumes the paused run, under `invoke` and `ainvoke`: an approved
   tool runs once, a rejected one never, and the answer ends the graph's messages.
3. Without a checkpointer nothing changes: the node returns the paused run.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from langchain_core.tools import tool

from custom_react import CustomReActAgent

ASK = "Thought: delete it.\nAction: delete_file\nAction Input: old.txt"


def files_graph(model: Any, deleted: list[str], checkpointer: Any = None) -> Any:
    """A graph whose one node is an agent with a tool that waits for a person."""
    from langgraph.graph import END, START, MessagesState, StateGraph

    @tool
    def delete_file(path: str) -> str:
        """Delete a file in the workspace."""
        deleted.append(path)
        return f"deleted {path}"

    delete_file.metadata = {"requires_approval": True}
    graph = StateGraph(MessagesState)
    graph.add_node("agent", CustomReActAgent(model, [delete_file], approval="interrupt"))
    graph.add_edge(START, "agent")
    graph.add_edge("agent", END)
    return graph.compile(checkpointer=checkpointer)


def test_the_pause_is_the_graphs_interrupt_and_the_decision_resumes_it(script):
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.types import Command

    deleted: list[str] = []
    app = files_graph(
        script(ASK, "Final Answer: old.txt is deleted.").model, deleted, InMemorySaver()
    )
    thread = {"configurable": {"thread_id": "files"}}
    paused = app.invoke({"messages": [("user", "Delete old.txt.")]}, thread)
    waiting = paused["__interrupt__"][0].value
    assert (waiting["agent"], waiting["tool"], waiting["args"]) == (
        "CustomReActAgent",
        "delete_file",
        {"path": "old.txt"},
    )
    assert deleted == []
    done = app.invoke(Command(resume={"approve": True}), thread)
    assert deleted == ["old.txt"]
    assert done["messages"][-1].text == "old.txt is deleted."
    # The resumed run gives the question back as the message it came in: the graph keeps it once.
    assert [m.text for m in done["messages"]].count("Delete old.txt.") == 1


@pytest.mark.parametrize("decision", [{"approve": True}, {"reject": "keep it"}])
def test_ainvoke_resumes_it_too_each_tool_at_most_once(script, decision):
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.types import Command

    deleted: list[str] = []
    app = files_graph(script(ASK, "Final Answer: done.").model, deleted, InMemorySaver())
    thread = {"configurable": {"thread_id": "files"}}

    async def run() -> Any:
        paused = await app.ainvoke({"messages": [("user", "Delete old.txt.")]}, thread)
        assert paused["__interrupt__"]
        return await app.ainvoke(Command(resume=decision), thread)

    done = asyncio.run(run())
    assert deleted == (["old.txt"] if "approve" in decision else [])
    assert done["messages"][-1].text == "done."


def test_without_a_checkpointer_the_node_returns_the_paused_run(script):
    deleted: list[str] = []
    app = files_graph(script(ASK).model, deleted)
    out = app.invoke({"messages": [("user", "Delete old.txt.")]})
    assert "__interrupt__" not in out and deleted == []
