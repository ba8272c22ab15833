"""Fixtures for end-to-end tests: one bundled local model server shared by the whole session.

The server (default model, assembled into the user cache on first use) starts once, on a free
loopback port, and stops when the session ends. Without the runtime (xllamacpp) or the model's part
packages the tests that use it are skipped with the reason. A runtime that is installed but
cannot answer (a corrupted model file, a llama.cpp build that crashes at its first completion)
fails them: the server's start-up probe raises, and a failure is never turned into a skip.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from langchain_openai import ChatOpenAI

from custom_react.serving.errors import LocalModelError
from custom_react.serving.process import check_server_installed
from custom_react.serving.server import LocalModelServer
from custom_react.serving.weights import (
    BUNDLED_MODELS,
    DEFAULT_LOCAL_MODEL,
    ensure_model_file,
    find_part,
)


@pytest.fixture(scope="session")
def local_server() -> Iterator[LocalModelServer]:
    """The default bundled model behind llama.cpp's OpenAI-compatible server."""
    model = BUNDLED_MODELS[DEFAULT_LOCAL_MODEL]
    try:
        check_server_installed()
        for package in model.packages():
            find_part(package, model.version)
    except LocalModelError as error:
        pytest.skip(f"local model unavailable: {error}")
    with LocalModelServer(ensure_model_file(DEFAULT_LOCAL_MODEL)) as server:
        yield server


@pytest.fixture
def local_chat_model(local_server: LocalModelServer) -> ChatOpenAI:
    """A fresh ``ChatOpenAI`` (temperature 0) talking to the session's local server."""
    return local_server.chat_model()
