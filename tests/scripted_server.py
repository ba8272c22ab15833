"""A scripted OpenAI-compatible chat server on loopback: each request gets the next reply.

`ScriptedServer(replies)` answers `POST /v1/chat/completions` with the replies in order; asked to
stream (`"stream": true`), it sends the reply word by word as server-sent events, with a short
pause between them, the way a real server does. For driving the CLI (`--base-url`) in a test.
"""

from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class ScriptedServer:
    """Serve `replies` in order on a free loopback port (`url`); use as a context manager."""

    def __init__(self, replies: list[str], pause: float = 0.05) -> None:
        self.replies, self.pause = list(replies), pause
        self.requests: list[dict] = []
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> ScriptedServer:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        scripted = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # quiet
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                scripted.requests.append(body)
                reply = scripted.replies.pop(0)
                if body.get("stream"):
                    self._stream(reply)
                else:
                    self._send("application/json", json.dumps(completion(reply)).encode())

            def _send(self, kind: str, data: bytes) -> None:
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _stream(self, reply: str) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                pieces = [piece for piece in re.split(r"(\s)", reply) if piece]
                for piece in pieces:
                    self._event(chunk({"content": piece}, None))
                    time.sleep(scripted.pause)
                self._event(chunk({}, "stop"))
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()

            def _event(self, data: dict) -> None:
                self.wfile.write(f"data: {json.dumps(data)}\n\n".encode())
                self.wfile.flush()

        return Handler


def completion(text: str) -> dict:
    """A whole chat completion answering `text`."""
    message = {"role": "assistant", "content": text}
    usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    choice = {"index": 0, "message": message, "finish_reason": "stop"}
    return {"id": "c1", "object": "chat.completion", "created": 0, "model": "scripted",
            "choices": [choice], "usage": usage}  # fmt: skip


def chunk(delta: dict, finish: str | None) -> dict:
    """One streamed chunk carrying `delta`."""
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    return {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": "scripted",
            "choices": [choice]}  # fmt: skip
