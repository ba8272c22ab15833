"""The local model's failure paths: each one gives a clear error and leaves no process behind.

Assembly is tested on small fake parts (and once on a fake corrupted copy of the real model);
the server tests start the real ``llama_cpp.server`` and skip when llama-cpp-python is missing.
Processes are checked through ``/proc``, without psutil.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import nullcontext
from pathlib import Path

import openai
import pytest
from langchain_openai import ChatOpenAI
from pydantic import SecretStr

from custom_react.serving import weights as local_weights
from custom_react.serving.models import ModelSettings, open_chat_model
from custom_react.serving.process import check_server_installed
from custom_react.serving.server import LocalModelServer
from custom_react.serving.weights import (
    BUNDLED_MODELS,
    BundledModel,
    LocalModelError,
    ensure_model_file,
    find_part,
    models_cache_dir,
)


def _server_missing() -> str | None:
    try:
        check_server_installed()
    except LocalModelError as error:
        return str(error)
    return None


requires_llama = pytest.mark.skipif(
    _server_missing() is not None, reason=f"llama-cpp-python not usable: {_server_missing()}"
)


def _stat_fields(pid: int) -> list[str] | None:
    """Fields of /proc/<pid>/stat after the command name (state, ppid, pgrp, ...)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def _is_running(pid: int) -> bool:
    fields = _stat_fields(pid)
    return fields is not None and fields[0] not in ("Z", "X")


def _group_members(pgid: int) -> list[int]:
    """Live (not zombie) processes in process group ``pgid``."""
    members = []
    for entry in Path("/proc").iterdir():
        fields = _stat_fields(int(entry.name)) if entry.name.isdigit() else None
        if fields and fields[0] not in ("Z", "X") and int(fields[2]) == pgid:
            members.append(int(entry.name))
    return members


def _our_llama_servers() -> set[int]:
    """Pids of llama_cpp.server processes that this test process started and that still run."""
    found = set()
    for entry in Path("/proc").iterdir():
        fields = _stat_fields(int(entry.name)) if entry.name.isdigit() else None
        if fields and int(fields[1]) == os.getpid() and fields[0] not in ("Z", "X"):
            cmdline = (entry / "cmdline").read_bytes() if (entry / "cmdline").exists() else b""
            if b"llama_cpp.server" in cmdline:
                found.add(int(entry.name))
    return found


def _wait_until_dead(pid: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while _is_running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)


# --- assembling the model file -------------------------------------------------------------


@pytest.fixture
def tiny_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> BundledModel:
    """A registry entry "tiny" whose three parts are small files in tmp_path."""
    chunks = [b"GGUF-part-one|", b"part-two|", b"part-three"]
    parts = {}
    for number, chunk in enumerate(chunks, start=1):
        (tmp_path / f"part{number:02d}.bin").write_bytes(chunk)
        parts[f"tiny-part{number}"] = tmp_path / f"part{number:02d}.bin"
    whole = b"".join(chunks)
    model = BundledModel(
        name="tiny", package_prefix="tiny-part", version="1.0", parts=3, size=len(whole),
        sha256=hashlib.sha256(whole).hexdigest(), filename="tiny.gguf",
    )  # fmt: skip
    monkeypatch.setitem(BUNDLED_MODELS, "tiny", model)
    monkeypatch.setattr(local_weights, "find_part", lambda package, version: parts[package])
    return model


