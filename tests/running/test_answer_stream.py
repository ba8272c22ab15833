"""Only the Final Answer as it is written: `stream_final_answer` and `final_answer_tokens`.

Scripted replies stream in small chunks, so the marker arrives split (`Fin`, `al Ans`, `wer:`);
steps before the answer give nothing; the pieces always join to the run's output.
"""

from __future__ import annotations

import asyncio

import pytest

from custom_react import CustomReActAgent
from custom_react.events import ReplyToken
from custom_react.running.answer_stream import final_answer_tokens

SEARCH = "I need the price.\nAction: search\nAction Input: rose"
ANSWER = "Thought: I now know the final answer\nFinal Answer: About 1.26 yuan per stem."


@pytest.mark.parametrize("chunk_size", [1, 3, 7, None])
def test_the_answer_streams_after_a_tool_step_with_the_marker_split(script, tools, chunk_size):
    agent = CustomReActAgent(script(SEARCH, ANSWER, chunk_size=chunk_size).model, tools)
    pieces = list(agent.stream_final_answer("What does a rose cost?"))
    assert "".join(pieces) == "About 1.26 yuan per stem."
    assert len(pieces) >= 2
    assert not any("Final" in piece or "price" in piece for piece in pieces)


def test_a_chinese_marker_split_across_chunks(script, tools):
    replies = (
        "先查批发价。\nAction: search\nAction Input: 玫瑰",
        "我知道了。\n最终答案：每枝约 1.26 元。",
    )
    agent = CustomReActAgent(script(*replies, chunk_size=2).model, tools, language="zh")
    pieces = list(agent.stream_final_answer("玫瑰多少钱？"))
    assert "".join(pieces) == "每枝约 1.26 元。" and len(pieces) >= 3


def test_a_full_width_colon_and_markdown_marker(script, tools):
    agent = CustomReActAgent(script("**Final Answer**： 42", chunk_size=2).model, tools)
    assert "".join(agent.stream_final_answer("?")) == "42"


def test_an_answer_without_a_marker_comes_whole_at_the_end(script, tools):
    agent = CustomReActAgent(script("It is simply 4.").model, tools)
    assert list(agent.stream_final_answer("2 + 2?")) == ["It is simply 4."]


def test_a_made_up_observation_after_an_action_is_no_answer(script, tools):
    made_up = "Let me look.\nAction: search\nAction Input: rose\nObservation: 9\nFinal Answer: 9"
    agent = CustomReActAgent(script(made_up, ANSWER, chunk_size=4).model, tools)
    assert "".join(agent.stream_final_answer("?")) == "About 1.26 yuan per stem."


def test_a_run_without_an_answer_yields_nothing(script, tools):
    agent = CustomReActAgent(script(SEARCH).model, tools, max_iterations=1)
    assert list(agent.stream_final_answer("?")) == []


def test_the_async_variant(script, tools):
    agent = CustomReActAgent(script(SEARCH, ANSWER, chunk_size=5).model, tools)

    async def run():
        return [piece async for piece in agent.astream_final_answer("?")]

    pieces = asyncio.run(run())
    assert "".join(pieces) == "About 1.26 yuan per stem." and len(pieces) >= 3


def test_final_answer_tokens_over_any_event_list():
    events = [ReplyToken(text) for text in ("Final An", "swer: ", "yes", " indeed")]
    assert list(final_answer_tokens(events)) == ["yes", " indeed"]
