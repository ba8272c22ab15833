"""A streamed run as one chain run in callbacks, ending with the result dict as `invoke` does.

LangChain's own stream helper (`Runnable._transform_stream_with_config`) ends a streamed run with
the last chunk it yielded: for a step loop that is the `RunFinished` event, so tracing (LangSmith,
a callback's `on_chain_end`, `astream_events`' last event) would show a dataclass for `stream`,
`astream` and `astream_events` where `invoke` shows the result dict. `traced` and `atraced` open
the run as that helper does (its name, its `run_id`, the child callbacks in the config the loop
gets, that config in context for whatever runs inside, each event shown to a streaming tracer)
and end it with the result dict of the last event (`calls.result_of`). A stream closed before its end
ends the run with an empty dict: there is no result yet. `announced` tells the run's handlers each
Action and Final Answer, as `AgentExecutor` does (`on_agent_action`, `on_agent_finish`).
LangChain's deprecated `astream_log` is the one place that shows no run's output: its
`final_output` adds up what `astream` yields, so it is the last event, `RunFinished`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from langchain_core.agents import AgentAction, AgentFinish
from langchain_core.callbacks.manager import (
    AsyncCallbackManagerForChainRun,
    CallbackManagerForChainRun,
)
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.config import (
    ensure_config,
    get_async_callback_manager_for_config,
    get_callback_manager_for_config,
    patch_config,
    set_config_context,
)
from langchain_core.runnables.utils import coro_with_context

from custom_react.events import ActionEvent
from custom_react.running.calls import result_of
from custom_react.steps import FinalAnswerEvent

END = object()
"""What `next` returns once the events are over."""

Events = Callable[[Any, RunnableConfig], Iterator[Any]]
AsyncEvents = Callable[[Any, RunnableConfig], AsyncIterator[Any]]


def run_names(runnable: Runnable[Any, Any], config: RunnableConfig) -> dict[str, Any]:
    """The root run's name and id, as `invoke` gives them (the id is taken from the config)."""
    return {
        "name": config.get("run_name") or runnable.get_name(),
        "run_id": config.pop("run_id", None),
    }


def traced(
    runnable: Runnable[Any, Any],
    agent_input: Any,
    config: RunnableConfig | None,
    events: Events,
    announce: bool = False,
) -> Iterator[Any]:
    """Yield `events(agent_input, child_config)` inside one chain run named after `runnable`.

    With `announce`, each Action and Final Answer is told to the run's handlers (`announced`).
    """
    config = ensure_config(config)
    manager = get_callback_manager_for_config(config)
    run = manager.on_chain_start(None, agent_input, **run_names(runnable, config))
    child = patch_config(config, callbacks=run.get_child())
    last: Any = None
    try:
        with set_config_context(child) as context:
            made = events(agent_input, child)
            iterator = tapped(run, announced(run, made) if announce else made)
            while (event := context.run(next, iterator, END)) is not END:
                yield event
                last = event
    except GeneratorExit:
        run.on_chain_end({})
        raise
    except BaseException as error:
        run.on_chain_error(error)
        raise
    run.on_chain_end(result_of(last))


async def atraced(
    runnable: Runnable[Any, Any],
    agent_input: Any,
    config: RunnableConfig | None,
    events: AsyncEvents,
    announce: bool = False,
) -> AsyncIterator[Any]:
    """`traced` for async events, each awaited in the run's context."""
    config = ensure_config(config)
    manager = get_async_callback_manager_for_config(config)
    run = await manager.on_chain_start(None, agent_input, **run_names(runnable, config))
    child = patch_config(config, callbacks=run.get_child())
    last: Any = None
    try:
        with set_config_context(child) as context:
            made = events(agent_input, child)
            iterator = atapped(run, aannounced(run, made) if announce else made)
            while (event := await coro_with_context(anext(iterator, END), context)) is not END:
                yield event
                last = event
    except GeneratorExit:
        await run.on_chain_end({})
        raise
    except BaseException as error:
        await run.on_chain_error(error)
        raise
    await run.on_chain_end(result_of(last))


def tapped(run: CallbackManagerForChainRun, events: Iterator[Any]) -> Iterator[Any]:
    """`events`, each also shown to a streaming tracer among the run's handlers (`astream_log`)."""
    for handler in run.handlers:
        if hasattr(handler, "tap_output_iter"):
            return handler.tap_output_iter(run.run_id, events)  # type: ignore[no-any-return]
    return events


def atapped(run: AsyncCallbackManagerForChainRun, events: AsyncIterator[Any]) -> AsyncIterator[Any]:
    """`tapped` for async events (`astream_events` taps its root run itself: then a no-op)."""
    for handler in run.handlers:
        if hasattr(handler, "tap_output_aiter"):
            return handler.tap_output_aiter(run.run_id, events)  # type: ignore[no-any-return]
    return events


def announced(run: CallbackManagerForChainRun | None, events: Iterator[Any]) -> Iterator[Any]:
    """`events`, each Action and Final Answer also told to the run's callback handlers.

    As `AgentExecutor` tells them (`on_agent_action`, `on_agent_finish`), so a handler written
    for it (a logger, a console or Streamlit printer) keeps working. A sub-agent's steps are told
    by its own run.
    """
    for event in events:
        if run is not None and (told := as_agent_step(event)) is not None:
            if isinstance(told, AgentAction):
                run.on_agent_action(told)
            else:
                run.on_agent_finish(told)
        yield event


async def aannounced(
    run: AsyncCallbackManagerForChainRun | None, events: AsyncIterator[Any]
) -> AsyncIterator[Any]:
    """`announced` for async events and handlers."""
    async for event in events:
        if run is not None and (told := as_agent_step(event)) is not None:
            if isinstance(told, AgentAction):
                await run.on_agent_action(told)
            else:
                await run.on_agent_finish(told)
        yield event


def as_agent_step(event: Any) -> AgentAction | AgentFinish | None:
    """An Action as `AgentAction`, a Final Answer as `AgentFinish` (None for other events)."""
    if isinstance(event, ActionEvent):
        return AgentAction(event.step.tool, event.step.tool_input, event.step.log)
    if isinstance(event, FinalAnswerEvent):
        return AgentFinish({"output": event.output}, event.log)
    return None
