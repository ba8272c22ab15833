"""Scripted models, offline tools and one question shared by the comparison tests.

`scripted(...)` is LangChain's `GenericFakeChatModel`, which fails loudly when its replies run out;
`ToolCallingFake` adds the `bind_tools` that `create_agent` needs. `TEXT_SCRIPT` is one text-ReAct
run on `PERCENT`: a format error, one calculator step, then the answer (3 model calls, 1 tool
call, 360 prompt and 28 completion tokens).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.tools import BaseTool

from custom_react.compare import Question
from tools import calculator, make_search_tool

PERCENT = Question("What is 12.5% of 2480?", id="percent", expected=310)


class ToolCallingFake(GenericFakeChatModel):
    """The scripted model, plus `bind_tools` (which the fake lacks) so `create_agent` accepts it."""

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Any:
        """Accept any tools and keep replying from the script."""
        return self


def usage(prompt: int, completion: int) -> Any:
    """Return `usage_metadata` for a reply that read `prompt` tokens and wrote `completion`."""
    return {
        "input_tokens": prompt,
        "output_tokens": completion,
        "total_tokens": prompt + completion,
    }


def reply(text: str, prompt: int = 100, completion: int = 10) -> AIMessage:
    """Return a model reply with its token usage."""
    return AIMessage(content=text, usage_metadata=usage(prompt, completion))


def scripted(*messages: AIMessage) -> GenericFakeChatModel:
    """Return a model that answers with `messages` in order, and fails after the last."""
    return GenericFakeChatModel(messages=iter(messages))


def offline_tools() -> list[BaseTool]:
    """Return fresh tools that need no network: the offline search snapshot and the calculator."""
    return [make_search_tool(tavily_api_key=""), calculator]


TEXT_SCRIPT = (
    reply("Thought: I should work this out.\nAction Input: 12.5% of 2480", 100, 7),
    reply("Thought: use the calculator\nAction: calculator\nAction Input: 12.5% of 2480", 120, 12),
    reply("Thought: I now know the final answer\nFinal Answer: 310", 140, 9),
)
