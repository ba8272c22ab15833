"""The chat model's reply, made dependable: retries, a `stop` the server refuses, a cut reply.

`ModelCaller` is how one run calls the model. `reply = yield from caller.reply(messages)` yields
the `Call` (or, when the run streams tokens, the `Call`s of `stream_reply` and a `ReplyToken` event
for each piece of text), so the same code serves `invoke` and `ainvoke`, streamed or not; whether a
run streams is decided before its loop starts. A transient failure (a dropped connection, a
timeout, a 5xx or 429 answer) is retried with exponential backoff; a server that rejects the
`stop` parameter with HTTP 400 (several reasoning models do) is asked again without it, and the
run remembers that (the parser cuts made-up observations itself). A failure that persists raises
`ModelFailure`, which the loop turns into a result with `stop_reason="model_error"` that keeps
every finished step. `was_cut_off` tells whether a reply ended at the model's token limit, in
any provider's words (`at_token_limit`); `reply_metadata` is what a reply's record keeps of it
besides its text (id, usage, metadata). Errors that are bugs (a wrong argument type, say) are not
caught here.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, cast

from langchain_core.exceptions import ModelError
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.messages import message_chunk_to_message as whole_message
from langchain_core.runnables import RunnableConfig

from custom_react.events import ReplyToken
from custom_react.parser import Action, FinalAnswer, ParseError
from custom_react.running.calls import (
    Call,
    Loop,
    invoking,
    next_event,
    raised_by_a_callback,
    sleeping,
)
from custom_react.scratchpad import written_call
from custom_react.steps import ReplyMetadata

Reads = Callable[[str, str], Action | FinalAnswer]
"""A step format's parse: (reply text, language) to its step."""
BUGS = (
    TypeError,
    AttributeError,
    KeyError,
    NameError,
    NotImplementedError,
    AssertionError,  # `testing.ScriptExhausted`: a script that ran out of replies
    StopIteration,  # a fake model's replies ran out: a test must see it
)
"""Exceptions that mean our code or the caller's is wrong: they propagate, never a model_error."""
TRANSIENT_NAMES = frozenset(
    {"APIConnectionError", "APITimeoutError", "InternalServerError", "RateLimitError"}
)
"""openai's transient errors, matched by name so the core needs no provider package."""


class ModelFailure(RuntimeError):
    """The model could not give a reply, after the retries; `str()` says why."""


@dataclass
class ModelCaller:
    """How one run calls the chat model: its stop sequences, retries, and whether it streams."""

    llm: BaseChatModel
    config: RunnableConfig
    """The run's config: model runs nest under the agent's run in callbacks."""
    stop: list[str] | None
    stream_tokens: bool = False
    """Call `llm.stream` and yield a `ReplyToken` for each piece of the reply."""
    retries: int = 2
    reads: Reads | None = None
    """The step format's parse: a reply's own step outranks its provider calls (`as_reply`)."""
    backoff: float = 1.0
    """Seconds before the first retry; doubled for each next one."""
    send_stop: bool = True
    """False once the server rejected `stop` in this run."""

    def __post_init__(self) -> None:
        # A call's own `stop` replaces one bound to the model (`llm.bind(stop=[...])`): keep both.
        bound = [word for word in bound_stop(self.llm) if word not in (self.stop or [])]
        if bound:
            self.stop = [*(self.stop or []), *bound]

    def reply(self, messages: Sequence[BaseMessage], unfinished: str = "") -> Loop[AIMessage]:
        """The model's reply to `messages`, retried as set (`reply = yield from ...`).

        `unfinished` is what the model wrote of this reply before (it stopped after its Thought,
        and `messages` end with it): the reply returned begins with it.

        Raises:
            ModelFailure: The call failed for good (the message names the last error).
        """
        attempt = 0
        while True:
            stop = self.stop if self.send_stop else None
            given = {"stop": stop} if stop else {}  # a chain of a plain function takes no `stop`
            try:
                if self.stream_tokens:
                    reply = yield from stream_reply(self.llm, messages, self.config, **given)
                else:
                    reply = yield invoking(self.llm, list(messages), self.config, **given)
            except Exception as error:
                if stop and rejects_stop(error):
                    self.send_stop = False  # ask again without it, now and for the rest of the run
                elif isinstance(error, BUGS) or raised_by_a_callback(error):
                    raise  # our code's or the caller's mistake, or a handler stopping the run
                elif not is_transient(error) or attempt == self.retries:
                    raise ModelFailure(f"{type(error).__name__}: {error}") from error
                else:
                    yield sleeping(self.backoff * 2**attempt)
                    attempt += 1
                if self.stream_tokens:  # what was shown of the failed reply is dropped
                    yield ReplyToken("", restart=True)
                continue
            reply = as_reply(reply, self.reads)
            return continued(unfinished, reply) if unfinished else reply


