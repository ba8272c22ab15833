"""An Action line that copies the prompt's placeholder, with the tool named where the input starts.

`Action: the action to take, should be one of [Time, Wolfram Alpha]` then `Action Input: Wolfram
Alpha 222+222`: with the tools known, the step runs the tool the input starts with, on the rest of
the input. Only an action that is none of the tools and names two or more of them (the copied
list) is read so; an input that names a tool later, an Action that names one tool, and a real tool
name on the Action line stay as they were. Every string here is our own.
"""

from __future__ import annotations

import pytest
from langchain_core.tools import tool

from custom_react import CustomReActAgent
from custom_react.formats import TEXT
from custom_react.parser import Action
from custom_react.testing import Script


@tool("Wolfram Alpha")
def wolfram(query: str) -> str:
    """Compute an answer."""
    return "444"


@tool("Time")
def time_now(query: str = "") -> str:
    """The time now."""
    return "12:00"


@tool("Python Execute")
def python_execute(query: str) -> str:
    """Run Python."""
    return "ok"


@tool("Python")
def python(query: str) -> str:
    """Run Python (short)."""
    return "ok"


TOOLS = [wolfram, time_now, python_execute, python]
READ = TEXT.reading_calls_of(TOOLS).parse
PLACEHOLDER = "the action to take, should be one of [Time, Wolfram Alpha, Python Execute, Python]"


@pytest.mark.parametrize(
    ("text", "tool", "tool_input"),
    [
        (f"Thought: Do I need to use a tool? Yes\nAction: {PLACEHOLDER}\n"
         "Action Input: Wolfram Alpha 222+222", "Wolfram Alpha", "222+222"),
        (f"Action: {PLACEHOLDER}\nAction Input: wolfram alpha: 3 * 7", "Wolfram Alpha", "3 * 7"),
        (f"Action: {PLACEHOLDER}\nAction Input: Python Execute print(1)",  # the longest name
         "Python Execute", "print(1)"),
        (f"Action: {PLACEHOLDER}\nAction Input: Time", "Time", ""),
        ("思考：需要计算。\n行动：要采取的行动，应该是 [Time, Wolfram Alpha] 之一\n"
         "行动输入：Wolfram Alpha 一加一", "Wolfram Alpha", "一加一"),
        (f"Action: {PLACEHOLDER}\nAction Input: Wolfram Alpha, " '{"query": "2+2"}',
         "Wolfram Alpha", {"query": "2+2"}),
        # Near misses, read as written:
        ("Action: Wolfram Alpha\nAction Input: Time zones of Asia", "Wolfram Alpha",
         "Time zones of Asia"),  # a real tool on the Action line
        ("Action: use Wolfram Alpha\nAction Input: Wolfram Alpha 2+2", "use Wolfram Alpha",
         "Wolfram Alpha 2+2"),  # names one tool: no copied list
        (f"Action: {PLACEHOLDER}\nAction Input: ask Wolfram Alpha 2+2", PLACEHOLDER[:-1],
         "ask Wolfram Alpha 2+2"),  # the tool not at the start
        (f"Action: {PLACEHOLDER}\nAction Input: Timeline of Rome", PLACEHOLDER[:-1],
         "Timeline of Rome"),  # a word that only starts with a tool's name
    ],
)  # fmt: skip
def test_the_step_read_with_the_tools(text: str, tool: str, tool_input: object) -> None:
    step = READ(text, "en")
    assert isinstance(step, Action) and (step.tool, step.tool_input) == (tool, tool_input)


def test_the_loop_runs_the_tool_the_input_names() -> None:
    model = Script(
        f"Thought: Do I need to use a tool? Yes\nAction: {PLACEHOLDER}\n"
        "Action Input: Wolfram Alpha 222+222",
        "Final Answer: 444",
    )
    result = CustomReActAgent(model.model, TOOLS).invoke("What is 222+222?")
    model.assert_consumed()
    ((action, observation),) = result["intermediate_steps"]
    assert (action.tool, action.tool_input, observation) == ("Wolfram Alpha", "222+222", "444")
    assert result["output"] == "444"
