"""One call to the chat model, made dependable: retries, a `stop` the server refuses, a cut reply.

`call_model` sends the prompt and returns the reply (it yields its `calls.Call`s to the loop's
driver, so the same code serves `invoke` and `ainvoke`, and a run that streams the reply's tokens:
`tokens.calling_model`). A transient failure (a dropped connection, a timeout, a 5xx or 429
answer) is retried with exponential backoff; a server that rejects the `stop` parameter with HTTP
400 (several reasoning models do) is asked again without it, and the run remembers that (the
parser cuts made-up observations itself). A failure that persists raises
`ModelFailure`, which the loop turns into a result with `stop_reason="model_error"` that keeps
every finished step. `was_cut_off` tells whether the reply ended at the model's token limit.
Errors that are bugs (a wrong argument type, say) are not caught here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import RunnableConfig

from custom_react.calls import Steps, sleeping
from custom_react.tokens import calling_model

BUGS = (
    TypeError,
    AttributeError,
    KeyError,
    NameError,
    NotImplementedError,
    AssertionError,
    StopIteration,  # a scripted model that ran out of replies: a test must see it
)
"""Exceptions that mean our code or the caller's is wrong: they propagate, never a model_error."""
TRANSIENT_NAMES = frozenset(
    {"APIConnectionError", "APITimeoutError", "InternalServerError", "RateLimitError"}
)
"""openai's transient errors, matched by name so the core needs no provider package."""


MODEL_FAILED = "The model could not answer, so the run stopped:"
CUT_OFF = (
    "Your reply was cut off at the token limit before the step was complete. Write one shorter "
    "step: a brief Thought, then one Action with its Action Input, or the Final Answer."
)
"""The Observation that answers a reply cut at the model's token limit (counted as a format error)."""


class ModelFailure(RuntimeError):
    """The model could not give a reply, after the retries; `str()` says why."""


@dataclass
class ModelCallPolicy:
    """How hard to try: retries of a transient failure, and the first wait between them."""

    retries: int = 2
    backoff: float = 1.0
    send_stop: bool = True
    """False once the server rejected `stop` in this run."""


def call_model(
    llm: BaseChatModel,
    messages: Sequence[BaseMessage],
    config: RunnableConfig,
    stop: list[str] | None,
    policy: ModelCallPolicy,
) -> Steps[AIMessage]:
    """The model's reply to `messages`, retried as `policy` says (`reply = yield from ...`).

    Raises:
        ModelFailure: The call failed for good (the message names the last error).
    """
    attempt = 0
    while True:
        try:
            # Made plainly, or piece by piece (`ReplyToken` events) when someone watches.
            reply = yield calling_model(
                llm, messages, config, stop=stop if policy.send_stop else None
            )
        except BUGS:
            raise
        except Exception as error:
            if stop and policy.send_stop and rejects_stop(error):
                policy.send_stop = (
                    False  # ask again without `stop`, now and for the rest of the run
                )
                continue
            if not is_transient(error) or attempt == policy.retries:
                raise ModelFailure(f"{type(error).__name__}: {error}") from error
            yield sleeping(policy.backoff * 2**attempt)
            attempt += 1
            continue
        return reply if isinstance(reply, AIMessage) else AIMessage(content=reply.content)


def is_transient(error: BaseException) -> bool:
    """A failure worth retrying: connection, timeout, rate limit or a server-side (5xx) error."""
    if isinstance(error, ConnectionError | TimeoutError):
        return True
    status = getattr(error, "status_code", None)
    if isinstance(status, int) and (status >= 500 or status == 429):
        return True
    return type(error).__name__ in TRANSIENT_NAMES


def rejects_stop(error: BaseException) -> bool:
    """An HTTP 400 whose message is about the `stop` parameter."""
    return getattr(error, "status_code", None) == 400 and "stop" in str(error).lower()


def was_cut_off(reply: AIMessage, stop: Sequence[str]) -> bool:
    """The reply ended at the model's token limit before it finished its step.

    A reply that went on past its step (into a made-up observation, which happens when `stop`
    was not sent) was not cut where it matters: the parser drops that rest.
    """
    finish = (reply.response_metadata or {}).get("finish_reason")
    if finish != "length":
        return False
    return not any(marker.strip() and marker.strip() in reply.text for marker in stop)
