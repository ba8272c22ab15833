"""Tools from an MCP server on stdio, as LangChain tools for the agent (an add-on: the `mcp` extra).

`load_mcp_tools("python demos/servers/video_studio.py", repeatable=["render_status"])` starts the
server once to list its tools and returns them as `StructuredTool`s made by
`langchain-mcp-adapters` (async-only: the agent runs their coroutine under `invoke` too);
`aload_mcp_tools` is the same for async code. The agent's conventions go in each tool's
`metadata`: `requires_approval`, `repeatable` (a status tool the repeated-action guard lets
through), `max_calls` (a per-run budget) and `poll_interval` (seconds to wait before repeating an
identical call). A server may announce them itself in a tool's MCP `_meta`
(`@server.tool(meta={"repeatable": True})` in FastMCP); the caller's choices win.

Sessions are stateless: every tool call opens its own stdio session (starts the server, calls the
tool, stops it), as `MultiServerMCPClient` does by default. A persistent stdio session belongs to
the event loop that opened it (its reader tasks live there); a sync `invoke` runs each tool
coroutine in a loop of its own, so a kept session would be bound to a loop that is gone. The price
is a process start per call (1 to 2 s for a Python server here, small next to a model step); a
server that must remember things between calls (a render job) keeps them in a file, not in memory.
MCP tool errors (`isError`) raise `ToolException`, which the agent turns into an error observation.
Nothing here runs the agent.
"""

from __future__ import annotations

import asyncio
import shlex
import tempfile
from collections.abc import Collection, Mapping
from typing import IO, TYPE_CHECKING, Any

from langchain_core.tools import BaseTool

if TYPE_CHECKING:
    from mcp import types

AGENT_KEYS = ("requires_approval", "repeatable", "max_calls", "poll_interval")
"""Tool metadata the agent reads; taken over from a tool's MCP `_meta` when the server sets them."""

INSTALL_HINT = 'MCP tools need the `mcp` extra: pip install -e ".[mcp]"'
START_TIMEOUT = 60.0


class MCPServerError(RuntimeError):
    """The MCP server could not be started or listed its tools wrong; the message says which."""


def load_mcp_tools(
    command: str,
    *,
    repeatable: Collection[str] = (),
    requires_approval: Collection[str] = (),
    metadata: Mapping[str, Mapping[str, Any]] | None = None,
    env: Mapping[str, str] | None = None,
    start_timeout: float = START_TIMEOUT,
) -> list[BaseTool]:
    """Start the stdio MCP server `command` once and return its tools (sync; see the module doc).

    Args:
        command: The server's command line, e.g. `"python path/to/server.py --flag"` (split
            like a shell would, with `shlex`).
        repeatable: Names of tools to mark `repeatable` (status and poll tools).
        requires_approval: Names of tools that may only run after the user approves.
        metadata: More metadata by tool name, e.g. `{"render_status": {"max_calls": 6}}`.
        env: Environment variables for the server (default: the MCP SDK's safe subset of ours).
        start_timeout: Seconds the server may take to start and list its tools.

    Raises:
        ImportError: The `mcp` extra is not installed.
        MCPServerError: The server did not start, or answered wrongly (command and stderr named).
        ValueError: A name in `repeatable`, `requires_approval` or `metadata` is not a tool.
        RuntimeError: Called inside a running event loop: await `aload_mcp_tools` there.
    """
    _refuse_running_loop()
    return asyncio.run(
        aload_mcp_tools(
            command,
            repeatable=repeatable,
            requires_approval=requires_approval,
            metadata=metadata,
            env=env,
            start_timeout=start_timeout,
        )
    )


async def aload_mcp_tools(
    command: str,
    *,
    repeatable: Collection[str] = (),
    requires_approval: Collection[str] = (),
    metadata: Mapping[str, Mapping[str, Any]] | None = None,
    env: Mapping[str, str] | None = None,
    start_timeout: float = START_TIMEOUT,
) -> list[BaseTool]:
    """`load_mcp_tools` for async code: the same arguments, errors and tools."""
    adapters = _import_adapters()
    connection = stdio_connection(command, env)
    listed = await _list_tools(connection, start_timeout)
    tools = [
        adapters.convert_mcp_tool_to_langchain_tool(
            None, tool, connection=connection, handle_tool_errors=False
        )
        for tool in listed
    ]
    chosen = {name: {"repeatable": True} for name in repeatable}
    for name in requires_approval:
        chosen.setdefault(name, {})["requires_approval"] = True
    for name, extra in (metadata or {}).items():
        chosen.setdefault(name, {}).update(extra)
    return mark_tools(tools, chosen)


def stdio_connection(command: str, env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The `langchain-mcp-adapters` stdio connection for a command line (not started here)."""
    words = shlex.split(command)
    if not words:
        raise ValueError("The MCP server command is empty; give one such as 'python server.py'.")
    return {
        "transport": "stdio",
        "command": words[0],
        "args": words[1:],
        "env": dict(env) if env is not None else None,
    }


def mark_tools(tools: list[BaseTool], chosen: Mapping[str, Mapping[str, Any]]) -> list[BaseTool]:
    """Set the agent's metadata keys on the tools: the server's `_meta` first, then `chosen`."""
    names = {tool.name for tool in tools}
    unknown = sorted(set(chosen) - names)
    if unknown:
        raise ValueError(
            f"The MCP server has no tool {', '.join(unknown)}; it has: {sorted(names)}."
        )
    for tool in tools:
        announced = (tool.metadata or {}).get("_meta") or {}
        ours = {key: announced[key] for key in AGENT_KEYS if key in announced}
        tool.metadata = {**(tool.metadata or {}), **ours, **chosen.get(tool.name, {})}
    return tools


def _refuse_running_loop() -> None:
    """Raise before `asyncio.run` would, with the name of the call to use instead."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return
    raise RuntimeError("load_mcp_tools was called inside an event loop: await aload_mcp_tools.")


def _import_adapters() -> Any:
    """The `langchain_mcp_adapters.tools` module, or an `ImportError` that says what to install."""
    try:
        from langchain_mcp_adapters import tools
    except ImportError as error:
        raise ImportError(f"{INSTALL_HINT} ({error})") from error
    return tools


async def _list_tools(connection: dict[str, Any], timeout: float) -> list[types.Tool]:
    """Start the server once, list its tools and stop it; failures name the command and stderr."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    parameters = StdioServerParameters(
        command=connection["command"], args=connection["args"], env=connection["env"]
    )
    shown = shlex.join([connection["command"], *connection["args"]])
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as stderr:
        try:
            async with (
                asyncio.timeout(timeout),
                stdio_client(parameters, errlog=stderr) as streams,
                ClientSession(*streams) as session,
            ):
                await session.initialize()
                return (await session.list_tools()).tools
        except Exception as error:  # the process, the protocol or the timeout failed
            raise MCPServerError(_start_failure(shown, error, stderr)) from error


def _start_failure(command: str, error: BaseException, stderr: IO[str]) -> str:
    """Why the server at `command` did not give its tools: the error and the end of its stderr."""
    while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]  # anyio wraps a task's failure in a group
    stderr.seek(0)
    output = stderr.read().strip()[-2000:]
    reason = "it did not answer in time" if isinstance(error, TimeoutError) else f"{error}"
    message = f"The MCP server {command!r} did not start: {type(error).__name__}: {reason}"
    return message + (f"\nIts stderr:\n{output}" if output else "\nIt wrote nothing to stderr.")
