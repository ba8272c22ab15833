"""The `custom-react` command without a model: help, and clear exit codes for bad settings."""

from __future__ import annotations

import socket

import pytest
from typer.testing import CliRunner

from custom_react.cli.app import app
from custom_react.pausing.checkpoints import SQLiteStore

runner = CliRunner()


def closed_port() -> int:
    """Return a loopback port that nothing listens on (it was free a moment ago)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_help_lists_the_ask_command():
    """``--help`` exits 0 and names the ``ask`` command."""
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0 and "ask" in result.output


def test_ask_help_lists_its_options():
    """``ask --help`` lists every option of ``ask``."""
    result = runner.invoke(app, ["ask", "--help"])
    for option in ("--lang", "--model", "--base-url", "--max-iterations", "--quiet"):
        assert option in result.output


def test_a_server_that_is_down_is_a_clear_error_with_exit_code_2(monkeypatch):
    """A base URL nothing answers at ends ``ask`` with exit code 2 and a hint to start it."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    url = f"http://127.0.0.1:{closed_port()}/v1"
    result = runner.invoke(app, ["ask", "hi", "--base-url", url])
    assert result.exit_code == 2
    assert "the model call failed" in result.output and "Is the server up?" in result.output


def test_bad_settings_are_a_clear_error_with_exit_code_2(monkeypatch):
    """A malformed setting ends ``ask`` with exit code 2 and one ``error:`` line."""
    monkeypatch.setenv("CUSTOM_REACT_TEMPERATURE", "hot")
    result = runner.invoke(app, ["ask", "hi", "--base-url", "http://127.0.0.1:1/v1"])
    assert result.exit_code == 2 and result.output.startswith("error:")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["  "], "the question is empty"),
        (["hi", "--lang", "fr"], "Unsupported language 'fr'"),
        (["hi", "--max-iterations", "0"], "--max-iterations"),
        (["hi", "--save", "{file}/run.md"], "is not a folder this user can write in"),
    ],
    ids=["empty question", "language", "max iterations", "save under a file"],
)
def test_a_bad_argument_is_exit_code_2_before_any_model_starts(tmp_path, args, says):
    """Refused as it is read: the base URL is never asked (nothing listens there)."""
    taken = tmp_path / "a_file"
    taken.write_text("x")
    given = [arg.format(file=taken) for arg in args]
    url = f"http://127.0.0.1:{closed_port()}/v1"
    result = runner.invoke(app, ["ask", *given, "--base-url", url])
    assert result.exit_code == 2
    assert says in " ".join(result.output.split()).replace("│ ", "")
    assert "the model call failed" not in result.output


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--questions", "no/such/file.jsonl"], "does not exist"),
        (["--agents", "custom,bogus"], "no agent bogus"),
    ],
    ids=["questions", "agents"],
)
def test_compare_refuses_a_bad_argument_before_any_server_starts(args, says):
    url = f"http://127.0.0.1:{closed_port()}/v1"
    result = runner.invoke(app, ["compare", *args, "--base-url", url])
    assert result.exit_code == 2
    assert says in " ".join(result.output.split()).replace("│ ", "")


def test_compare_help_lists_its_options():
    """``compare --help`` lists every option of ``compare``."""
    result = runner.invoke(app, ["compare", "--help"])
    for option in ("--questions", "--agents", "--out", "--model", "--base-url", "--max-iterations"):
        assert option in result.output


