"""Running one shell command with a timeout and reporting its exit code and output as text.

`run_shell_command` is the mechanism behind the `run_terminal_command` tool. It starts the command in
its own process group so that a timeout stops the command and everything it started, captures stdout
and stderr (truncated), and never reads from the terminal. It does not decide whether a command may
run: approval and workspace confinement live in `tools.workspace`.
"""

import contextlib
import os
import signal
import subprocess
from pathlib import Path

from custom_react.toolbox import truncate


def run_shell_command(command: str, *, cwd: Path, timeout: float, max_output_chars: int) -> str:
    """Run `command` through the system shell in `cwd` and describe the outcome.

    Args:
        command: One shell command line.
        cwd: The working directory.
        timeout: Seconds to wait before the command (and its children) are killed.
        max_output_chars: Longest text kept from stdout and from stderr, each.

    Returns:
        "exit code: N" (or a line saying the command timed out and was stopped), then the stdout and
        stderr sections, for example "exit code: 0", "stdout:", "hello", "stderr: (empty)" on
        four lines.
    """
    with subprocess.Popen(
        command,
        shell=True,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        errors="replace",
        start_new_session=True,  # its own process group, so a timeout can stop its children too
    ) as process:
        try:
            stdout, stderr = process.communicate(timeout=timeout)
            status = f"exit code: {process.returncode}"
        except subprocess.TimeoutExpired:
            _kill_process_group(process)
            stdout, stderr = process.communicate()
            status = f"The command timed out after {timeout:g} s and was stopped."
    return "\n".join(
        [
            status,
            _section("stdout", stdout, max_output_chars),
            _section("stderr", stderr, max_output_chars),
        ]
    )


def _kill_process_group(process: subprocess.Popen[str]) -> None:
    """Kill the process and, on POSIX, every process in its group."""
    if hasattr(os, "killpg"):
        with contextlib.suppress(ProcessLookupError):  # it may have exited meanwhile
            os.killpg(process.pid, signal.SIGKILL)
    else:  # pragma: no cover - Windows has no process groups of this kind
        process.kill()


def _section(label: str, text: str, max_chars: int) -> str:
    """Render one output stream as "label:" and its text on the next lines, or "label: (empty)"."""
    text = text.rstrip()
    return f"{label}:\n{truncate(text, max_chars)}" if text else f"{label}: (empty)"
