"""The local model server's failure paths: each one gives a clear error and leaves no process behind.

The server tests start the real launcher and skip when the runtime (xllamacpp) is missing;
the ones that load the real model are end-to-end tests. Processes are checked through ``/proc``
(``tests.serving.processes``).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import nullcontext
from pathlib import Path

import openai
import pytest
from langchain_openai import ChatOpenAI
from pydantic import SecretStr

from custom_react.serving.errors import LocalModelError
from custom_react.serving.health import wait_until_ready
from custom_react.serving.launcher import STOP_GRACE
from custom_react.serving.models import ModelSettings, open_chat_model
from custom_react.serving.process import (
    check_port,
    check_server_installed,
    launch,
    server_command,
    stop_process_group,
)
from custom_react.serving.server import LocalModelServer
from custom_react.serving.weights import ensure_model_file
from tests.serving.processes import group_members, is_running, our_llama_servers, wait_until_dead


def server_missing() -> str | None:
    """Say why the runtime's server cannot run here, or None when it can."""
    try:
        check_server_installed()
    except LocalModelError as error:
        return str(error)
    return None


requires_runtime = pytest.mark.skipif(
    server_missing() is not None, reason=f"runtime not usable: {server_missing()}"
)


@pytest.fixture(autouse=True)
def no_server_outlives_a_test() -> Iterator[None]:
    """Fail a test that leaves one of its server processes running."""
    before = our_llama_servers()
    yield
    assert our_llama_servers() <= before, "a server process outlived its test"


def test_no_key_and_no_local_extra_is_a_clear_error_without_a_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`sys.modules[name] = None` is how Python marks a module as not importable."""
    monkeypatch.setitem(sys.modules, "xllamacpp", None)
    before = our_llama_servers()
    settings = ModelSettings.from_env({}, dotenv=False)
    with pytest.raises(LocalModelError) as info, open_chat_model(settings):
        pytest.fail("a model was opened")
    message = str(info.value)
    assert "missing: xllamacpp" in message
    assert 'pip install -e ".[local]"' in message
    assert "OPENAI_API_KEY" in message and "OPENAI_BASE_URL" in message
    assert our_llama_servers() == before


@requires_runtime
def test_a_taken_port_is_refused_before_starting(tmp_path: Path) -> None:
    """A port that is in use is an error before any process starts."""
    fake = tmp_path / "model.gguf"
    fake.write_bytes(b"GGUF")
    before = our_llama_servers()
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        server = LocalModelServer(fake, port=port)
        with pytest.raises(LocalModelError, match=f"port {port} on 127.0.0.1 is already in use"):
            server.start()
    assert server.pid is None
    assert our_llama_servers() == before


@requires_runtime
def test_a_server_that_cannot_load_the_model_fails_fast_with_its_log(tmp_path: Path) -> None:
    """A file that is not GGUF ends the start at once, quoting the server's log."""
    fake = tmp_path / "broken.gguf"
    fake.write_bytes(b"this is not a GGUF file" * 100)
    log = tmp_path / "server.log"
    before = our_llama_servers()
    started = time.monotonic()
    with pytest.raises(LocalModelError, match="exited while starting") as info:
        LocalModelServer(fake, log_path=log).start()
    assert time.monotonic() - started < 60  # not the 180 s startup timeout
    assert f"log {log}, last lines:" in str(info.value)
    assert log.read_text().strip()
    assert our_llama_servers() == before


def test_a_server_that_ignores_the_stop_is_killed_after_the_grace_period(tmp_path: Path) -> None:
    """SIGTERM first; a process that does not end in time is killed with its whole group."""
    stubborn = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)"
    process = launch([sys.executable, "-c", stubborn], tmp_path / "log")
    time.sleep(0.5)  # let it install the handler
    started = time.monotonic()
    stop_process_group(process, timeout=1.0)
    took = time.monotonic() - started
    assert 1.0 <= took < 3.0, took
    assert process.returncode == -signal.SIGKILL
    assert not is_running(process.pid) and group_members(process.pid) == []


