"""Pick the chat model from settings: OpenAI, DeepSeek, any OpenAI-compatible URL, or local.

``ModelSettings.from_env`` reads the environment and a ``.env`` file (without changing
``os.environ``) into one frozen value; ``open_chat_model`` turns it into a ``ChatOpenAI`` -- the
only model class the project uses -- starting and stopping the bundled local model server around
the block when no hosted model is configured; ``describe`` gives one line for display. Precedence:
an explicit base URL, then a DeepSeek key, then an OpenAI key, then the local model. Reading and
checking each variable is ``custom_react.serving.variables``' job; the server itself lives in
``custom_react.serving.server``. The agent loop never reads settings.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from langchain_core.language_models import BaseChatModel
from langchain_openai import ChatOpenAI

from custom_react.serving.errors import ModelConfigError
from custom_react.serving.process import check_server_installed
from custom_react.serving.server import LocalModelServer
from custom_react.serving.variables import (
    check_base_url,
    check_local_model,
    parse_temperature,
    read_variables,
    required,
)
from custom_react.serving.weights import DEFAULT_LOCAL_MODEL, ensure_model_file

Provider = Literal["openai", "deepseek", "compatible", "local"]

OPENAI_BASE_URL = "https://api.openai.com/v1"
DEFAULT_OPENAI_MODEL = "gpt-4o-mini"
DEEPSEEK_BASE_URL = "https://api.deepseek.com"
DEEPSEEK_MODEL = "deepseek-chat"
# OpenAI-compatible servers (vLLM, Ollama, llama.cpp) often need no key; the client needs a string.
PLACEHOLDER_API_KEY = "not-needed"


@dataclass(frozen=True)
class ModelSettings:
    """Which chat model to use and how to reach it; build it with ``from_env``."""

    provider: Provider
    """Where the model runs: ``openai``, ``deepseek``, an OpenAI-``compatible`` URL, ``local``."""
    model: str
    """Model name for the API, or, for ``local``, a bundled model name or a GGUF path."""
    base_url: str | None = None
    """API base URL; ``None`` for ``local`` (the server picks its own port)."""
    api_key: str | None = field(default=None, repr=False)
    """API key; never shown by ``repr`` or ``describe``."""
    temperature: float = 0.0
    """Sampling temperature, 0 to 2."""

    @classmethod
    def from_env(
        cls,
        env: Mapping[str, str] | None = None,
        dotenv: bool = True,
        *,
        model: str | None = None,
        base_url: str | None = None,
        provider: Provider | None = None,
    ) -> ModelSettings:
        """Read settings from ``env`` (default ``os.environ``) and, if ``dotenv``, a ``.env`` file.

        Values in ``env`` win over the ``.env`` file (found from the working directory upward);
        empty values count as unset. Arguments win over both.

        Args:
            env: Variables to read instead of ``os.environ``.
            dotenv: Whether to fill unset variables from a ``.env`` file.
            model: Model name (or, for the local provider, bundled name or GGUF path).
            base_url: Any OpenAI-compatible base URL; selects the ``compatible`` provider.
            provider: Force a provider instead of choosing by precedence.

        Raises:
            ModelConfigError: A setting is missing or malformed.
        """
        values = read_variables(os.environ if env is None else env, dotenv)
        if base_url:
            values["OPENAI_BASE_URL"] = base_url
        chosen = provider or _choose_provider(values)
        if chosen not in get_args(Provider):
            raise ModelConfigError(f"unknown provider {chosen!r}: use one of {get_args(Provider)}")
        temperature = parse_temperature(values.get("CUSTOM_REACT_TEMPERATURE"))
        return _settings_for(chosen, values, model, temperature)


@contextmanager
def open_chat_model(
    settings: ModelSettings, *, parallel: int = 1, **chat_kwargs: Any
) -> Iterator[BaseChatModel]:
    """Yield a ``ChatOpenAI`` for ``settings``; for ``local``, serve the model during the block.

    Args:
        settings: Usually ``ModelSettings.from_env()``.
        parallel: For ``local``, the server's slots (requests answered at once, in one batch).
        **chat_kwargs: Extra ``ChatOpenAI`` arguments (e.g. ``max_tokens``), overriding defaults.

    Raises:
        LocalModelError: The local model cannot be assembled, installed or started.
    """
    if settings.provider != "local":
        yield ChatOpenAI(
            **{
                "model": settings.model,
                "base_url": settings.base_url,
                "api_key": settings.api_key,
                "temperature": settings.temperature,
                "timeout": 120.0,
                "max_retries": 2,
                "stream_usage": settings.provider in ("openai", "deepseek"),
                **chat_kwargs,
            }
        )
        return
    check_server_installed()  # before assembling a gigabyte we could not serve
    with LocalModelServer(ensure_model_file(settings.model), parallel=parallel) as server:
        yield server.chat_model(**{"temperature": settings.temperature, **chat_kwargs})


def describe(settings: ModelSettings) -> str:
    """Return one line naming the provider, model and endpoint (never the key)."""
    match settings.provider:
        case "openai":
            return f"OpenAI {settings.model}"
        case "deepseek":
            return f"DeepSeek {settings.model} at {settings.base_url}"
        case "compatible":
            return f"{settings.model} at {settings.base_url} (OpenAI-compatible)"
        case "local":
            return f"local {settings.model} (llama.cpp server on 127.0.0.1)"


def _settings_for(
    provider: Provider, values: Mapping[str, str], model: str | None, temperature: float
) -> ModelSettings:
    """Build one provider's settings from the merged variables and the explicit model."""
    openai_model = model or values.get("OPENAI_MODEL") or DEFAULT_OPENAI_MODEL
    match provider:
        case "compatible":
            url = check_base_url(required(values, "OPENAI_BASE_URL"))
            key = values.get("OPENAI_API_KEY") or PLACEHOLDER_API_KEY
            return ModelSettings(provider, openai_model, url, key, temperature)
        case "deepseek":
            key = required(values, "DEEPSEEK_API_KEY")
            name = model or DEEPSEEK_MODEL  # OPENAI_MODEL names an OpenAI model, not this one
            return ModelSettings(provider, name, DEEPSEEK_BASE_URL, key, temperature)
        case "openai":
            key = required(values, "OPENAI_API_KEY")
            return ModelSettings(provider, openai_model, OPENAI_BASE_URL, key, temperature)
        case "local":
            name = model or values.get("CUSTOM_REACT_MODEL") or DEFAULT_LOCAL_MODEL
            return ModelSettings(provider, check_local_model(name), None, None, temperature)


def _choose_provider(values: Mapping[str, str]) -> Provider:
    """Apply the precedence: a base URL, then a DeepSeek key, then an OpenAI key, then local."""
    if values.get("OPENAI_BASE_URL"):
        return "compatible"
    if values.get("DEEPSEEK_API_KEY"):
        return "deepseek"
    if values.get("OPENAI_API_KEY"):
        return "openai"
    return "local"
