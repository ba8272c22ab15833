"""What the `custom-react` commands share: opening the model, the tools, running and ending a run.

`open_model` opens the chat model the environment selects (and stops a local server on Ctrl-C or
`kill`); `load_tools` gives the default tools plus those of MCP servers; `answer` runs the agent
with the live transcript; `finish` turns the run's end into the command's exit code. Exit codes:
0 the agent answered; 1 it stopped on a limit; 2 the model could not be set up or failed for good;
3 the run is paused, waiting for a person's approval (`custom-react resume`).
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import typer
from dotenv import load_dotenv
from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool

from custom_react.agent import CustomReActAgent
from custom_react.console.printing import ConsolePrinter, show_live
from custom_react.events import AgentEvent, AgentResult, ReplyToken, RunFinished
from custom_react.parsing.action_input import input_text
from custom_react.pausing.approval import waiting_call
from custom_react.running.prompt_log import ModelCall, PromptLog
from custom_react.serving.errors import MODEL_ERRORS, model_error_message, model_failure_message
from custom_react.serving.models import ModelSettings, describe, open_chat_model

PAUSED_EXIT = 3
"""The exit code of a run that waits for a person's approval."""


def load_tools(mcp_servers: list[str], workspace: Path | None = None) -> list[BaseTool]:
    """The default tools, a folder's file and terminal tools, then each MCP server's tools.

    A server that fails to start ends the command (exit code 2).
    """
    from tools import default_tools  # imported here so `--help` stays fast
    from tools.workspace import make_workspace_tools

    tools = default_tools() + (make_workspace_tools(workspace) if workspace else [])
    if not mcp_servers:
        return tools
    from custom_react.integrations.mcp import MCPServerError, load_mcp_tools

    try:
        return tools + [tool for line in mcp_servers for tool in load_mcp_tools(line)]
    except (ImportError, MCPServerError, ValueError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None


def answer(
    agent: CustomReActAgent,
    agent_input: str | dict[str, Any],
    *,
    lang: str,
    quiet: bool,
    stream_tokens: bool = True,
    config: RunnableConfig | None = None,
    show_prompts: bool = False,
    keep_prompts: bool = False,
) -> list[AgentEvent | ModelCall]:
    """Run the agent (a question, or a run to resume), printing the transcript unless quiet.

    With `stream_tokens` the model's reply shows as it is written; the events returned are the
    steps alone (no `ReplyToken`s). With `show_prompts` each model call's exact prompt (its new
    part) is printed as the call starts, and its raw reply whole when it ends. With either that
    or `keep_prompts` (for `--save`), the `ModelCall`s are among the events returned, where
    they happened.
    """
    # Shown prompts: the reply is streamed only so the prompt prints as soon as the call starts.
    streams = (stream_tokens or show_prompts) and not quiet
    printer = ConsolePrinter(
        (lambda line: None) if quiet else None,
        language=lang,
        stream_tokens=stream_tokens and not show_prompts,
        show_prompts=show_prompts,
    )
    log = PromptLog()
    if show_prompts or keep_prompts:
        config = {**(config or {}), "callbacks": [*_callbacks(config), log]}
    events = log.interleave(agent.stream(agent_input, config, stream_tokens=streams))
    shown = show_live(events, printer, spinner=False if quiet else None)
    return [event for event in shown if not isinstance(event, ReplyToken)]


def _callbacks(config: RunnableConfig | None) -> list[Any]:
    """The callback handlers already in `config` (a list; a manager's handlers)."""
    callbacks = (config or {}).get("callbacks") or []
    return list(callbacks if isinstance(callbacks, list) else callbacks.handlers)


def finish(
    events: list[AgentEvent | ModelCall],
    *,
    quiet: bool,
    checkpoint: Path | None,
    workspace: Path | None,
) -> None:
    """End the command as the run ended: print the answer when quiet, then exit with its code."""
    last = events[-1]
    if not isinstance(last, RunFinished):
        raise RuntimeError("The agent stream ended without a result.")
    result = last.result
    if result.stop_reason == "model_error":  # the model failed for good: not a limit
        typer.echo(f"error: {model_failure_message(result.error)}", err=True)
        raise typer.Exit(2)
    if result.stop_reason == "needs_approval" and result.state:
        call = waiting_call(result.state)  # inside a sub-agent, the call it waits on
        where = f" --checkpoint {checkpoint}" if checkpoint else ""
        where += f" --workspace {workspace}" if workspace else ""
        typer.echo(
            f"paused: {call.tool}({input_text(call.tool_input)}) needs your approval; "
            f"continue with: custom-react resume {result.run_id}{where} "
            "--approve | --reject REASON | --edit INPUT",
            err=True,
        )
        raise typer.Exit(PAUSED_EXIT)
    if quiet and not result.error:  # an answer goes to stdout; a stop's message does not
        typer.echo(result.output)
    warn_unchecked(result)
    if result.stop_reason != "final_answer":
        why = f": {result.output}" if result.error else ""
        typer.echo(f"stopped without an answer: {result.stop_reason}{why}", err=True)
        raise typer.Exit(1)


def warn_unchecked(result: AgentResult) -> None:
    """Say so when the answer still fails its checks (the retries ran out: it is returned)."""
    if result.checks_failed:
        typer.echo(f"warning: the answer still fails: {'; '.join(result.checks_failed)}", err=True)


def check_save_suffixes(paths: list[Path]) -> None:
    """Refuse a bad `--save` name, or a place it cannot be written, before the long run."""
    from custom_react.export import SUFFIXES

    for path in paths:
        if path.suffix.lower() not in SUFFIXES:
            message = f"{path.name}: use a .md, .html or .mmd file"
            raise typer.BadParameter(message, param_hint="--save")
        folder = next(parent for parent in path.absolute().parents if parent.exists())
        if not folder.is_dir() or not os.access(folder, os.W_OK):
            message = f"{path}: {folder} is not a folder this user can write in"
            raise typer.BadParameter(message, param_hint="--save")


@contextmanager
def open_model(model: str | None, base_url: str | None) -> Iterator[tuple[BaseChatModel, str]]:
    """Open the chat model the environment selects and yield it with its one-line description.

    Loads ``.env`` (``TAVILY_API_KEY`` and friends may live there), makes ``kill`` stop a local
    server as Ctrl-C does, and announces the model on stderr. A model failure in the block,
    set-up or call, ends the command through ``model_errors``.
    """
    load_dotenv()
    signal.signal(signal.SIGTERM, _interrupt)
    with model_errors():
        settings = ModelSettings.from_env(model=model, base_url=base_url)
        typer.echo(f"model: {describe(settings)}", err=True)
        with open_chat_model(settings) as llm:
            yield llm, describe(settings)


@contextmanager
def model_errors() -> Iterator[None]:
    """Turn model set-up and connection failures into one `error:` line and exit code 2."""
    try:
        yield
    except MODEL_ERRORS as error:
        typer.echo(f"error: {model_error_message(error)}", err=True)
        raise typer.Exit(2) from None


def _interrupt(signum: int, frame: FrameType | None) -> None:
    """Turn SIGTERM into ``KeyboardInterrupt``, so the same clean-up runs."""
    raise KeyboardInterrupt


def ask_approval(name: str, args: dict[str, Any]) -> bool:
    """Ask at the prompt before a tool that needs approval runs (the default, and no input: no)."""
    try:
        return typer.confirm(f"Run {name}({input_text(args)})?", default=False, err=True)
    except typer.Abort:  # stdin closed (a pipe, Ctrl-D): nobody said yes
        return False
