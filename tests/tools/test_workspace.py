"""Workspace tools: confinement (no escapes for read, write, list), and the terminal approval gate."""

import time
from pathlib import Path

import pytest
from langchain_core.tools import BaseTool

from tools.workspace import (
    APPROVAL_CONFIG_KEY,
    CommandNotApprovedError,
    WorkspaceError,
    make_workspace_tools,
)

APPROVED = {"configurable": {APPROVAL_CONFIG_KEY: True}}

# Paths that must never reach outside the workspace (links are created by the fixture).
ESCAPES = [
    "..",
    "../x",
    "../outside/secret.txt",
    "a/../../b",
    "a/../../outside/secret.txt",
    "./../x",
    "a\\..\\..\\b",
    "/etc/passwd",
    "/tmp",
    "C:\\Windows\\win.ini",
    "~/x",
    "~",
    "link_out/secret.txt",
    "link_out/new.txt",
    "link_file",
    "dangling_link",
    "nested/link_up/secret.txt",
    "x\x00y",
]


@pytest.fixture
def layout(tmp_path: Path) -> dict[str, Path]:
    """A workspace next to an outside folder, with symbolic links pointing out of the workspace."""
    root, outside = tmp_path / "ws", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text("secret", encoding="utf-8")
    (root / "link_out").symlink_to(outside, target_is_directory=True)
    (root / "link_file").symlink_to(outside / "secret.txt")
    (root / "dangling_link").symlink_to(outside / "created-through-link.txt")
    (root / "nested").mkdir()
    (root / "nested" / "link_up").symlink_to(outside, target_is_directory=True)
    return {"root": root, "outside": outside}


@pytest.fixture
def workspace_tools(layout: dict[str, Path]) -> dict[str, BaseTool]:
    tools = make_workspace_tools(layout["root"], command_timeout=1.0, max_output_chars=200)
    return {tool.name: tool for tool in tools}


def snapshot_outside(layout: dict[str, Path]) -> dict[str, bytes]:
    outside = layout["outside"]
    return {str(path): path.read_bytes() for path in outside.rglob("*") if path.is_file()}


@pytest.mark.parametrize("path", ESCAPES)
def test_read_file_refuses_escapes(path: str, workspace_tools: dict[str, BaseTool]) -> None:
    with pytest.raises(WorkspaceError):
        workspace_tools["read_file"].invoke({"path": path})


@pytest.mark.parametrize("path", ESCAPES)
def test_write_file_refuses_escapes(
    path: str, workspace_tools: dict[str, BaseTool], layout: dict[str, Path]
) -> None:
    before = snapshot_outside(layout)
    with pytest.raises(WorkspaceError):
        workspace_tools["write_file"].invoke({"path": path, "content": "pwned"})
    assert snapshot_outside(layout) == before
    assert sorted(p.name for p in layout["root"].parent.iterdir()) == ["outside", "ws"]


@pytest.mark.parametrize("path", [*ESCAPES, "link_out", "nested/link_up"])
def test_list_files_refuses_escapes(path: str, workspace_tools: dict[str, BaseTool]) -> None:
    with pytest.raises(WorkspaceError):
        workspace_tools["list_files"].invoke({"path": path})


def test_errors_are_written_for_the_model(workspace_tools: dict[str, BaseTool]) -> None:
    with pytest.raises(
        WorkspaceError, match=r"absolute path\. Use a path relative to the workspace"
    ):
        workspace_tools["read_file"].invoke({"path": "/etc/passwd"})
    with pytest.raises(WorkspaceError, match=r"contains '\.\.'"):
        workspace_tools["read_file"].invoke({"path": "../x"})
    with pytest.raises(WorkspaceError, match="outside the workspace through a link"):
        workspace_tools["read_file"].invoke({"path": "link_file"})
    with pytest.raises(WorkspaceError, match=r"no file 'missing\.txt'.*list_files"):
        workspace_tools["read_file"].invoke({"path": "missing.txt"})


def test_write_read_and_list_inside_the_workspace(
    workspace_tools: dict[str, BaseTool], layout: dict[str, Path]
) -> None:
    written = workspace_tools["write_file"].invoke(
        {"path": "notes/2025/todo.txt", "content": "buy roses"}
    )
    assert written == "Wrote 9 characters to notes/2025/todo.txt."
    assert (layout["root"] / "notes" / "2025" / "todo.txt").read_text(
        encoding="utf-8"
    ) == "buy roses"
    assert workspace_tools["read_file"].invoke("notes/2025/todo.txt") == "buy roses"
    assert workspace_tools["read_file"].invoke("'./notes/2025/todo.txt'") == "buy roses"
    assert workspace_tools["list_files"].invoke({"path": "notes"}) == "2025/"
    listing = workspace_tools["list_files"].invoke({}).splitlines()
    assert {"notes/", "nested/", "link_file"} <= set(listing)


def test_links_that_stay_inside_are_allowed(
    workspace_tools: dict[str, BaseTool], layout: dict[str, Path]
) -> None:
    (layout["root"] / "data.txt").write_text("42", encoding="utf-8")
    (layout["root"] / "alias.txt").symlink_to(layout["root"] / "data.txt")
    assert workspace_tools["read_file"].invoke("alias.txt") == "42"


def test_long_files_are_truncated(
    workspace_tools: dict[str, BaseTool], layout: dict[str, Path]
) -> None:
    (layout["root"] / "long.txt").write_text("x" * 1000, encoding="utf-8")
    text = workspace_tools["read_file"].invoke("long.txt")
    assert len(text) <= 200 and text.endswith("…[truncated]")


def test_only_the_terminal_tool_requires_approval(workspace_tools: dict[str, BaseTool]) -> None:
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
    with pytest.raises(CommandNotApprovedError, match=r"not approved .* nothing was run"):
        workspace_tools["run_terminal_command"].invoke("touch pwned.txt", config=config)
    assert not (layout["root"] / "pwned.txt").exists()


def test_terminal_runs_with_approval_in_the_workspace(
    workspace_tools: dict[str, BaseTool], layout: dict[str, Path]
) -> None:
    result = workspace_tools["run_terminal_command"].invoke(
        "touch made.txt && pwd && echo oops >&2 && exit 3", config=APPROVED
    )
    assert result == f"exit code: 3\nstdout:\n{layout['root']}\nstderr:\noops"
    assert (layout["root"] / "made.txt").exists()


def test_terminal_output_is_truncated(workspace_tools: dict[str, BaseTool]) -> None:
    result = workspace_tools["run_terminal_command"].invoke("yes | head -n 500", config=APPROVED)
    assert result.startswith("exit code: 0\nstdout:\n")
    assert result.endswith("…[truncated]\nstderr: (empty)")


@pytest.mark.parametrize(
    "command", ["sleep 10", "sleep 10 & sleep 10; echo never", "echo started; sleep 10"]
)
def test_terminal_times_out_cleanly(command: str, workspace_tools: dict[str, BaseTool]) -> None:
    started = time.monotonic()
    result = workspace_tools["run_terminal_command"].invoke(command, config=APPROVED)
    assert time.monotonic() - started < 5
    assert result.startswith("The command timed out after 1 s and was stopped.\n")
    assert "never" not in result


def test_terminal_refuses_an_empty_command(workspace_tools: dict[str, BaseTool]) -> None:
    with pytest.raises(WorkspaceError, match="empty"):
        workspace_tools["run_terminal_command"].invoke("  ", config=APPROVED)
