"""`StepRunnable`: how a generator of step events becomes a LangChain `Runnable`; the input contract.

A subclass writes one method, `_loop(input, config)`, that yields step events, ends with
`RunFinished`, and yields a `calls.Call` wherever it needs the model or a tool. This base class
derives the rest: `invoke` drains the loop and returns the result dict, `stream` yields the
events, making each call plainly (`calls.drive`); `ainvoke` and `astream` do the same, awaiting
each call (`calls.adrive`); all four print each event when a printer is set. When the printer
shows the model's reply as it is written, or `stream(..., stream_tokens=True)` asks for it, the
driver streams each model call (`tokens.ReplyToken` events); `stream_final_answer` yields only
the answer's text (`answer_stream`). `batch`, `abatch`,
`with_config` and `astream_events` come from `Runnable`. Every run is one chain run in callbacks,
and the `config` handed to `_loop` already carries the child callbacks, so model and tool runs
nest under it, the same way in both paths. There is no agent logic here.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import AsyncIterator, Callable, Iterator
from functools import partial
from typing import Any, ClassVar, cast

from langchain_core.messages import BaseMessage, convert_to_messages
from langchain_core.runnables import Runnable, RunnableConfig

from custom_react import events as ev
from custom_react.answer_stream import afinal_answer_tokens, final_answer_tokens
from custom_react.calls import Steps, adrive, drive
from custom_react.printing import ConsolePrinter
from custom_react.tokens import ReplyToken

AgentInput = str | dict[str, Any]
_Transformer = Callable[
    ..., Any
]  # LangChain types these as producing `Output` chunks, we stream events


class StepRunnable(Runnable[AgentInput, dict[str, Any]]):
    """A `Runnable` whose work is a loop of step events."""

    printer: Callable[[ev.AgentEvent], None] | None = None
    printer_type: ClassVar[type[ConsolePrinter]] = ConsolePrinter
    """What `watch` plugs in: the plain ReAct transcript, or a subclass's own."""

    def watch(self, verbose: bool, language: str = "en", stream_tokens: bool = True) -> None:
        """Print every event to the console from now on when `verbose`, for every way of running.

        With `stream_tokens`, the model's reply is shown as it is written (`ConsolePrinter`).
        """
        printer = self.printer_type(language=language, stream_tokens=stream_tokens)
        self.printer = printer if verbose else None

    @abstractmethod
    def _loop(self, agent_input: AgentInput, config: RunnableConfig) -> Steps[None]:
        """Yield the run's step events, ending with `RunFinished`; and a `Call` for each call.

        Each model or tool call is a `calls.Call`; its result is sent back into the loop.
        """

    def invoke(
        self, input: AgentInput, config: RunnableConfig | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        """Run to the end and return the result dict (see `AgentResult.to_dict`)."""
        return self._call_with_config(
            cast(_Transformer, self._drain), input, config, run_type="chain"
        )

    def _events(
        self, agent_input: AgentInput, config: RunnableConfig, tokens: bool = False
    ) -> Iterator[ev.AgentEvent]:
        """The loop's events, its calls made plainly; each printed first if `verbose=True`.

        The model's reply is streamed when the printer shows it or `tokens` asks for its
        `ReplyToken` events; otherwise they are not yielded.
        """
        for event in drive(self._loop(agent_input, config), self._streams(tokens)):
            if self._show(event) or tokens:
                yield event

    async def _aevents(
        self, agent_input: AgentInput, config: RunnableConfig, tokens: bool = False
    ) -> AsyncIterator[ev.AgentEvent]:
        """`_events` with every call awaited."""
        async for event in adrive(self._loop(agent_input, config), self._streams(tokens)):
            if self._show(event) or tokens:
                yield event

    def _streams(self, tokens: bool) -> bool:
        return tokens or bool(getattr(self.printer, "stream_tokens", False))

    def _show(self, event: ev.AgentEvent) -> bool:
        """Print `event` if verbose; False for a `ReplyToken` (yielded only when asked for)."""
        if self.printer is not None:
            self.printer(event)
        return not isinstance(event, ReplyToken)

    def _drain(self, agent_input: AgentInput, config: RunnableConfig) -> dict[str, Any]:
        *_, event = self._events(agent_input, config)  # run to the end, keep the last event
        if not isinstance(event, ev.RunFinished):
            raise RuntimeError("The agent loop ended without a RunFinished event.")
        return event.result.to_dict()

    async def ainvoke(
        self, input: AgentInput, config: RunnableConfig | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        """Async `invoke`: the same loop, each model and tool call awaited."""
        return await self._acall_with_config(
            cast(_Transformer, self._adrain), input, config, run_type="chain"
        )

    async def _adrain(self, agent_input: AgentInput, config: RunnableConfig) -> dict[str, Any]:
        last: ev.AgentEvent | None = None
        async for event in self._aevents(agent_input, config):
            last = event  # run to the end, keep the last event
        if not isinstance(last, ev.RunFinished):
            raise RuntimeError("The agent loop ended without a RunFinished event.")
        return last.result.to_dict()

    def stream(  # type: ignore[override]  # yields step events, not partial result dicts
        self,
        input: AgentInput,
        config: RunnableConfig | None = None,
        *,
        stream_tokens: bool = False,
        **kwargs: Any,
    ) -> Iterator[ev.AgentEvent]:
        """Yield each step event as it happens; the last one is `RunFinished`.

        With `stream_tokens`, the model's reply comes first as it is written: a `ReplyToken`
        event for each piece (the model is called with `stream`).
        """
        loop = cast(_Transformer, partial(self._stream_loop, tokens=stream_tokens))
        events = self._transform_stream_with_config(iter([input]), loop, config, run_type="chain")
        yield from cast(Iterator[ev.AgentEvent], events)

    def _stream_loop(
        self, inputs: Iterator[AgentInput], config: RunnableConfig, tokens: bool
    ) -> Iterator[ev.AgentEvent]:
        yield from self._events(next(inputs), config, tokens)

    async def astream(  # type: ignore[override]
        self,
        input: AgentInput,
        config: RunnableConfig | None = None,
        *,
        stream_tokens: bool = False,
        **kwargs: Any,
    ) -> AsyncIterator[ev.AgentEvent]:
        """Async `stream`: the same loop, each model and tool call awaited."""

        async def one_input() -> AsyncIterator[AgentInput]:
            yield input

        loop = cast(_Transformer, partial(self._astream_loop, tokens=stream_tokens))
        events = self._atransform_stream_with_config(one_input(), loop, config, run_type="chain")
        async for event in cast(AsyncIterator[ev.AgentEvent], events):
            yield event

    async def _astream_loop(
        self, inputs: AsyncIterator[AgentInput], config: RunnableConfig, tokens: bool
    ) -> AsyncIterator[ev.AgentEvent]:
        async for event in self._aevents(await anext(inputs), config, tokens):
            yield event

    def stream_final_answer(
        self, input: AgentInput, config: RunnableConfig | None = None
    ) -> Iterator[str]:
        """Only the Final Answer's text, as the model writes it (`answer_stream`)."""
        return final_answer_tokens(self.stream(input, config, stream_tokens=True))

    def astream_final_answer(
        self, input: AgentInput, config: RunnableConfig | None = None
    ) -> AsyncIterator[str]:
        """Async `stream_final_answer`."""
        return afinal_answer_tokens(self.astream(input, config, stream_tokens=True))


def read_input(agent_input: AgentInput) -> tuple[str, list[BaseMessage]]:
    """Accept a question string or `{"input": str, "chat_history": [...]}`.

    Raises:
        TypeError: Anything else, with the shape the agent expects.
    """
    if isinstance(agent_input, str):
        return agent_input, []
    if not isinstance(agent_input, dict) or not isinstance(agent_input.get("input"), str):
        raise TypeError('The agent takes a question string or {"input": "<question>"}.')
    return agent_input["input"], convert_to_messages(agent_input.get("chat_history") or [])
