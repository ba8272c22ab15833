"""Names and inputs that used to fail late or silently now fail when the agent is built.

Tool names that read as the Final Answer, duplicate names, things that are not tools, a chat
history that is not a list, and files that are not checkpoint stores: each raises at once,
naming what is wrong, and no tool runs.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest
from langchain_core.tools import tool

from custom_react import CustomReActAgent
from custom_react.pausing.checkpoints import CheckpointError, SQLiteStore
from custom_react.testing import Script
from tests.security.common import command_tool

FINAL_NAMES = [
    "finish",
    "Finish",
    "FINISH",
    "final_answer",
    "Final_Answer",
    "Final Answer",
    "final answer",
    "FINAL-ANSWER",
    "final-answer",
    "最终答案",
    "Final_answer",
    "finalanswer",
    "FinalAnswer",
]


def named(name: str, ran: list[Any]) -> Any:
    @tool(name)
    def anything(text: str) -> str:
        """Do something."""
        ran.append(text)
        return "done"

    return anything


@pytest.mark.parametrize("fmt", ["text", "xml", "json"])
@pytest.mark.parametrize("name", FINAL_NAMES)
def test_a_tool_named_like_the_final_answer_is_refused_when_built(name, fmt):
    ran: list[Any] = []
    try:
        agent = CustomReActAgent(Script().model, [named(name, ran)], format=fmt)
    except ValueError as error:
        assert name in str(error)
        return
    # Accepted: then a call of it must really run it, not end the run as the answer.
    model = Script(f"Action: {name}\nAction Input: hello", "Final Answer: ok")
    agent = CustomReActAgent(model.model, [named(name, ran)])
    agent.invoke("Go.")
    assert ran == ["hello"], f"{name!r} was accepted but a call of it never ran"


@pytest.mark.parametrize("second", ["run_terminal_command", "other"])
def test_duplicate_tool_names_are_refused(second):
    ran: list[Any] = []
    tools = [command_tool(ran), command_tool(ran, name=second)]
    if second == "other":
        CustomReActAgent(Script().model, tools)
        return
    with pytest.raises(ValueError, match="run_terminal_command"):
        CustomReActAgent(Script().model, tools)


def plain(text: str) -> str:  # no docstring: nothing to tell the model, so it cannot be a tool
    return text


@pytest.mark.parametrize(
    ("tools", "index"),
    [
        ([None], 0),
        ([plain], 0),
        (["search"], 0),
        ([{"name": "x"}], 0),
        (["a", None], 0),
        ([command_tool([]), None], 1),
        ([command_tool([]), plain], 1),
        ([command_tool([]), 42], 1),
    ],
    ids=[
        "None",
        "function",
        "string",
        "dict",
        "two bad",
        "None second",
        "function second",
        "int second",
    ],
)
def test_something_that_is_not_a_tool_is_named_by_its_index(tools, index):
    with pytest.raises(TypeError, match=rf"tools\[{index}\]"):
        CustomReActAgent(Script().model, tools)


@pytest.mark.parametrize("tools", [command_tool([]), "search", None, 5], ids=repr)
def test_tools_that_are_not_a_list_are_refused(tools):
    with pytest.raises(TypeError):
        CustomReActAgent(Script().model, tools)


@pytest.mark.parametrize("history", ["hello", b"hello", 5, {"role": "user"}], ids=repr)
def test_a_chat_history_that_is_not_a_list_is_refused(history):
    model = Script()
    agent = CustomReActAgent(model.model, [])
    with pytest.raises(TypeError, match="chat_history"):
        agent.invoke({"input": "Hi?", "chat_history": history})
    assert model.prompts == []  # refused before the model was asked


def other_programs_db(path: Any) -> None:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE users (id INTEGER, name TEXT)")


def half_ours(path: Any) -> None:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE runs (run_id TEXT)")


FILES = {
    "random bytes": lambda p: p.write_bytes(bytes(range(256)) * 64),
    "text": lambda p: p.write_text("not a database\n" * 100),
    "another program's database": other_programs_db,
    "a runs table without meta": half_ours,
    "a truncated SQLite header": lambda p: p.write_bytes(b"SQLite format 3\x00" + b"\x00" * 50),
}


@pytest.mark.parametrize("content", FILES)
def test_a_file_that_is_no_store_is_refused_at_construction(tmp_path, content):
    path = tmp_path / "runs.db"
    FILES[content](path)
    before = path.read_bytes()
    with pytest.raises(CheckpointError, match=r"runs\.db"):
        SQLiteStore(path)
    assert path.read_bytes() == before or content == "a truncated SQLite header"


def test_a_folder_as_the_store_is_refused(tmp_path):
    with pytest.raises(CheckpointError, match=str(tmp_path.name)):
        SQLiteStore(tmp_path)
