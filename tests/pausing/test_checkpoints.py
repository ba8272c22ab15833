"""Checkpoints in SQLite: every step written when recorded; runs resumed by id after a crash.

1. A child process running the agent is killed (SIGKILL) in the middle of its third tool call;
   resuming from the file keeps the two finished steps, runs neither of their tools again, and
   ends with the answer.
2. Eight runs of `abatch` writing to one file lose nothing.
3. A paused run is resumed by id from the file; the CLI lists runs and resumes one. The waiting
   call keeps what its reply carried (its id, usage), so its AIMessage has them after the resume.
4. A file of another format version is refused with a clear message; an unknown id too.
5. A tool's artifact is written when JSON can hold it; another is not, and a warning says so.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool
from typer.testing import CliRunner

from custom_react import CustomReActAgent
from custom_react.cli.app import app
from custom_react.pausing.checkpoints import CheckpointError, SQLiteStore
from custom_react.pausing.state import STATE_VERSION, sign_state
from custom_react.pausing.typed_json import ADDED_IN_FORMAT_4
from custom_react.steps import step_from_dict

ROOT = Path(__file__).resolve().parents[2]
CHILD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from langchain_core.tools import tool
    from custom_react import CustomReActAgent
    from custom_react.pausing.checkpoints import SQLiteStore
    from custom_react.testing import Script

    log = Path(sys.argv[2])

    @tool
    def read_page(page: str) -> str:
        '''Read one page of the report.'''
        with log.open("a") as out:
            out.write(page + "\\n")
        if page == "3":
            time.sleep(600)  # the test kills the process here
        return f"text of page {page}"

    script = Script(*[f"Action: read_page\\nAction Input: {n}" for n in ("1", "2", "3")])
    CustomReActAgent(script.model, [read_page], checkpoint=SQLiteStore(sys.argv[1])).invoke("Read pages 1-3.")
    """
)


def logged_reader(log: Path) -> Any:
    @tool
    def read_page(page: str) -> str:
        """Read one page of the report."""
        with log.open("a") as out:
            out.write(page + "\n")
        return f"text of page {page}"

    return read_page


def test_a_run_killed_mid_step_resumes_from_the_file_without_rerunning_its_tools(script, tmp_path):
    db, log = tmp_path / "runs.db", tmp_path / "calls.log"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(db), str(log)], cwd=ROOT)
    deadline = time.monotonic() + 60
    while "3" not in (log.read_text() if log.exists() else "").split():
        assert child.poll() is None and time.monotonic() < deadline, (
            "the child did not get to page 3"
        )
        time.sleep(0.05)
    os.kill(child.pid, signal.SIGKILL)
    assert child.wait(timeout=10) == -signal.SIGKILL
    store = SQLiteStore(db)
    (run,) = store.runs()
    assert (run.steps, run.stop_reason, run.question) == (2, None, "Read pages 1-3.")
    model = script("Action: read_page\nAction Input: 3", "Final Answer: the report has 3 pages")
    agent = CustomReActAgent(model.model, [logged_reader(log)], checkpoint=SQLiteStore(db))
    result = agent.invoke({"resume": run.run_id})
    assert log.read_text().split() == ["1", "2", "3", "3"]  # pages 1 and 2 never read again
    assert result["stop_reason"] == "final_answer" and result["run_id"] == run.run_id
    assert [obs for _, obs in result["intermediate_steps"]] == [f"text of page {n}" for n in "123"]
    assert "text of page 2" in model.prompts[0][-1].content  # the model read the stored steps
    assert result["iterations"] == 4
    (run,) = store.runs()
    assert (run.steps, run.stop_reason) == (4, "final_answer")


class PerQuestionModel(BaseChatModel):
    """Answers from the prompt alone (safe to share between concurrent runs): looks up the
    question's word twice, then answers."""

    @property
    def _llm_type(self) -> str:
        return "per-question"

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        prompt = str(messages[-1].content)
        word = prompt.split("Question:")[-1].split()[0] if "Question:" in prompt else "?"
        seen = prompt.count("Observation:")
        text = (
            f"Action: lookup\nAction Input: {word} {seen}" if seen < 2 else f"Final Answer: {word}"
        )
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])


