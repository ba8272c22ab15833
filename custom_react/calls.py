"""What the loop asks of the outside world: a `Call` it yields, and the answer it gets back.

The ReAct loop never calls the model or a tool itself. Where it needs one, it yields a `Call` that
holds both ways of making it, `run()` (plain) and `arun()` (awaitable), and the driver in
`runnable.py` sends the result back into the loop (`reply = yield call`) or raises the call's
error there. `invoke` and `stream` make the plain call, `ainvoke`, `astream` and `astream_events`
await the other: one loop serves both, with no worker thread per step. A call may also say how to
make it piece by piece (`Call.stream`, the model's reply as it is written): a driver asked to
stream (`drive(steps, streaming=True)`) runs those steps instead and yields their events too. `run_coroutine` lets plain
`invoke` run a tool that only has an async implementation (the tools of an MCP server).
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Generator, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any, Generic, TypeVar, cast

from langchain_core.runnables import Runnable, RunnableConfig

T = TypeVar("T")


Steps = Generator[Any, Any, T]
"""A generator that yields `Call`s (and, for a loop, events), is sent each call's result, and
returns a `T`."""


@dataclass(frozen=True)
class Call(Generic[T]):
    """One request from the loop: `run()` makes it plainly, `arun()` makes it awaitable."""

    run: Callable[[], T]
    arun: Callable[[], Awaitable[T]]
    stream: Callable[[], Steps[T]] | None = None
    """The same call piece by piece: steps that yield events (and calls) and return the result."""


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


def drive(steps: Steps[T], streaming: bool = False) -> Iterator[Any]:
    """Run `steps` plainly, yielding everything it yields but its calls (the loop's events).

    Each `Call` is made at once; its result is sent back into `steps`, or its error raised there.
    With `streaming`, a call that has a `stream` is made piece by piece and its events yielded too.
    """
    stack, outcome = Stack(steps), Outcome()
    while (item := stack.next(outcome)) is not _DONE:
        if isinstance(item, Call) and streaming and item.stream is not None:
            stack.push(item.stream())
            outcome = Outcome()
        elif isinstance(item, Call):
            outcome = Outcome.of(item.run)
        else:
            outcome = Outcome()  # an event gets nothing back
            yield item


async def adrive(steps: Steps[T], streaming: bool = False) -> AsyncIterator[Any]:
    """`drive` for async runs: each `Call` is awaited (`arun`) in the caller's event loop."""
    stack, outcome = Stack(steps), Outcome()
    while (item := stack.next(outcome)) is not _DONE:
        if isinstance(item, Call) and streaming and item.stream is not None:
            stack.push(item.stream())
            outcome = Outcome()
        elif isinstance(item, Call):
            try:
                outcome = Outcome(await item.arun())
            except BaseException as error:  # raised inside the loop, not here
                outcome = Outcome(error=error)
        else:
            outcome = Outcome()  # an event gets nothing back
            yield item


def run_plainly(steps: Steps[T]) -> T:
    """Make every call of `steps` plainly and return what it returns (one tool run, say)."""
    outcome = Outcome()
    while True:
        try:
            call = steps.throw(outcome.error) if outcome.error else steps.send(outcome.value)
        except StopIteration as stop:
            return cast(T, stop.value)
        outcome = Outcome.of(call.run)


_DONE = object()


@dataclass(frozen=True)
class Outcome:
    """The result of the last `Call`, or the error it raised, to hand back to the loop."""

    value: Any = None
    error: BaseException | None = None

    @classmethod
    def of(cls, run: Callable[[], Any]) -> Outcome:
        """Make a plain call and keep its result or its error."""
        try:
            return cls(run())
        except BaseException as error:  # raised inside the loop, not here
            return cls(error=error)

    def resume(self, steps: Steps[Any]) -> Any:
        """Send the result into `steps` (or raise the error there); its next item, or a `Done`."""
        try:
            return steps.throw(self.error) if self.error else steps.send(self.value)
        except StopIteration as stop:
            return Done(stop.value)


@dataclass(frozen=True)
class Done:
    """Steps that returned: their return value."""

    value: Any


class Stack:
    """The loop's steps and, above them, the streamed calls it waits on (the innermost last)."""

    def __init__(self, steps: Steps[Any]) -> None:
        self.frames = [steps]

    def push(self, steps: Steps[Any]) -> None:
        """Make a call by running `steps`: their result goes back to the frame below."""
        self.frames.append(steps)

    def next(self, outcome: Outcome) -> Any:
        """Resume the innermost frame with `outcome`: its next item, or `_DONE` when all ended."""
        while True:
            try:
                item = outcome.resume(self.frames[-1])
            except BaseException as error:
                if len(self.frames) == 1:
                    raise  # the loop's own error
                self.frames.pop()  # a streamed call failed: raised in the frame that made it
                outcome = Outcome(error=error)
                continue
            if not isinstance(item, Done):
                return item
            self.frames.pop()
            if not self.frames:
                return _DONE
            outcome = Outcome(item.value)
