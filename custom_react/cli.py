"""The `custom-react` command: ask the agent a question and watch the ReAct loop work.

`custom-react ask "What is 12.5% of 2480?"` picks a model from the environment (OpenAI, DeepSeek,
any OpenAI-compatible URL, or the bundled local model on a loopback server when no key is set),
runs `CustomReActAgent` with the default tools (and those of any `--mcp-server "python server.py"`,
through `custom_react.mcp`), and prints the live transcript and the answer.
Exit code 0 means the agent answered; 1 means it stopped on a limit; 2 means the model could not
be set up or failed for good (the message says what to do). Model selection lives in `custom_react.serving.models`,
tools in the top-level `tools` package.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Annotated

import typer
from dotenv import load_dotenv
from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool

from custom_react.agent import CustomReActAgent
from custom_react.events import AgentEvent, RunFinished
from custom_react.printing import ConsolePrinter, show_live
from custom_react.serving.errors import MODEL_ERRORS, model_error_message, model_failure_message
from custom_react.serving.models import ModelSettings, describe, open_chat_model

if TYPE_CHECKING:
    from custom_react.compare import RunRecord

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__.splitlines()[0])


@app.callback()
def main() -> None:
    """A readable ReAct agent: ask it a question and watch it think, act and observe."""


Lang = Annotated[str, typer.Option("--lang", help="Prompt and label language: en or zh.")]
Model = Annotated[str | None, typer.Option(help="Model name, bundled local model or GGUF path.")]
BaseUrl = Annotated[
    str | None, typer.Option(help="Any OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1")
]
MaxIterations = Annotated[int, typer.Option(help="Most model calls before stopping.")]
Quiet = Annotated[bool, typer.Option("--quiet", help="Print only the final answer.")]
Save = Annotated[
    list[Path] | None,
    typer.Option("--save", help="Also save the run: .md, .html or .mmd (repeatable)."),
]
Questions = Annotated[Path, typer.Option(help="JSONL: one {id, question, expected} a line.")]
Agents = Annotated[str, typer.Option(help="Comma-separated: custom,legacy,create_agent.")]
Out = Annotated[Path, typer.Option(help="Folder for compare.json, .md and transcripts.")]
McpServers = Annotated[
    list[str] | None,
    typer.Option("--mcp-server", help='Also the tools of a stdio MCP server: "python s.py".'),
]


@app.command()
def ask(
    question: Annotated[str, typer.Argument(help="The question to answer.")],
    lang: Lang = "en",
    model: Model = None,
    base_url: BaseUrl = None,
    max_iterations: MaxIterations = 8,
    quiet: Quiet = False,
    save: Save = None,
    mcp_server: McpServers = None,
) -> None:
    """Answer QUESTION with the ReAct loop, printing each Thought / Action / Observation."""
    from custom_react.export import save_transcript

    _check_save_suffixes(save or [])
    tools = _load_tools(mcp_server or [])
    with _open_model(model, base_url) as (llm, _):
        agent = CustomReActAgent(
            llm, tools, max_iterations=max_iterations, language=lang, examples=True
        )
        events = _answer(agent, question, lang=lang, quiet=quiet)
    last = events[-1]
    if not isinstance(last, RunFinished):
        raise RuntimeError("The agent stream ended without a result.")
    if last.result.stop_reason == "model_error":  # the model failed for good: not a limit
        typer.echo(f"error: {model_failure_message(last.result.error)}", err=True)
        raise typer.Exit(2)
    for path in save or []:
        typer.echo(f"saved: {save_transcript(path, question, events, language=lang)}", err=True)
    if quiet:
        typer.echo(last.result.output)
    if last.result.stop_reason != "final_answer":
        typer.echo(f"stopped without an answer: {last.result.stop_reason}", err=True)
        raise typer.Exit(1)


def _load_tools(mcp_servers: list[str]) -> list[BaseTool]:
    """The default tools, then the tools of each MCP server; a server that fails ends the command."""
    from tools import default_tools  # imported here so `--help` stays fast

    if not mcp_servers:
        return default_tools()
    from custom_react.mcp import MCPServerError, load_mcp_tools

    try:
        return default_tools() + [tool for line in mcp_servers for tool in load_mcp_tools(line)]
    except (ImportError, MCPServerError, ValueError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None


def _answer(agent: CustomReActAgent, question: str, *, lang: str, quiet: bool) -> list[AgentEvent]:
    """Run the agent, printing the live transcript unless quiet."""
    printer = ConsolePrinter((lambda line: None) if quiet else None, language=lang)
    return list(show_live(agent.stream(question), printer, spinner=False if quiet else None))


def _check_save_suffixes(paths: list[Path]) -> None:
    """Refuse a bad `--save` name before the long run, not after it."""
    from custom_react.export import SUFFIXES

    for path in paths:
        if path.suffix.lower() not in SUFFIXES:
            message = f"{path.name}: use a .md, .html or .mmd file"
            raise typer.BadParameter(message, param_hint="--save")


@app.command()
def compare(
    questions: Questions = Path("questions/default.jsonl"),
    agents: Agents = "custom,legacy,create_agent",
    out: Out = Path("runs/compare"),
    model: Model = None,
    base_url: BaseUrl = None,
    max_iterations: MaxIterations = 8,
) -> None:
    """Run our agent, the legacy AgentExecutor and create_agent on the same questions and model."""
    from custom_react.compare import load_questions, render_table, run_comparison, save_comparison
    from tools import default_tools

    with _open_model(model, base_url) as (llm, model_name):
        report = run_comparison(
            load_questions(questions),
            llm,
            default_tools,
            tuple(agents.split(",")),
            max_iterations=max_iterations,
            model_name=model_name,
            on_record=_show_progress,
        )
    save_comparison(report, out, [question.id for question in load_questions(questions)])
    typer.echo(render_table(report))
    typer.echo(f"saved: {out}/compare.json, compare.md, transcripts.txt", err=True)


def _show_progress(record: RunRecord) -> None:
    """Name each finished run on stderr, so a long comparison shows it is moving."""
    typer.echo(f"  {record.agent}: {record.question_id}", err=True)


@contextmanager
def _open_model(model: str | None, base_url: str | None) -> Iterator[tuple[BaseChatModel, str]]:
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


if __name__ == "__main__":
    app()