def test_eight_concurrent_runs_write_every_step_to_one_file(tmp_path):
    @tool
    def lookup(query: str) -> str:
        """Look something up."""
        return f"found {query}"

    db = tmp_path / "runs.db"
    agent = CustomReActAgent(PerQuestionModel(), [lookup], checkpoint=SQLiteStore(db))
    questions = [f"q{n} please" for n in range(8)]
    results = asyncio.run(agent.abatch(questions, {"max_concurrency": 8}))
    assert [r["output"] for r in results] == [f"q{n}" for n in range(8)]
    runs = {run.run_id: run for run in SQLiteStore(db).runs()}
    assert len(runs) == 8 and {r["run_id"] for r in results} == set(runs)
    for result in results:
        stored = SQLiteStore(db).load(result["run_id"])
        assert [s["kind"] for s in stored["steps"]] == ["tool_step", "tool_step", "final_answer"]
        word = result["output"]
        assert [s["observation"] for s in stored["steps"][:2]] == [
            f"found {word} 0",
            f"found {word} 1",
        ]
        assert runs[result["run_id"]].stop_reason == "final_answer"


def command_tool(ran: list[str]) -> Any:
    @tool
    def run_command(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return "a.txt"

    run_command.metadata = {"requires_approval": True}
    return run_command


def test_a_paused_run_is_resumed_by_id_from_the_file(script, tmp_path):
    db, ran = tmp_path / "runs.db", []
    ask = script("Action: run_command\nAction Input: ls")
    first = CustomReActAgent(
        ask.model, [command_tool(ran)], checkpoint=SQLiteStore(db), approval="interrupt"
    )
    paused = first.invoke("What files are there?")
    assert paused["stop_reason"] == "needs_approval" and ran == []
    (run,) = SQLiteStore(db).runs()
    assert (run.run_id, run.stop_reason, run.steps) == (paused["run_id"], "needs_approval", 0)
    answer = script("Final Answer: a.txt")
    again = CustomReActAgent(
        answer.model, [command_tool(ran)], checkpoint=SQLiteStore(db), approval="interrupt"
    )
    result = again.invoke({"resume": run.run_id, "decision": {"approve": True}})
    assert ran == ["ls"] and result["output"] == "a.txt"
    (run,) = SQLiteStore(db).runs()
    assert (run.stop_reason, run.steps) == ("final_answer", 2)
    with pytest.raises(ValueError, match="already ended"):
        again.invoke({"resume": run.run_id, "decision": {"approve": True}})


def test_a_paused_call_keeps_what_its_reply_carried_through_a_resume_from_the_file(
    script, tmp_path
):
    db, ran = tmp_path / "runs.db", []
    usage = {"input_tokens": 30, "output_tokens": 5, "total_tokens": 35}
    metadata = {"model_name": "scripted", "finish_reason": "stop"}
    reply = AIMessage(
        "Action: run_command\nAction Input: ls",
        id="reply-1",
        usage_metadata=usage,
        response_metadata=metadata,
    )
    tools = [command_tool(ran)]
    store = SQLiteStore(db)
    first = CustomReActAgent(script(reply).model, tools, checkpoint=store, approval="interrupt")
    paused = first.invoke("What files are there?")
    answer = script(AIMessage("Final Answer: a.txt", id="reply-2"))
    again = CustomReActAgent(answer.model, tools, checkpoint=SQLiteStore(db), approval="interrupt")
    result = again.invoke({"resume": paused["run_id"], "decision": {"approve": True}})
    call, done = [m for m in result["messages"] if isinstance(m, AIMessage)]
    assert (call.id, call.usage_metadata) == ("reply-1", usage)
    assert call.response_metadata == {
        **metadata,
        "react_log": "Action: run_command\nAction Input: ls",
    }
    assert call.tool_calls[0]["args"] == {"command": "ls"} and done.id == "reply-2"


class Handle:
    """An artifact JSON cannot hold (an open resource, say)."""


@tool(response_format="content_and_artifact")
def fetch(name: str) -> tuple[str, Any]:
    """Fetch a table or a handle; the model reads a line, the caller gets the artifact."""
    return f"fetched {name}", Handle() if name == "handle" else {"rows": [7, 8, 9]}


def test_an_artifact_json_can_hold_is_checkpointed_another_is_left_out_with_a_warning(
    script, tmp_path
):
    model = script(
        "Action: fetch\nAction Input: table",
        "Action: fetch\nAction Input: handle",
        "Final Answer: done",
    )
    agent = CustomReActAgent(model.model, [fetch], checkpoint=SQLiteStore(tmp_path / "runs.db"))
    with pytest.warns(UserWarning, match="ToolStep.artifact holds a Handle, which JSON cannot"):
        result = agent.invoke("Fetch both.")
    table, handle = [m.artifact for m in result["messages"] if isinstance(m, ToolMessage)]
    assert table == {"rows": [7, 8, 9]} and isinstance(handle, Handle)  # the run keeps both
    stored = SQLiteStore(tmp_path / "runs.db").load(result["run_id"])["steps"]
    steps = [step_from_dict(data) for data in stored]  # each read back, checked
    assert [step.artifact for step in steps[:2]] == [{"rows": [7, 8, 9]}, None]


def test_the_cli_lists_runs_and_explains_a_bad_resume(tmp_path, script):
    db = tmp_path / "runs.db"
    CustomReActAgent(script("Final Answer: 4").model, [], checkpoint=SQLiteStore(db)).invoke(
        "2 + 2?"
    )
    listed = CliRunner().invoke(app, ["runs", "--checkpoint", str(db)])
    assert listed.exit_code == 0 and "final_answer" in listed.output and "2 + 2?" in listed.output
    bad = CliRunner().invoke(
        app, ["resume", "run-nope", "--checkpoint", str(db), "--base-url", "http://127.0.0.1:9/v1"]
    )
    assert bad.exit_code == 2 and "No run 'run-nope'" in bad.output
    both = CliRunner().invoke(
        app, ["resume", "r", "--checkpoint", str(db), "--approve", "--reject", "x"]
    )
    assert both.exit_code == 2 and "one of --approve" in both.output


def test_a_file_of_another_format_version_is_refused(tmp_path):
    db = tmp_path / "runs.db"
    SQLiteStore(db)
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE meta SET value = '99' WHERE key = 'format'")
    with pytest.raises(
        CheckpointError,
        match=f"format 99; this version of custom-react reads format {STATE_VERSION}",
    ):
        SQLiteStore(db)
    with pytest.raises(CheckpointError, match="No run 'missing'"):
        SQLiteStore(tmp_path / "other.db").load("missing")


def test_a_file_from_before_the_answered_column_keeps_its_threads(script, tmp_path):
    """The column is added; a run that ended with its final answer stays in its thread."""
    db = tmp_path / "runs.db"
    agent = CustomReActAgent(script("Final Answer: 4").model, [], checkpoint=SQLiteStore(db))
    agent.invoke("What is 2 + 2?", {"configurable": {"thread_id": "t"}})
    with sqlite3.connect(db) as connection:  # the runs table as it was before the column
        connection.execute("ALTER TABLE runs RENAME TO newer")
        connection.execute(
            "CREATE TABLE runs (run_id TEXT PRIMARY KEY, question TEXT NOT NULL, "
            "created REAL NOT NULL, stop_reason TEXT, output TEXT, state TEXT NOT NULL)"
        )
        connection.execute(
            "INSERT INTO runs SELECT run_id, question, created, stop_reason, output, state "
            "FROM newer"
        )
        connection.execute("DROP TABLE newer")
    assert SQLiteStore(db).history("t") == [("What is 2 + 2?", "4")]


def as_format_3(record: dict[str, Any]) -> dict[str, Any]:
    """A record as format 3 wrote it: without the fields format 4 added."""
    return {name: value for name, value in record.items() if name not in ADDED_IN_FORMAT_4}


def test_a_file_of_format_3_is_read_and_marked_the_current_format(script, tmp_path):
    """A file written before the records kept artifacts and reply metadata loses nothing."""
    db, ran = tmp_path / "runs.db", []

    @tool
    def echo(text: str) -> str:
        """Return the text."""
        return text

    tools = [command_tool(ran), echo]
    first = CustomReActAgent(
        script("Action: echo\nAction Input: hi", "Action: run_command\nAction Input: ls").model,
        tools,
        checkpoint=SQLiteStore(db),
        approval="interrupt",
    )
    paused = first.invoke("What files are there?")
    with sqlite3.connect(db) as connection:  # the file as format 3 wrote it
        connection.execute("UPDATE meta SET value = '3' WHERE key = 'format'")
        for run_id, position, step in connection.execute("SELECT * FROM steps").fetchall():
            old = json.dumps(as_format_3(json.loads(step)))
            connection.execute(
                "UPDATE steps SET step = ? WHERE run_id = ? AND position = ?",
                (old, run_id, position),
            )
        for run_id, state in connection.execute("SELECT run_id, state FROM runs").fetchall():
            data = json.loads(state)
            data["version"] = 3
            del data["asked"]  # format 5 added it
            data["steps"] = [as_format_3(step) for step in data["steps"]]
            data["pending"] = data["pending"] and as_format_3(data["pending"])
            connection.execute(
                "UPDATE runs SET state = ? WHERE run_id = ?", (json.dumps(data), run_id)
            )
    again = CustomReActAgent(
        script("Final Answer: a.txt").model, tools, checkpoint=SQLiteStore(db), approval="interrupt"
    )
    result = again.invoke({"resume": paused["run_id"], "decision": {"approve": True}})
    assert result["output"] == "a.txt" and ran == ["ls"]
    assert [m.text for m in result["messages"]][1:3] == ["Action: echo\nAction Input: hi", "hi"]
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT value FROM meta").fetchone() == (str(STATE_VERSION),)
        assert connection.execute("SELECT count(*) FROM steps").fetchone()[0] >= 2


KEY = "a secret of sixteen characters at least"


def test_a_state_of_format_3_resumes_signed_as_it_was(script):
    ran: list[str] = []
    tools = [command_tool(ran)]
    agent = CustomReActAgent(
        script("Action: run_command\nAction Input: ls", "Final Answer: a.txt").model,
        tools,
        approval="interrupt",
        state_key=KEY,
    )
    state = agent.invoke("What files are there?")["state"]
    old = {**state, "version": 3, "pending": as_format_3(state["pending"])}
    old = {name: value for name, value in old.items() if name not in {"signature", "asked"}}
    old = sign_state(old, KEY)
    result = agent.invoke({"resume": old, "decision": {"approve": True}})
    assert result["output"] == "a.txt" and ran == ["ls"]


def test_a_state_of_format_4_resumes_its_question_a_new_message(script):
    """Format 4 kept no question's message: the resumed run writes the question as one."""
    ran: list[str] = []
    agent = CustomReActAgent(
        script("Action: run_command\nAction Input: ls", "Final Answer: a.txt").model,
        [command_tool(ran)],
        approval="interrupt",
    )
    state = agent.invoke({"messages": [HumanMessage("What files are there?", id="q")]})["state"]
    old = {name: value for name, value in state.items() if name != "asked"}
    result = agent.invoke({"resume": {**old, "version": 4}, "decision": {"approve": True}})
    assert result["output"] == "a.txt" and ran == ["ls"]
    assert result["messages"][0].text == "What files are there?"
