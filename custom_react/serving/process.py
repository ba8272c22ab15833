"""Process plumbing for the local model server: install check, launcher, port, signals, log.

Small functions that ``LocalModelServer`` (in ``custom_react.serving.server``) composes: checking
that the runtime (``xllamacpp``) is importable, building the command line that runs the launcher
(``custom_react/serving/launcher.py``, by path) for a model, launching it with a clean environment
in its own process group, checking or picking a loopback port, stopping its process group, and
reading the tail of its log for error messages. Whether the server answers is
``custom_react.serving.health``'s question. Nothing here keeps state or knows about chat models;
POSIX process groups are assumed (Linux, macOS).
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import socket
import subprocess
import sys
import tempfile
from collections import deque
from importlib.util import find_spec
from pathlib import Path

from custom_react.serving.errors import INSTALL_HINT, LocalModelError

RUNTIME_MODULE = "xllamacpp"
"""The module the launcher serves with: llama.cpp's server, prebuilt (the ``local`` extra)."""
LAUNCHER = Path(__file__).with_name("launcher.py")
"""The server process's program, run by path (it imports only the runtime and the stdlib)."""
# llama.cpp reads LLAMA_ARG_* (and LLAMA_API_KEY, LLAMA_CACHE, ...) from the environment in some
# code paths; none of them is meant for our child, whose settings are all on its command line.
_SCRUBBED_PREFIXES = ("LLAMA_",)


def check_server_installed() -> None:
    """Raise ``LocalModelError`` unless the runtime (``xllamacpp``) is importable."""
    if find_spec(RUNTIME_MODULE) is None:
        raise LocalModelError(
            f"the local model needs the llama.cpp runtime (missing: {RUNTIME_MODULE}): "
            f"run {INSTALL_HINT}, or set OPENAI_API_KEY or OPENAI_BASE_URL to use a hosted model"
        )


def server_command(
    model_path: Path,
    *,
    alias: str,
    host: str,
    port: int,
    n_ctx: int,
    n_threads: int,
    n_threads_batch: int,
    chat_template: Path | None,
    parallel: int = 1,
) -> list[str]:
    """Return the argv that serves ``model_path`` quietly, watched by this process.

    ``chat_template`` is a Jinja file the server renders chats with (and learns tool calls from,
    see ``custom_react.serving.templates``); ``None`` keeps the GGUF's own template. ``-P`` keeps
    the launcher's folder off ``sys.path``, so its neighbours cannot shadow a module.
    ``parallel`` is the number of slots: requests the server decodes at once, in one batch.
    """
    options = {
        "--model": str(model_path),
        "--alias": alias,
        "--host": host,
        "--port": str(port),
        "--n-ctx": str(n_ctx),
        "--threads": str(n_threads),
        "--threads-batch": str(n_threads_batch),
        "--chat-template": str(chat_template or ""),
        "--parallel": str(parallel),
        "--parent": str(os.getpid()),  # the launcher's watchdog exits when we are gone
    }
    launcher = [sys.executable, "-P", str(LAUNCHER)]
    return [*launcher, *(part for option in options.items() for part in option)]


def launch(command: list[str], log_path: Path) -> subprocess.Popen[bytes]:
    """Start ``command`` in its own process group, its output going to ``log_path``.

    The child reads nothing (stdin is ``/dev/null``) and gets ``child_environment()``. Its own
    process group lets ``stop_process_group`` take down everything it starts, and keeps a
    Ctrl-C in the terminal from reaching it before we stop it ourselves.
    """
    with log_path.open("wb") as log_file:
        return subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            env=child_environment(),
            start_new_session=True,
        )


def default_threads() -> int:
    """Return one thread fewer than the CPUs, from 1 to 8 (1 on a 2-core machine).

    Measured on the 2-core reference machine (`bench/runtime.py`, `bench/results/runtime.md`):
    1 thread took a ReAct step in 28 to 38 s all day; 2 threads took 17 to 20 s while the second
    core was free, but 40 to 61 s whenever anything else ran, because llama.cpp's threads wait
    on each other. Leaving one core to the rest of the machine is the dependable default.
    """
    return min(8, max(1, (os.cpu_count() or 2) - 1))


def default_batch_threads() -> int:
    """Return the threads that read a prompt: every CPU, from 1 to 8 (2 on a 2-core machine).

    Reading the prompt is most of a first answer on a CPU (a 650-token ReAct prompt at about 10
    tokens/s on one thread); measured in `bench/results/runtime_xllamacpp.md`.
    """
    return min(8, max(1, os.cpu_count() or 2))


def child_environment() -> dict[str, str]:
    """Return ``os.environ`` without the variables that would reconfigure the server."""
    return {
        key: value
        for key, value in os.environ.items()
        if not key.upper().startswith(_SCRUBBED_PREFIXES)
    }


def check_port(host: str, port: int | None) -> int:
    """Return ``port`` if it is free on ``host``, or a free port when ``port`` is ``None``.

    Raises:
        LocalModelError: The requested port is already in use.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((host, port or 0))
        except OSError as error:
            if error.errno != errno.EADDRINUSE:
                raise LocalModelError(f"cannot listen on {host}:{port}: {error}") from None
            raise LocalModelError(
                f"port {port} on {host} is already in use: choose another port, or leave it "
                "unset to pick a free one"
            ) from None
        return int(probe.getsockname()[1])


def stop_process_group(process: subprocess.Popen[bytes], timeout: float) -> None:
    """Terminate the process group led by ``process``; kill it if it is not gone in time."""
    _signal_group(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        _signal_group(process.pid, signal.SIGKILL)
        process.wait()
    _signal_group(process.pid, signal.SIGKILL)  # anything the server itself left behind


def temporary_log() -> Path:
    """Create an empty log file in the temporary folder and return its path."""
    handle, name = tempfile.mkstemp(prefix="custom-react-llama-", suffix=".log")
    os.close(handle)
    return Path(name)


def log_tail(path: Path | None, lines: int = 15) -> str:
    """Return the last ``lines`` lines of the log at ``path``, for error messages."""
    if path is None or not path.is_file():
        return "(no log)"
    with path.open(encoding="utf-8", errors="replace") as log_file:
        return "".join(deque(log_file, maxlen=lines)).rstrip() or "(empty log)"


def _signal_group(pid: int, signal_number: signal.Signals) -> None:
    """Send ``signal_number`` to the process group ``pid``, if it still exists and is ours."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal_number)
