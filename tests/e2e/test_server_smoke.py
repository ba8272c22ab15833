"""Smoke test: the session's local model server answers a one-line chat completion."""

from __future__ import annotations

import json
import urllib.request

import pytest
from langchain_openai import ChatOpenAI

from custom_react.serving.server import LocalModelServer

pytestmark = pytest.mark.e2e


def test_the_server_lists_its_model(local_server: LocalModelServer) -> None:
    assert local_server.base_url.startswith("http://127.0.0.1:")
    with urllib.request.urlopen(f"{local_server.base_url}/models", timeout=10) as response:
        listing = json.load(response)
    assert [entry["id"] for entry in listing["data"]] == ["qwen2.5-coder-1.5b-instruct"]


def test_a_one_line_chat_completion(local_chat_model: ChatOpenAI) -> None:
    reply = local_chat_model.invoke("Reply with exactly one word, in lowercase: pong")
    assert "pong" in reply.text.lower(), reply.text
    assert reply.usage_metadata is not None
    assert reply.usage_metadata["output_tokens"] > 0