def as_reply(reply: object, reads: Reads | None = None) -> AIMessage:
    """The model's reply as an `AIMessage`, whatever shape the model gave it in.

    A message's content (a native tool call written into it: `calls_as_text`, with `reads` the
    step format's parse); the text a completion model (`BaseLLM`) or a chain ending in
    `StrOutputParser` returns.

    Raises:
        TypeError: Something else came back: what the agent needs from the model instead.
    """
    if isinstance(reply, AIMessage):
        return calls_as_text(reply, reads) if reply.tool_calls else reply
    if isinstance(reply, BaseMessage):
        return AIMessage(content=reply.content)
    if isinstance(reply, str):
        return AIMessage(content=reply)
    raise TypeError(
        f"The model returned {type(reply).__name__} ({reply!r:.80}), not a message or text: "
        "give the agent a chat model, or a Runnable that returns its AIMessage or a string."
    )


def calls_as_text(reply: AIMessage, reads: Reads | None = None) -> AIMessage:
    """A reply with a native tool call (a model bound to tools) as text.

    Its first call is written after its words as the JSON call every step format reads
    (`scratchpad.written_call`): the loop runs one step per reply, and never sends the
    model provider tool calls. Words that hold a step of their own (`holds_own_step`, read
    with `reads`) are the reply as they are: the first step wins, and the call is not read
    into their Action Input or answer, a text the model never wrote whole.
    """
    first = reply.tool_calls[0]
    text = f"{reply.text.rstrip()}\n{written_call(first['name'], first['args'])}".lstrip()
    if reads is not None and holds_own_step(reply.text, text, reads):
        text = reply.text
    return reply.model_copy(update={"content": text, "tool_calls": [], "tool_call_chunks": []})


def holds_own_step(words: str, with_call: str, reads: Reads) -> bool:
    """Whether `words` hold a step that the call written after them would only lengthen.

    So an Action or a Final Answer; not a Thought alone, nor prose, which the call makes a step.
    """
    try:
        own = reads(words, "en")
    except ParseError:
        return False
    try:
        return type(reads(with_call, "en")) is type(own)
    except ParseError:
        return True


def reply_metadata(reply: AIMessage) -> ReplyMetadata:
    """What `reply` carried besides its text, for its record: its id, usage, response metadata."""
    metadata = ReplyMetadata(response_metadata=dict(reply.response_metadata))
    if reply.id:
        metadata["id"] = reply.id
    if reply.usage_metadata:
        metadata["usage_metadata"] = reply.usage_metadata
    return metadata


def continued(unfinished: str, reply: AIMessage) -> AIMessage:
    """`reply` after the `unfinished` part the model wrote before it stopped: one reply, one step.

    A model that writes that part again first (`Thought: I need X.` once more, then its Action)
    wrote the whole step itself: the reply is kept as it is, with the Thought once.
    """
    thought = _LABEL.sub("", unfinished.strip(), count=1).strip()  # without its `Thought:` label
    if thought and _LABEL.sub("", reply.text.strip(), count=1).strip().startswith(thought):
        return reply
    return reply.model_copy(update={"content": f"{unfinished.rstrip()}\n{reply.text}"})


_LABEL = re.compile(r"^[^\W\d_]+\s*[:：]")
"""A leading label word and its colon (`Thought:`, `思考：`)."""


