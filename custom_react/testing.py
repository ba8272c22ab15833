"""Scripted chat models for testing agents without a model server: replies in, prompts recorded.

`Script("Thought: ...\\nAction: ...", "Final Answer: 4")` holds a chat model (`script.model`) that
answers each call with the next scripted reply, fails loudly when called once too often (it is a
`GenericFakeChatModel`), and records every prompt and `stop` it was sent (`script.prompts`,
`script.stops`), so a test can assert on what the model saw. A scripted exception is raised by the
call it stands for (a dropped connection, a server error). Options make it behave like real
servers: `context_window=N` refuses prompts over N tokens by its own count (`count_tokens`, also
its `get_num_tokens_from_messages`), `rejects_stop=True` answers HTTP 400 to any `stop`. Streamed
(`model.stream`), a reply comes word by word, or `chunk_size=N` characters at a time, so a test
can split a marker across chunks; its metadata (finish reason, usage) comes with the last one.
`assert_consumed()` fails when the agent made fewer calls than scripted; the project's pytest
fixture calls it at teardown for every script a test made. Like every fake chat model it does not
apply `stop` itself: the parser's own cut of a made-up Observation needs its own tests.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from pydantic import Field

Reply = str | AIMessage | Exception


def count_tokens(messages: Sequence[BaseMessage]) -> int:
    """The scripted model's own token count: 4 characters a token, 4 tokens a message."""
    return sum(4 + len(message.text) // 4 for message in messages)


class ScriptedError(Exception):
    """An error a scripted server answers with; `status_code` like openai's `APIStatusError`."""

    def __init__(self, message: str, status_code: int) -> None:
        """An HTTP-like failure with its status code."""
        super().__init__(message)
        self.status_code = status_code


class ScriptExhausted(AssertionError):
    """The agent asked the scripted model once more than the script has replies.

    An `AssertionError`: a test's mistake (or the agent's), never a model failure the run
    recovers from, so it goes through the loop to the test (`model_call.BUGS`).
    """


class _Replies(Iterator[str | AIMessage]):
    """The scripted replies; an exception in the script is raised instead of returned."""

    def __init__(self, replies: Sequence[Reply]) -> None:
        self._replies = iter(replies)
        self.count = len(replies)
        self.used = 0

    def __next__(self) -> str | AIMessage:
        reply = next(self._replies, None)
        if reply is None:
            raise ScriptExhausted(
                f"The scripted model has no reply for call {self.used + 1} "
                f"(the script has {self.count}): add replies, or lower the agent's limits."
            )
        self.used += 1
        if isinstance(reply, Exception):
            raise reply
        return reply


class RecordingChatModel(GenericFakeChatModel):
    """A `GenericFakeChatModel` that keeps every prompt and `stop` it was sent, in order."""

    prompts: list[list[BaseMessage]] = Field(default_factory=list)
    stops: list[list[str] | None] = Field(default_factory=list)
    context_window: int | None = None
    rejects_stop: bool = False
    chunk_size: int | None = None

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        """Record the call, refuse it as the options say, else answer with the next reply."""
        self.prompts.append(list(messages))
        self.stops.append(stop)
        if self.rejects_stop and stop:
            raise ScriptedError("Unsupported parameter: 'stop' is not supported", 400)
        if self.context_window is not None and count_tokens(messages) > self.context_window:
            raise ScriptedError(f"prompt exceeds the context window of {self.context_window}", 400)
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        """The next reply in pieces: words, or `chunk_size` characters; metadata last."""
        reply = self._generate(messages, stop=stop, run_manager=run_manager, **kwargs)
        message = reply.generations[0].message
        text = message.text
        size = self.chunk_size
        words = (
            re.split(r"(\s)", text) if size is None else re.findall(f".{{1,{size}}}", text, re.S)
        )
        for word in filter(None, words):
            if run_manager:
                run_manager.on_llm_new_token(word)
            yield ChatGenerationChunk(message=AIMessageChunk(content=word, id=message.id))
        usage = getattr(message, "usage_metadata", None)
        metadata = message.response_metadata
        last = AIMessageChunk(content="", response_metadata=metadata, usage_metadata=usage)
        yield ChatGenerationChunk(message=last)

    def get_num_tokens_from_messages(self, messages: list[BaseMessage], tools: Any = None) -> int:
        """This model's own count (`count_tokens`)."""
        return count_tokens(messages)


class Script:
    """A scripted model plus the checks that every reply was used and what each call saw."""

    def __init__(self, *replies: Reply, **options: Any) -> None:
        """Script the replies in order; `options` go to `RecordingChatModel`."""
        self.replies: list[Reply] = list(replies)
        self._remaining = _Replies(self.replies)
        self.model = RecordingChatModel(messages=self._remaining, **options)

    @property
    def prompts(self) -> list[list[BaseMessage]]:
        """The messages of every call so far, oldest first."""
        return self.model.prompts

    @property
    def stops(self) -> list[list[str] | None]:
        """The `stop` sequences of every call so far."""
        return self.model.stops

    def assert_consumed(self) -> None:
        """Fail when the agent made fewer model calls than there are scripted replies."""
        left = len(self.replies) - self._remaining.used
        if left > 0:
            raise AssertionError(
                f"the agent used {self._remaining.used} scripted replies; {left} left"
            )
