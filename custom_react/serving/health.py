"""Can the local server really answer? One tiny completion before it is called ready.

A llama.cpp build made for instructions the CPU cannot run (a native build that uses AVX-512 or AMX
on a virtual CPU that reports them but faults on them, or a wheel built on another machine and
reused from pip's cache) loads the model, answers ``GET /v1/models`` and then dies at its first
completion. ``probe_completion`` sends that first completion while the server starts, so such a
build fails at start-up, and ``crash_advice`` turns the death into one actionable sentence: what
happened and the command that rebuilds the runtime portably, bypassing the cached wheel.
Nothing here starts or stops processes.
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
import urllib.error
import urllib.request
from typing import Literal

RUNTIME_VERSION = "0.3.36"
"""The llama-cpp-python release the project pins and was verified with (``pyproject.toml``)."""
PORTABLE_REBUILD = "bash scripts/install.sh --rebuild-runtime"
"""Rebuilds the runtime portably from a custom-react checkout (``scripts/install.sh``)."""
PORTABLE_PIP = (
    'CMAKE_ARGS="-DGGML_NATIVE=OFF" pip install --force-reinstall --no-cache-dir --no-deps '
    f'"llama-cpp-python=={RUNTIME_VERSION}"'
)
"""The same rebuild as a plain pip command, for an install without the checkout's script."""
# Signals a CPU-specific build dies of; SIGKILL, SIGTERM and friends come from outside.
_CRASH_SIGNALS = {signal.SIGSEGV, signal.SIGILL, signal.SIGBUS}

Probe = Literal["ready", "exited", "timeout"]


def probe_completion(
    base_url: str, model: str, process: subprocess.Popen[bytes], timeout: float
) -> Probe:
    """Ask the server for a one-token completion; report whether it answered, died or hung.

    Raises:
        RuntimeError: The server answered the probe with an HTTP error (its body is quoted).
    """
    body = {"model": model, "messages": [{"role": "user", "content": "Say OK."}], "max_tokens": 1}
    request = urllib.request.Request(
        f"{base_url}/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    no_proxy = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback only
    deadline = time.monotonic() + timeout
    try:
        with no_proxy.open(request, timeout=max(timeout, 1.0)):
            pass
    except urllib.error.HTTPError as error:
        detail = error.read().decode("utf-8", errors="replace")[:300]
        raise RuntimeError(f"HTTP {error.code} to the start-up completion: {detail}") from None
    except (urllib.error.URLError, OSError):
        # A crash closes the socket a moment before the process is reaped: give it that moment.
        try:
            process.wait(timeout=min(2.0, max(deadline - time.monotonic(), 0.1)))
        except subprocess.TimeoutExpired:
            return "timeout"
        return "exited"
    return "ready"


def crash_advice(exit_code: int | None) -> str:
    """Explain a server exit and how to fix it; "" unless it died of a crash signal."""
    if exit_code is None or exit_code >= 0 or -exit_code not in _CRASH_SIGNALS:
        return ""
    name = signal.Signals(-exit_code).name
    return (
        f"the llama.cpp runtime crashed ({name}): this llama-cpp-python build uses CPU "
        "instructions this machine cannot run (pip may have reused a wheel built natively, here "
        f"or elsewhere). Fix: rebuild it portably, bypassing pip's wheel cache: {PORTABLE_REBUILD}"
        f"  (or: {PORTABLE_PIP})"
    )
