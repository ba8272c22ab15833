"""The bundled local model, served on loopback by llama.cpp's own OpenAI-compatible server.

``LocalModelServer`` runs ``serving/launcher.py`` in its own process group on a free (or checked)
loopback port, waits until it answers a first completion, hands out ``ChatOpenAI`` clients for it,
and stops it (terminate, then kill after a grace period) on exit, at interpreter exit and on
Ctrl-C: its lifecycle only (plumbing in ``serving.process``, readiness in ``serving.health``,
transports in ``serving.transport``, the template in ``serving.templates``).
"""

from __future__ import annotations

import atexit
import subprocess
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Self

from langchain_openai import ChatOpenAI

from custom_react.serving.errors import LocalModelError
from custom_react.serving.health import death_message, wait_for_startup
from custom_react.serving.process import (
    check_port,
    check_server_installed,
    default_batch_threads,
    default_threads,
    launch,
    server_command,
    stop_process_group,
    temporary_log,
)
from custom_react.serving.templates import chosen_template
from custom_react.serving.transport import LOCAL_TIMEOUT, watched_clients


class LocalModelServer:
    """llama.cpp's OpenAI-compatible server for one GGUF file, used as a context manager.

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
        n_threads_batch: int | None = None,
        startup_timeout: float = 180.0,
        log_path: Path | None = None,
        chat_template: Path | Literal["shipped"] | None = "shipped",
        parallel: int = 1,
    ) -> None:
        """Describe the server; nothing starts before ``start()`` or ``with``.

        Args:
            model_path: The GGUF file to serve (see ``ensure_model_file``).
            host: Loopback address to listen on.
            port: Port to listen on; a free one is picked when ``None``.
            n_ctx: Context window in tokens.
            n_threads: Threads for generation; defaults to ``default_threads()`` (measured).
            n_threads_batch: Threads for the prompt; defaults to ``default_batch_threads()``.
            startup_timeout: Seconds to wait for the server to answer before giving up.
            log_path: File for the server's output; when ``None``, a temporary file that is
                removed after a clean stop and kept (and named in the error) after a failure.
            chat_template: A Jinja file; ``"shipped"``: the one shipped for a bundled model, for
                native ``tool_calls`` (``serving.templates``); ``None``: the GGUF's own.
            parallel: Slots: requests answered at once in one batch, each with ``n_ctx``.
        """
        self.model_path = Path(model_path)
        self.host = host
        self.port = port
        self.n_ctx = n_ctx
        self.n_threads = n_threads or default_threads()
        self.n_threads_batch = n_threads_batch or default_batch_threads()
        self.startup_timeout = startup_timeout
        self.log_path = log_path
        self.chat_template = chosen_template(self.model_path, chat_template)
        self.parallel = max(1, parallel)
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
        """Launch the server and wait until it answers a first completion; idempotent.

        Raises:
            LocalModelError: No runtime or model file, a taken port, or a failed start (log quoted).
        """
        if self._process is not None:
            return self
        check_server_installed()
        if not self.model_path.is_file():
            raise LocalModelError(f"model file {self.model_path} does not exist")
        self.port = check_port(self.host, self.port)
        if self.log_path is None:
            self.log_path = temporary_log()
            self._owns_log = True
        command = server_command(
            self.model_path,
            alias=self.model_name,
            host=self.host,
            port=self.port,
            n_ctx=self.n_ctx,
            n_threads=self.n_threads,
            n_threads_batch=self.n_threads_batch,
            chat_template=self.chat_template,
            parallel=self.parallel,
        )
        self._process = launch(command, self.log_path)  # its own process group: stop() ends it all
        atexit.register(self.stop)
        try:
            wait_for_startup(
                self._process,
                base_url=self.base_url,
                model=self.model_name,
                model_file=self.model_path.name,
                timeout=self.startup_timeout,
                log_path=self.log_path,
            )
        except BaseException:  # also Ctrl-C while the model loads
            self.stop(keep_log=True)
            raise
        return self

    def stop(self, timeout: float = 10.0, *, keep_log: bool = False) -> None:
        """Terminate the server's process group, killing it after ``timeout`` s; idempotent."""
        process = self._process
        self._process = None
        atexit.unregister(self.stop)
        if process is None:
            return
        stop_process_group(process, timeout)
        if self._owns_log and not keep_log and self.log_path is not None:
            self.log_path.unlink(missing_ok=True)

    def chat_model(self, **kwargs: Any) -> ChatOpenAI:
        """Return a ``ChatOpenAI`` for this server; keyword arguments override the defaults.

        Defaults: temperature 0, at most 512 new tokens, ``LOCAL_TIMEOUT``, one retry, usage when
        streaming too, ``metadata`` with the context window (the prompt budget) and ``count_tokens:
        estimate`` (no tiktoken download), and transports that blame a dead server.
        """
        if self._process is None:
            raise LocalModelError("the local model server is not running: call start() first")
        defaults: dict[str, Any] = {
            "model": self.model_name,
            "base_url": self.base_url,
            "api_key": "not-needed",
            "temperature": 0.0,
            "max_tokens": 512,
            "timeout": LOCAL_TIMEOUT,
            "max_retries": 1,
            "stream_usage": True,
            "metadata": {"context_window": self.n_ctx, "count_tokens": "estimate"},
            **watched_clients(self._check),
        }
        return ChatOpenAI(**{**defaults, **kwargs})

    def __enter__(self) -> Self:
        """Start the server (see ``start``) and return it."""
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Stop the server; if it died in the block, keep its log and raise that (from the error)."""
        died = self._process is not None and self._process.poll() is not None
        death = self._death_message() if died else ""
        self.stop(keep_log=died)
        if died and isinstance(exc, Exception) and not isinstance(exc, LocalModelError):
            # The block failed because the server is gone: say that, not just "Connection error".
            raise LocalModelError(death) from exc

    def _death_message(self, when: str = "unexpectedly") -> str:
        """Describe the server's exit (``when`` it happened), with its exit code and log tail."""
        code = self._process.poll() if self._process is not None else None
        return death_message(self.model_path.name, code, self.log_path, when)

    def _check(self, grace: float) -> None:
        """Raise if the server is stopped or has exited (waiting up to ``grace`` s for that)."""
        if self._process is None:
            raise LocalModelError("the local model server was stopped")
        try:
            self._process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            return
        raise LocalModelError(self._death_message())
