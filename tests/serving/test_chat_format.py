"""The tool-calling chat format's message rewrite, and the transport's `null` content fix."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_openai import ChatOpenAI

from custom_react.serving.chat_format import TOOL_CHAT_FORMAT, show_tool_results
from custom_react.serving.process import server_command
from custom_react.serving.transport import server_ready, watched_clients

CALL = {"id": "c1", "type": "function", "function": {"name": "search", "arguments": "{}"}}


def test_a_tool_result_becomes_a_user_turn_that_names_its_tool() -> None:
    messages = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Rose price?"},
        {"role": "assistant", "content": "", "tool_calls": [CALL]},
        {"role": "tool", "tool_call_id": "c1", "content": [{"type": "text", "text": "1.2 yuan"}]},
    ]

    shown = show_tool_results(messages)

    assert shown[:3] == messages[:3]
    assert shown[3] == {"role": "user", "content": "functions.search returned:\n1.2 yuan"}


def test_a_system_turn_is_added_for_the_tool_list_when_there_is_none() -> None:
    shown = show_tool_results([{"role": "user", "content": "Hi"}])

    assert [m["role"] for m in shown] == ["system", "user"]


def test_the_server_is_started_with_the_tool_calling_format_and_registers_it_first() -> None:
    options: dict[str, Any] = {"alias": "m", "host": "h", "port": 1, "n_ctx": 8, "n_threads": 1}
    command = server_command(Path("m.gguf"), **options)
    assert command[command.index("--chat_format") + 1] == TOOL_CHAT_FORMAT
    script = command[2]
    assert script.index('["register"]()') < script.index("llama_cpp.server")
    plain = server_command(Path("m.gguf"), **options, chat_format=None)
    assert "--chat_format" not in plain


def chat_request(messages: list[dict[str, object]]) -> httpx.Request:
    return httpx.Request(
        "POST", "http://127.0.0.1/v1/chat/completions", json={"model": "m", "messages": messages}
    )


def test_null_assistant_content_is_sent_as_an_empty_string() -> None:
    request = chat_request([{"role": "assistant", "content": None, "tool_calls": [CALL]}])

    sent = server_ready(request)

    body = json.loads(sent.read())
    assert body["messages"][0]["content"] == ""
    assert int(sent.headers["content-length"]) == len(sent.read())


def test_max_completion_tokens_is_sent_as_max_tokens_which_the_server_reads() -> None:
    request = httpx.Request(
        "POST",
        "http://127.0.0.1/v1/chat/completions",
        json={"model": "m", "messages": [], "max_completion_tokens": 512},
    )

    body = json.loads(server_ready(request).read())

    assert body["max_tokens"] == 512 and "max_completion_tokens" not in body


def test_other_requests_are_sent_unchanged() -> None:
    request = chat_request([{"role": "user", "content": "Hi"}])
    assert server_ready(request) is request
    models = httpx.Request("GET", "http://127.0.0.1/v1/models")
    assert server_ready(models) is models


class Echo(BaseHTTPRequestHandler):
    """Answers a chat completion whose text is the request body it received."""

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["content-length"])).decode()
        reply = {
            "id": "x",
            "object": "chat.completion",
            "created": 0,
            "model": "m",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": body},
                }
            ],
        }
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def echo_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Echo)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()


def test_a_langchain_tool_call_turn_reaches_the_server_with_string_content(echo_url: str) -> None:
    llm = ChatOpenAI(
        model="m", base_url=echo_url, api_key="x", max_tokens=64, **watched_clients(lambda g: None)
    )
    turns = [
        HumanMessage("Rose price?"),
        AIMessage("", tool_calls=[{"name": "search", "args": {"query": "rose"}, "id": "c1"}]),
        ToolMessage("1.2 yuan", tool_call_id="c1"),
    ]

    received = json.loads(llm.invoke(turns).text)

    assistant = received["messages"][1]
    assert assistant["role"] == "assistant" and assistant["content"] == ""
    assert assistant["tool_calls"][0]["function"]["name"] == "search"
    assert received["max_tokens"] == 64  # ChatOpenAI wrote it as max_completion_tokens
