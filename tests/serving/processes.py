"""Finding the test process's llama.cpp servers and their process groups through ``/proc``.

Helpers for the server tests, without psutil: which processes run (zombies do not count), which
belong to a process group, and which server launchers (``custom_react/serving/launcher.py``)
this test process started.
Linux only, as the server tests are.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from custom_react.serving.process import LAUNCHER


def stat_fields(pid: int) -> list[str] | None:
    """Return the fields of /proc/<pid>/stat after the command name (state, ppid, pgrp, ...)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def is_running(pid: int) -> bool:
    """Tell whether ``pid`` exists and is neither a zombie nor dead."""
    fields = stat_fields(pid)
    return fields is not None and fields[0] not in ("Z", "X")


def group_members(pgid: int) -> list[int]:
    """Return the live (not zombie) processes in process group ``pgid``."""
    members = []
    for entry in Path("/proc").iterdir():
        fields = stat_fields(int(entry.name)) if entry.name.isdigit() else None
        if fields and fields[0] not in ("Z", "X") and int(fields[2]) == pgid:
            members.append(int(entry.name))
    return members


def our_llama_servers() -> set[int]:
    """Return the pids of server launchers this test process started that still run."""
    found = set()
    for entry in Path("/proc").iterdir():
        fields = stat_fields(int(entry.name)) if entry.name.isdigit() else None
        if fields and int(fields[1]) == os.getpid() and fields[0] not in ("Z", "X"):
            cmdline = (entry / "cmdline").read_bytes() if (entry / "cmdline").exists() else b""
            if str(LAUNCHER).encode() in cmdline:
                found.add(int(entry.name))
    return found


def wait_until_dead(pid: int, timeout: float = 10.0) -> None:
    """Wait up to ``timeout`` seconds for ``pid`` to stop running."""
    deadline = time.monotonic() + timeout
    while is_running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
