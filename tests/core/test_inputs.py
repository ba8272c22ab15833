"""What the agent takes: a question, the legacy `{"input": ...}` shape, and LangChain 1.x's messages.

`{"messages": [...]}` (what `create_agent` takes) runs as the question in its last human message,
with the messages before it as the chat history the model reads; the legacy shape keeps working.
Scripted models, in invoke, ainvoke and stream, English and Chinese.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from custom_react import CustomReActAgent
from tests.conftest import run_by

WAYS = ["invoke", "ainvoke", "stream"]
TALK = {
    "en": [("I am Li.", "Hello, Li."), "What is my name?", "Your name is Li."],
    "zh": [("我叫李雷。", "你好，李雷。"), "我叫什么名字？", "你叫李雷。"],
}


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("way", WAYS)
def test_messages_input_asks_the_last_human_message_with_the_rest_as_history(
    script: Any, way: str, language: str
) -> None:
    (said, answered), question, answer = TALK[language]
    model = script(f"Final Answer: {answer}")
    agent = CustomReActAgent(model.model, [], language=language)
    given = {"messages": [("user", said), ("ai", answered), HumanMessage(question)]}
    result, _ = run_by(agent, way, given)
    assert result["input"] == question and result["output"] == answer
    (prompt,) = model.prompts
    assert [m.content for m in prompt[1:3]] == [said, answered]  # the history, before the question
    assert isinstance(prompt[2], AIMessage) and question in prompt[3].content


@pytest.mark.parametrize("way", WAYS)
def test_the_legacy_shape_and_a_plain_question_still_work(script: Any, way: str) -> None:
    model = script("Final Answer: 4", "Final Answer: 5")
    agent = CustomReActAgent(model.model, [])
    assert run_by(agent, way, "2 + 2?")[0]["output"] == "4"
    legacy = {"input": "2 + 3?", "chat_history": [("human", "hi"), ("ai", "hello")]}
    assert run_by(agent, way, legacy)[0]["output"] == "5"
    assert [m.content for m in model.prompts[1][1:3]] == ["hi", "hello"]


@pytest.mark.parametrize(
    ("given", "problem"),
    [
        ({"messages": [AIMessage("hello")]}, "no human message"),
        ({"messages": "What is 2 + 2?"}, "messages must be a list"),
        ({"messages": [SystemMessage("be brief")]}, "no human message"),
        ({"input": "q", "chat_history": "hello"}, "chat_history must be a list"),
        ({"question": "q"}, '"messages"'),
        (42, "question string"),
    ],
)
def test_a_wrong_input_says_which_shapes_work(script: Any, given: Any, problem: str) -> None:
    agent = CustomReActAgent(script().model, [])
    with pytest.raises(TypeError, match=problem):
        agent.invoke(given)


@pytest.mark.parametrize(
    "given",
    ["", "   \n", {"input": ""}, {"messages": [("user", " ")]}],
    ids=["empty", "blank", "input", "messages"],
)
def test_an_empty_question_is_refused_before_any_model_call(script: Any, given: Any) -> None:
    agent = CustomReActAgent(script().model, [])  # no replies: a model call would fail the test
    with pytest.raises(ValueError, match="The question is empty"):
        agent.invoke(given)


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("way", WAYS)
def test_the_last_message_is_the_answer_and_the_react_text_stays_with_it(
    script: Any, way: str, language: str
) -> None:
    reply = {"en": "Thought: easy\nFinal Answer: 4", "zh": "思考：很简单\n最终答案：4"}[language]
    agent = CustomReActAgent(script(reply).model, [], language=language)
    result, _ = run_by(agent, way, {"messages": [("user", "2 + 2?")]})
    last = result["messages"][-1]
    assert isinstance(last, AIMessage) and last.text == "4" == result["output"]
    assert "4" in last.response_metadata["react_log"]  # the step as the model wrote it


@pytest.mark.parametrize("way", WAYS)
def test_result_messages_go_on_the_conversation_as_create_agent_s_do(
    script: Any, tools: Any, way: str
) -> None:
    step = "Thought: add\nAction: calculator\nAction Input: 2 + 2"
    model = script(step, "Final Answer: 4", "Final Answer: 8")
    agent = CustomReActAgent(model.model, tools)
    first, _ = run_by(agent, way, {"messages": [("user", "2 + 2?")]})
    follow_up = HumanMessage("Double it.")
    second, _ = run_by(agent, way, {"messages": [*first["messages"], follow_up]})
    assert second["messages"][: len(first["messages"]) + 1] == [*first["messages"], follow_up]
    assert second["messages"][-1].text == "8"
    # The model reads the earlier question and answer, never a provider tool call.
    history = model.prompts[-1][1:-1]
    assert [m.text for m in history] == ["2 + 2?", "4"]
    assert not any(m.type == "tool" or getattr(m, "tool_calls", None) for m in model.prompts[-1])


def test_a_prompt_value_a_message_or_a_list_of_them_is_an_input(script: Any) -> None:
    """What a chat model takes, the agent takes: so `prompt | agent` works."""
    from langchain_core.prompts import ChatPromptTemplate

    prompt = ChatPromptTemplate.from_messages([("system", "Be brief."), ("human", "{q}")])
    for given in (
        prompt.invoke({"q": "Capital of France?"}),
        HumanMessage("Capital of France?"),
        [SystemMessage("Be brief."), HumanMessage("Capital of France?")],
    ):
        model = script("Final Answer: Paris")
        assert CustomReActAgent(model.model, []).invoke(given)["output"] == "Paris"
        assert "Question: Capital of France?" in model.prompts[0][-1].content
    chained = prompt | CustomReActAgent(script("Final Answer: Paris").model, [])
    assert chained.invoke({"q": "Capital of France?"})["output"] == "Paris"


def only_one_system_message_first(prompt: list[Any]) -> SystemMessage:
    """The prompt's system message, checked to be its only one and its first (Anthropic's rule)."""
    assert [m.type for m in prompt].count("system") == 1 and isinstance(prompt[0], SystemMessage)
    return prompt[0]


@pytest.mark.parametrize("way", ["invoke", "ainvoke"])  # a chain streams no agent events
def test_the_input_s_system_message_joins_the_agent_s_system_turn(script: Any, way: str) -> None:
    from langchain_core.prompts import ChatPromptTemplate

    model = script("Final Answer: Arr, 42.")
    agent = CustomReActAgent(model.model, [], system_prompt="Answer in one line.")
    prompt = ChatPromptTemplate.from_messages([("system", "You are a pirate."), ("user", "{q}")])
    result, _ = run_by(prompt | agent, way, {"q": "What is 6*7?"})
    system = only_one_system_message_first(model.prompts[0])
    # The input's instructions open the system turn, then the agent's own, then the tool list.
    assert system.text.startswith("You are a pirate.\n\nAnswer in one line.\n\nAnswer the")
    assert result["messages"][0] == SystemMessage("You are a pirate.")  # the input, as given


def test_a_system_message_in_a_thread_s_next_question_stays_in_the_system_turn(
    script: Any,
) -> None:
    from langchain_core.prompts import ChatPromptTemplate

    from custom_react.pausing.store import MemoryStore

    store, thread = MemoryStore(), {"configurable": {"thread_id": "t1"}}
    prompt = ChatPromptTemplate.from_messages([("system", "You are a pirate."), ("user", "{q}")])
    model = script("Final Answer: Ahoy, Li.", "Final Answer: Li, matey.")
    chain = prompt | CustomReActAgent(model.model, [], checkpoint=store)
    chain.invoke({"q": "My name is Li."}, thread)
    chain.invoke({"q": "What is my name?"}, thread)
    second = model.prompts[1]
    assert only_one_system_message_first(second).text.startswith("You are a pirate.")
    assert [m.text for m in second[1:3]] == ["My name is Li.", "Ahoy, Li."]  # the thread's turns


def test_a_question_s_text_blocks_are_read_and_an_image_is_left_out_with_a_warning(
    script: Any,
) -> None:
    model = script("Final Answer: a cat", "Final Answer: same")
    agent = CustomReActAgent(model.model, [])
    image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}
    with pytest.warns(UserWarning, match="image_url content is left out"):
        agent.invoke({"messages": [HumanMessage([{"type": "text", "text": "What is it?"}, image])]})
    parts = [{"type": "text", "text": "Compare part one"}, {"type": "text", "text": "part two."}]
    assert agent.invoke({"messages": [HumanMessage(parts)]})["input"] == (
        "Compare part one\npart two."
    )


def test_the_question_comes_back_as_the_message_it_came_in(script):
    question = HumanMessage("What is 2+2?", id="q-1", name="li")
    earlier = [HumanMessage("hi", id="h-1"), AIMessage("hello", id="a-1")]
    agent = CustomReActAgent(script("Final Answer: 4").model, [])
    messages = agent.invoke({"messages": [*earlier, question]})["messages"]
    assert [m.id for m in messages[:3]] == ["h-1", "a-1", "q-1"] and messages[2].name == "li"


def test_a_langgraph_graph_of_the_agent_keeps_each_question_once(script):
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.graph import END, START, MessagesState, StateGraph

    graph = StateGraph(MessagesState)
    graph.add_node(
        "agent", CustomReActAgent(script("Final Answer: 4", "Final Answer: 6").model, [])
    )
    graph.add_edge(START, "agent")
    graph.add_edge("agent", END)
    app = graph.compile(checkpointer=InMemorySaver())
    thread = {"configurable": {"thread_id": "1"}}
    app.invoke({"messages": [("user", "What is 2+2?")]}, thread)
    out = app.invoke({"messages": [("user", "And 3+3?")]}, thread)
    assert [m.text for m in out["messages"]] == ["What is 2+2?", "4", "And 3+3?", "6"]


DONE_ALREADY = [
    HumanMessage("What is 1234 * 5678? Then add 1.", id="q"),
    AIMessage(
        "I multiply first.",
        id="a",
        tool_calls=[{"name": "calculator", "args": {"expression": "1234 * 5678"}, "id": "c1"}],
    ),
    ToolMessage("7006652", tool_call_id="c1", id="t"),
]


@pytest.mark.parametrize("step_format", ["text", "xml", "json"])
@pytest.mark.parametrize("way", WAYS)
def test_messages_after_the_question_are_read_and_given_back_as_they_came(
    script: Any, tools: Any, way: str, step_format: str
) -> None:
    # A tool call already made on the question and its result (a graph's state mid-run, another
    # agent's hand-over): the model reads them before its own steps, and the result's messages
    # keep them, ids and all, between the question and the run's own steps.
    answer = {"json": '{"final_answer": "7006653"}', "xml": "<final_answer>7006653</final_answer>"}
    model = script(answer.get(step_format, "Final Answer: 7006653"))
    agent = CustomReActAgent(model.model, tools, format=step_format)
    result, _ = run_by(agent, way, {"messages": DONE_ALREADY})
    shown = model.prompts[0][-1].text
    call = '{"name": "calculator", "arguments": {"expression": "1234 * 5678"}}'
    assert shown.index("Then add 1.") < shown.index("I multiply first.") < shown.index(call)
    assert shown.index(call) < shown.index("7006652")
    assert [m.id for m in result["messages"][:3]] == ["q", "a", "t"]
    assert result["messages"][-1].text == "7006653" and result["output"] == "7006653"
    assert result["intermediate_steps"] == []  # not this run's steps


def test_another_node_s_words_after_the_question_are_read_in_a_graph(script: Any) -> None:
    from langgraph.graph import END, START, MessagesState, StateGraph

    def retrieve(state: Any) -> dict[str, Any]:
        found = "Retrieved policy: refunds within 45 days."
        return {"messages": [AIMessage(found, name="retriever")]}

    model = script("Final Answer: 45 days")
    graph = StateGraph(MessagesState)
    graph.add_node("retrieve", retrieve)
    graph.add_node("agent", CustomReActAgent(model.model, []))
    graph.add_edge(START, "retrieve")
    graph.add_edge("retrieve", "agent")
    graph.add_edge("agent", END)
    out = graph.compile().invoke({"messages": [("user", "How long do I have for a refund?")]})
    assert "refunds within 45 days" in model.prompts[0][-1].text
    texts = [m.text for m in out["messages"]]  # each message once: merged by id
    assert texts == [
        "How long do I have for a refund?",
        "Retrieved policy: refunds within 45 days.",
        "45 days",
    ]


def test_a_paused_run_keeps_the_messages_after_its_question(script: Any) -> None:
    from langchain_core.tools import tool

    @tool
    def send(text: str) -> str:
        """Send a text."""
        return "sent"

    send.metadata = {"requires_approval": True}
    model = script("Action: send\nAction Input: 7006653", "Final Answer: sent 7006653")
    agent = CustomReActAgent(model.model, [send], approval="interrupt")
    paused = agent.invoke({"messages": DONE_ALREADY})
    done = agent.invoke({"resume": paused["state"], "decision": {"approve": True}})
    assert "7006652" in model.prompts[1][-1].text  # the resumed run's prompt still shows it
    assert [m.id for m in done["messages"][:3]] == ["q", "a", "t"]


def test_the_run_s_own_steps_handed_back_after_the_question_are_shown_as_written(script, tools):
    # A graph that loops back to the agent node (no new question) hands it its own earlier
    # steps: each tool step is read as the model wrote it, its call not written a second time.
    first = CustomReActAgent(
        script("Action: calculator\nAction Input: 2 * 3", "Final Answer: 6").model, tools
    ).invoke("What is 2 * 3?")
    model = script("Final Answer: still 6")
    CustomReActAgent(model.model, tools).invoke({"messages": first["messages"]})
    shown = model.prompts[0][-1].text
    assert shown.count("2 * 3") == 2  # the question and the Action Input, no JSON call after it
    assert '"name": "calculator"' not in shown and "Observation: 6" in shown
