"""The CLI in a pseudo-terminal shows the model's reply as it is written, on a scripted server.

`custom-react ask --base-url` talks to a scripted OpenAI-compatible server (`tests.scripted_server`)
that streams each reply word by word; the terminal must read the Thought in several pieces before
the step's Action line. `--no-stream` asks for whole replies and shows no draft. The same on the
real bundled model: `tests/e2e/test_live_tokens_e2e.py`.
"""

from __future__ import annotations

import os
import sys

from tests.scripted_server import ScriptedServer
from tests.terminal import ANSI, run_in_terminal, thought_reads_before_action

REPLIES = [
    "I will compute it with the calculator.\nAction: calculator\nAction Input: 2**10\n"
    "Observation: 999 (made up)",
    "I now know the final answer.\nFinal Answer: 2**10 is 1024.",
]


def ask(server: ScriptedServer, *options: str) -> tuple[int, list[str], str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith(("API_KEY", "BASE_URL"))}
    command = [sys.executable, "-m", "custom_react.cli.app", "ask", "What is 2**10?"]
    return run_in_terminal([*command, "--base-url", server.url, *options], env, timeout=120)


def test_the_thought_arrives_in_several_pieces_before_the_step_ends():
    with ScriptedServer(REPLIES) as server:
        code, reads, stderr = ask(server)
    assert code == 0, stderr
    assert all(request.get("stream") for request in server.requests)
    assert len(thought_reads_before_action(reads)) >= 2, reads[:20]
    screen = ANSI.sub("", "".join(reads))
    assert "999" not in screen  # the made-up Observation never shows
    assert "Observation: 1024" in screen and "Final Answer: 2**10 is 1024." in screen


def test_no_stream_shows_each_step_whole():
    with ScriptedServer(REPLIES) as server:
        code, reads, stderr = ask(server, "--no-stream")
    assert code == 0, stderr
    assert not any(request.get("stream") for request in server.requests)
    assert "\x1b[2m" not in "".join(reads)  # no dimmed draft
    screen = ANSI.sub("", "".join(reads))
    assert "Thought: I will compute it with the calculator.\r\nAction: calculator" in screen
