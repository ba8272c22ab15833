"""The terminal tool: it runs only with the user's approval, in the workspace, with a timeout.

Approval travels in the call's config (`APPROVAL_CONFIG_KEY` set to exactly `True`); anything else
refuses the command before it starts. Output is truncated, and a command that outlives the timeout
is stopped with everything it started.
"""

import re
import time
from pathlib import Path

import pytest
from langchain_core.tools import BaseTool

from tools.workspace import APPROVAL_CONFIG_KEY, CommandNotApprovedError, WorkspaceError

APPROVED = {"configurable": {APPROVAL_CONFIG_KEY: True}}


def test_only_the_terminal_tool_requires_approval(workspace_tools: dict[str, BaseTool]) -> None:
    """Only `run_terminal_command` asks for approval, and its schema hides `config`."""
    assert list(workspace_tools) == [
        "read_file",
        "write_file",
        "list_files",
        "run_terminal_command",
    ]
    assert {
        name: (tool.metadata or {}).get("requires_approval")
        for name, tool in workspace_tools.items()
    } == {
        "read_file": None,
        "write_file": None,
        "list_files": None,
        "run_terminal_command": True,
    }
    terminal = workspace_tools["run_terminal_command"]
    assert list(terminal.args) == ["command"]
    assert "config" not in terminal.tool_call_schema.model_json_schema()["properties"]
    assert list(workspace_tools["write_file"].args) == ["path", "content"]
    assert APPROVAL_CONFIG_KEY == "custom_react_approved"


@pytest.mark.parametrize(
    "config",
    [
        None,
        {},
        {"configurable": {}},
        {"configurable": {APPROVAL_CONFIG_KEY: False}},
        {"configurable": {APPROVAL_CONFIG_KEY: "yes"}},
        {"configurable": {APPROVAL_CONFIG_KEY: 1}},
        {"metadata": {APPROVAL_CONFIG_KEY: True}},
    ],
)
def test_terminal_never_runs_without_approval(
    config: dict[str, object] | None, workspace_tools: dict[str, BaseTool], layout: dict[str, Path]
) -> None:
    """Without the approval flag set to `True`, the command is refused and never runs."""
    with pytest.raises(CommandNotApprovedError, match=r"not approved .* nothing was run"):
        workspace_tools["run_terminal_command"].invoke("touch pwned.txt", config=config)
    assert not (layout["root"] / "pwned.txt").exists()


def test_terminal_runs_with_approval_in_the_workspace(
    workspace_tools: dict[str, BaseTool], layout: dict[str, Path]
) -> None:
    """An approved command runs in the workspace and reports exit code and both streams."""
    result = workspace_tools["run_terminal_command"].invoke(
        "touch made.txt && pwd && echo oops >&2 && exit 3", config=APPROVED
    )
    assert result == f"exit code: 3\nstdout:\n{layout['root']}\nstderr:\noops"
    assert (layout["root"] / "made.txt").exists()


def test_terminal_output_is_truncated(workspace_tools: dict[str, BaseTool]) -> None:
    """Long command output is cut with the truncation marker."""
    result = workspace_tools["run_terminal_command"].invoke("yes | head -n 500", config=APPROVED)
    assert result.startswith("exit code: 0\nstdout:\n")
    assert re.search(r"…\[truncated \d+ characters\]\nstderr: \(empty\)$", result)


@pytest.mark.parametrize(
    "command", ["sleep 10", "sleep 10 & sleep 10; echo never", "echo started; sleep 10"]
)
def test_terminal_times_out_cleanly(command: str, workspace_tools: dict[str, BaseTool]) -> None:
    """A command that outlives the timeout is stopped with its children, and says so."""
    started = time.monotonic()
    result = workspace_tools["run_terminal_command"].invoke(command, config=APPROVED)
    assert time.monotonic() - started < 5
    assert result.startswith("The command timed out after 1 s and was stopped.\n")
    assert "never" not in result


def test_terminal_refuses_an_empty_command(workspace_tools: dict[str, BaseTool]) -> None:
    """An empty command is refused."""
    with pytest.raises(WorkspaceError, match="empty"):
        workspace_tools["run_terminal_command"].invoke("  ", config=APPROVED)
