"""A stand-in model for measuring and testing the harness at scale: text ReAct with a set latency.

`SimulatedModel(latency=0.2)` answers any number of arithmetic questions, in any order and from
any number of threads at once, as a text-ReAct model would: asked "What is 17 * 23?", it writes a
Thought, `Action: calculator` and the expression; shown the Observation, it writes the Final
Answer with that value. Each reply takes `latency` seconds (a sleep, as a server's answer would:
the thread waits without using a core). Unlike a script it holds no order, so concurrent runs
cannot take each other's replies; unlike a real model it is never wrong. `arithmetic_cases(n)`
makes `n` such questions with their expected answers. For the harness's tests and benchmarks
(`bench/scale_throughput.py`); the agents' own behaviour is tested with `custom_react.testing`.
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from custom_react.compare.questions import Question

_EXPRESSION = re.compile(r"\d+(?:\.\d+)?\s*[-+*/]\s*\d+(?:\.\d+)?")
_OBSERVATION = re.compile(r"Observation:\s*(.*)")


class SimulatedModel(BaseChatModel):
    """A text-ReAct model for arithmetic questions that takes `latency` seconds a reply."""

    latency: float = 0.0
    """Seconds each reply takes."""

    @property
    def _llm_type(self) -> str:
        return "simulated-react"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        """Wait `latency` seconds (without holding a core), then write the next step."""
        time.sleep(self.latency)
        return _result(react_reply(messages))

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        """The same reply, waiting with `asyncio.sleep`."""
        await asyncio.sleep(self.latency)
        return _result(react_reply(messages))


def react_reply(messages: list[BaseMessage]) -> str:
    """The next text-ReAct step for the question in the last message (and its steps so far)."""
    text = messages[-1].text
    run = text[text.rfind("Question:") :]  # the question and this run's steps, not the prompt's
    if observations := _OBSERVATION.findall(run):
        return f"Thought: I have the result.\nFinal Answer: {observations[-1].strip()}"
    expression = _EXPRESSION.search(run)
    if expression is None:
        return "Thought: Nothing to compute.\nFinal Answer: I cannot tell."
    return f"Thought: I need to compute it.\nAction: calculator\nAction Input: {expression[0]}"


def _result(text: str) -> ChatResult:
    usage = {"input_tokens": 100, "output_tokens": 12, "total_tokens": 112}
    return ChatResult(generations=[ChatGeneration(message=AIMessage(text, usage_metadata=usage))])


def arithmetic_cases(count: int) -> list[Question]:
    """`count` distinct multiplication questions, `c0000` to `c<count-1>`, with their answers."""
    return [
        Question(f"What is {17 + n} * {23 + n % 7}?", f"c{n:04d}", (17 + n) * (23 + n % 7))
        for n in range(count)
    ]
