"""A stand-in for the xllamacpp runtime whose server crashes at the first completion (tests only).

Put this folder first on ``PYTHONPATH`` and the real launcher (``custom_react/serving/launcher.py``)
imports it instead of the wheel: it takes the launcher's settings as the real ``CommonParams``
does, and its ``Server`` answers ``GET /v1/models`` like llama.cpp's server, then dies of SIGSEGV
at the first chat completion, as a llama.cpp build for instructions the CPU cannot run does.
With ``FAKE_XLLAMACPP_STOP_HANGS=1`` in its environment, its clean stop never ends instead, as
the real one's can while it waits for a request in flight.
"""

import enum
import json
import os
import signal
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace

__version__ = "0.0.0+crashes"


class common_reasoning_format(enum.IntEnum):
    """The one member of the runtime's enum that the launcher sets."""

    COMMON_REASONING_FORMAT_NONE = 0


class CommonParams(SimpleNamespace):
    """llama.cpp's settings: any field the launcher sets, with its nested groups."""

    def __init__(self) -> None:
        super().__init__(model=SimpleNamespace(), cpuparams=SimpleNamespace())
        self.cpuparams_batch = SimpleNamespace()


class Handler(BaseHTTPRequestHandler):
    """Answers like llama.cpp's server until the first completion, which kills the process."""

    alias = "model"

    def do_GET(self) -> None:
        """List the one model, as ``GET /v1/models`` does on the real server."""
        body = json.dumps({"object": "list", "data": [{"id": self.alias}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        """Log a llama.cpp-like line, then die of SIGSEGV as a build for another CPU does."""
        print("ggml_compute_forward: first completion", flush=True)
        os.kill(os.getpid(), signal.SIGSEGV)

    def log_message(self, format: str, *values: object) -> None:
        """Write each request line to stdout, which the server's log file captures."""
        print(format % values, flush=True)


class Server:
    """Serves HTTP from a thread of this process, as ``xllamacpp.Server`` does."""

    def __init__(self, params: CommonParams) -> None:
        Handler.alias = next(iter(params.model_alias))
        self._http = ThreadingHTTPServer((params.hostnames[0], params.port), Handler)
        threading.Thread(target=self._http.serve_forever, daemon=True).start()

    def __del__(self) -> None:
        if os.environ.get("FAKE_XLLAMACPP_STOP_HANGS"):
            time.sleep(600)
        self._http.shutdown()
