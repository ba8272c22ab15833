"""Is the local server ready, and if it died, why? Polling, one tiny completion, and the verdict.

``wait_for_startup`` polls ``GET /v1/models`` and then sends one real completion before the
server is called ready. A llama.cpp build made for instructions the CPU cannot run (the prebuilt
runtime's AVX2/FMA/F16C kernels on a CPU without them, or a native build for AVX-512 on a virtual
CPU that reports it but faults on it) loads the model, answers ``GET /v1/models`` and then dies
at its first completion; the probe makes such a build fail at start-up, not at the agent's first
step. ``crash_advice`` turns the death into one actionable sentence (what happened, how to check
the CPU, the reinstall command, and the way out when the CPU cannot run it), and
``death_message`` adds the exit code and the log tail. Nothing here starts or stops processes.
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Literal

from custom_react.serving.errors import LocalModelError
from custom_react.serving.process import log_tail

RUNTIME_VERSION = "2026.10.11549"
"""The xllamacpp release the project pins and was verified with (``pyproject.toml``)."""
REINSTALL = f'pip install --force-reinstall --no-deps "xllamacpp=={RUNTIME_VERSION}"'
"""Reinstalls the prebuilt runtime (a damaged or replaced install)."""
CPU_CHECK = "grep -o -w -m1 avx2 /proc/cpuinfo"
"""Prints ``avx2`` on a CPU that can run the prebuilt runtime, nothing on one that cannot."""
# Signals a CPU-specific build dies of; SIGKILL, SIGTERM and friends come from outside.
_CRASH_SIGNALS = {signal.SIGSEGV, signal.SIGILL, signal.SIGBUS}

Probe = Literal["ready", "exited", "timeout"]
"""How waiting for the server ended: it answered, its process exited, or time ran out."""


def wait_for_startup(
    process: subprocess.Popen[bytes],
    *,
    base_url: str,
    model: str,
    model_file: str,
    timeout: float,
    log_path: Path | None,
) -> None:
    """Return once the server lists its models and answers one completion, within ``timeout`` s.

    Args:
        process: The server process, watched for an early exit.
        base_url: The server's OpenAI-compatible base URL.
        model: The model name the server answers to.
        model_file: The served file's name, for the error message.
        timeout: Seconds for both waits together.
        log_path: The server's log, named and quoted in the error message.

    Raises:
        LocalModelError: The server exited, timed out, or answered the completion with an error.
    """
    started = time.monotonic()
    state = wait_until_ready(f"{base_url}/models", process, timeout)
    when = "while starting"
    if state == "ready":
        when = "at its first completion"
        try:
            state = probe_completion(base_url, model, process, started + timeout - time.monotonic())
        except RuntimeError as error:
            raise LocalModelError(
                f"the local model server is up but cannot answer: {error}; log {log_path}"
            ) from None
    if state == "exited":
        raise LocalModelError(death_message(model_file, process.poll(), log_path, when))
    if state == "timeout":
        raise LocalModelError(
            f"the local model server did not answer within {timeout:.0f} s at {base_url}; "
            f"log {log_path}, last lines:\n{log_tail(log_path)}"
        )


def wait_until_ready(url: str, process: subprocess.Popen[bytes], timeout: float) -> Probe:
    """Poll ``url`` until it answers, the process exits, or ``timeout`` seconds pass."""
    no_proxy = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback only
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return "exited"
        try:
            with no_proxy.open(url, timeout=2.0):
                return "ready"
        except (urllib.error.URLError, OSError):
            time.sleep(0.2)
    return "timeout"


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
        f"the llama.cpp runtime crashed ({name}): the prebuilt xllamacpp wheel runs AVX2, FMA and "
        f"F16C code, so this CPU may lack them or the install is damaged. Check the CPU: "
        f"{CPU_CHECK} (prints avx2 if it can run it); if it can, reinstall the runtime: {REINSTALL}; "
        "if it cannot, serve the model with an OpenAI-compatible server built for this machine "
        "(llama.cpp's llama-server, Ollama) and set OPENAI_BASE_URL to it"
    )


def death_message(
    model_file: str, exit_code: int | None, log_path: Path | None, when: str = "unexpectedly"
) -> str:
    """Say that the server for ``model_file`` exited ``when``, why if known, and quote its log."""
    advice = crash_advice(exit_code)
    return (
        f"the local model server for {model_file} exited {when} (exit code {exit_code})"
        f"{'; ' + advice if advice else ''}; log {log_path}, last lines:\n"
        f"{log_tail(log_path)}"
    )
