"""How many tokens a prompt has, and how many a model's prompt may have.

Tokens are counted with the chat model's own `get_num_tokens_from_messages` when it works
offline; many need a tokenizer download (OpenAI's tiktoken, Hugging Face's GPT-2), so when it
fails once the agent uses `estimate_tokens` for the rest of its life: a deliberately generous
estimate (one token per 3 ASCII characters, one per other character, 4 per message) that errs
towards shorter prompts. `prompt_budget` is the budget a model announces with its context window.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage

REPLY_ROOM = 512
"""Tokens left for the reply when the budget comes from the model's context window."""


def prompt_budget(llm: BaseChatModel) -> int | None:
    """The prompt budget a model announces: `metadata["context_window"]` minus its reply room."""
    window = (getattr(underlying_model(llm), "metadata", None) or {}).get("context_window")
    if not isinstance(window, int):
        return None
    reply = getattr(llm, "max_tokens", None)
    return window - (reply if isinstance(reply, int) else REPLY_ROOM)


def underlying_model(llm: Any) -> Any:
    """The chat model inside a wrapper (`with_retry`, `bind`, `with_fallbacks`, `with_config`).

    And `configurable_fields` (its `default`). Its metadata and token counter are the wrapped
    model's; the wrapper is still what is called.
    """
    seen = 0
    while not isinstance(llm, BaseChatModel) and seen < 10:  # wrappers nest a few levels at most
        inner = getattr(llm, "bound", None) or getattr(llm, "runnable", None)
        inner = inner or getattr(llm, "default", None)  # `configurable_fields`
        if inner is None:
            break
        llm = inner
        seen += 1
    return llm


def estimate_tokens(messages: Sequence[BaseMessage]) -> int:
    """A generous offline token count: ASCII characters / 3, other characters 1 each, +4 a message."""
    total = 0
    for message in messages:
        text = message.text
        ascii_chars = sum(char.isascii() for char in text)
        total += 4 + -(-ascii_chars // 3) + (len(text) - ascii_chars)
    return total


class TokenCounter:
    """Counts a prompt's tokens with the model's own counter, or the estimate once that fails."""

    def __init__(self, llm: BaseChatModel) -> None:
        """Use `llm.get_num_tokens_from_messages` until it fails once."""
        self.llm = underlying_model(llm)
        metadata = getattr(self.llm, "metadata", None) or {}
        self.use_model = metadata.get("count_tokens") != "estimate"

    def __call__(self, messages: Sequence[BaseMessage]) -> int:
        """The number of tokens of `messages`."""
        if self.use_model:
            try:
                return int(self.llm.get_num_tokens_from_messages(list(messages)))
            except Exception:  # an offline tokenizer download, or no counter at all
                self.use_model = False
        return estimate_tokens(messages)