def test_a_clean_stop_that_hangs_is_cut_short_by_the_launcher_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real launcher on a fake runtime whose stop never ends: SIGTERM ends it in STOP_GRACE s."""
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).with_name("crashing_runtime")))
    monkeypatch.setenv("FAKE_XLLAMACPP_STOP_HANGS", "1")
    port = check_port("127.0.0.1", None)
    options = {"alias": "tiny", "host": "127.0.0.1", "port": port, "n_ctx": 8, "n_threads": 1}
    command = server_command(
        tmp_path / "tiny.gguf", **options, n_threads_batch=1, chat_template=None
    )
    process = launch(command, tmp_path / "log")
    try:
        assert wait_until_ready(f"http://127.0.0.1:{port}/v1/models", process, 30) == "ready"
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=STOP_GRACE + 5)
        took = time.monotonic() - started
    finally:
        stop_process_group(process, timeout=1.0)
    assert STOP_GRACE <= took < STOP_GRACE + 2, took
    assert process.returncode == -signal.SIGALRM  # the launcher's alarm, not our kill


@pytest.fixture(scope="module")
def model_path() -> Path:
    """The default bundled model file, assembled if needed; skips without the runtime."""
    if reason := server_missing():
        pytest.skip(f"runtime not usable: {reason}")
    return ensure_model_file()


@pytest.mark.e2e
def test_a_server_dying_mid_run_is_reported_and_leaves_no_process(
    model_path: Path, tmp_path: Path
) -> None:
    """A killed server is named in the next call's error and in the block's, not "Connection error"."""
    server = LocalModelServer(model_path, log_path=tmp_path / "server.log")
    with pytest.raises(LocalModelError, match="exited unexpectedly") as info, server:
        pid = server.pid
        assert pid is not None
        chat = server.chat_model(max_retries=0, max_tokens=8)
        assert chat.invoke("Reply with one word: ready").text
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(LocalModelError, match=r"exited unexpectedly \(exit code -9\)"):
            chat.invoke("Are you there?")  # not openai's bare "Connection error."
        plain = ChatOpenAI(base_url=server.base_url, api_key=SecretStr("x"), max_retries=0)
        plain.invoke("Are you there?")  # a client without the watch: __exit__ explains
    assert isinstance(info.value.__cause__, openai.APIConnectionError)
    assert "last lines:" in str(info.value)
    assert pid is not None
    assert not is_running(pid)
    assert group_members(pid) == []


@pytest.mark.e2e
def test_open_chat_model_serves_the_local_model_for_the_block(model_path: Path) -> None:
    """Without a key, ``open_chat_model`` runs one server for the block and stops it after."""
    before = our_llama_servers()
    settings = ModelSettings.from_env({}, dotenv=False)
    with open_chat_model(settings, max_tokens=8) as chat:
        assert len(our_llama_servers() - before) == 1
        assert chat.invoke("Reply with one word: ok").text
    assert our_llama_servers() == before


@pytest.mark.e2e
@pytest.mark.parametrize("ending", ["normal", "ctrl-c"])
def test_leaving_the_block_stops_the_server(model_path: Path, ending: str) -> None:
    """Leaving the block, normally or by Ctrl-C, stops the whole group and removes the log."""
    server = LocalModelServer(model_path)
    expected = pytest.raises(KeyboardInterrupt) if ending == "ctrl-c" else nullcontext()
    with expected, server:
        pid = server.pid
        assert pid is not None and is_running(pid)
        log = server.log_path
        if ending == "ctrl-c":
            raise KeyboardInterrupt
    assert server.pid is None
    assert not is_running(pid) and group_members(pid) == []
    assert log is not None and not log.exists()  # the temporary log goes with a clean stop


@pytest.mark.e2e
@pytest.mark.parametrize("ending", ["sys.exit", "SIGKILL"])
def test_a_server_does_not_outlive_the_process_that_started_it(
    model_path: Path, ending: str, tmp_path: Path
) -> None:
    """sys.exit without stop(): atexit stops it. SIGKILL (no atexit): its watchdog does."""
    arguments = f"Path({str(model_path)!r}), log_path=Path({str(tmp_path / 'log')!r})"
    script = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from custom_react.serving.server import LocalModelServer\n"
        f"server = LocalModelServer({arguments}).start()\n"
        "print(server.pid, flush=True)\n"
        + ("sys.exit(0)\n" if ending == "sys.exit" else "time.sleep(600)\n")
    )
    parent = subprocess.Popen(
        [sys.executable, "-c", script],
        cwd=Path(__file__).resolve().parents[2],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert parent.stdout is not None
        pid = int(parent.stdout.readline())
        if ending == "SIGKILL":
            assert is_running(pid)
            parent.kill()
        parent.wait(timeout=30)
    finally:
        parent.kill()
        parent.wait()
    wait_until_dead(pid)
    assert not is_running(pid) and group_members(pid) == []


@pytest.mark.e2e
def test_stopping_while_a_reply_is_written_ends_the_server_within_the_grace_period(
    model_path: Path, tmp_path: Path
) -> None:
    """A request in flight does not hold up ``stop()``: the whole group is gone within the grace."""
    grace = 5.0
    server = LocalModelServer(model_path, log_path=tmp_path / "server.log").start()
    chat = server.chat_model(max_retries=0, max_tokens=2000)
    writing = threading.Event()

    def write_a_long_reply() -> None:
        try:
            for _ in chat.stream("Write the numbers from 1 to 1000, separated by commas."):
                writing.set()
        except Exception:  # the server goes away mid-reply: that is the point
            pass

    writer = threading.Thread(target=write_a_long_reply, daemon=True)
    writer.start()
    try:
        assert writing.wait(120), "the reply never started"
        pid = server.pid
        assert pid is not None
        started = time.monotonic()
        server.stop(timeout=grace)
        took = time.monotonic() - started
    finally:
        server.stop()
    assert took < grace, took
    assert not is_running(pid) and group_members(pid) == []
    writer.join(timeout=30)
    assert not writer.is_alive()
