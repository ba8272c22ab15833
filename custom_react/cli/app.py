"""The `custom-react` command: ask the agent a question and watch the ReAct loop work.

`custom-react ask "What is 12.5% of 2480?"` picks a model from the environment (OpenAI, DeepSeek,
any OpenAI-compatible URL, or the bundled local model on a loopback server when no key is set),
runs `CustomReActAgent` with the default tools (and those of any `--mcp-server "python server.py"`,
through `custom_react.integrations.mcp`), and prints the live transcript and the answer, the model's reply as it
is written (`--no-stream`: each step whole, after a spinner). An answer holding a number that neither
the question nor any Observation gave (worked out in the head) goes back to the model, at most
twice (`grounded_numbers`): the command's runs compute with a tool what the library leaves to you.
With `--checkpoint runs.db` every step is stored and a tool that needs approval pauses the run:
`custom-react runs` lists the stored runs, `custom-react resume RUN_ID --approve` (or `--reject
REASON`, `--edit INPUT`) continues one, as does a bare `resume` after a crash. `custom-react
compare` runs the agents side by side (`cli/compare.py`). Exit codes (see
`cli/support.py`): 0 answered, 1 stopped on a limit, 2 model or set-up failure, 3 paused. Model
selection lives in `custom_react.serving.models`, tools in the top-level `tools` package.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool

from custom_react.agent import CustomReActAgent
from custom_react.answering import grounded_numbers
from custom_react.cli.compare import compare
from custom_react.cli.options import (
    BaseUrl,
    Checkpoint,
    Lang,
    MaxIterations,
    McpServers,
    Model,
    NoStream,
    Quiet,
    Save,
    ShowPrompts,
    StoredRuns,
    System,
    WorkspaceOption,
)
from custom_react.cli.support import (
    answer,
    ask_approval,
    check_save_suffixes,
    finish,
    load_tools,
    open_model,
)
from custom_react.pausing.checkpoints import CheckpointError, SQLiteStore
from custom_react.pausing.store import RunStore
from custom_react.running.inputs import read_input

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__.splitlines()[0])


@app.callback()
def main() -> None:
    """A readable ReAct agent: ask it a question and watch it think, act and observe."""


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
    checkpoint: Checkpoint = None,
    workspace: WorkspaceOption = None,
    no_stream: NoStream = False,
    system: System = "",
    show_prompts: ShowPrompts = False,
) -> None:
    """Answer QUESTION with the ReAct loop, printing each Thought / Action / Observation."""
    from custom_react.export import save_transcript

    try:
        read_input(question)  # the agent's own check of its input, before the model starts
    except ValueError:
        raise typer.BadParameter(
            "the question is empty: ask something", param_hint="QUESTION"
        ) from None
    check_save_suffixes(save or [])
    tools = load_tools(mcp_server or [], workspace)
    with open_model(model, base_url) as (llm, _):
        store = SQLiteStore(checkpoint) if checkpoint else None
        agent = _agent(llm, tools, lang, max_iterations, store, system, waits=store is not None)
        events = answer(
            agent,
            question,
            lang=lang,
            quiet=quiet,
            stream_tokens=not no_stream,
            show_prompts=show_prompts,
            keep_prompts=bool(save),  # a saved transcript holds every prompt and raw reply
        )
    for path in save or []:
        typer.echo(f"saved: {save_transcript(path, question, events, language=lang)}", err=True)
    finish(events, quiet=quiet, checkpoint=checkpoint, workspace=workspace)


def _agent(
    llm: BaseChatModel,
    tools: list[BaseTool],
    lang: str,
    max_iterations: int,
    store: RunStore | None,
    system: str = "",
    *,
    waits: bool = False,
) -> CustomReActAgent:
    """The CLI's agent; with a store every step is kept, and with `waits` approvals wait in it.

    Otherwise a tool that needs approval asks at the prompt (`ask_approval`). Its answers are
    checked (`grounded_numbers`): a number computed in the model's head goes back.
    """
    return CustomReActAgent(
        llm,
        tools,
        max_iterations=max_iterations,
        language=lang,
        examples=True,
        final_answer_checks=[grounded_numbers],
        system_prompt=system,
        checkpoint=store,
        approval="interrupt" if waits else "callback",
        approve=None if waits else ask_approval,
    )


@app.command()
def chat(
    checkpoint: Checkpoint = None,
    thread: Annotated[
        str, typer.Option(help="The conversation to go on with (new if unknown).")
    ] = "chat",
    lang: Lang = "en",
    model: Model = None,
    base_url: BaseUrl = None,
    max_iterations: MaxIterations = 8,
    quiet: Quiet = False,
    mcp_server: McpServers = None,
    workspace: WorkspaceOption = None,
    no_stream: NoStream = False,
    system: System = "",
) -> None:
    """Talk with the agent: each question sees the thread's earlier questions and answers."""
    from custom_react.cli.chat import converse
    from custom_react.pausing.store import MemoryStore

    tools = load_tools(mcp_server or [], workspace)
    store = SQLiteStore(checkpoint) if checkpoint else MemoryStore()
    with open_model(model, base_url) as (llm, _):
        agent = _agent(llm, tools, lang, max_iterations, store, system)  # approvals ask here
        converse(agent, thread, lang=lang, quiet=quiet, stream_tokens=not no_stream)


