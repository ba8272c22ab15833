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


def test_streamed_tokens_arrive_in_pieces_and_end_with_usage(local_chat_model: ChatOpenAI) -> None:
    chunks = list(local_chat_model.stream("Count from 1 to 8, separated by commas."))
    assert len([chunk for chunk in chunks if chunk.text]) >= 2
    whole = chunks[0]
    for chunk in chunks[1:]:
        whole += chunk
    assert "1, 2, 3" in whole.text, whole.text
    usage = whole.usage_metadata
    assert usage is not None and usage["input_tokens"] > 0 and usage["output_tokens"] > 0


def test_a_stop_sequence_ends_the_reply_before_it(local_chat_model: ChatOpenAI) -> None:
    question = "Count from 1 to 12, one number per line, nothing else."
    assert "7" in local_chat_model.invoke(question).text  # without the stop, it goes past 6
    reply = local_chat_model.invoke(question, stop=["\n7"]).text
    assert "6" in reply and "7" not in reply, reply
