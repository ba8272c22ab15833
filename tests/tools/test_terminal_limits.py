"""The terminal's limits hold against real processes: output is kept bounded, the timeout is final.

Each command really runs. A command that writes without end costs a bounded amount of memory and
stops at its timeout; one that hands its output to a process outside its group (`setsid`, as a
daemon does) cannot keep the call waiting; the text shown is what the whole output, stored and
`rstrip`ped, would have given to `truncate` (characters split between reads included). Both ways of
reading run every test: the selector (POSIX) and the reader threads (Windows).
"""

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import tools.terminal as terminal
from custom_react.running.tool_output import truncate
from tools.terminal import run_shell_command

LIMIT = 200
TIMED_OUT = re.compile(r"The command timed out after \d+ s and was stopped\.\n")
MARKER = re.compile(r"…\[truncated (\d+) characters\]")
PYTHON = f'"{sys.executable}"'


@pytest.fixture(params=["selector", "threads"], autouse=True)
def reader(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test once with each way of reading the pipes."""
    monkeypatch.setattr(terminal, "_USE_THREADS", request.param == "threads")
    return str(request.param)


def run(command: str, cwd: Path, *, timeout: float = 20, limit: int = LIMIT) -> str:
    return run_shell_command(command, cwd=cwd, timeout=timeout, max_output_chars=limit)


def python(code: str) -> str:
    """A shell command running `code` with this interpreter."""
    return f"{PYTHON} -c '{code}'"


def expected(stdout: str, stderr: str = "", *, code: int = 0, limit: int = LIMIT) -> str:
    """What the old implementation (whole output stored, stripped, truncated) returned."""

    def section(label: str, text: str) -> str:
        text = text.rstrip()
        return f"{label}:\n{truncate(text, limit)}" if text else f"{label}: (empty)"

    return "\n".join([f"exit code: {code}", section("stdout", stdout), section("stderr", stderr)])


def written_pid(pid_file: Path) -> int | None:
    text = pid_file.read_text().strip() if pid_file.exists() else ""
    return int(text) if text else None


@contextlib.contextmanager
def detached(pid_file: Path) -> Iterator[None]:
    """Kill, afterwards, the session whose leader wrote its pid to `pid_file`."""
    try:
        yield
    finally:
        deadline = time.monotonic() + 5
        while written_pid(pid_file) is None and time.monotonic() < deadline:
            time.sleep(0.05)
        if pid := written_pid(pid_file):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)


def test_endless_output_stops_at_the_timeout_and_stays_bounded(tmp_path: Path) -> None:
    """`yes` with a 2 s timeout returns soon after 2 s with bounded text and a huge count."""
    started = time.monotonic()
    result = run("yes", tmp_path, timeout=2)
    elapsed = time.monotonic() - started
    assert elapsed < 15  # the old implementation took 10-30 s and gigabytes here
    assert TIMED_OUT.match(result)
    assert result.endswith("\nstderr: (empty)")
    assert len(result) < 2 * LIMIT + 100
    (count,) = MARKER.findall(result)
    assert int(count) > 1_000_000
    stdout = result.split("stdout:\n", 1)[1]
    assert stdout.startswith("y\ny\ny\n")


def test_endless_output_costs_little_memory(tmp_path: Path, reader: str) -> None:
    """A fresh interpreter running `yes` for 2 s peaks far below the gigabytes it once needed."""
    code = (
        "import sys; from pathlib import Path; import tools.terminal as t; "
        f"t._USE_THREADS = {reader == 'threads'}; "
        "r = t.run_shell_command('yes', cwd=Path(sys.argv[1]), timeout=2, max_output_chars=4000); "
        "assert r.startswith('The command timed out'), r[:100]; "
        # VmHWM is this process's own peak: ru_maxrss would carry the forking parent's over exec.
        "print(next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM:')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    peak_mb = int(done.stdout) / 1024  # Linux reports kilobytes
    assert peak_mb < 400, f"peak RSS {peak_mb:.0f} MB"  # ~90 MB measured; 3 GB before


def test_a_detached_child_holding_the_output_cannot_keep_the_call_waiting(tmp_path: Path) -> None:
    """A child in its own session keeps stdout open for 30 s; a 1 s timeout returns in seconds."""
    pid_file = tmp_path / "daemon.pid"
    command = f"setsid sh -c 'echo $$ > {pid_file}; exec sleep 30' & echo started"
    with detached(pid_file):
        started = time.monotonic()
        result = run(command, tmp_path, timeout=1)
        elapsed = time.monotonic() - started
    assert elapsed < 10  # the old implementation waited the full 30 s
    assert TIMED_OUT.match(result) or result.startswith("exit code: ")
    assert "stdout:\nstarted\n" in result


def test_a_command_that_closes_its_output_and_runs_on_times_out(tmp_path: Path) -> None:
    """The timeout also holds after the output ended, while the command still runs."""
    started = time.monotonic()
    result = run("echo bye; exec >&- 2>&-; sleep 30", tmp_path, timeout=1)
    assert time.monotonic() - started < 10
    assert TIMED_OUT.match(result)
    assert result.endswith("stdout:\nbye\nstderr: (empty)")


def test_fifty_megabytes_of_output_are_truncated_exactly(tmp_path: Path) -> None:
    """50 MB written at once: the start is kept and the marker counts every other character."""
    result = run(python('import sys; sys.stdout.write("a" * 50_000_000)'), tmp_path)
    assert result == expected("a" * 50_000_000)
    assert len(result) < LIMIT + 100


def test_both_streams_are_bounded_independently(tmp_path: Path) -> None:
    """A long stderr is cut like a long stdout, each with its own marker."""
    code = 'import sys; print("o" * 100_000); print("e" * 300_000, file=sys.stderr)'
    result = run(python(code), tmp_path)
    assert result == expected("o" * 100_000, "e" * 300_000)
    assert len(MARKER.findall(result)) == 2


@pytest.mark.parametrize("limit", [LIMIT, 1_000_000])
def test_chinese_text_survives_the_boundaries_between_reads(tmp_path: Path, limit: int) -> None:
    """Characters of three bytes split between reads (64 KiB reads, 7-byte writes) decode whole."""
    text = "".join(f"第{n}行：你好，世界！\n" for n in range(20_000))  # about 400 KB, 3 bytes each
    code = (
        'import sys, time; data = open(sys.argv[1], "rb").read(); out = sys.stdout.buffer\n'
        "for i in range(0, 7 * 300, 7): out.write(data[i : i + 7]); out.flush(); time.sleep(0.001)\n"
        "out.write(data[7 * 300 :]); out.flush()"
    )
    (tmp_path / "text.txt").write_text(text, encoding="utf-8")
    (tmp_path / "write.py").write_text(code, encoding="utf-8")
    result = run(f"{PYTHON} write.py text.txt", tmp_path, limit=limit)
    assert "\ufffd" not in result
    assert result == expected(text, limit=limit)


def test_undecodable_bytes_are_replaced(tmp_path: Path) -> None:
    """Invalid UTF-8 and a character cut off by the end of the stream become U+FFFD."""
    result = run(r"printf 'ok \377\376 ok'; printf '\344\275' >&2", tmp_path)
    assert result == "exit code: 0\nstdout:\nok \ufffd\ufffd ok\nstderr:\n\ufffd"


@pytest.mark.parametrize(
    ("stdout", "shown"),
    [
        ("x" * 300 + "\n" * 100_000, None),  # trailing whitespace beyond the kept start is stripped
        (" \n" * 100_000, "stdout: (empty)"),  # only whitespace, however long: empty
        ("\n" * 100_000 + "x", None),  # whitespace first, then text: all of it counts
        ("x" * 150 + " " * 60, None),  # a stripped text that fits is not cut
        ("x" * 201, None),  # one character over the limit
    ],
)
def test_the_text_is_the_one_the_whole_output_would_give(
    tmp_path: Path, stdout: str, shown: str | None
) -> None:
    """Stripping and the marker's count match storing the whole output, though only its start is kept."""
    (tmp_path / "out.txt").write_text(stdout, encoding="utf-8")
    result = run("cat out.txt", tmp_path)
    assert result == expected(stdout)
    if shown:
        assert shown in result
