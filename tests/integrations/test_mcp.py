"""Tools from a real stdio MCP server (the demo's FastMCP video studio) in the agent, no mocks.

1. The loader: the tools, their metadata (the server's `_meta` and the caller's), and clear errors
   for a missing extra, an empty or failing command and an unknown tool name.
2. The agent with a scripted model: a tool call through `invoke` and through `ainvoke` (the same
   events), image content as a placeholder, an MCP tool error as an error observation, a polled
   render that completes after several identical status calls, and a status budget.
3. `custom-react ask --mcp-server`: a server that does not start (exit 2), and one that does.
"""

from __future__ import annotations

import asyncio
import socket
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from custom_react import ConsolePrinter, CustomReActAgent
from custom_react.cli.app import app
from custom_react.integrations.mcp import (
    INSTALL_HINT,
    MCPServerError,
    aload_mcp_tools,
    load_mcp_tools,
)
from tests.conftest import summarize
from tests.integrations.conftest import server_command, server_state

pytest.importorskip(
    "langchain_mcp_adapters", reason='the mcp extra is missing: pip install -e ".[mcp]"'
)

LINK = "https://videos.example.com/render-1.mp4"

# -- 1. The loader -----------------------------------------------------------------------------


def test_the_server_tools_are_async_only_and_marked(studio):
    tools = studio(requires_approval=["start_render"], metadata={"render_status": {"max_calls": 5}})
    assert sorted(tools) == [
        "preview_frame", "render_status", "search_materials", "start_render", "write_script",
    ]  # fmt: skip
    assert all(tool.coroutine is not None and tool.func is None for tool in tools.values())
    status = tools["render_status"].metadata or {}
    assert status["repeatable"] is True  # announced by the server in its MCP `_meta`
    assert status["max_calls"] == 5  # chosen by the caller
    assert tools["start_render"].metadata == {"requires_approval": True}
    assert tools["search_materials"].metadata == {}


def test_async_code_awaits_the_async_twin(tmp_path):
    async def main():
        with pytest.raises(RuntimeError, match="aload_mcp_tools"):
            load_mcp_tools(server_command(tmp_path))  # a sync call inside a running loop
        return await aload_mcp_tools(server_command(tmp_path), repeatable=["render_status"])

    tools = asyncio.run(main())
    assert [tool.name for tool in tools][:2] == ["search_materials", "write_script"]


def test_a_missing_extra_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "langchain_mcp_adapters", None)
    with pytest.raises(ImportError, match=r'pip install -e "\.\[mcp\]"'):
        load_mcp_tools("python server.py")
    assert "[mcp]" in INSTALL_HINT


def test_a_server_that_fails_to_start_is_named_with_its_stderr(tmp_path):
    missing = tmp_path / "no_such_server.py"
    with pytest.raises(MCPServerError) as caught:
        load_mcp_tools(f"{sys.executable} {missing}")
    message = str(caught.value)
    assert f"{missing}" in message and "did not start" in message
    assert "can't open file" in message  # the server's own stderr


def test_a_command_that_does_not_exist_is_named():
    with pytest.raises(MCPServerError, match="no-such-mcp-server"):
        load_mcp_tools("no-such-mcp-server --stdio")


def test_an_empty_command_and_an_unknown_tool_name_are_refused(tmp_path):
    with pytest.raises(ValueError, match="command is empty"):
        load_mcp_tools("   ")
    with pytest.raises(ValueError, match=r"no tool render_state; it has: \["):
        load_mcp_tools(server_command(tmp_path), repeatable=["render_state"])


# -- 2. In the agent ---------------------------------------------------------------------------

SEARCH = "Thought: find materials\nAction: search_materials\nAction Input: sunscreen"
DONE = "Thought: I now know the final answer\nFinal Answer: done"


def test_a_tool_call_through_invoke_and_ainvoke(script, studio):
    tools = list(studio().values())
    sync_model, async_model = script(SEARCH, DONE), script(SEARCH, DONE)
    sync_events = summarize(list(CustomReActAgent(sync_model.model, tools).stream("q")))

    async def collect():
        agent = CustomReActAgent(async_model.model, tools)
        return summarize([event async for event in agent.astream("q")])

    assert asyncio.run(collect()) == sync_events
    (_, status, observation) = sync_events[1]
    assert status == "ok" and observation.startswith(
        "Materials for sunscreen: clip beach_sunrise.mp4"
    )
    result = asyncio.run(CustomReActAgent(script(SEARCH, DONE).model, tools).ainvoke("q"))
    assert result["messages"][2].content == observation and result["output"] == "done"


