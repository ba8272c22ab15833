"""Fixtures for the workspace tools: a workspace next to an outside folder, and its four tools."""

from pathlib import Path

import pytest
from langchain_core.tools import BaseTool

from tools.workspace import make_workspace_tools


@pytest.fixture
def layout(tmp_path: Path) -> dict[str, Path]:
    """A workspace next to an outside folder, with symbolic links pointing out of the workspace."""
    root = tmp_path / "ws"
    outside = tmp_path / "outside"
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
    """The four workspace tools for the layout's workspace, by name, with small limits."""
    tools = make_workspace_tools(layout["root"], command_timeout=1.0, max_output_chars=200)
    return {tool.name: tool for tool in tools}
