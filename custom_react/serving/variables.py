"""The variables behind the model settings: the environment over a ``.env`` file, each value checked.

``read_variables`` merges a ``.env`` file under the environment and drops empty values; the other
functions turn one raw value into a valid one or raise ``ModelConfigError`` with the fix, in one
line. Which provider the variables select, and the settings built from them, are
``custom_react.serving.models``' job. Nothing here changes ``os.environ``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from dotenv import dotenv_values, find_dotenv

from custom_react.serving.errors import ModelConfigError
from custom_react.serving.weights import BUNDLED_MODELS


def read_variables(env: Mapping[str, str], dotenv: bool) -> dict[str, str]:
    """Return ``env`` over the ``.env`` file's values (if ``dotenv``), stripped, empty ones dropped.

    The ``.env`` file is searched from the working directory upward.
    """
    merged: dict[str, str] = {}
    if dotenv and (path := find_dotenv(usecwd=True)):
        merged.update({key: value for key, value in dotenv_values(path).items() if value})
    merged.update(env)
    return {key: value.strip() for key, value in merged.items() if value and value.strip()}


def required(values: Mapping[str, str], name: str) -> str:
    """Return the variable ``name``.

    Raises:
        ModelConfigError: It is not set.
    """
    if value := values.get(name):
        return value
    raise ModelConfigError(f"{name} is not set: add it to the environment or to .env")


def check_base_url(url: str) -> str:
    """Return ``url`` without a trailing slash.

    Raises:
        ModelConfigError: It is not an http(s) URL.
    """
    if not url.startswith(("http://", "https://")):
        raise ModelConfigError(
            f"OPENAI_BASE_URL={url!r} is not an http(s) URL: use e.g. http://127.0.0.1:11434/v1"
        )
    return url.rstrip("/")


def parse_temperature(text: str | None) -> float:
    """Return the ``CUSTOM_REACT_TEMPERATURE`` value as a number; 0 when unset.

    Raises:
        ModelConfigError: It is not a number from 0 to 2.
    """
    if text is None:
        return 0.0
    try:
        temperature = float(text)
    except ValueError:
        temperature = -1.0
    if not 0.0 <= temperature <= 2.0:
        raise ModelConfigError(
            f"CUSTOM_REACT_TEMPERATURE={text!r} is not a number from 0 to 2: use e.g. 0 or 0.7"
        )
    return temperature


def check_local_model(name: str) -> str:
    """Return ``name`` if it is a bundled model or an existing file (``~`` expanded).

    Raises:
        ModelConfigError: It is neither; the message lists the bundled models.
    """
    if name in BUNDLED_MODELS or Path(name).expanduser().is_file():
        return name
    raise ModelConfigError(
        f"local model {name!r} is neither a bundled model ({', '.join(BUNDLED_MODELS)}) nor an "
        "existing .gguf file: set CUSTOM_REACT_MODEL to one, or set an API key for a hosted model"
    )
