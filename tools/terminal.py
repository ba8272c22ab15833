"""Running one shell command with a timeout and reporting its exit code and output as text.

`run_shell_command` is the mechanism behind the `run_terminal_command` tool. It starts the command in
its own process group so that a timeout stops the command and everything it started in that group,
captures stdout and stderr (truncated), and never reads from the terminal. It does not decide
whether a command may run: approval and workspace confinement live in `tools.workspace`.

A command cannot exhaust the host through its output or by holding it open: both streams are read
as they come, and only their first `max_output_chars` characters (and one more) are kept, the rest
is counted for the truncation marker and dropped. The timeout covers the whole run, reading
included. When it passes, the process group is killed, what is left in the pipes is read for at most
`GRACE_SECONDS`, and the function returns even if a process that left the group (one started with
`setsid`, a daemon) still holds the output open; such a process is not stopped.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import selectors
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import IO

from custom_react.prompts import load_messages
from custom_react.running.tool_output import truncate

TRUNCATED = load_messages("en")["truncated"]
"""The marker at the end of cut output: the one the agent's observations use."""
GRACE_SECONDS = 1.0
"""After a timeout kill: how long the rest of the output is read, and the process awaited."""
_CHUNK = 64 * 1024
_USE_THREADS = os.name == "nt"  # Windows cannot `select` on pipes: one reader thread per stream


def run_shell_command(command: str, *, cwd: Path, timeout: float, max_output_chars: int) -> str:
    """Run `command` through the system shell in `cwd` and describe the outcome.

    Args:
        command: One shell command line.
        cwd: The working directory.
        timeout: Seconds the command may run, reading its output included, before the command
            (and its children) are killed.
        max_output_chars: Longest text kept from stdout and from stderr, each.

    Returns:
        "exit code: N" (or a line saying the command timed out and was stopped), then the stdout and
        stderr sections, for example "exit code: 0", "stdout:", "hello", "stderr: (empty)" on
        four lines.
    """
    deadline = time.monotonic() + timeout
    process = subprocess.Popen(
        command,
        shell=True,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, so a timeout can stop its children too
    )
    assert process.stdout is not None and process.stderr is not None
    stdout = _Head(max_output_chars + 1)
    stderr = _Head(max_output_chars + 1)
    streams = [(process.stdout, stdout), (process.stderr, stderr)]
    read = _read_in_threads if _USE_THREADS else _read_with_selector
    try:
        finished = read(streams, deadline, process)
    finally:
        if process.poll() is None:  # timed out, or interrupted: nothing is left running
            _kill_process_group(process)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(GRACE_SECONDS)
    if finished:
        status = f"exit code: {process.returncode}"
    else:
        status = f"The command timed out after {timeout:g} s and was stopped."
    return "\n".join(
        [
            status,
            _section("stdout", stdout, max_output_chars),
            _section("stderr", stderr, max_output_chars),
        ]
    )


Streams = list[tuple[IO[bytes], "_Head"]]


def _read_with_selector(
    streams: Streams, deadline: float, process: subprocess.Popen[bytes]
) -> bool:
    """Read both pipes until they end and the process exits (True), or until `deadline` (False).

    After a timeout, kill the process group and read on for at most `GRACE_SECONDS`. The pipes are
    closed either way.
    """
    try:
        with selectors.DefaultSelector() as selector:
            for pipe, head in streams:
                selector.register(pipe, selectors.EVENT_READ, head)
            if _select_until(selector, deadline) and _exited(process, deadline):
                return True
            _kill_process_group(process)
            _select_until(selector, time.monotonic() + GRACE_SECONDS)
            return False
    finally:
        for pipe, head in streams:
            head.close()
            pipe.close()


def _select_until(selector: selectors.BaseSelector, deadline: float) -> bool:
    """Feed each pipe's data to its `_Head` until every pipe ended (True) or `deadline` (False)."""
    while selector.get_map():
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        for key, _ in selector.select(remaining):
            data = os.read(key.fd, _CHUNK)
            if data:
                key.data.feed(data)
            else:
                selector.unregister(key.fileobj)
                key.data.close()
    return True


def _exited(process: subprocess.Popen[bytes], deadline: float) -> bool:
    """Whether the process exits before `deadline` (its output may end before it does)."""
    try:
        process.wait(max(deadline - time.monotonic(), 0))
    except subprocess.TimeoutExpired:
        return False
    return True


