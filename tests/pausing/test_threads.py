"""Threads: with a checkpoint store and a `thread_id`, a question sees the thread's earlier Q&A."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from custom_react import CustomReActAgent
from custom_react.pausing.checkpoints import SQLiteStore
from custom_react.pausing.store import MemoryStore
from tests.conftest import run_by

STEP = "Thought: I need the product.\nAction: calculator\nAction Input: 17 * 23"


def thread(name: str) -> Any:
    return {"configurable": {"thread_id": name}}


def turns(prompt: list[Any]) -> list[tuple[str, str]]:
    """The chat turns of one prompt between the system turn and the question."""
    return [(type(m).__name__, m.text) for m in prompt[1:-1]]


@pytest.mark.parametrize("kind", ["sqlite", "memory"])
def test_a_later_question_of_the_thread_sees_the_earlier_questions_and_answers(
    script, tools, tmp_path, kind
):
    def store() -> Any:
        return SQLiteStore(tmp_path / "chat.db") if kind == "sqlite" else shared

    shared = MemoryStore()
    first = script(STEP, "Final Answer: 391")
    CustomReActAgent(first.model, tools, checkpoint=store()).invoke(
        "What is 17 * 23?", thread("t1")
    )
    later = script("Final Answer: 391 and 7")
    agent = CustomReActAgent(later.model, tools, checkpoint=store())  # a new agent, the same store
    agent.invoke("And the first answer plus 7?", thread("t1"))
    assert turns(later.prompts[0]) == [
        ("HumanMessage", "What is 17 * 23?"),
        ("AIMessage", "391"),
    ]  # the question and its answer; not the tool step
    other = script("Final Answer: ?")
    CustomReActAgent(other.model, tools, checkpoint=store()).invoke("What was it?", thread("t2"))
    assert turns(other.prompts[0]) == []


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream"])
def test_every_way_of_running_keeps_the_thread(script, way, language):
    store = MemoryStore()
    questions = ["My name is Li.", "我叫什么名字？", "What is my name?"]
    replies = ["Final Answer: Hello, Li.", "Final Answer: 你叫 Li。", "Final Answer: Li."]
    for number, (question, reply) in enumerate(zip(questions, replies, strict=True)):
        model = script(reply)
        agent = CustomReActAgent(model.model, [], checkpoint=store, language=language)
        run_by(agent, way, question, **thread("t1"))
        assert len(turns(model.prompts[0])) == 2 * number
    assert store.history("t1")[1] == ("我叫什么名字？", "你叫 Li。")


def test_a_run_that_did_not_answer_is_not_history(script, tools):
    store = MemoryStore()
    stopped = script(STEP)
    CustomReActAgent(stopped.model, tools, checkpoint=store, max_iterations=1).invoke(
        "What is 17 * 23?", thread("t1")
    )
    assert store.history("t1") == []


@pytest.mark.parametrize("kind", ["sqlite", "memory"])
def test_an_answer_generated_at_the_step_limit_joins_the_thread(script, tools, tmp_path, kind):
    def store() -> Any:
        return SQLiteStore(tmp_path / "chat.db") if kind == "sqlite" else shared

    shared = MemoryStore()
    first = CustomReActAgent(
        script(STEP, "Final Answer: 391").model,
        tools,
        checkpoint=store(),
        max_iterations=1,
        early_stopping_method="generate",
    )
    result = first.invoke("What is 17 * 23?", thread("t1"))
    assert result["stop_reason"] == "max_iterations" and result["output"] == "391"
    later = script("Final Answer: 398")
    CustomReActAgent(later.model, tools, checkpoint=store()).invoke(
        "And the first answer plus 7?", thread("t1")
    )
    assert turns(later.prompts[0]) == [
        ("HumanMessage", "What is 17 * 23?"),
        ("AIMessage", "391"),
    ]


def test_a_paused_run_is_not_history(script, tools):
    store = MemoryStore()
    tools[0].metadata = {"requires_approval": True}  # the calculator waits for a person
    paused = CustomReActAgent(
        script(STEP).model, tools, checkpoint=store, approval="interrupt"
    ).invoke("What is 17 * 23?", thread("t1"))
    assert paused["stop_reason"] == "needs_approval" and store.history("t1") == []


def test_the_history_is_cut_oldest_first_to_fit_the_token_budget(script):
    store = MemoryStore()
    for number in range(6):
        model = script(f"Final Answer: answer {number} " + "x" * 400)
        CustomReActAgent(model.model, [], checkpoint=store).invoke(
            f"question {number}", thread("t")
        )
    model = script("Final Answer: done")
    CustomReActAgent(model.model, [], checkpoint=store, max_prompt_tokens=600).invoke(
        "question 6", thread("t")
    )
    shown = turns(model.prompts[0])
    assert 0 < len(shown) < 12 and len(shown) % 2 == 0
    assert shown[-1][1].startswith("answer 5")  # the newest turns stay
    assert shown[0] == ("HumanMessage", f"question {6 - len(shown) // 2}")


def test_a_thread_id_without_a_store_keeps_nothing(script):
    model = script("Final Answer: hi")
    with pytest.warns(UserWarning, match="thread_id is ignored without checkpoint="):
        CustomReActAgent(model.model, []).invoke("hello", thread("t1"))
    again = script("Final Answer: hi")
    with pytest.warns(UserWarning, match="give the agent a store"):
        CustomReActAgent(again.model, []).invoke("hello again", thread("t1"))
    assert turns(again.prompts[0]) == []


def test_given_chat_history_comes_after_the_thread(script):
    store = MemoryStore()
    CustomReActAgent(script("Final Answer: one").model, [], checkpoint=store).invoke(
        "q1", thread("t")
    )
    model = script("Final Answer: two")
    given = {"input": "q3", "chat_history": [HumanMessage("q2"), AIMessage("a2")]}
    CustomReActAgent(model.model, [], checkpoint=store).invoke(given, thread("t"))
    assert [text for _, text in turns(model.prompts[0])] == ["q1", "one", "q2", "a2"]


def test_a_history_that_holds_the_thread_reads_each_turn_once(script):
    store = MemoryStore()
    first = CustomReActAgent(script("Final Answer: Hello, Li.").model, [], checkpoint=store)
    result = first.invoke({"messages": [("user", "My name is Li.")]}, thread("t"))
    model = script("Final Answer: Li.")
    follow_up = {"messages": [*result["messages"], ("user", "What is my name?")]}
    CustomReActAgent(model.model, [], checkpoint=store).invoke(follow_up, thread("t"))
    assert [text for _, text in turns(model.prompts[0])] == ["My name is Li.", "Hello, Li."]


def test_a_thread_kept_by_a_langgraph_checkpointer_is_not_warned_of(script):
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.graph import END, START, MessagesState, StateGraph

    graph = StateGraph(MessagesState)
    graph.add_node("agent", CustomReActAgent(script("Final Answer: 4").model, []))
    graph.add_edge(START, "agent")
    graph.add_edge("agent", END)
    app = graph.compile(checkpointer=InMemorySaver())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = app.invoke({"messages": [("user", "What is 2+2?")]}, thread("g"))
    assert out["messages"][-1].text == "4"
