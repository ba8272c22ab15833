"""The model's reply as it is written: `ReplyToken` events and the model call that yields them.

`calling_model` is the `Call` the loop yields for each model call: made plainly it is
`llm.invoke` (or `ainvoke`); made piece by piece (`Call.stream`, when a driver streams because
someone watches the tokens) it is `llm.stream` (or `astream`): each chunk of text becomes a
`ReplyToken` event, and the chunks added up are the reply the loop gets, the same either way.
`reply_sections` is the live view of a reply so far, cut where the parser cuts it (at a made-up
Observation). Showing tokens is `printing`'s job; the Final Answer alone is `answer_stream`'s.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.messages import message_chunk_to_message as whole_message
from langchain_core.runnables import RunnableConfig

from custom_react.calls import Call, Steps, invoking, next_event
from custom_react.markers import split_sections

_KINDS = {"weak_answer": "final_answer"}
_MARKER_WORDS = (
    *("thought", "action", "action input", "observation", "final answer"),
    *("思考", "行动", "行动输入", "观察", "最终答案", "最终回答"),
)


@dataclass(frozen=True)
class ReplyToken:
    """A piece of the model's reply, as it arrives (before the step's own event)."""

    text: str
    """The new text: a word or a few characters."""
    type: Literal["reply_token"] = "reply_token"


def calling_model(
    llm: BaseChatModel, messages: Sequence[BaseMessage], config: RunnableConfig, **kwargs: Any
) -> Call[BaseMessage]:
    """One model call: `invoke`/`ainvoke`, or piece by piece with `ReplyToken`s (`stream_reply`)."""
    plain = invoking(llm, list(messages), config, **kwargs)
    return Call(plain.run, plain.arun, partial(stream_reply, llm, messages, config, **kwargs))


def stream_reply(
    llm: BaseChatModel, messages: Sequence[BaseMessage], config: RunnableConfig, **kwargs: Any
) -> Steps[BaseMessage]:
    """The model's reply chunk by chunk: a `ReplyToken` for each; returns the whole `AIMessage`."""
    chunks = yield Call(
        partial(llm.stream, list(messages), config, **kwargs),
        partial(_opened, llm, list(messages), config, **kwargs),
    )
    reply: AIMessageChunk | None = None
    while (chunk := (yield next_event(chunks, chunks))) is not None:
        reply = chunk if reply is None else reply + chunk
        if chunk.text:
            yield ReplyToken(chunk.text)
    return AIMessage(content="") if reply is None else whole_message(reply)


async def _opened(
    llm: BaseChatModel, messages: list[BaseMessage], config: RunnableConfig, **kwargs: Any
) -> AsyncIterator[AIMessageChunk]:
    return llm.astream(messages, config, **kwargs)


def reply_sections(text: str) -> list[tuple[str, str]]:
    """The reply so far as (kind, text) pairs, as the parser reads it: cut at a made-up rest.

    The text before any marker is the Thought (the prompt ends with `Thought: `). A last line
    that may be the start of a marker (`Obs`, `Final Ans`) is held back until it is complete.
    Kinds: thought, action, action_input, observation, final_answer.
    """
    lines = text.split("\n")
    last = lines[-1].strip().lstrip("*#`> ").lower()
    if last and any(word.startswith(last) for word in _MARKER_WORDS):
        text = "\n".join(lines[:-1])
    preamble, sections = split_sections(text)
    found = [("thought", preamble)] if preamble else []
    return found + [(_KINDS.get(section.kind, section.kind), section.text) for section in sections]