def stream_reply(
    llm: BaseChatModel, messages: Sequence[BaseMessage], config: RunnableConfig, **kwargs: Any
) -> Loop[AIMessage]:
    """The model's reply chunk by chunk: a `ReplyToken` for each; returns the whole `AIMessage`."""
    chunks = yield Call(
        partial(llm.stream, list(messages), config, **kwargs),
        partial(_opened, llm, list(messages), config, **kwargs),
    )
    reply: AIMessageChunk | None = None
    while (piece := (yield next_event(chunks, chunks))) is not None:
        chunk = AIMessageChunk(content=piece) if isinstance(piece, str) else piece  # an LLM's text
        reply = chunk if reply is None else reply + chunk
        if chunk.text:
            yield ReplyToken(chunk.text)
    if reply is None:
        return AIMessage(content="")
    return cast(AIMessage, whole_message(reply))


async def _opened(
    llm: BaseChatModel, messages: list[BaseMessage], config: RunnableConfig, **kwargs: Any
) -> AsyncIterator[AIMessageChunk]:
    return llm.astream(messages, config, **kwargs)


def is_transient(error: BaseException) -> bool:
    """A failure worth retrying: connection, timeout, rate limit or a server-side (5xx) error.

    LangChain's own verdict first (a `ModelError` that `is_retryable`: connection, timeout, rate
    limit, 5xx; langchain-openai raises those), then Python's kinds, an HTTP status, or openai's
    by name (in the error's classes, so a provider's subclass of one counts too).
    """
    if isinstance(error, ModelError) and error.is_retryable:
        return True
    if isinstance(error, ConnectionError | TimeoutError):
        return True
    status = getattr(error, "status_code", None)
    if isinstance(status, int) and (status >= 500 or status == 429):
        return True
    return any(kind.__name__ in TRANSIENT_NAMES for kind in type(error).__mro__)


def bound_stop(llm: Any) -> list[str]:
    """The stop sequences bound to the model (`llm.bind(stop=...)`, a `RunnableBinding`'s kwargs)."""
    kwargs = getattr(llm, "kwargs", None)
    stop = kwargs.get("stop") if isinstance(kwargs, dict) else None
    return [stop] if isinstance(stop, str) else list(stop or [])


def rejects_stop(error: BaseException) -> bool:
    """The model takes no `stop`: an HTTP 400 about it, or a function without the parameter."""
    if isinstance(error, TypeError):  # a chain ending in a plain function: `f(messages)`
        return "unexpected keyword argument 'stop'" in str(error)
    return getattr(error, "status_code", None) == 400 and "stop" in str(error).lower()


def was_cut_off(reply: AIMessage, stop: Sequence[str]) -> bool:
    """The reply ended at the model's token limit before it finished its step.

    A reply that went on past its step (into a made-up observation, which happens when `stop`
    was not sent) was not cut where it matters: the parser drops that rest.
    """
    if not at_token_limit(reply.response_metadata or {}):
        return False
    return not any(marker.strip() and marker.strip() in reply.text for marker in stop)


STOP_KEYS = ("finish_reason", "stop_reason", "stopReason", "done_reason")
"""Where each provider's LangChain package writes why a reply ended: OpenAI, Mistral and Google
GenAI `finish_reason`, Anthropic (and `ChatBedrock`) `stop_reason`, Bedrock Converse
`stopReason`, Ollama `done_reason`."""
AT_LIMIT = frozenset({"length", "max_tokens", "model_length", "model_context_window_exceeded"})
"""Their words for the token limit, in lower case: `length` (OpenAI, Mistral, Ollama), `max_tokens`
(Anthropic, Bedrock; Google's `MAX_TOKENS`), Mistral's and Bedrock's full context window."""


def at_token_limit(metadata: dict[str, Any]) -> bool:
    """The reply's `response_metadata` says it ended at the model's token limit, any provider."""
    reasons = (metadata.get(key) for key in STOP_KEYS)
    return any(isinstance(reason, str) and reason.lower() in AT_LIMIT for reason in reasons)
