"""Run a command in a pseudo-terminal and keep every read of its output, as a terminal sees it."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import time
from collections.abc import Sequence

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def run_in_terminal(
    command: Sequence[str], env: dict[str, str], timeout: float
) -> tuple[int, list[str], str]:
    """Run `command` with its standard output on a pseudo-terminal (standard error in a pipe).

    Returns the exit code, each read of the terminal's output in order (decoded), and stderr.
    """
    leader, follower = pty.openpty()
    env = {**env, "TERM": "xterm", "COLUMNS": "200"}
    process = subprocess.Popen(
        list(command), stdin=subprocess.DEVNULL, stdout=follower, stderr=subprocess.PIPE, env=env
    )
    os.close(follower)
    reads: list[bytes] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 1.0)
        if not ready:
            if process.poll() is not None:
                break
            continue
        try:
            data = os.read(leader, 65536)
        except OSError:  # the terminal closed: the command ended
            break
        if not data:
            break
        reads.append(data)
    else:
        process.kill()
    os.close(leader)
    stderr = process.stderr.read().decode() if process.stderr else ""
    code = process.wait(timeout=60)
    return code, [data.decode("utf-8", "replace") for data in reads], stderr


def thought_reads_before_action(reads: list[str]) -> list[str]:
    """The reads that carry text of the first Thought, before any `Action:` was read."""
    pieces: list[str] = []
    seen = ""
    for data in reads:
        text = ANSI.sub("", data)
        before = (seen + text).split("Action:")[0][len(seen) :]
        seen += text
        if "Thought:" in seen and before.replace("Thought:", "").strip():
            pieces.append(before)
        if "Action:" in seen:
            break
    return pieces


def converse_in_terminal(
    command: Sequence[str], env: dict[str, str], lines: Sequence[str], prompt: str, timeout: float
) -> tuple[int, str]:
    """Run an interactive `command` on a pseudo-terminal, typing each of `lines` at its `prompt`.

    After the last line, Ctrl-D ends the conversation. Returns the exit code and everything the
    terminal showed (ANSI codes removed).
    """
    leader, follower = pty.openpty()
    env = {**env, "TERM": "xterm", "COLUMNS": "200"}
    process = subprocess.Popen(
        list(command), stdin=follower, stdout=follower, stderr=follower, env=env
    )
    os.close(follower)
    shown, typed = "", 0
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        ready, _, _ = select.select([leader], [], [], 1.0)
        if ready:
            try:
                shown += os.read(leader, 65536).decode("utf-8", "replace")
            except OSError:
                break
        if ANSI.sub("", shown).count(prompt) > typed:  # the prompt is waiting: type the next line
            os.write(leader, (lines[typed] + "\n").encode() if typed < len(lines) else b"\x04")
            typed += 1
    if process.poll() is None:
        process.kill()
    code = process.wait(timeout=60)
    os.close(leader)
    return code, ANSI.sub("", shown)
