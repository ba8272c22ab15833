"""A thread: a conversation of many questions, one run each, kept by the checkpoint store.

`run_thread` reads the run's `thread_id` from its config, and warns when nothing would keep the
thread. `thread_turns` gives a new question of the thread the earlier questions and answers as
chat turns (their tool steps stay with their runs), leaving out a question the input's own
history already holds: `{"messages": [*result["messages"], follow_up]}` with a `thread_id`
reads each turn once.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import RunnableConfig

from custom_react.pausing.store import RunStore


def run_thread(config: RunnableConfig, store: RunStore | None) -> str | None:
    """The run's `thread_id` (`config["configurable"]`); a warning when no store keeps it.

    Inside a LangGraph graph with a checkpointer, the graph keeps the thread: no warning.
    """
    configurable = config.get("configurable", {})
    thread = configurable.get("thread_id")
    in_graph = bool(configurable.get("__pregel_checkpointer"))
    if thread is not None and store is None and not in_graph:
        warnings.warn(
            "thread_id is ignored without checkpoint=: give the agent a store (SQLiteStore, "
            "MemoryStore) for a thread's questions to see the earlier ones.",
            stacklevel=4,
        )
    return None if thread is None else str(thread)


def thread_turns(store: RunStore, thread: str, given: Sequence[BaseMessage]) -> list[BaseMessage]:
    """The thread's earlier questions and answers as chat turns, but those `given` holds.

    Each is a human turn, then the answer; the tool steps of those runs stay with their runs.
    """
    asked = {message.text for message in given if isinstance(message, HumanMessage)}
    return [
        turn
        for question, answer in store.history(thread)
        if question not in asked
        for turn in (HumanMessage(question), AIMessage(answer))
    ]
