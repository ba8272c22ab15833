"""The local model server's own process: llama.cpp's HTTP server, in process, from the xllamacpp wheel.

``LocalModelServer`` runs this file by path (``python -P launcher.py --model ... --parent PID``), in
its own process group. It imports nothing but the standard library and ``xllamacpp``, so it starts
in a moment and works from any checkout. It sets llama.cpp's ``common_params`` from the command
line plus the defaults pinned below, starts the server (``xllamacpp.Server`` serves
``/v1/chat/completions`` on loopback from a thread of this process), and then waits for one of
three endings: SIGTERM or SIGINT (a clean stop, cut short by an alarm after ``STOP_GRACE`` s if
a request is still running), or its parent's death (the watchdog exits at once: the server must
not outlive the program that started it when that program was killed). Readiness, the start-up
completion and the error messages are the parent's job (``custom_react.serving.health``).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import time
from typing import Any

STOP_GRACE = 3
"""Seconds a clean stop may take before the process ends anyway (SIGALRM). A stop waits for the
request in flight, and a CPU model may write for minutes; the parent kills the group after its own
grace too."""
PARENT_DIED = 3
"""Exit code when the watchdog finds the parent gone."""


def parse_arguments(argv: list[str] | None = None) -> argparse.Namespace:
    """Read the settings ``custom_react.serving.process.server_command`` writes."""
    options = argparse.ArgumentParser(description="Serve one GGUF file on loopback.")
    options.add_argument("--model", required=True)
    options.add_argument("--alias", required=True)
    options.add_argument("--host", default="127.0.0.1")
    options.add_argument("--port", type=int, required=True)
    options.add_argument("--n-ctx", type=int, default=4096)
    options.add_argument("--threads", type=int, default=1)
    options.add_argument("--threads-batch", type=int, default=1)
    options.add_argument("--parallel", type=int, default=1, help="slots: requests served at once")
    options.add_argument("--chat-template", default="", help="a Jinja file; '' for the GGUF's own")
    options.add_argument("--parent", type=int, default=0, help="exit when this process is gone")
    return options.parse_args(argv)


def server_parameters(xllamacpp: Any, arguments: argparse.Namespace) -> Any:
    """Return llama.cpp's ``CommonParams``: the command line's values and the pinned defaults.

    Each pinned value differs from llama.cpp's default on purpose (the defaults of the
    ``xllamacpp`` release pinned in ``pyproject.toml``):

    - ``n_parallel`` from ``--parallel`` (1 by default here; llama-server's own CLI says auto, 4
      slots sharing ``n_ctx``): each slot is one request decoded with the others in one batch
      (continuous batching), and ``n_ctx`` is multiplied by the slots, so each request still gets
      the whole window the agent expects;
    - ``cache_ram_mib`` 1024 (default 8192): the host-RAM cache of earlier prompts' states. A full
      4,096-token window of the 1.5B model is about 112 MiB, so 1 GiB keeps about nine, enough
      for a run's few prompts, without taking 8 GiB of a small machine;
    - ``reasoning_format`` none (default deepseek): ``<think>`` text stays in ``content``, where
      the project's parser reads and skips it;
    - ``warmup`` off (default on): the start-up completion (``health.probe_completion``) is the
      warm-up, and every server start saves one empty decode (about a second on 2 cores);
    - ``fit_params`` off (default on): ``n_ctx`` and the threads are chosen here, not fitted;
    - ``ui`` off (default on): the API only, no web page on the port.
    """
    params = xllamacpp.CommonParams()
    params.model.path = arguments.model
    params.model_alias = {arguments.alias}
    params.hostnames = [arguments.host]
    params.port = arguments.port
    params.n_ctx = arguments.n_ctx * arguments.parallel  # split evenly: n_ctx for each slot
    params.cpuparams.n_threads = arguments.threads
    params.cpuparams_batch.n_threads = arguments.threads_batch
    params.use_jinja = True
    if arguments.chat_template:
        with open(arguments.chat_template, encoding="utf-8") as template:
            params.chat_template = template.read()
    params.n_parallel = arguments.parallel
    params.cont_batching = True
    params.cache_ram_mib = 1024
    params.reasoning_format = xllamacpp.common_reasoning_format.COMMON_REASONING_FORMAT_NONE
    params.warmup = False
    params.fit_params = False
    params.ui = False
    params.verbosity = 0
    return params


def watch_parent(parent: int) -> None:
    """Exit the process as soon as ``parent`` is no longer its parent (it died)."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(PARENT_DIED)


def main() -> None:
    """Serve until SIGTERM or SIGINT, or until the parent dies."""
    arguments = parse_arguments()
    if arguments.parent:
        threading.Thread(target=watch_parent, args=(arguments.parent,), daemon=True).start()
    stopping = threading.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda *_: stopping.set())
    import xllamacpp  # after the handlers: a stop during the import is not lost

    server = xllamacpp.Server(server_parameters(xllamacpp, arguments))  # loads, then serves
    sys.stdout.write(f"serving {arguments.model} on {arguments.host}:{arguments.port}\n")
    sys.stdout.flush()
    while not stopping.wait(0.2):
        pass
    # A clean stop joins the HTTP thread, which waits for a request in flight: bound the wait
    # with an alarm, whose default action ends the process; a Python timer thread would need the
    # interpreter lock, which the runtime may hold while it joins.
    signal.alarm(STOP_GRACE)
    del server


if __name__ == "__main__":
    main()
