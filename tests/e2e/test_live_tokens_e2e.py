"""Live tokens for real: `custom-react ask` in a pseudo-terminal shows the Thought as it is written.

The CLI runs on the bundled local model (its default with no key), one model run at a time on
this machine (`flock`). Its standard output is a pseudo-terminal, read as it arrives: the Thought
must come in several reads before the step's Action line is printed.
"""

from __future__ import annotations

import os
import shutil
import sys

import pytest

from tests.terminal import ANSI, run_in_terminal, thought_reads_before_action

pytestmark = pytest.mark.e2e
MODEL_LOCK = "/tmp/custom-react-model.lock"


def test_the_cli_shows_a_thought_in_several_pieces_before_the_step_ends():
    env = {k: v for k, v in os.environ.items() if not k.endswith(("API_KEY", "BASE_URL"))}
    command = [sys.executable, "-m", "custom_react.cli.app", "ask", "What is 2**10?"]
    if shutil.which("flock"):
        command = ["flock", MODEL_LOCK, *command]
    code, reads, stderr = run_in_terminal(command, env, timeout=1800)
    assert code == 0, stderr
    pieces = thought_reads_before_action(reads)
    assert len(pieces) >= 2, reads[:20]
    screen = ANSI.sub("", "".join(reads))
    assert "Action: calculator" in screen and "1024" in screen
    assert "Final Answer:" in screen
