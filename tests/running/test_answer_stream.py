"""Only the Final Answer as it is written: `stream_final_answer` and `final_answer_tokens`.

Scripted replies stream in small chunks, so the marker arrives split (`Fin`, `al Ans`, `wer:`);
steps before the answer give nothing; the pieces always join to the run's output.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from pydantic import BaseModel

from custom_react import CustomReActAgent
from custom_react.events import ReplyToken
from custom_react.running.answer_stream import final_answer_tokens
from custom_react.testing import Script

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


class Price(BaseModel):
    item: str
    unit_price: float


def checked_agent(language: str, *replies: str, **options: Any) -> CustomReActAgent:
    return CustomReActAgent(Script(*replies).model, [], language=language, **options)


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("way", ["sync", "async"])
def test_a_rejected_answer_never_streams_only_the_accepted_one(language: str, way: str) -> None:
    rejected = 'Final Answer: {"item": "rose"}'
    accepted = 'Final Answer: {"item": "rose", "unit_price": 1.05}'
    agent = checked_agent(language, rejected, accepted, response_format=Price)
    if way == "sync":
        pieces = list(agent.stream_final_answer("What does a rose cost?"))
    else:

        async def collect() -> list[str]:
            return [p async for p in agent.astream_final_answer("What does a rose cost?")]

        pieces = asyncio.run(collect())
    assert "".join(pieces) == '{"item": "rose", "unit_price": 1.05}'


def test_an_answer_a_check_sends_back_does_not_stream() -> None:
    def no_guess(answer: str, steps: Any) -> str | None:
        return "Say where the number comes from." if "guess" in answer else None

    agent = checked_agent(
        "en",
        "Final Answer: about 2, a guess",
        "Final Answer: 1.2 yuan",
        final_answer_checks=[no_guess],
    )
    assert "".join(agent.stream_final_answer("Price?")) == "1.2 yuan"


def test_a_run_whose_answer_never_validates_streams_no_answer() -> None:
    bad = 'Final Answer: {"item": "rose"}'
    agent = checked_agent("en", bad, bad, bad, response_format=Price, max_answer_retries=2)
    assert list(agent.stream_final_answer("Price?")) == []


ANSWERS_BY_FORMAT = {
    "text": 'Thought: easy\nFinal Answer: He said "Paris", the capital.',
    "xml": '<thought>easy</thought>\n<final_answer>He said "Paris", the capital.</final_answer>',
    "json": '{"thought": "easy", "final_answer": "He said \\"Paris\\", the capital."}',
}


@pytest.mark.parametrize("step_format", list(ANSWERS_BY_FORMAT))
def test_the_answer_streams_in_pieces_in_every_format(step_format: str) -> None:
    model = Script(ANSWERS_BY_FORMAT[step_format], chunk_size=3)
    agent = CustomReActAgent(model.model, [], format=step_format)
    pieces = list(agent.stream_final_answer("Capital of France?"))
    assert len(pieces) > 5  # as it is written, not whole at the end
    assert "".join(pieces) == 'He said "Paris", the capital.'


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        ('{"thought": "x", "final_answer": "Par', "Par"),
        ('{"final_answer": "He said \\"hi\\" and', 'He said "hi" and'),
        ('{"final_answer": "caf\\u00e', "caf"),  # an escape cut in two waits for its next piece
        ('{"action": "Final Answer", "action_input": "Paris is', "Paris is"),
        ('{"action": "search", "action_input": "rose", "answer": "x"}', ""),  # a tool's step
        ('{"thought": "still thinking', ""),
    ],
)
def test_a_json_step_s_answer_so_far(reply: str, answer: str) -> None:
    from custom_react.formats.json_format import json_answer_so_far

    assert json_answer_so_far(reply) == answer


@pytest.mark.parametrize("chunk_size", [3, None])
def test_an_answer_generated_at_the_step_limit_streams_too(script, tools, chunk_size):
    # early_stopping_method="generate": the run ends at its limit with an answer all the same.
    generated = "Thought: I must answer now\nFinal Answer: About 1.2 yuan."
    model = script(SEARCH, generated, chunk_size=chunk_size)
    agent = CustomReActAgent(model.model, tools, max_iterations=1, early_stopping_method="generate")
    assert "".join(agent.stream_final_answer("What does a rose cost?")) == "About 1.2 yuan."
