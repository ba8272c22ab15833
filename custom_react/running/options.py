"""Options checked against their annotated types when an agent (or the middleware) is built.

`check_types(values, hints)` holds every value to the type its parameter or field is annotated
with (`typing.get_type_hints`): a wrong one fails at once with a `TypeError` that names the option,
what it takes and what it got (`max_iterations takes int or None, not '5' (str)`), never mid-run.
It reads the annotations as they are written, so a new option is checked with no code here:
`Literal` values, unions, `None`, whole numbers (not `bool`), numbers, lists of a type (not a bare
string), functions (plain ones: an async function's answer would be a coroutine, never read),
classes and runtime-checkable protocols; `Any` is not checked here. Ranges are the caller's, with
two helpers: `check_count` (a whole number of at least 1, say) and `check_store` (a checkpoint
store, not its path).
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

from custom_react.pausing.store import RunStore


def check_types(values: Mapping[str, Any], hints: Mapping[str, Any]) -> None:
    """Fail on the first value that does not fit its annotation in `hints`.

    Raises:
        TypeError: Naming the option, what it takes and what it got.
    """
    for name, value in values.items():
        hint = hints.get(name, Any)
        if fits(value, hint):
            continue
        if functions := _async_functions(value):
            raise TypeError(
                f"{name} takes plain functions, not the async function {functions[0]!r}: what "
                "it returns is a coroutine, not its answer. Call your async code from a plain one."
            )
        raise TypeError(f"{name} takes {describe(hint)}, not {value!r} ({type(value).__name__}).")


def fits(value: Any, hint: Any) -> bool:
    """Whether `value` is of the annotated type `hint` (anything unknown here fits)."""
    origin = get_origin(hint)
    if hint is Any:
        return True
    if hint is None or hint is type(None):
        return value is None
    if origin is Literal:
        return any(value == option and type(value) is type(option) for option in get_args(hint))
    if origin in (Union, types.UnionType):
        return any(fits(value, option) for option in get_args(hint))
    if origin is Callable or hint is Callable:
        return callable(value) and not (_is_async_function(value) and _answers_plainly(hint))
    if origin in (Sequence, list, tuple):
        is_list = isinstance(value, Sequence) and not isinstance(value, str | bytes)
        item = get_args(hint)[0] if get_args(hint) else Any
        return is_list and all(fits(each, item) for each in value)
    if hint is int or hint is float:  # a number, never a bool; an int is a float too
        number = int if hint is int else int | float
        return isinstance(value, number) and not isinstance(value, bool)
    return not isinstance(hint, type) or isinstance(value, hint)


def _is_async_function(value: object) -> bool:
    """Whether calling `value` returns a coroutine (an `async def`, or an object whose call is one)."""
    return inspect.iscoroutinefunction(value) or inspect.iscoroutinefunction(
        getattr(value, "__call__", None)  # noqa: B004 -- the call method itself is asked about
    )


def _answers_plainly(hint: Any) -> bool:
    """Whether a function of type `hint` must answer at once: it declares a return, not awaitable."""
    arguments = get_args(hint)
    returns = arguments[-1] if arguments else Any
    return returns is not Any and get_origin(returns) not in (Awaitable, Coroutine)


def _async_functions(value: object) -> list[object]:
    """`value`, or the items of a list `value`, that are async functions."""
    items = value if isinstance(value, list | tuple) else [value]
    return [item for item in items if _is_async_function(item)]


def describe(hint: Any) -> str:
    """The annotated type as a reader says it: `int or None`, `'force' or 'generate'`."""
    origin = get_origin(hint)
    if hint is None or hint is type(None):
        return "None"
    if origin is Literal:
        options = [repr(option) for option in get_args(hint)]
    elif origin in (Union, types.UnionType):
        options = [describe(option) for option in get_args(hint)]
    elif origin is Callable or hint is Callable:
        return "a function"
    elif origin in (Sequence, list, tuple):
        item = get_args(hint)[0] if get_args(hint) else Any
        callables = item is Callable or get_origin(item) is Callable
        return "a list of " + ("functions" if callables else describe(item))
    else:
        return getattr(hint, "__name__", str(hint))
    return ", ".join(options[:-1]) + " or " + options[-1] if len(options) > 1 else options[0]


def check_count(name: str, value: object, minimum: int, optional: bool = False) -> None:
    """Fail early when a count option is not a whole number of at least `minimum`.

    Raises:
        TypeError: Not an int (a string or a float, say).
        ValueError: Below `minimum`.
    """
    if value is None and optional:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a whole number, not {value!r}.")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, not {value}.")


def check_store(store: object) -> None:
    """Fail early when `checkpoint` is not a store (a path is the common slip: say the fix).

    Raises:
        TypeError: `store` is neither None nor a `RunStore`.
    """
    if isinstance(store, str | Path):
        raise TypeError(
            f"checkpoint takes a store, not a path: write checkpoint=SQLiteStore({str(store)!r}) "
            "after `from custom_react.pausing.checkpoints import SQLiteStore`."
        )
    if store is not None and not isinstance(store, RunStore):
        needed = ("begin", "add_step", "claim", "finish", "load", "history")
        missing = [name for name in needed if not callable(getattr(store, name, None))]
        raise TypeError(
            "checkpoint must be a RunStore, such as pausing.checkpoints.SQLiteStore"
            f" ({type(store).__name__} lacks {', '.join(missing)})."
        )
