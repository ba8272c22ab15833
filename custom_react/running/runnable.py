"""`StepRunnable`: how a loop of step events becomes a LangChain `Runnable`.

A subclass writes one method, `_loop(input, config, stream_tokens)`, that yields step events, ends
with `RunFinished`, and yields a `calls.Call` wherever it needs the model or a tool. This base
class derives the rest: `invoke` drains the loop and returns the result dict, `stream` yields the
events, making each call plainly (`calls.drive`); `ainvoke` and `astream` do the same, awaiting
each call (`calls.adrive`); all four print each event when a printer is set. Whether the model's
reply is streamed is decided before the loop starts: when the printer shows the reply as it is
written, or `stream(..., stream_tokens=True)` asks for its `ReplyToken` events.
`stream_final_answer` yields only the answer's text (`answer_stream`); as one step of a chain
(`agent | next_step`), streamed, the agent gives its result dict (`transform`). `batch`, `abatch`,
`with_config` and `astream_events` come from `Runnable`. Every run is one chain run in callbacks
whose output is the result dict, however it is called (`stream` and `astream` open theirs in
`traced.py`), and the `config` handed to `_loop` already carries the child callbacks, so model
and tool runs nest under it, the same way in both paths. As a node of a LangGraph graph with a
checkpointer, a run that pauses for a person is the graph's `interrupt` (`pausing/graph_pause.py`).
There is no agent logic here.
"""

from __future__ import annotations

import warnings
from abc import abstractmethod
from collections.abc import AsyncIterator, Callable, Generator, Iterator
from functools import partial
from typing import Any, ClassVar, cast

from langchain_core.callbacks.manager import (
    AsyncCallbackManagerForChainRun,
    CallbackManagerForChainRun,
)
from langchain_core.runnables import Runnable, RunnableConfig, ensure_config
from langchain_core.tools import BaseTool

from custom_react.console.printing import ConsolePrinter
from custom_react.events import AgentEvent, ReplyToken
from custom_react.parsing.markers import answer_so_far
from custom_react.pausing.graph_pause import GraphPauses, Task
from custom_react.prompts import message
from custom_react.running.answer_stream import afinal_answer_tokens, final_answer_tokens
from custom_react.running.calls import adrive, drive, result_of
from custom_react.running.context import with_context
from custom_react.running.inputs import AgentInput
from custom_react.running.sub_agents import agent_tool
from custom_react.running.traced import aannounced, announced, atraced, traced

# LangChain types these as producing `Output` chunks; ours produce events.
_Transformer = Callable[..., Any]


