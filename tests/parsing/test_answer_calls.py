"""A call of one of the agent's tools written like Python as the whole of an `<answer>` block.

Open-AutoGLM's phone agent asks for `<think>...</think><answer>do(action=..., app=...)</answer>`
and `finish(message=...)` to end. With the tools known, an ending block that is one call of one
of them, with that tool's keywords, is the call; a call of the final answer is its answer. Prose,
a call of another name or with other keywords, words after the call and a block that does not
end the reply stay the answer. Every string here is our own.
"""

from __future__ import annotations

import pytest
from langchain_core.tools import tool

from custom_react import CustomReActAgent
from custom_react.formats import TEXT
from custom_react.parser import Action, FinalAnswer
from custom_react.parsing.answer_calls import call_in_answer_tag
from custom_react.testing import Script

TOOLS = {"do": ("action", "app"), "search": ("query",), "time": ()}


@tool
def do(action: str, app: str = "") -> str:
    """Act on the phone."""
    return f"{action} {app}".strip()


@tool
def search(query: str) -> str:
    """Search the web."""
    return f"results for {query}"


READ = TEXT.reading_calls_of([do, search]).parse


@pytest.mark.parametrize(
    ("text", "tool", "tool_input", "thought"),
    [
        ('<think>Open the app first.</think>\n<answer>\ndo(action="Launch", app="Maps")\n</answer>',
         "do", {"action": "Launch", "app": "Maps"}, ""),
        ('<think>先打开知乎。</think><answer>do(action="Launch", app="知乎")</answer>',
         "do", {"action": "Launch", "app": "知乎"}, ""),
        ('I will look it up.\n<answer>search("rose price")</answer>',  # a lone value, one argument
         "search", "rose price", "I will look it up."),
        ('<answer>search(query="玫瑰 价格")', "search", {"query": "玫瑰 价格"}, ""),  # never closed
    ],
)  # fmt: skip
def test_a_tool_s_call_as_the_whole_answer_block_is_that_call(
    text: str, tool: str, tool_input: object, thought: str
) -> None:
    step = READ(text, "en")
    assert isinstance(step, Action)
    assert (step.tool, step.tool_input, step.thought) == (tool, tool_input, thought)


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ('<answer>finish(message="The app is open.")</answer>', "The app is open."),
        (
            "<think>完成了。</think>\n<answer>finish(message='已打开知乎。')</answer>",
            "已打开知乎。",
        ),
    ],
)
def test_a_call_of_the_final_answer_in_the_block_is_its_answer(text: str, answer: str) -> None:
    assert READ(text, "en") == FinalAnswer(output=answer, log=text.split("</think>")[-1].strip())


@pytest.mark.parametrize(
    "text",
    [
        "<answer>Paris is the capital of France.</answer>",
        "<answer>巴黎是法国的首都。</answer>",
        '<answer>print("hello")</answer>',  # no tool of the agent's
        '<answer>do(target="Launch")</answer>',  # a keyword the tool does not have
        '<answer>do("Launch")</answer>',  # a lone value for a tool of two arguments
        '<answer>do(action="Launch") and then wait</answer>',  # words after the call
        '<answer>do(action="Launch")</answer>\nThat is how it would look.',  # words after the block
        'Use do(action="Launch") to open it.',  # no block
        'Final Answer: <answer>do(action="Launch")</answer>',  # an answer the model marked
    ],
)
def test_prose_and_other_calls_in_the_block_stay_the_answer(text: str) -> None:
    step = READ(text, "en")
    assert step == FinalAnswer(output=text.removeprefix("Final Answer: "), log=text)


def test_the_reader_needs_the_tools() -> None:
    text = '<answer>do(action="Launch", app="Maps")</answer>'
    assert isinstance(TEXT.parse(text, "en"), FinalAnswer)  # the format alone: an answer
    assert call_in_answer_tag(text, {"search": ("query",)}) is None
    assert call_in_answer_tag("<answer>time()</answer>", TOOLS) is not None  # no arguments


def test_the_loop_runs_the_call_and_the_model_finishes_after_it() -> None:
    model = Script(
        '<think>Open it.</think>\n<answer>do(action="Launch", app="Maps")</answer>',
        '<think>Done.</think>\n<answer>finish(message="Maps is open.")</answer>',
    )
    result = CustomReActAgent(model.model, [do, search]).invoke("Open Maps.")
    model.assert_consumed()
    ((action, observation),) = result["intermediate_steps"]
    assert (action.tool, action.tool_input, observation) == (
        "do",
        {"action": "Launch", "app": "Maps"},
        "Launch Maps",
    )
    assert result["output"] == "Maps is open."
