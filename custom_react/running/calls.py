"""What the loop asks of the outside world: a `Call` it yields, and the drivers that make it.

The ReAct loop never calls the model or a tool itself. Where it needs one, it yields a `Call`
that holds both ways of making it, `run()` (plain) and `arun()` (awaitable), and is sent the
result back (`reply = yield call`), or has the call's error raised where it asked. Everything else
the loop yields is an event for whoever watches. `drive` makes each call plainly (`invoke`,
`stream`), `adrive` awaits it (`ainvoke`, `astream`, `astream_events`): one loop serves both,
with no worker thread per step. `run_coroutine` lets plain `invoke` run a tool that only has an
async implementation (the tools of an MCP server); `result_of` reads a run's result dict from its
last event.
"""

from __future__ import annotations

import asyncio
import contextvars
import os
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Generator, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any, Generic, TypeVar, cast

from langchain_core.runnables import Runnable, RunnableConfig

from custom_react.events import AgentEvent, RunFinished

T = TypeVar("T")
E = TypeVar("E")


@dataclass(frozen=True)
class Call(Generic[T]):
    """One request from the loop: `run()` makes it plainly, `arun()` makes it awaitable."""

    run: Callable[[], T]
    arun: Callable[[], Awaitable[T]]


Loop = Generator[AgentEvent | Call[Any], Any, T]
"""A generator that yields events (for whoever watches) and `Call`s (to be made), is sent each
call's result (None after an event), and returns a `T`."""


def invoking(
    runnable: Runnable[Any, T], value: Any, config: RunnableConfig, **kwargs: Any
) -> Call[T]:
    """`runnable.invoke(value, config)`, or its `ainvoke` under an async run.

    The methods are looked up only when the call is made, so an object with `invoke` alone (a
    hand-written model wrapper, say) still runs under `invoke`.
    """

    def run() -> T:
        return runnable.invoke(value, config, **kwargs)

    def arun() -> Awaitable[T]:
        return runnable.ainvoke(value, config, **kwargs)

    return Call(run, arun)


def nested(loop: Loop[T], show: Callable[[Any], Any], seconds: float | None = None) -> Loop[T]:
    """Run `loop` inside the loop that yields from this one, as it goes.

    Its calls go to the same driver (a failed call's error is raised inside `loop`, where it
    asked), and each of its events comes out as `show(event)` (None: not shown). A sub-agent runs
    so within the calling step: its events reach the caller as they happen. With `seconds`, each
    call gets what is left of them, and once they are gone `loop` is closed and `TimedOut` raised.
    """
    deadline = None if seconds is None else time.monotonic() + seconds
    answer: Any = None
    error: Exception | None = None
    while True:
        try:
            item = loop.send(answer) if error is None else loop.throw(error)
        except StopIteration as stop:
            return cast(T, stop.value)
        answer = None
        error = None
        if isinstance(item, Call) and deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                loop.close()
                raise TimedOut(seconds or 0.0)
            item = within(item, left)
        if isinstance(item, Call):
            try:
                answer = yield item
            except Exception as raised:  # the call failed: raise it where it was asked for
                error = raised
        elif (shown := show(item)) is not None:
            yield shown


def raised_by_a_callback(error: BaseException) -> bool:
    """A callback handler raised `error` (one with `raise_error=True`: LangChain passes it on).

    Such a handler stops the run on purpose (a guardrail, a budget): the error reaches the
    caller as LangChain lets it, never an Observation, never a retry (the tool may have run).
    """
    trace = error.__traceback__
    while trace is not None:
        code = trace.tb_frame.f_code
        if code.co_name in _HANDLER_CALLS and code.co_filename.endswith(_CALLBACKS):
            return True
        trace = trace.tb_next
    return False


_HANDLER_CALLS = frozenset({"handle_event", "_ahandle_event_for_handler"})
_CALLBACKS = os.path.join("langchain_core", "callbacks", "manager.py")
"""Where LangChain calls each handler and re-raises what a `raise_error` handler raised."""


