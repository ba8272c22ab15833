"""The video-studio MCP server (`demos/servers/video_studio.py`), started for real over stdio."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langchain_core.tools import BaseTool

from custom_react.integrations.mcp import load_mcp_tools

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "demos" / "servers" / "video_studio.py"


def server_command(state_dir: Path, polls: int = 3) -> str:
    command = [sys.executable, str(SERVER), "--state-dir", str(state_dir), "--polls", str(polls)]
    return shlex.join(command)


def server_state(state_dir: Path) -> dict[str, Any]:
    """What the server keeps between sessions (scripts, renders, how often each was polled)."""
    return json.loads((state_dir / "state.json").read_text(encoding="utf-8"))


@pytest.fixture
def studio(tmp_path: Path) -> Callable[..., dict[str, BaseTool]]:
    """Start the server (its state in `tmp_path`) and return its tools by name."""

    def start(polls: int = 3, **options: Any) -> dict[str, BaseTool]:
        tools = load_mcp_tools(server_command(tmp_path, polls), **options)
        return {tool.name: tool for tool in tools}

    return start
