"""Workspace file tools: no path escapes the workspace for read, write or list, and the rest works.

The workspace and its links out are built by the `layout` fixture (`conftest.py`); the terminal
tool and its approval gate are tested in `test_terminal_tool.py`.
"""

import re
from pathlib import Path

import pytest
from langchain_core.tools import BaseTool

from tools.workspace import WorkspaceError

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


def snapshot_outside(layout: dict[str, Path]) -> dict[str, bytes]:
    """Return every file outside the workspace with its bytes, to prove nothing changed."""
    outside = layout["outside"]
    return {str(path): path.read_bytes() for path in outside.rglob("*") if path.is_file()}


@pytest.mark.parametrize("path", ESCAPES)
def test_read_file_refuses_escapes(path: str, workspace_tools: dict[str, BaseTool]) -> None:
    """`read_file` refuses every path that leads out of the workspace."""
    with pytest.raises(WorkspaceError):
        workspace_tools["read_file"].invoke({"path": path})


@pytest.mark.parametrize("path", ESCAPES)
def test_write_file_refuses_escapes(
    path: str, workspace_tools: dict[str, BaseTool], layout: dict[str, Path]
) -> None:
    """`write_file` refuses escapes and writes nothing, inside or outside."""
    before = snapshot_outside(layout)
    with pytest.raises(WorkspaceError):
        workspace_tools["write_file"].invoke({"path": path, "content": "pwned"})
    assert snapshot_outside(layout) == before
    assert sorted(p.name for p in layout["root"].parent.iterdir()) == ["outside", "ws"]


@pytest.mark.parametrize("path", [*ESCAPES, "link_out", "nested/link_up"])
def test_list_files_refuses_escapes(path: str, workspace_tools: dict[str, BaseTool]) -> None:
    """`list_files` refuses escapes, including links to folders outside."""
    with pytest.raises(WorkspaceError):
        workspace_tools["list_files"].invoke({"path": path})


def test_errors_are_written_for_the_model(workspace_tools: dict[str, BaseTool]) -> None:
    """Each refusal says what was wrong and what to write instead."""
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
    """Files written inside (with new folders) read back and are listed."""
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
    """A symbolic link to a file in the workspace can be read."""
    (layout["root"] / "data.txt").write_text("42", encoding="utf-8")
    (layout["root"] / "alias.txt").symlink_to(layout["root"] / "data.txt")
    assert workspace_tools["read_file"].invoke("alias.txt") == "42"


def test_long_files_are_truncated(
    workspace_tools: dict[str, BaseTool], layout: dict[str, Path]
) -> None:
    """A long file is cut to `max_output_chars` with the truncation marker, giving its size.

    Only the start of the file is read, so the marker gives the file's size in bytes rather than
    the number of characters cut (`test_workspace_limits.py`).
    """
    (layout["root"] / "long.txt").write_text("x" * 1000, encoding="utf-8")
    text = workspace_tools["read_file"].invoke("long.txt")
    assert len(text) <= 200 and re.search(r"…\[truncated: the file has 1000 bytes\]$", text)
