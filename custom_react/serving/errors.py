"""What a model set-up or connection failure means, in one actionable line.

``model_error_message`` names the failure (missing settings, a local runtime that is missing or
crashed, a refused key, a server that is down); ``exit_on_model_error`` is the context manager the
demos wrap their run in, so they end on that line instead of a traceback. The CLI uses the same
message with its own exit code. Nothing here prints.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import openai

from custom_react.serving.models import ModelConfigError
from custom_react.serving.weights import LocalModelError

MODEL_ERRORS = (ModelConfigError, LocalModelError, openai.APIError)
"""The failures ``model_error_message`` explains; anything else is a bug and keeps its traceback."""


def model_error_message(error: BaseException) -> str:
    """One line (plus a quoted log tail for a local server) that says what failed and what to do."""
    if isinstance(error, openai.AuthenticationError):
        return f"the model server refused the API key ({error.message})."
    if isinstance(error, openai.APIError):
        return f"the model call failed: {error.message.rstrip('.')}. Is the server up?"
    return str(error)


@contextmanager
def exit_on_model_error() -> Iterator[None]:
    """End the program with ``error: <message>`` (exit code 1) on a model failure."""
    try:
        yield
    except MODEL_ERRORS as error:
        raise SystemExit(f"error: {model_error_message(error)}") from None