def test_image_content_becomes_a_placeholder(script, studio):
    tools = studio()
    model = script(
        "Action: write_script\nAction Input: sunscreen",
        "Action: start_render\nAction Input: script-1",
        "Action: preview_frame\nAction Input: render-1",
        DONE,
    )
    result = CustomReActAgent(model.model, list(tools.values())).invoke("q")
    frame = result["intermediate_steps"][-1][1]
    assert frame.startswith("Frame 1 of render-1:") and "image/png" in frame
    assert "iVBORw0KGgo" not in frame  # the picture's bytes never reach the prompt


def test_an_mcp_tool_error_is_an_error_observation(script, studio):
    model = script("Action: render_status\nAction Input: render-9", DONE)
    events = summarize(list(CustomReActAgent(model.model, list(studio().values())).stream("q")))
    (_, status, observation) = events[1]
    assert status == "error" and observation.startswith("Error: render_status failed")
    assert "There is no render task 'render-9'" in observation
    assert "ToolException: " in observation and "_MCP" not in observation  # no private name
    assert events[-1] == ("result", "final_answer", 2)  # the run went on


POLL = "Thought: not done yet, check again\nAction: render_status\nAction Input: render-1"
RENDER = [
    "Thought: write the script\nAction: write_script\nAction Input: sunscreen",
    "Thought: render it\nAction: start_render\nAction Input: script-1",
    POLL,
    POLL,
    POLL,
    f"Thought: I now know the final answer\nFinal Answer: The video is ready: {LINK}",
]


def test_a_polled_render_completes_after_several_identical_status_calls(script, studio, tmp_path):
    tools = studio(metadata={"render_status": {"poll_interval": 0.05}})
    lines: list[str] = []
    agent = CustomReActAgent(script(*RENDER).model, list(tools.values()))
    printer = ConsolePrinter(lines.append, color=False)
    for event in agent.stream("Make the sunscreen video."):
        printer(event)
    polls = [line for line in lines if line.startswith("Observation") and "render-1" in line]
    assert polls[1:] == [
        "Observation: queued. Not done yet: call render_status again with task_id render-1.",
        "Observation: rendering 50%. Not done yet: call render_status again with task_id render-1.",
        f"Observation: done: {LINK}",
    ]
    assert lines.count("Action: render_status") == 3
    assert lines[-1] == f"Final Answer: The video is ready: {LINK}"
    assert server_state(tmp_path)["renders"]["render-1"]["polls"] == 3  # each poll really ran


def test_the_status_budget_stops_endless_polling(script, studio, tmp_path):
    tools = studio(polls=10, metadata={"render_status": {"max_calls": 2, "poll_interval": 0}})
    model = script(*RENDER[:2], POLL, POLL, POLL, DONE)
    events = summarize(list(CustomReActAgent(model.model, list(tools.values())).stream("q")))
    statuses = [row[1] for row in events if row[0] == "observation"]
    assert statuses[:4] == ["ok", "ok", "ok", "ok"] and statuses[4] != "ok"
    assert server_state(tmp_path)["renders"]["render-1"]["polls"] == 2  # the third never ran


# -- 3. The command ----------------------------------------------------------------------------


def test_ask_with_a_server_that_does_not_start_exits_2(tmp_path: Path):
    command = f"{sys.executable} {tmp_path / 'missing.py'}"
    result = CliRunner().invoke(app, ["ask", "q", "--mcp-server", command])
    assert result.exit_code == 2
    assert "error: The MCP server" in result.output and "did not start" in result.output


def test_ask_loads_a_working_server_before_the_model(tmp_path: Path, monkeypatch):
    """The server's tools load; then the model (nothing listens at the URL) is the only failure."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    arguments = ["ask", "q", "--mcp-server", server_command(tmp_path), "--base-url", url]
    result = CliRunner().invoke(app, arguments)
    assert result.exit_code == 2 and "The MCP server" not in result.output
    assert "the model call failed" in result.output
