"""The loop's messages to the model: one table per language, and a Chinese run reads Chinese."""

from __future__ import annotations

import re
import string

import pytest
from langchain_core.messages import AIMessage
from langchain_core.tools import tool

from custom_react import CustomReActAgent, ObservationEvent, ParseFailure
from custom_react.formats import get_format
from custom_react.prompts import load_messages

CJK = re.compile(r"[\u4e00-\u9fff]")


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_message_has_its_chinese_twin_with_the_same_placeholders():
    english, chinese = load_messages("en"), load_messages("zh")
    assert set(english) == set(chinese)
    for key in english:
        assert fields(english[key]) == fields(chinese[key]), key
        assert CJK.search(chinese[key]) and not CJK.search(english[key]), key


@tool
def lookup(query: str) -> str:
    """Look a fact up."""
    return "很长的结果 " * 200


@tool
def broken(text: str) -> str:
    """A tool that always fails."""
    raise ValueError("boom")


@tool
def command(line: str) -> str:
    """Run a command (needs approval)."""
    return "ran"


command.metadata = {"requires_approval": True}
REPLIES = [
    "",  # an empty reply
    "Thought: 我想想\nAction Input: 1 + 1",  # an input with no action
    "Observation: 旧的结果",  # only an echoed observation
    "Thought: x\nAction:\nAction Input: y",  # no tool name
    "Final Answer:",  # an empty answer
    AIMessage("Thought: 太长了", response_metadata={"finish_reason": "length"}),  # cut off
    "Action: nowhere\nAction Input: q",  # an unknown tool
    "Action: lookup\nAction Input: the query",  # the tool list's input, copied
    "Action: lookup\nAction Input: 玫瑰",  # runs; its long result is truncated
    "Action: lookup\nAction Input: 玫瑰",  # repeated
    "Action: broken\nAction Input: x",  # the tool raises
    "Action: command\nAction Input: ls",  # needs approval; no callback
    "Action: broken\nAction Input: y",  # over its budget of one call
]


def test_every_message_of_a_chinese_run_is_chinese(script):
    model = script(*REPLIES, "Final Answer: 完")
    broken.metadata = {"max_calls": 1}
    agent = CustomReActAgent(
        model.model,
        [lookup, broken, command],
        language="zh",
        max_iterations=len(REPLIES),
        max_consecutive_parse_failures=10,
        max_observation_chars=300,
        early_stopping_method="generate",
    )
    events = list(agent.stream("玫瑰多少钱？"))
    told = [e.error for e in events if isinstance(e, ParseFailure)]
    told += [e.step.observation for e in events if isinstance(e, ObservationEvent)]
    assert len(told) == len(REPLIES)
    for text in told:
        assert CJK.search(text.replace("很长的结果", "").replace("玫瑰", "")), text
    assert "截去了" in told[8]
    nudge = model.prompts[-1][-1].text
    assert "你已经没有步数了" in nudge
    english = {key: value for key, value in load_messages("en").items() if "{" not in value}
    for text in [*told, nudge]:
        assert not any(value in text for value in english.values()), text


@pytest.mark.parametrize(
    ("step_format", "broken", "answer", "key"),
    [
        (
            "xml",
            "<thought>嗯</thought><action_input>1</action_input>",
            "<final_answer>完</final_answer>",
            "xml_no_step",
        ),
        ("json", '{"thought": "嗯"}', '{"final_answer": "完"}', "json_no_step"),
    ],
)
def test_the_xml_and_json_formats_explain_themselves_in_chinese(
    script, step_format, broken, answer, key
):
    model = script(broken, answer)
    events = list(CustomReActAgent(model.model, [], format=step_format, language="zh").stream("问"))
    (failure,) = [e for e in events if isinstance(e, ParseFailure)]
    expected = load_messages("zh")[key].split("{")[0]
    assert failure.error.startswith(expected) and CJK.search(failure.error)
    assert get_format(step_format).render_observation(failure.error) in model.prompts[1][-1].text


def test_a_follow_up_reads_the_answers_and_not_what_the_run_sent_back(script, tools):
    """`{"messages": [*result["messages"], follow_up]}`: the model reads questions and answers."""
    from custom_react import grounded_numbers

    first = script(
        "Final Answer: 46.75",
        "Action: calculator\nAction Input: 15 * 3.1",
        "Final Answer: 46.5",
    )
    agent = CustomReActAgent(first.model, tools, final_answer_checks=[grounded_numbers])
    messages = agent.invoke("15 roses at 3.10?")["messages"]
    # an input with no action: a format error, then the answer
    second = script("Thought: again\nAction Input: 46.5", "Final Answer: 46.5 dollars")
    given = {"messages": [*messages, ("user", "Say it again.")]}
    messages = CustomReActAgent(second.model, tools).invoke(given)["messages"]
    follow_up = script("Final Answer: ok")
    CustomReActAgent(follow_up.model, []).invoke({"messages": [*messages, ("user", "Thanks")]})
    read = [(type(m).__name__, m.text) for m in follow_up.prompts[0][1:-1]]
    assert read == [
        ("HumanMessage", "15 roses at 3.10?"),
        ("AIMessage", "46.5"),
        ("HumanMessage", "Say it again."),
        ("AIMessage", "46.5 dollars"),
    ]


def test_a_follow_up_reads_the_answer_a_tool_returned(script):
    @tool(return_direct=True)
    def lookup(query: str) -> str:
        """Look up a door code."""
        return "The code is 4711."

    agent = CustomReActAgent(script("Action: lookup\nAction Input: door").model, [lookup])
    result = agent.invoke("Door code?")
    follow_up = script("Final Answer: 4711")
    given = {"messages": [*result["messages"], ("user", "Repeat it.")]}
    CustomReActAgent(follow_up.model, []).invoke(given)
    read = [(type(m).__name__, m.text) for m in follow_up.prompts[0][1:-1]]
    assert read == [("HumanMessage", "Door code?"), ("AIMessage", "The code is 4711.")]