def test_compare_with_a_server_that_is_down_records_failed_runs(monkeypatch, tmp_path):
    """A server that is down fails each run, not the command: it exits 0 and saves the report."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    questions = tmp_path / "q.jsonl"
    questions.write_text('{"id": "a", "question": "1+1?", "expected": 2}\n', encoding="utf-8")
    url = f"http://127.0.0.1:{closed_port()}/v1"
    args = ["compare", "--questions", str(questions), "--agents", "custom", "--base-url", url]
    result = runner.invoke(app, [*args, "--out", str(tmp_path / "out")])
    # A failed model call inside the harness is recorded as that run's failure, not a crash.
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "compare.json").exists()


def test_ask_system_reaches_the_start_of_the_system_prompt(monkeypatch):
    from tests.scripted_server import ScriptedServer

    with ScriptedServer(["Final Answer: 4 euros"]) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        result = CliRunner().invoke(
            app, ["ask", "4 or 5?", "--system", "Answer in euros.", "--quiet", "--no-stream"]
        )
        assert result.exit_code == 0, result.output
        system = server.requests[0]["messages"][0]
    assert system["role"] == "system" and system["content"].startswith("Answer in euros.\n\n")


def test_ask_sends_back_an_answer_whose_number_no_tool_gave(monkeypatch):
    """The CLI checks the answer (`grounded_numbers`): a number made up in the head goes back."""
    from tests.scripted_server import ScriptedServer

    replies = [
        "Final Answer: 15.75",  # worked out in the head: in neither the question nor a tool's result
        "Thought: compute it\nAction: calculator\nAction Input: 15 + 5%",
        "Final Answer: 15.75",
    ]
    with ScriptedServer(replies) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        result = CliRunner().invoke(app, ["ask", "15 plus 5%?", "--quiet", "--no-stream"])
        assert result.exit_code == 0, result.output
    assert result.output.strip().endswith("15.75") and len(server.requests) == 3
    assert "The Final Answer gives 15.75" in server.requests[1]["messages"][-1]["content"]


def test_ask_help_lists_show_prompts_and_ui_help_lists_its_options():
    """``ask --show-prompts`` exists; ``ui --help`` lists ``--scripted``, ``--port``, ``--lang``."""
    assert "--show-prompts" in runner.invoke(app, ["ask", "--help"]).output
    result = runner.invoke(app, ["ui", "--help"])
    assert result.exit_code == 0
    for option in ("--scripted", "--port", "--lang", "--model", "--base-url", "--workspace"):
        assert option in result.output


@pytest.mark.parametrize("command", [["runs"], ["resume", "some-run", "--approve"]])
def test_a_mistyped_checkpoint_is_refused_not_created(tmp_path, command):
    missing = tmp_path / "runs.db"
    result = runner.invoke(app, [*command, "--checkpoint", str(missing)])
    said = " ".join(result.output.split()).replace("│ ", "")
    assert result.exit_code == 2 and "does not exist" in said
    assert not missing.exists()


def test_resume_names_an_unknown_run_before_any_model_starts(tmp_path):
    stored = tmp_path / "runs.db"
    SQLiteStore(stored)
    url = f"http://127.0.0.1:{closed_port()}/v1"
    result = runner.invoke(app, ["resume", "nope", "--checkpoint", str(stored), "--base-url", url])
    assert result.exit_code == 2 and "No run 'nope'" in result.output
    assert "the model call failed" not in result.output and "model:" not in result.output


def test_runs_names_a_file_that_is_not_a_store(tmp_path):
    other = tmp_path / "notes.txt"
    other.write_text("not a database, just notes\n" * 10)
    result = runner.invoke(app, ["runs", "--checkpoint", str(other)])
    assert result.exit_code == 2 and "is not a custom-react checkpoint store" in result.output


def test_ui_on_a_taken_port_is_exit_code_2_with_what_to_do():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.invoke(app, ["ui", "--scripted", "--port", str(port)])
    assert result.exit_code == 2 and "give another --port" in result.output


def test_chat_sends_back_an_answer_whose_number_no_tool_gave(monkeypatch):
    """`chat` checks answers as `ask` does (`grounded_numbers`)."""
    from tests.scripted_server import ScriptedServer

    replies = [
        "Final Answer: 15.75",
        "Thought: compute it\nAction: calculator\nAction Input: 15 + 5%",
        "Final Answer: 15.75",
    ]
    with ScriptedServer(replies) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        result = CliRunner().invoke(app, ["chat", "--quiet", "--no-stream"], input="15 plus 5%?\n")
        assert result.exit_code == 0, result.output
    assert len(server.requests) == 3 and "15.75" in result.output


@pytest.mark.parametrize(("typed", "ran"), [("y\n", True), ("n\n", False), ("", False)])
def test_ask_with_a_workspace_asks_before_a_command_runs(monkeypatch, tmp_path, typed, ran):
    from tests.scripted_server import ScriptedServer

    replies = [
        "Action: run_terminal_command\nAction Input: touch made.txt",
        "Final Answer: done",
    ]
    with ScriptedServer(replies) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        args = ["ask", "Make a file.", "--workspace", str(tmp_path), "--quiet", "--no-stream"]
        result = CliRunner().invoke(app, args, input=typed)
        assert result.exit_code == 0, result.output
    assert (tmp_path / "made.txt").exists() is ran
    assert "Run run_terminal_command" in result.output


def test_quiet_prints_only_an_answer_on_stdout_and_why_a_run_stopped_on_stderr(monkeypatch):
    from tests.scripted_server import ScriptedServer

    replies = ["Action: calculator\nAction Input: 2 + 2"] * 2
    with ScriptedServer(replies) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        args = ["ask", "2 + 2?", "--quiet", "--no-stream", "--max-iterations", "2"]
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 1 and result.stdout == ""
    assert "stopped without an answer: max_iterations: Agent stopped at" in result.stderr


def test_an_answer_that_still_fails_its_checks_is_said_to_on_stderr(monkeypatch):
    from tests.scripted_server import ScriptedServer

    with ScriptedServer(["Final Answer: 15.75"] * 3) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        result = CliRunner().invoke(app, ["ask", "15 plus 5%?", "--quiet", "--no-stream"])
    assert result.exit_code == 0 and result.stdout.strip() == "15.75"
    assert "warning: the answer still fails: grounded_numbers:" in result.stderr
