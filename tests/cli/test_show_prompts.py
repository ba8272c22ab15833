"""`custom-react ask --show-prompts`: each call's exact prompt and raw reply, on a scripted server.

The same run saved with `--save` holds every prompt and raw reply (folded in `<details>`).
"""

from __future__ import annotations

import os

from typer.testing import CliRunner

from custom_react.cli.app import app
from tests.scripted_server import ScriptedServer

REPLIES = [
    "I will compute it with the calculator.\nAction: calculator\nAction Input: 2**10\n",
    "I now know the final answer.\nFinal Answer: 2**10 is 1024.",
]


def ask(monkeypatch, *options: str) -> tuple[int, str, ScriptedServer]:
    for name in os.environ:
        if name.endswith(("API_KEY", "BASE_URL")):
            monkeypatch.delenv(name)
    with ScriptedServer(REPLIES, pause=0) as server:
        result = CliRunner().invoke(
            app, ["ask", "What is 2**10?", "--base-url", server.url, *options]
        )
    return result.exit_code, result.output, server


def test_each_prompt_is_printed_then_its_raw_reply_then_the_step(monkeypatch):
    code, output, server = ask(monkeypatch, "--show-prompts")
    assert code == 0, output
    first = output.index("── Prompt of call 1 ──")
    reply = output.index("── Reply of call 1, raw (")
    step = output.index("Action: calculator\nAction Input: 2**10\nObservation: 1024")
    second = output.index("── Prompt of call 2 ──")
    assert first < reply < step < second
    system = server.requests[0]["messages"][0]["content"]
    assert system in output  # the first prompt whole, exactly as the server got it
    assert output.count(system) == 1  # the second names the call it repeats instead
    assert "[system] (as in call 1)" in output
    assert "… 1 line(s) as in call 1; new from here …\nThought: I will compute it" in output
    assert "── Reply of call 2, raw (" in output and "Final Answer: 2**10 is 1024." in output


def test_without_the_flag_no_prompt_is_printed(monkeypatch):
    code, output, _ = ask(monkeypatch)
    assert code == 0 and "Prompt of call" not in output and "raw (" not in output


def test_saved_transcripts_hold_every_prompt_and_raw_reply(monkeypatch, tmp_path):
    md, html = tmp_path / "run.md", tmp_path / "run.html"
    code, output, server = ask(monkeypatch, "--save", str(md), "--save", str(html))
    assert code == 0, output
    assert "Prompt of call" not in output  # saved, not printed: that is `--show-prompts`
    markdown, page = md.read_text(encoding="utf-8"), html.read_text(encoding="utf-8")
    human = server.requests[1]["messages"][1]["content"]
    assert "──── new since call 1 ────\nThought: I will compute it" in markdown
    assert markdown.count("<details><summary>Prompt of call") == 2
    assert page.count('<details class="prompt') == 2 and page.count('<details class="reply') == 2
    assert "<mark>Thought: I will compute it" in page
    assert human.startswith("Question: What is 2**10?\n")
