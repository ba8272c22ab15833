"""Process plumbing for the local model server: install check, launcher, port, signals, log.

Small functions that ``LocalModelServer`` (in ``custom_react.serving.server``) composes: checking
that llama-cpp-python's server is importable, building its command line (with a watchdog that ends
the server when its parent dies), launching it with a clean environment in its own process group,
checking or picking a loopback port, stopping its process group, and reading the tail of its log
for error messages. Whether the server answers is ``custom_react.serving.health``'s question.
Nothing here keeps state or knows about chat models; POSIX process groups are assumed (Linux,
macOS).
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

from custom_react.serving import chat_format as chat_format_module
from custom_react.serving.chat_format import TOOL_CHAT_FORMAT
from custom_react.serving.errors import INSTALL_HINT, LocalModelError

# Modules of llama-cpp-python and of its [server] extra that `python -m llama_cpp.server` imports.
SERVER_MODULES = ("llama_cpp", "uvicorn", "fastapi", "sse_starlette", "pydantic_settings")
# The server reads these from the environment and some beat its command line (HOST, PORT,
# CONFIG_FILE); API_KEY would make it demand a key. None of them is meant for our child.
_SCRUBBED_ENV = frozenset({"HOST", "PORT", "CONFIG_FILE", "API_KEY", "MODEL", "CHAT_FORMAT"})


def check_server_installed() -> None:
    """Raise ``LocalModelError`` unless llama-cpp-python and its server extra are importable."""
    missing = [name for name in SERVER_MODULES if find_spec(name) is None]
    if missing:
        raise LocalModelError(
            f"the local model needs llama-cpp-python[server] (missing: {', '.join(missing)}): "
            f"run {INSTALL_HINT}, or set OPENAI_API_KEY or OPENAI_BASE_URL to use a hosted model"
        )


# Runs `python -m llama_cpp.server` with a watchdog thread: the server lives in its own process
# group (out of reach of Ctrl-C and of our atexit if we are killed), so it exits by itself as soon
# as the process that started it is gone and it has been handed to another parent. Before the
# server starts it registers the tool-calling chat format (`chat_format.py`, run by path: it
# imports nothing of ours).
_LAUNCHER = """
import os, runpy, threading, time
def watch_parent():
    while os.getppid() == {parent}:
        time.sleep(0.5)
    os._exit(3)
threading.Thread(target=watch_parent, daemon=True).start()
runpy.run_path({chat_format_file!r})["register"]()
runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)
"""


def server_command(
    model_path: Path,
    *,
    alias: str,
    host: str,
    port: int,
    n_ctx: int,
    n_threads: int,
    chat_format: str | None = TOOL_CHAT_FORMAT,
) -> list[str]:
    """Return the argv that serves ``model_path`` quietly.

    ``chat_format`` ``TOOL_CHAT_FORMAT`` (the default) answers requests without tools in the
    model's own chat template and requests with tools with OpenAI ``tool_calls``
    (``custom_react.serving.chat_format``); ``None`` uses the model's own template for both.
    """
    options = {
        "--model": str(model_path),
        "--model_alias": alias,
        "--host": host,
        "--port": str(port),
        "--n_ctx": str(n_ctx),
        "--n_threads": str(n_threads),
        "--n_threads_batch": str(n_threads),
        "--logits_all": "false",  # else it keeps n_ctx x vocabulary floats: gigabytes, and slow
        "--verbose": "false",
    }
    if chat_format is not None:
        options["--chat_format"] = chat_format
    script = _LAUNCHER.format(parent=os.getpid(), chat_format_file=chat_format_module.__file__)
    launcher = [sys.executable, "-c", script]
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


def child_environment() -> dict[str, str]:
    """Return ``os.environ`` without the variables that would reconfigure the server."""
    return {key: value for key, value in os.environ.items() if key.upper() not in _SCRUBBED_ENV}


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
