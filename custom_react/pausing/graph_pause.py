"""A run's pause for a person inside a LangGraph graph: LangGraph's `interrupt`, resumed once.

An agent with `approval="interrupt"` pauses by returning its run as JSON (`stop_reason=
"needs_approval"`, `state`). Inside a LangGraph graph with a checkpointer that result would be
lost (the graph's state keeps its `messages`, not the run's `state`), so the pause becomes the
graph's: `GraphPauses.finish` keeps the paused run by the graph's task and raises LangGraph's
`interrupt`, whose value names the waiting call (`interrupt_value`); the graph's result has
`__interrupt__`, and `Command(resume={"approve": True})` carries the decision. LangGraph then runs
the task again from its start: `GraphPauses.start` asks each earlier pause's `interrupt` again in
order (LangGraph answers them with the decisions it was resumed with) and resumes the last paused
run with its decision, so every tool runs once. Both an agent run as a graph's node
(`StepRunnable.invoke`) and one run as a tool (`SubAgentTool`) pause this way. Outside a graph
with a checkpointer nothing changes: the paused run is returned. The paused runs are kept in
memory, in the agent or the tool: resume in the process that paused (as with `InMemorySaver`).
"""

from __future__ import annotations

from typing import Any

from langchain_core.runnables import RunnableConfig

from custom_react.pausing.approval import waiting_call
from custom_react.pausing.records import call_digest

Task = tuple[str, str]
"""A graph's task: (thread, namespace), the same when LangGraph runs it again after a resume."""


class GraphPauses:
    """The paused runs of one agent (or tool) inside LangGraph graphs, by task, in order."""

    def __init__(self, role: str) -> None:
        """`role` names the paused agent in the interrupt's value: "agent", "sub_agent"."""
        self.role = role
        self.paused: dict[Task, list[dict[str, Any]]] = {}

    def start(self, agent_input: Any, config: RunnableConfig, name: str) -> tuple[Any, Task | None]:
        """The run's input (a resume after a decision, or `agent_input`) and its graph task."""
        task = graph_task(config)
        if task is None:
            return agent_input, None
        pauses = self.paused.setdefault(task, [])
        return replay_decisions(pauses, agent_input, name, self.role), task

    def finish(self, task: Task | None, stop_reason: str, state: Any, name: str) -> None:
        """After a run: a pause becomes LangGraph's `interrupt` (raised); an ending forgets the task."""
        if task is None:
            return
        if stop_reason == "needs_approval" and state is not None:
            self.paused[task].append(state)
            from langgraph.types import interrupt  # only under a LangGraph graph

            interrupt(interrupt_value(state, name, self.role))  # raises: the graph pauses here
        self.paused.pop(task, None)  # finished: nothing left to resume


def graph_task(config: RunnableConfig) -> Task | None:
    """The (thread, task) of a LangGraph graph's node or tool call that may interrupt; else None.

    LangGraph runs a node or a tool call as a task whose namespace (`checkpoint_ns`) stays the
    same when the graph resumes it, and can interrupt only with a checkpointer.
    """
    configurable = config.get("configurable", {})
    if not configurable.get("__pregel_checkpointer") or "checkpoint_ns" not in configurable:
        return None
    return str(configurable.get("thread_id")), str(configurable["checkpoint_ns"])


def replay_decisions(pauses: list[dict[str, Any]], question: Any, name: str, role: str) -> Any:
    """The agent's input when LangGraph runs its task again, after a resume.

    Each earlier pause's `interrupt` is asked again in order (LangGraph answers those with the
    decisions it was resumed with); the last pause's decision resumes the agent from its state.
    No pause yet: the question. So every tool of the agent runs once.
    """
    from langgraph.types import interrupt  # only under a LangGraph graph

    decision = None
    for state in pauses:
        decision = interrupt(interrupt_value(state, name, role))
    return question if not pauses else {"resume": pauses[-1], "decision": decision}


def interrupt_value(state: dict[str, Any], name: str, role: str) -> dict[str, Any]:
    """What the graph's `__interrupt__` shows: the agent, the waiting call, how to decide."""
    call = waiting_call(state)
    return {
        role: name,
        "tool": call.tool,
        "args": call.args,
        "digest": call_digest(call),
        "decide": "Command(resume={'approve': True} | {'edit': ...} | {'reject': 'reason'})",
    }
