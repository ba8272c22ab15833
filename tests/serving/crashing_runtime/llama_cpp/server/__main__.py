"""Serve ``/v1/models``; die of SIGSEGV at the first ``/v1/chat/completions`` (tests only)."""

import argparse
import json
import os
import signal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

options = argparse.ArgumentParser()
options.add_argument("--host", default="127.0.0.1")
options.add_argument("--port", type=int, default=8000)
options.add_argument("--model_alias", default="model")
args, _ = options.parse_known_args()


class Handler(BaseHTTPRequestHandler):
    """Answers like llama.cpp's server until the first completion, which kills the process."""

    def do_GET(self) -> None:
        """List the one model, as ``GET /v1/models`` does on the real server."""
        body = json.dumps({"object": "list", "data": [{"id": args.model_alias}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        """Log a llama.cpp-like line, then die of SIGSEGV as a build for another CPU does."""
        print("llama_cpp: ggml_compute_forward: first completion", flush=True)
        os.kill(os.getpid(), signal.SIGSEGV)

    def log_message(self, format: str, *values: object) -> None:
        """Write each request line to stdout, which the server's log file captures."""
        print(format % values, flush=True)


ThreadingHTTPServer((args.host, args.port), Handler).serve_forever()
