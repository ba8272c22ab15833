"""Every model call of a run, as the model saw it: its exact messages, its raw reply, time, tokens.

`PromptLog` is a LangChain callback handler: pass it in the run's config
(`agent.stream(question, {"callbacks": [log]})`) and it keeps a `ModelCall` for each call the
run's own loop makes (a sub-agent's calls, one level down, are left out). The messages are the
ones the chat model was handed, after the prompt budget and everything else, so nothing is
rebuilt or guessed. `log.interleave(events)` puts each call into the run's event stream where it
happened: the started call before the reply's tokens, the finished call before the step it
wrote. `new_part` says where a prompt stops repeating the previous one, which is what a learner
wants to see: the model re-reads everything, and only the last step is new. Nothing here
prints (`printing.py` does, `export/` saves); the loop does not know this module exists.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypeVar
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import LLMResult

T = TypeVar("T")


@dataclass(frozen=True)
class ModelCall:
    """One call of the chat model: started (no reply yet), answered, or failed."""

    call: int
    """Which call of the run it is (1-based; a retried call counts again)."""
    messages: list[BaseMessage]
    """Exactly what the chat model was handed."""
    reply: str | None = None
    """The reply as the model wrote it; None while it is being written, or when the call failed."""
    seconds: float = 0.0
    """How long the call took."""
    tokens: int | None = None
    """The tokens the server counted (prompt and reply); None when it did not say."""
    error: str = ""
    """Why the call failed; "" when it did not."""
    previous: list[BaseMessage] = field(default_factory=list)
    """The messages of the last answered call before (empty for the first): `new_part` compares."""
    previous_call: int = 0
    """Which call that was (0: none)."""
    type: Literal["model_call"] = "model_call"

    @property
    def started(self) -> bool:
        """The call was made and has not ended yet."""
        return self.reply is None and not self.error

    @property
    def new_from(self) -> tuple[int, int]:
        """Where this prompt's new part starts (`new_part` against the call before)."""
        return new_part(self.previous, self.messages)

    def parts(self) -> list[tuple[str, str, str]]:
        """Each message as (role, the text repeated from the call before, the new text)."""
        index, offset = self.new_from
        parts = []
        for position, message in enumerate(self.messages):
            cut = len(message.text) if position < index else offset if position == index else 0
            parts.append((message.type, message.text[:cut], message.text[cut:]))
        return parts


def new_part(previous: Sequence[BaseMessage], messages: Sequence[BaseMessage]) -> tuple[int, int]:
    """Where `messages` stop repeating `previous`: (message index, character offset in it).

    The offset is at the start of a line, so the new part reads as whole lines. (0, 0) when
    nothing is repeated (the first call); (len(messages), 0) when nothing is new.
    """
    for index, message in enumerate(messages):
        before = previous[index] if index < len(previous) else None
        if before is not None and before.type == message.type and before.text == message.text:
            continue
        if before is None or before.type != message.type:
            return index, 0
        same = 0
        for old, new in zip(before.text, message.text, strict=False):
            if old != new:
                break
            same += 1
        return index, message.text.rfind("\n", 0, same) + 1  # back to the start of its line
    return len(messages), 0


class PromptLog(BaseCallbackHandler):
    """Keeps each model call of one run (give a new log to each run): `calls`, `interleave`."""

    run_inline = True  # called in the run's own thread, in order

    def __init__(self) -> None:
        """An empty log; the first chain run it sees is the run whose calls it keeps."""
        self.calls: list[ModelCall] = []
        """Every call so far, each as it last stood (started, answered or failed)."""
        self._root: UUID | None = None
        self._open: dict[UUID, tuple[int, float]] = {}
        self._news: list[ModelCall] = []

    def on_chain_start(
        self,
        serialized: Any,
        inputs: Any,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        """Remember the run itself: the outermost chain run."""
        if self._root is None and parent_run_id is None:
            self._root = run_id

    def on_chat_model_start(
        self,
        serialized: Any,
        messages: list[list[BaseMessage]],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        """A call of the run's own loop starts: keep its messages."""
        if self._root is not None and parent_run_id != self._root:
            return  # a sub-agent's call, or a model a tool calls
        answered = [call for call in self.calls if call.reply is not None]
        before = answered[-1] if answered else ModelCall(0, [])
        shown = list(messages[0])
        self._add(
            ModelCall(
                len(self.calls) + 1, shown, previous=before.messages, previous_call=before.call
            )
        )
        self._open[run_id] = (len(self.calls) - 1, time.perf_counter())

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        """The call answered: its raw reply, time and tokens."""
        if run_id not in self._open:
            return
        index, began = self._open.pop(run_id)
        generation = response.generations[0][0]
        message = getattr(generation, "message", None)
        usage = message.usage_metadata if isinstance(message, AIMessage) else None
        tokens = usage["total_tokens"] if usage else None
        done = replace(
            self.calls[index],
            reply=generation.text,
            seconds=time.perf_counter() - began,
            tokens=tokens,
        )
        self._add(done, index)

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        """The call failed (it may be retried: the retry is the next call)."""
        if run_id not in self._open:
            return
        index, began = self._open.pop(run_id)
        failed = replace(
            self.calls[index],
            error=f"{type(error).__name__}: {error}",
            seconds=time.perf_counter() - began,
        )
        self._add(failed, index)

    def _add(self, call: ModelCall, index: int | None = None) -> None:
        if index is None:
            self.calls.append(call)
        else:
            self.calls[index] = call
        self._news.append(call)

    def take(self) -> list[ModelCall]:
        """The calls that started or ended since the last `take`, in order."""
        news, self._news = self._news, []
        return news

    def interleave(self, events: Iterable[T]) -> Iterator[T | ModelCall]:
        """The run's events with each call's start and end where they happened."""
        for event in events:
            yield from self.take()
            yield event
        yield from self.take()
