"""`SimulatedModel` behind an OpenAI-compatible HTTP server on loopback, for runs across processes.

`SimulatedServer(latency=0.2)` answers `POST /v1/chat/completions` (whole or streamed) with the
same text-ReAct steps as `custom_react.compare.simulated.SimulatedModel`, each after `latency`
seconds, many requests at once (a thread each), and counts the requests it got per question
(`requests`). A harness in another process (the CLI, a Ray worker) points `--base-url` at `url`
as it would at vLLM or llama.cpp; the tests kill that process and check, from these counts and
the results file, that nothing was lost or run twice. Use it as a context manager.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Self

from langchain_core.messages import BaseMessage, HumanMessage

from custom_react.compare.simulated import react_reply

_QUESTION = re.compile(r"Question:\s*(.*)")


class SimulatedServer:
    """An OpenAI-compatible loopback server whose model is `SimulatedModel`."""

    def __init__(self, latency: float = 0.0, host: str = "127.0.0.1", port: int = 0) -> None:
        """Bind `host:port` (a free port when 0); serve once entered."""
        self.latency = latency
        self.requests: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer((host, port), _handler(self))
        self._server.daemon_threads = True
        self.url = f"http://{host}:{self._server.server_address[1]}/v1"

    def __enter__(self) -> Self:
        """Serve from a background thread."""
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Stop serving and free the port."""
        self._server.shutdown()
        self._server.server_close()

    def answer(self, body: dict[str, Any]) -> str:
        """Count the request under its question, wait `latency` s, and return the reply text."""
        messages: list[BaseMessage] = [
            HumanMessage(_text(message.get("content"))) for message in body.get("messages", [])
        ]
        last = messages[-1].text if messages else ""
        asked = _QUESTION.findall(last)
        with self._lock:
            self.requests[asked[-1].strip() if asked else ""] += 1
        time.sleep(self.latency)
        return react_reply(messages) if messages else ""


def _text(content: Any) -> str:
    """A message's content as text (a string, or a list of text parts)."""
    if isinstance(content, list):
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return str(content or "")


def _handler(simulated: SimulatedServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:  # quiet
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            reply = simulated.answer(body)
            if body.get("stream"):
                events = [_chunk({"role": "assistant", "content": reply}, None), _chunk({}, "stop")]
                data = "".join(f"data: {json.dumps(event)}\n\n" for event in events)
                self._send("text/event-stream", (data + "data: [DONE]\n\n").encode())
            else:
                self._send("application/json", json.dumps(_completion(reply)).encode())

        def _send(self, kind: str, data: bytes) -> None:
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


_USAGE = {"prompt_tokens": 100, "completion_tokens": 12, "total_tokens": 112}


def _completion(text: str) -> dict[str, Any]:
    choice = {
        "index": 0,
        "message": {"role": "assistant", "content": text},
        "finish_reason": "stop",
    }
    return {
        "id": "simulated",
        "object": "chat.completion",
        "created": 0,
        "model": "simulated",
        "choices": [choice],
        "usage": _USAGE,
    }


def _chunk(delta: dict[str, Any], finish: str | None) -> dict[str, Any]:
    return {
        "id": "simulated",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "simulated",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        "usage": _USAGE if finish else None,
    }