class StepRunnable(Runnable[AgentInput, dict[str, Any]]):
    """A `Runnable` whose work is a loop of step events."""

    printer: Callable[[Any], None] | None = None
    printer_type: ClassVar[type[ConsolePrinter]] = ConsolePrinter
    """What `watch` plugs in: the plain ReAct transcript, or a subclass's own."""
    announces_steps: ClassVar[bool] = True
    """Tell callback handlers each Action and Final Answer (`on_agent_action`, `on_agent_finish`),
    as `AgentExecutor` does; an agent whose steps are other runs' (Plan-and-Execute) does not."""

    def watch(self, verbose: bool, language: str = "en", stream_tokens: bool = True) -> None:
        """Print every event to the console from now on when `verbose`, for every way of running.

        With `stream_tokens`, the model's reply is shown as it is written (`ConsolePrinter`).
        """
        printer = self.printer_type(language=language, stream_tokens=stream_tokens)
        self.printer = printer if verbose else None

    @abstractmethod
    def _loop(
        self, agent_input: AgentInput, config: RunnableConfig, stream_tokens: bool
    ) -> Generator[Any, Any, None]:
        """Yield the run's step events, ending with `RunFinished`; and a `Call` for each call.

        Typed loosely here because each agent has its own closed event set: `Loop[None]` for
        `CustomReActAgent` (`AgentEvent`), `PlanLoop[None]` for the Plan-and-Execute agent.

        With `stream_tokens`, the model is called with `stream` and each piece of its reply is
        yielded as a `ReplyToken`.
        """

    def _events(
        self, agent_input: AgentInput, config: RunnableConfig, tokens: bool = False
    ) -> Iterator[AgentEvent]:
        """The loop's events, its calls made plainly; each printed first if `verbose=True`.

        `ReplyToken`s are yielded only when `tokens` asks for them.
        """
        for event in drive(self._loop(agent_input, config, self._streams(tokens))):
            if self._show(event) or tokens:
                yield event

    async def _aevents(
        self, agent_input: AgentInput, config: RunnableConfig, tokens: bool = False
    ) -> AsyncIterator[AgentEvent]:
        """`_events` with every call awaited."""
        async for event in adrive(self._loop(agent_input, config, self._streams(tokens))):
            if self._show(event) or tokens:
                yield event

    def _streams(self, tokens: bool) -> bool:
        """Whether this run streams the model's reply: asked for, or shown by the printer."""
        return tokens or bool(getattr(self.printer, "stream_tokens", False))

    def _show(self, event: Any) -> bool:
        """Print `event` if verbose; False for a `ReplyToken` (yielded only when asked for)."""
        if self.printer is not None:
            self.printer(event)
        return not isinstance(event, ReplyToken)

    def invoke(
        self,
        input: AgentInput,
        config: RunnableConfig | None = None,
        *,
        context: Any = None,
        **kwargs: Any,
    ) -> dict[str, Any]:
        """Run to the end and return the result dict (see `AgentResult.to_dict`).

        `context` reaches every tool that asks for it (`runtime: ToolRuntime`, as under
        `create_agent`; `running/context.py`); the same holds for `ainvoke`, `stream`, `astream`.
        """
        warn_ignored("invoke", kwargs)
        config = with_context(config, context, getattr(self, "language", None))
        agent_input, task = self.graph_pauses.start(input, ensure_config(config), self.get_name())
        result = self._call_with_config(
            cast(_Transformer, self._drain), agent_input, config, run_type="chain"
        )
        return self._ended_in_graph(task, result)

    @property
    def graph_pauses(self) -> GraphPauses:
        """This agent's paused runs inside LangGraph graphs (`pausing/graph_pause.py`)."""
        return cast(GraphPauses, self.__dict__.setdefault("_graph_pauses", GraphPauses("agent")))

    def _ended_in_graph(self, task: Task | None, result: dict[str, Any]) -> dict[str, Any]:
        """`result`; as a node of a graph with a checkpointer, a pause raises LangGraph's interrupt."""
        self.graph_pauses.finish(task, result["stop_reason"], result.get("state"), self.get_name())
        return result

    def _drain(
        self,
        agent_input: AgentInput,
        config: RunnableConfig,
        run_manager: CallbackManagerForChainRun | None = None,
    ) -> dict[str, Any]:
        told = run_manager if self.announces_steps else None  # as `AgentExecutor` tells handlers
        *_, last = announced(told, self._events(agent_input, config))  # run to the end
        return result_of(last)

    async def ainvoke(
        self,
        input: AgentInput,
        config: RunnableConfig | None = None,
        *,
        context: Any = None,
        **kwargs: Any,
    ) -> dict[str, Any]:
        """Async `invoke`: the same loop, each model and tool call awaited."""
        warn_ignored("ainvoke", kwargs)
        config = with_context(config, context, getattr(self, "language", None))
        agent_input, task = self.graph_pauses.start(input, ensure_config(config), self.get_name())
        result = await self._acall_with_config(
            cast(_Transformer, self._adrain), agent_input, config, run_type="chain"
        )
        return self._ended_in_graph(task, result)

    async def _adrain(
        self,
        agent_input: AgentInput,
        config: RunnableConfig,
        run_manager: AsyncCallbackManagerForChainRun | None = None,
    ) -> dict[str, Any]:
        last: Any = None
        told = run_manager if self.announces_steps else None
        async for event in aannounced(told, self._aevents(agent_input, config)):
            last = event  # run to the end, keep the last event
        return result_of(last)

    def stream(  # type: ignore[override]  # yields step events, not partial result dicts
        self,
        input: AgentInput,
        config: RunnableConfig | None = None,
        *,
        stream_tokens: bool = False,
        context: Any = None,
        **kwargs: Any,
    ) -> Iterator[AgentEvent]:
        """Yield each step event as it happens; the last one is `RunFinished`.

        With `stream_tokens`, the model's reply comes first as it is written: a `ReplyToken`
        event for each piece (the model is called with `stream`).
        """
        warn_ignored("stream", kwargs)
        events = partial(self._events, tokens=stream_tokens)
        config = with_context(config, context, getattr(self, "language", None))
        yield from traced(self, input, config, events, self.announces_steps)  # ends with the dict

    async def astream(  # type: ignore[override]
        self,
        input: AgentInput,
        config: RunnableConfig | None = None,
        *,
        stream_tokens: bool = False,
        context: Any = None,
        **kwargs: Any,
    ) -> AsyncIterator[AgentEvent]:
        """Async `stream`: the same loop, each model and tool call awaited."""
        warn_ignored("astream", kwargs)
        events = partial(self._aevents, tokens=stream_tokens)
        config = with_context(config, context, getattr(self, "language", None))
        async for event in atraced(self, input, config, events, self.announces_steps):
            yield event

    def transform(
        self, input: Iterator[AgentInput], config: RunnableConfig | None = None, **kwargs: Any
    ) -> Iterator[dict[str, Any]]:
        """One step of a chain (`agent | next_step`) streamed: the result dict, in one piece.

        `stream` yields the events, which the chain's next step cannot read; LCEL streams a
        chain through `transform`, so the agent gives its output there as `invoke` does.
        """
        yield self.invoke(_joined(input), config, **kwargs)

    async def atransform(
        self,
        input: AsyncIterator[AgentInput],
        config: RunnableConfig | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[dict[str, Any]]:
        """Async `transform`."""
        yield await self.ainvoke(_joined([chunk async for chunk in input]), config, **kwargs)

    def as_tool(  # type: ignore[override]  # a tool that answers, not one per input field
        self, args_schema: Any = None, *, name: str = "agent", description: str = "", **kwargs: Any
    ) -> BaseTool:
        """This agent as a tool of another agent: a question in, the answer text out.

        The calling agent's Observation is the answer; its console and exports show this agent's
        steps under the calling step, and a pause for approval here pauses the caller too
        (`running.sub_agents`).

        Raises:
            TypeError: LangChain's other `as_tool` options (`args_schema`, `arg_types`, ...): a
                sub-agent takes one question, so they would be ignored.
        """
        if args_schema is not None or kwargs:
            given = ["args_schema"] * (args_schema is not None) + sorted(kwargs)
            raise TypeError(
                f"as_tool takes name= and description= only, not {', '.join(given)}: the "
                "sub-agent's input is one question. Put what it needs into the question."
            )
        language = getattr(self, "language", "en")
        described = description or message("sub_agent_description", language, name=name)
        return agent_tool(self, name, described)

    def stream_final_answer(
        self, input: AgentInput, config: RunnableConfig | None = None
    ) -> Iterator[str]:
        """Only the Final Answer's text, as the model writes it (`answer_stream`)."""
        events = self.stream(input, config, stream_tokens=True)
        return final_answer_tokens(events, *self._answer_reading())

    def astream_final_answer(
        self, input: AgentInput, config: RunnableConfig | None = None
    ) -> AsyncIterator[str]:
        """Async `stream_final_answer`."""
        events = self.astream(input, config, stream_tokens=True)
        return afinal_answer_tokens(events, *self._answer_reading())

    def _answer_reading(self) -> tuple[bool, Callable[[str], str]]:
        """`(live, written)` for the answer stream.

        Live unless a schema or a check may send an answer back (then it streams once accepted);
        `written` is how the step format finds the answer in a reply so far.
        """
        live = getattr(getattr(self, "answers", None), "as_written", True)
        return live, getattr(getattr(self, "format", None), "answer_so_far", answer_so_far)


def warn_ignored(method: str, kwargs: dict[str, Any]) -> None:
    """Warn of keyword arguments a run does not use (LangGraph's `stream_mode`, a typo)."""
    if kwargs:
        warnings.warn(
            f"{method}() ignores {', '.join(sorted(kwargs))}: the agent takes `stream_tokens` and "
            "`context`, and streams its step events (docs/python-api.md).",
            stacklevel=3,
        )


def _joined(chunks: Iterator[AgentInput] | list[AgentInput]) -> AgentInput:
    """The input a chain streamed in pieces, as LangChain joins them (`+`; else the last one)."""
    joined: Any = None
    for chunk in chunks:
        try:
            joined = chunk if joined is None else joined + chunk
        except TypeError:
            joined = chunk
    return cast(AgentInput, joined)
