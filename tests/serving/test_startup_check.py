"""A runtime that answers ``/v1/models`` but crashes at its first completion fails at start-up.

The crashing runtime is a real process: the real launcher with a fake ``xllamacpp``
(``crashing_runtime/xllamacpp``, first on ``PYTHONPATH`` of the server's environment) that dies of
SIGSEGV, as a llama.cpp build does on a CPU without the instructions it was built for. The server,
the CLI and a demo each stop with one ``error:`` message that names the crash, the log, the CPU
check, the reinstall command and the way out.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from custom_react.serving.errors import LocalModelError
from custom_react.serving.health import CPU_CHECK, REINSTALL, RUNTIME_VERSION, crash_advice
from custom_react.serving.server import LocalModelServer

ROOT = Path(__file__).resolve().parents[2]
CRASHING_RUNTIME = Path(__file__).with_name("crashing_runtime")


@pytest.fixture
def fake_model(tmp_path: Path) -> Path:
    """A tiny file named like a model: the crashing runtime never reads it."""
    path = tmp_path / "tiny.gguf"
    path.write_bytes(b"GGUF")
    return path


def crashing_environment(model: Path) -> dict[str, str]:
    """The environment of a user whose installed llama.cpp build crashes."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "DEEPSEEK_"))}
    env["PYTHONPATH"] = os.pathsep.join([str(CRASHING_RUNTIME), str(ROOT)])
    env["CUSTOM_REACT_MODEL"] = str(model)
    return env


def assert_names_crash_log_and_fix(message: str) -> None:
    """Check that ``message`` names the crash, quotes the log and says what to do."""
    assert "exited at its first completion (exit code -11)" in message
    assert "crashed (SIGSEGV)" in message
    assert CPU_CHECK in message and REINSTALL in message and "OPENAI_BASE_URL" in message
    assert "ggml_compute_forward: first completion" in message  # the log tail is quoted


def test_the_server_reports_a_crash_at_its_first_completion_with_the_fix(
    fake_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``start()`` fails with the crash, its log and the fix, and leaves nothing running."""
    monkeypatch.setenv("PYTHONPATH", str(CRASHING_RUNTIME))
    log = tmp_path / "server.log"
    server = LocalModelServer(fake_model, log_path=log, startup_timeout=60)
    with pytest.raises(LocalModelError) as info:
        server.start()
    assert_names_crash_log_and_fix(str(info.value))
    assert f"log {log}" in str(info.value)
    assert server.pid is None  # nothing left running


@pytest.mark.parametrize(
    "argv",
    [
        [sys.executable, "-m", "custom_react.cli.app", "ask", "What is 2 + 2?"],
        [sys.executable, "demos/price_question.py", "What is 2 + 2?"],
    ],
    ids=["cli", "demo"],
)
def test_the_cli_and_the_demos_end_on_one_error_line(fake_model: Path, argv: list[str]) -> None:
    """The CLI (exit code 2) and a demo (exit code 1) print one ``error:`` line, no traceback."""
    done = subprocess.run(
        argv,
        cwd=ROOT,
        env=crashing_environment(fake_model),
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == (2 if "cli" in argv[2] else 1), done.stderr
    assert "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, done.stderr
    assert errors[0].startswith("error: the local model server for tiny.gguf exited"), done.stderr
    assert_names_crash_log_and_fix(done.stderr)


@pytest.mark.parametrize(
    ("exit_code", "advised"),
    [(-11, True), (-4, True), (-7, True), (-9, False), (1, False), (None, False)],
)
def test_only_a_crash_signal_is_blamed_on_the_build(exit_code: int | None, advised: bool) -> None:
    """SIGSEGV, SIGILL and SIGBUS get the CPU advice; a kill or a plain exit does not."""
    assert bool(crash_advice(exit_code)) is advised


def test_the_reinstall_advice_names_the_version_pyproject_pins() -> None:
    """The crash advice's reinstall command installs the runtime the ``local`` extra pins."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert f"xllamacpp=={RUNTIME_VERSION}" in project["project"]["optional-dependencies"]["local"]