def _open_store(checkpoint: Path, run_id: str | None = None) -> SQLiteStore:
    """The store in `checkpoint` (holding `run_id`), or exit 2 naming what is wrong with it."""
    try:
        store = SQLiteStore(checkpoint)
        if run_id is not None:
            store.load(run_id)
    except CheckpointError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    return store


@app.command()
def runs(checkpoint: StoredRuns) -> None:
    """List the runs stored in a checkpoint file: id, steps, how each ended, question."""
    for run in _open_store(checkpoint).runs():
        ended = run.stop_reason or "(not finished)"
        typer.echo(f"{run.run_id}  {run.steps:>3} steps  {ended:<16} {run.question}")


@app.command()
def resume(
    run_id: Annotated[str, typer.Argument(help="The run to continue (see `custom-react runs`).")],
    checkpoint: StoredRuns,
    approve: Annotated[bool, typer.Option("--approve", help="Run the waiting call.")] = False,
    reject: Annotated[str | None, typer.Option(help="Do not run it; the reason.")] = None,
    edit: Annotated[str | None, typer.Option(help="Run it with this input instead.")] = None,
    lang: Lang = "en",
    model: Model = None,
    base_url: BaseUrl = None,
    max_iterations: MaxIterations = 8,
    quiet: Quiet = False,
    mcp_server: McpServers = None,
    workspace: WorkspaceOption = None,
    no_stream: NoStream = False,
    system: System = "",
) -> None:
    """Continue a stored run: paused for approval (give a decision) or cut short by a crash."""
    decisions: list[dict[str, Any]] = []
    if approve:
        decisions.append({"approve": True})
    if reject is not None:
        decisions.append({"reject": reject})
    if edit is not None:
        decisions.append({"edit": edit})
    if len(decisions) > 1:
        raise typer.BadParameter("give one of --approve, --reject and --edit")
    store = _open_store(checkpoint, run_id)  # before the model starts: is the run there?
    tools = load_tools(mcp_server or [], workspace)
    with open_model(model, base_url) as (llm, _):
        agent = _agent(llm, tools, lang, max_iterations, store, system, waits=True)
        agent_input = {"resume": run_id, "decision": decisions[0] if decisions else None}
        try:
            events = answer(agent, agent_input, lang=lang, quiet=quiet, stream_tokens=not no_stream)
        except (ValueError, CheckpointError) as error:
            typer.echo(f"error: {error}", err=True)
            raise typer.Exit(2) from None
    finish(events, quiet=quiet, checkpoint=checkpoint, workspace=workspace)


app.command()(compare)


@app.command()
def ui(
    scripted: Annotated[
        bool, typer.Option("--scripted", help="Offline: a scripted model plays each reply.")
    ] = False,
    port: Annotated[int, typer.Option(help="The port on 127.0.0.1.")] = 8765,
    lang: Lang = "en",
    model: Model = None,
    base_url: BaseUrl = None,
    max_iterations: MaxIterations = 8,
    workspace: WorkspaceOption = None,
) -> None:
    """Open a local web page to watch each prompt, pause before each model call and fork runs."""
    import tempfile

    from custom_react.ui import Session, make_app, scripted_session, serve
    from custom_react.ui.app import HOST, listen, model_answers

    try:
        server = listen(port)  # first: a taken port is said before a model starts
    except OSError as error:
        typer.echo(
            f"error: cannot listen on {HOST}:{port} ({error.strerror}); give another --port",
            err=True,
        )
        raise typer.Exit(2) from None
    typer.echo(
        f"custom-react ui: http://{HOST}:{server.getsockname()[1]}/  (Ctrl-C stops it)", err=True
    )
    if scripted:
        with tempfile.TemporaryDirectory() as folder:
            session = scripted_session(lang, Path(folder), max_iterations)
            serve(make_app(session, scripted=True), server)
        return
    tools = load_tools([], workspace)
    with open_model(model, base_url) as (llm, described):
        session = Session(model_answers(llm), tools, lang, max_iterations, model=llm)
        serve(make_app(session, model=described), server)


if __name__ == "__main__":
    app()