class TimedOut(Exception):
    """A call did not finish within its time limit (`within`); the loop no longer waits for it."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"did not finish within {seconds:g} s")
        self.seconds = seconds


class Crashed(Exception):
    """A call raised something that is not an `Exception` (`GeneratorExit`, say): made one."""


def within(call: Call[T], seconds: float | None) -> Call[T]:
    """`call` with a time limit of `seconds` (None: none), raising `TimedOut` when it passes.

    Awaited, the call is cancelled at the limit. Made plainly, it runs in a daemon thread that is
    left behind at the limit: Python cannot stop a thread, so a tool's own code keeps running
    until it returns (the terminal tool stops its process itself). Either way, something the
    call raises that is not an `Exception` comes back as `Crashed`, so it ends neither the loop
    nor its stream.
    """

    def run() -> T:
        try:
            return call.run() if seconds is None else _run_in_thread(call.run, seconds)
        except (GeneratorExit, StopIteration, StopAsyncIteration) as error:
            raise Crashed(f"{type(error).__name__}: {error}") from error

    async def arun() -> T:
        # A task of its own: whatever the call raises stays in its frames until read here.
        task = asyncio.ensure_future(call.arun())
        try:
            done, _ = await asyncio.wait({task}, timeout=seconds)
        except asyncio.CancelledError:
            task.cancel()
            raise
        if not done:
            task.cancel()
            raise TimedOut(seconds or 0.0)
        error = task.exception()
        if isinstance(error, GeneratorExit | StopIteration | StopAsyncIteration):
            raise Crashed(f"{type(error).__name__}: {error}") from error
        return task.result()

    return Call(run, arun)


def _run_in_thread(make: Callable[[], T], seconds: float) -> T:
    """`make()` in a daemon thread (with this thread's context); `TimedOut` after `seconds`."""
    done: list[T] = []
    failed: list[BaseException] = []
    context = contextvars.copy_context()

    def work() -> None:
        try:
            done.append(context.run(make))
        except BaseException as error:  # handed to the caller below
            failed.append(error)

    worker = threading.Thread(target=work, name="custom-react-tool", daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise TimedOut(seconds)
    if failed:
        raise failed[0]
    return done[0]


def sleeping(seconds: float) -> Call[None]:
    """Wait `seconds`: `time.sleep`, or `asyncio.sleep` under an async run."""
    return Call(partial(time.sleep, seconds), partial(asyncio.sleep, seconds))


def next_event(events: Iterator[T], aevents: AsyncIterator[T]) -> Call[T | None]:
    """The next item of a stream (None at its end): from `events`, or `aevents` under an async run."""
    return Call(partial(next, events, None), partial(anext, aevents, None))


def run_coroutine(make: Callable[[], Awaitable[T]]) -> T:
    """Await `make()` to its end from plain code, in a fresh event loop.

    When this thread already runs an event loop (a notebook, say), the fresh loop runs in a
    worker thread, with this thread's context (so callbacks nest as usual).
    """

    async def main() -> T:
        return await make()

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(main())
    context = contextvars.copy_context()
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(context.run, _run_loop, main()).result()


def _run_loop(coroutine: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coroutine)


def drive(loop: Generator[E | Call[Any], Any, Any]) -> Iterator[E]:
    """Run `loop` plainly: make each `Call` at once, yield everything else (its events).

    A call's result is sent back into the loop; its error is raised there, where it was asked.
    """
    item = _resume(loop)
    while item is not _END:
        if isinstance(item, Call):
            try:
                answer = item.run()
            except BaseException as error:  # raised inside the loop, not here
                item = _resume(loop, error=error)
            else:
                item = _resume(loop, answer)
        else:
            yield item
            item = _resume(loop)


async def adrive(loop: Generator[E | Call[Any], Any, Any]) -> AsyncIterator[E]:
    """`drive` for async runs: each `Call` is awaited (`arun`) in the caller's event loop."""
    item = _resume(loop)
    while item is not _END:
        if isinstance(item, Call):
            try:
                answer = await item.arun()
            except BaseException as error:  # raised inside the loop, not here
                item = _resume(loop, error=error)
            else:
                item = _resume(loop, answer)
        else:
            yield item
            item = _resume(loop)


_END: Any = object()


def _resume(
    loop: Generator[Any, Any, Any], answer: Any = None, error: BaseException | None = None
) -> Any:
    """The loop's next item after sending it `answer` (or raising `error` in it); `_END` at its end."""
    try:
        return loop.throw(error) if error is not None else loop.send(answer)
    except StopIteration:
        return _END


def result_of(last: Any) -> dict[str, Any]:
    """The result dict of a run whose last event is `last`.

    Raises:
        RuntimeError: The loop ended without `RunFinished` (a bug in the loop).
    """
    if not isinstance(last, RunFinished):
        raise RuntimeError("The agent loop ended without a RunFinished event.")
    return last.result.to_dict()
