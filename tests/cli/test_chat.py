"""`custom-react chat`: a REPL over one thread (the pseudo-terminal run on the model is in e2e)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from custom_react import CustomReActAgent
from custom_react.cli.app import app
from custom_react.cli.chat import converse
from custom_react.pausing.checkpoints import SQLiteStore
from custom_react.pausing.store import MemoryStore


def reader(*lines: str) -> Iterator[str]:
    yield from lines


def feed(*lines: str):
    answers = reader(*lines)

    def read(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    return read


def test_each_question_sees_the_earlier_ones_and_eof_ends_it(script, capsys):
    model = script("Final Answer: Hello, Li.", "Final Answer: Your name is Li.")
    agent = CustomReActAgent(model.model, [], checkpoint=MemoryStore())
    count = converse(
        agent, "t1", lang="en", quiet=True, stream_tokens=False,
        read=feed("My name is Li.", "What is my name?"),
    )  # fmt: skip
    assert count == 2
    assert [m.text for m in model.prompts[1][1:-1]] == ["My name is Li.", "Hello, Li."]
    assert capsys.readouterr().out.splitlines()[-1] == "Your name is Li."


@pytest.mark.parametrize("end", ["", "exit", "退出"])
def test_an_empty_line_or_exit_ends_the_conversation(script, end):
    agent = CustomReActAgent(script().model, [], checkpoint=MemoryStore())
    assert converse(agent, "t", lang="zh", quiet=True, stream_tokens=False, read=feed(end)) == 0


def test_a_chat_on_a_file_goes_on_in_a_later_command(tmp_path, monkeypatch):
    """Two `chat` commands on one file and thread, against a scripted OpenAI-compatible server."""
    from tests.scripted_server import ScriptedServer

    db = tmp_path / "chat.db"
    replies = ["Final Answer: Hello, Li.", "Final Answer: Your name is Li."]
    with ScriptedServer(replies) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        for question in ("My name is Li.", "What is my name?"):
            result = CliRunner().invoke(
                app,
                ["chat", "--checkpoint", str(db), "--thread", "t1", "--quiet", "--no-stream"],
                input=f"{question}\n",
            )
            assert result.exit_code == 0, result.output
        assert "Your name is Li." in result.output
        assert "My name is Li." in server.requests[-1]["messages"][1]["content"]
    assert SQLiteStore(db).history("t1") == [
        ("My name is Li.", "Hello, Li."),
        ("What is my name?", "Your name is Li."),
    ]


def test_an_answer_that_still_fails_its_checks_is_said_to_in_the_chat(script, capsys):
    def never(answer, steps):
        return "never good enough"

    model = script("Final Answer: It is 999.", "Final Answer: It is 999.")
    agent = CustomReActAgent(
        model.model, [], checkpoint=MemoryStore(), final_answer_checks=[never], max_answer_retries=1
    )
    converse(agent, "t", lang="en", quiet=True, stream_tokens=False, read=feed("How much?"))
    captured = capsys.readouterr()
    assert captured.out.splitlines()[-1] == "It is 999."
    assert "warning: the answer still fails: never: never good enough" in captured.err