def _read_in_threads(streams: Streams, deadline: float, process: subprocess.Popen[bytes]) -> bool:
    """`_read_with_selector` with one reader thread per pipe, for Windows, which cannot select pipes.

    A thread whose pipe a leftover process holds open is abandoned (it is a daemon thread, and its
    `_Head` takes no more text once closed); the thread closes its pipe itself when the pipe ends.
    """
    threads = [threading.Thread(target=_drain, args=stream, daemon=True) for stream in streams]
    for thread in threads:
        thread.start()
    finished = _joined(threads, deadline) and _exited(process, deadline)
    if not finished:
        _kill_process_group(process)
        _joined(threads, time.monotonic() + GRACE_SECONDS)
    for _, head in streams:
        head.close()
    return finished


def _drain(pipe: IO[bytes], head: _Head) -> None:
    """Feed `pipe` to `head` until the pipe ends, then close it (a reader thread's work)."""
    with pipe:
        while data := os.read(pipe.fileno(), _CHUNK):
            head.feed(data)


def _joined(threads: list[threading.Thread], deadline: float) -> bool:
    """Wait for the threads until `deadline`; whether they all ended."""
    for thread in threads:
        thread.join(max(deadline - time.monotonic(), 0))
    return not any(thread.is_alive() for thread in threads)


def _kill_process_group(process: subprocess.Popen[bytes]) -> None:
    """Kill the process and, on POSIX, every process in its group."""
    if hasattr(os, "killpg"):
        with contextlib.suppress(ProcessLookupError):  # it may have exited meanwhile
            os.killpg(process.pid, signal.SIGKILL)
    else:  # pragma: no cover - Windows has no process groups of this kind
        process.kill()


class _Head:
    """The start of one output stream, decoded as UTF-8: `keep` characters stored, the rest counted.

    Bytes are decoded as they arrive (an incremental decoder, so a character split between two
    reads survives; undecodable bytes become U+FFFD). What it stores is the stream's first `keep`
    characters; of the rest it keeps the number of characters, and how long the whitespace at the
    stream's end is, so that the text can be stripped as if the whole stream had been stored.
    """

    def __init__(self, keep: int) -> None:
        """Nothing read yet; up to `keep` characters will be stored."""
        self.keep = keep
        self.parts: list[str] = []
        self.stored = 0
        self.dropped = 0
        self.trailing_space = 0
        self.closed = False
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def feed(self, data: bytes, *, final: bool = False) -> None:
        """Decode `data` and store what fits; `final` flushes an unfinished character."""
        if self.closed:
            return
        text = self._decoder.decode(data, final)
        if not text:
            return
        room = self.keep - self.stored
        if room > 0:
            self.parts.append(text[:room])
            self.stored += min(room, len(text))
        self.dropped += max(len(text) - room, 0)
        content = len(text.rstrip())
        self.trailing_space = len(text) - content + (0 if content else self.trailing_space)

    def close(self) -> None:
        """End the stream: an unfinished character becomes U+FFFD; later data is ignored."""
        if not self.closed:
            self.feed(b"", final=True)
            self.closed = True

    def text(self) -> tuple[str, int]:
        """The stored start of the stream, and how many characters followed it (both stripped).

        As if the whole stream had been stored and `rstrip`ped: the stored text is cut where the
        stream's trailing whitespace begins when that is in it, and the count leaves it out.
        """
        head = "".join(self.parts)
        length = len(head) + self.dropped - self.trailing_space
        if length <= len(head):
            return head[:length], 0
        return head, length - len(head)


class _MarkerCountingDropped(str):
    """`TRUNCATED` whose count also includes the characters that were read and never stored.

    Lets `truncate`, which sees only the stored start of a stream, size and word its one marker as
    for the whole stream.
    """

    dropped: int

    def __new__(cls, dropped: int) -> _MarkerCountingDropped:
        """The marker, for a stream of which `dropped` characters were not stored."""
        marker = super().__new__(cls, TRUNCATED)
        marker.dropped = dropped
        return marker

    def format(self, *args: object, **kwargs: object) -> str:  # type: ignore[override]
        """`TRUNCATED` formatted with `count` plus the dropped characters."""
        count = kwargs["count"]
        assert isinstance(count, int)
        return TRUNCATED.format(count=count + self.dropped)


def _section(label: str, head: _Head, max_chars: int) -> str:
    """Render one output stream as "label:" and its text on the next lines, or "label: (empty)"."""
    text, dropped = head.text()
    if not text:
        return f"{label}: (empty)"
    # With characters dropped, `text` holds `max_chars + 1` of them: `truncate` always cuts it.
    marker = _MarkerCountingDropped(dropped) if dropped else TRUNCATED
    return f"{label}:\n{truncate(text, max_chars, marker)}"
