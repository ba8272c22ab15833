"""Where a worker on another machine gets its model: a server's URL, or a bundled server of its own.

A chat model cannot be sent to another process (it holds open connections), so a distributed
run sends a small, picklable description instead, and each worker opens it: `Endpoint` is an
OpenAI-compatible server (vLLM, llama.cpp, a hosted API), `BundledServer` starts the bundled
model on the worker's own machine for as long as the worker lives, and `Simulated` is
`SimulatedModel` with its latency (for tests and benchmarks). Each says its model's name (part of
every result's key) and its slots (the requests it answers at once). Nothing here imports Ray.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

from langchain_core.language_models import BaseChatModel

from custom_react.compare.simulated import SimulatedModel


class ModelSource(Protocol):
    """A picklable description of a model that a worker opens for the length of its life."""

    @property
    def model(self) -> str:
        """The model's name, as results are keyed by it."""

    @property
    def slots(self) -> int:
        """Requests the model answers at once."""

    def open(self) -> Any:
        """A context manager that yields the chat model (and closes what it started)."""


@dataclass(frozen=True)
class Endpoint:
    """An OpenAI-compatible server: vLLM, llama.cpp's `llama-server`, Ollama, a hosted API."""

    base_url: str
    model: str
    api_key: str = field(default="not-needed", repr=False)
    slots: int = 1
    options: dict[str, Any] = field(default_factory=dict)
    """More `ChatOpenAI` arguments (e.g. `temperature`, `max_tokens`)."""

    @contextmanager
    def open(self) -> Iterator[BaseChatModel]:
        """A `ChatOpenAI` for the server (it starts nothing)."""
        from langchain_openai import ChatOpenAI

        defaults = {"temperature": 0.0, "timeout": 900.0, "max_retries": 2}
        yield ChatOpenAI(
            model=self.model,
            base_url=self.base_url,
            api_key=self.api_key,  # type: ignore[arg-type]
            **{**defaults, **self.options},
        )


@dataclass(frozen=True)
class BundledServer:
    """The bundled model, served on the worker's own machine while the worker lives."""

    model: str = "qwen2.5-coder-1.5b"
    slots: int = 1
    threads: int | None = None

    @contextmanager
    def open(self) -> Iterator[BaseChatModel]:
        """Assemble the model if needed, start its server with `slots` slots, stop it after."""
        from custom_react.serving.server import LocalModelServer
        from custom_react.serving.weights import ensure_model_file

        path = ensure_model_file(self.model)
        with LocalModelServer(path, parallel=self.slots, n_threads=self.threads) as server:
            yield server.chat_model()


@dataclass(frozen=True)
class Simulated:
    """`SimulatedModel` with `latency` seconds a reply (any number of slots)."""

    latency: float = 0.0
    slots: int = 8
    model: str = "simulated"

    @contextmanager
    def open(self) -> Iterator[BaseChatModel]:
        """A fresh `SimulatedModel`."""
        yield SimulatedModel(latency=self.latency)