def test_parts_are_concatenated_in_order_verified_and_marked(
    tiny_model: BundledModel, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    path = ensure_model_file("tiny", cache_dir=cache)
    assert path == cache / "tiny.gguf"
    assert path.read_bytes() == b"GGUF-part-one|part-two|part-three"
    marker = json.loads((cache / "tiny.gguf.sha256").read_text())
    assert marker["sha256"] == tiny_model.sha256
    assert sorted(p.name for p in cache.iterdir()) == ["tiny.gguf", "tiny.gguf.sha256"]


def test_a_verified_file_is_reused_without_rehashing(
    tiny_model: BundledModel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = ensure_model_file("tiny", cache_dir=tmp_path)
    monkeypatch.setattr(local_weights, "find_part", lambda *_: pytest.fail("reassembled"))
    monkeypatch.setattr(
        "custom_react.serving.weights.hashlib.sha256", lambda: pytest.fail("rehashed")
    )
    assert ensure_model_file("tiny", cache_dir=tmp_path) == path


def test_a_changed_cached_file_is_rehashed_and_reported_corrupted(
    tiny_model: BundledModel, tmp_path: Path
) -> None:
    path = ensure_model_file("tiny", cache_dir=tmp_path)
    path.write_bytes(b"X" * tiny_model.size)  # same size, new mtime: the marker no longer fits
    with pytest.raises(LocalModelError, match=r"corrupted \(sha256 mismatch\): delete it"):
        ensure_model_file("tiny", cache_dir=tmp_path)


def test_parts_that_assemble_to_a_wrong_file_leave_nothing_behind(
    tiny_model: BundledModel, tmp_path: Path
) -> None:
    (tmp_path / "part02.bin").write_bytes(b"PART-TWO|")  # same length, other bytes
    cache = tmp_path / "cache"
    with pytest.raises(LocalModelError, match="--force-reinstall"):
        ensure_model_file("tiny", cache_dir=cache)
    assert list(cache.iterdir()) == []


def test_a_corrupted_copy_of_the_real_model_is_reported(tmp_path: Path) -> None:
    """A file with the right name and size but wrong bytes (sparse zeros) fails the sha256."""
    model = BUNDLED_MODELS["qwen2.5-coder-1.5b"]
    with (tmp_path / model.filename).open("wb") as fake:
        fake.truncate(model.size)
    with pytest.raises(LocalModelError, match="corrupted") as info:
        ensure_model_file("qwen2.5-coder-1.5b", cache_dir=tmp_path)
    assert str(tmp_path / model.filename) in str(info.value)
    assert not (tmp_path / (model.filename + ".sha256")).exists()


def test_an_installed_part_is_found_through_its_distribution_metadata() -> None:
    model = BUNDLED_MODELS["qwen2.5-coder-1.5b"]
    try:
        part = find_part(model.packages()[0], model.version)
    except LocalModelError as error:
        pytest.skip(str(error))
    assert part.name == "part01.bin" and part.parent.name == "data"
    assert part.stat().st_size > 0


def test_a_missing_part_package_names_it_and_the_install_command() -> None:
    with pytest.raises(LocalModelError) as info:
        find_part("custom-react-no-such-part7", "0.2.0")
    assert "'custom-react-no-such-part7' is not installed" in str(info.value)
    assert 'pip install -e ".[local]"' in str(info.value)


def test_paths_pass_through_and_unknown_names_are_errors(tmp_path: Path) -> None:
    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF")
    assert ensure_model_file(str(gguf)) == gguf
    with pytest.raises(LocalModelError, match="neither a bundled model"):
        ensure_model_file(str(tmp_path / "missing.gguf"))


def test_the_cache_folder_follows_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CUSTOM_REACT_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert models_cache_dir() == tmp_path / "xdg" / "custom-react" / "models"
    monkeypatch.setenv("CUSTOM_REACT_CACHE", str(tmp_path / "mine"))
    assert models_cache_dir() == tmp_path / "mine" / "models"


# --- the server ----------------------------------------------------------------------------


def test_no_key_and_no_local_extra_is_a_clear_error_without_a_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`sys.modules[name] = None` is how Python marks a module as not importable."""
    monkeypatch.setitem(sys.modules, "llama_cpp", None)
    before = _our_llama_servers()
    settings = ModelSettings.from_env({}, dotenv=False)
    with pytest.raises(LocalModelError) as info, open_chat_model(settings):
        pytest.fail("a model was opened")
    message = str(info.value)
    assert "missing: llama_cpp" in message
    assert 'pip install -e ".[local]"' in message
    assert "OPENAI_API_KEY" in message and "OPENAI_BASE_URL" in message
    assert _our_llama_servers() == before


@requires_llama
def test_a_taken_port_is_refused_before_starting(tmp_path: Path) -> None:
    fake = tmp_path / "model.gguf"
    fake.write_bytes(b"GGUF")
    before = _our_llama_servers()
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        server = LocalModelServer(fake, port=port)
        with pytest.raises(LocalModelError, match=f"port {port} on 127.0.0.1 is already in use"):
            server.start()
    assert server.pid is None
    assert _our_llama_servers() == before


@requires_llama
def test_a_server_that_cannot_load_the_model_fails_fast_with_its_log(tmp_path: Path) -> None:
    fake = tmp_path / "broken.gguf"
    fake.write_bytes(b"this is not a GGUF file" * 100)
    log = tmp_path / "server.log"
    before = _our_llama_servers()
    started = time.monotonic()
    with pytest.raises(LocalModelError, match="exited while starting") as info:
        LocalModelServer(fake, log_path=log).start()
    assert time.monotonic() - started < 60  # not the 180 s startup timeout
    assert f"log {log}, last lines:" in str(info.value)
    assert log.read_text().strip()
    assert _our_llama_servers() == before


@pytest.fixture(scope="module")
def model_path() -> Path:
    if reason := _server_missing():
        pytest.skip(f"llama-cpp-python not usable: {reason}")
    return ensure_model_file()


@pytest.mark.e2e
def test_a_server_dying_mid_run_is_reported_and_leaves_no_process(
    model_path: Path, tmp_path: Path
) -> None:
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
    assert not _is_running(pid)
    assert _group_members(pid) == []


@pytest.mark.e2e
def test_open_chat_model_serves_the_local_model_for_the_block(model_path: Path) -> None:
    before = _our_llama_servers()
    settings = ModelSettings.from_env({}, dotenv=False)
    with open_chat_model(settings, max_tokens=8) as chat:
        assert len(_our_llama_servers() - before) == 1
        assert chat.invoke("Reply with one word: ok").text
    assert _our_llama_servers() == before


@pytest.mark.e2e
@pytest.mark.parametrize("ending", ["normal", "ctrl-c"])
def test_leaving_the_block_stops_the_server(model_path: Path, ending: str) -> None:
    server = LocalModelServer(model_path)
    expected = pytest.raises(KeyboardInterrupt) if ending == "ctrl-c" else nullcontext()
    with expected, server:
        pid = server.pid
        assert pid is not None and _is_running(pid)
        log = server.log_path
        if ending == "ctrl-c":
            raise KeyboardInterrupt
    assert server.pid is None
    assert not _is_running(pid) and _group_members(pid) == []
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
        cwd=Path(__file__).resolve().parents[2], stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert parent.stdout is not None
        pid = int(parent.stdout.readline())
        if ending == "SIGKILL":
            assert _is_running(pid)
            parent.kill()
        parent.wait(timeout=30)
    finally:
        parent.kill()
        parent.wait()
    _wait_until_dead(pid)
    assert not _is_running(pid) and _group_members(pid) == []


@pytest.fixture(autouse=True)
def _no_server_outlives_a_test() -> Iterator[None]:
    before = _our_llama_servers()
    yield
    assert _our_llama_servers() <= before, "a llama_cpp.server process outlived its test"
