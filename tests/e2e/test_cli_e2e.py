"""The README's first command, for real: `custom-react ask` on the bundled local model."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e


def llama_servers() -> set[int]:
    pids = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if b"llama_cpp.server" in command:
                pids.add(int(entry.name))
    return pids


def test_ask_answers_offline_and_leaves_no_server_behind():
    before = llama_servers()
    env = {k: v for k, v in os.environ.items() if not k.endswith(("API_KEY", "BASE_URL"))}
    completed = subprocess.run(
        [sys.executable, "-m", "custom_react.cli", "ask", "What is 12.5% of 2480?"],
        capture_output=True, text=True, env=env, timeout=900, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    assert "Action: calculator" in completed.stdout
    assert "Final Answer:" in completed.stdout and "310" in completed.stdout
    assert "local qwen2.5-coder-1.5b" in completed.stderr
    assert llama_servers() <= before
