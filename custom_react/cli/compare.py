"""`custom-react compare`: the agents side by side on one question file, at any scale.

Every (question, agent) run goes through the one harness (`custom_react.compare.run_cases`):
`--concurrency N` runs at a time, `--time-limit S` for each, every result appended to
`--results` (JSONL) as it finishes, so running the same command again after a crash or Ctrl-C
runs only what is missing; a progress bar on stderr; the tables made from the results. The model
is the one the environment selects; the bundled one is served with `--parallel N` slots (and the
concurrency follows them); `--base-url` given several times spreads the runs over several
servers of the same model; `--ray [ADDRESS]` runs them as Ray tasks (`custom_react.compare.on_ray`,
the `scale` extra), on those servers or on a bundled server started on each Ray node.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from langchain_core.language_models import BaseChatModel

from custom_react.cli.support import model_errors

if TYPE_CHECKING:
    from custom_react.compare import ComparisonReport, Question

DEFAULT_SLOTS = 2
"""The bundled server's slots for a comparison, chosen from `bench/results/parallel_slots.md`."""

Questions = Annotated[
    Path,
    typer.Option(help="JSONL: one {id, question, expected} a line.", exists=True, dir_okay=False),
]


def _agent_names(agents: str) -> str:
    """`--agents`, checked as it is read: before any model server starts."""
    from custom_react.compare.harness import AGENTS

    if unknown := [name for name in agents.split(",") if name not in AGENTS]:
        raise typer.BadParameter(f"no agent {', '.join(unknown)}: choose from {', '.join(AGENTS)}")
    return agents


Agents = Annotated[
    str,
    typer.Option(help="Comma-separated agent names (default: all four).", callback=_agent_names),
]
Out = Annotated[Path, typer.Option(help="Folder for compare.json, .md and transcripts.")]
Model = Annotated[str | None, typer.Option(help="Model name, bundled local model or GGUF path.")]
BaseUrls = Annotated[
    list[str] | None,
    typer.Option("--base-url", help="An OpenAI-compatible server; repeat for several."),
]
Results = Annotated[
    Path | None, typer.Option(help="JSONL of finished runs (default: OUT/results.jsonl).")
]
Concurrency = Annotated[
    int | None, typer.Option(help="Runs at a time (default: the servers' slots).", min=1)
]
Parallel = Annotated[
    int, typer.Option(help="Slots of each server (the bundled one is started with them).", min=1)
]
TimeLimit = Annotated[float | None, typer.Option(help="Seconds one run may take.")]
Ray = Annotated[
    str | None,
    typer.Option(help="Run on Ray: 'local' starts one here, else a cluster's address ('auto')."),
]


def compare(
    questions: Questions = Path("questions/default.jsonl"),
    agents: Agents = "custom,legacy,create_agent,create_agent_text",
    out: Out = Path("runs/compare"),
    model: Model = None,
    base_url: BaseUrls = None,
    max_iterations: Annotated[int, typer.Option(help="Most model calls before stopping.")] = 8,
    results: Results = None,
    concurrency: Concurrency = None,
    parallel: Parallel = DEFAULT_SLOTS,
    time_limit: TimeLimit = None,
    ray: Ray = None,
    rerun_errors: Annotated[bool, typer.Option(help="Run crashed runs again.")] = False,
) -> None:
    """Run our agent, the legacy AgentExecutor, create_agent and create_agent with text ReAct."""
    from custom_react.compare import load_questions, render_table, results_store, save_comparison

    cases = load_questions(questions)
    # A fresh clone has the saved report (compare.json) only: its runs are not run again.
    store = results_store(results or out / "results.jsonl", out / "compare.json")
    options = {
        "store": store,
        "concurrency": concurrency,
        "time_limit": time_limit,
        "max_iterations": max_iterations,
        "rerun_errors": rerun_errors,
    }
    where = (model, base_url or [], parallel)
    if ray is not None:
        report = _on_ray(ray, cases, agents.split(","), where, options)
    else:
        report = _here(cases, agents.split(","), where, options)
    report.settings.update(questions=str(questions), command=f"custom-react compare --out {out}")
    save_comparison(report, out, [case.id for case in cases])
    typer.echo(render_table(report))
    typer.echo(f"saved: {out}/compare.json, compare.md, transcripts.txt; {store.path}", err=True)


Where = tuple[str | None, list[str], int]
"""The model, the servers' base URLs (none: the environment's model) and each server's slots."""


def _here(
    cases: Sequence[Question], agents: list[str], where: Where, options: dict[str, Any]
) -> ComparisonReport:
    """Run the comparison in this process, on the servers, with a progress bar."""
    from custom_react.compare import ProgressBar, missing, plan_jobs, run_comparison
    from custom_react.compare.runners.fingerprint import fingerprint_with
    from tools import default_tools

    def all_done(model_name: str) -> bool:  # then no server needs to start
        jobs = plan_jobs(cases, agents, [model_name])
        fingerprint = fingerprint_with(default_tools())
        return not missing(
            jobs, options["store"], fingerprint, rerun_errors=options["rerun_errors"]
        )

    with _servers(*where, all_done) as (servers, model_name, slots), ProgressBar() as bar:
        return run_comparison(
            cases,
            servers,
            default_tools,
            agents,
            model_name=model_name,
            watcher=bar,
            **{**options, "concurrency": options["concurrency"] or slots},
        )


def _on_ray(
    address: str,
    cases: Sequence[Question],
    agents: list[str],
    where: Where,
    options: dict[str, Any],
) -> ComparisonReport:
    """Run the comparison on a Ray cluster (`custom_react.compare.on_ray`), with a progress bar."""
    from custom_react.compare import ProgressBar
    from custom_react.compare.on_ray import compare_on_ray, sources_for

    with model_errors():
        sources = sources_for(*where)
    with ProgressBar() as bar:
        return compare_on_ray(cases, agents, sources, address=address, watcher=bar, **options)


@contextmanager
def _servers(
    model: str | None, base_urls: Sequence[str], parallel: int, done: Callable[[str], bool]
) -> Iterator[tuple[list[BaseChatModel], str, int]]:
    """Open the model: (one chat model per server, the model's name, the slots in all).

    With base URLs, one client each; otherwise the model the environment selects (the bundled
    one served with `parallel` slots). None when `done(model name)` says every run of the model
    is in the results file already. Set-up and connection failures end the command (exit 2).
    """
    from custom_react.serving.models import ModelSettings, describe, open_chat_model

    with model_errors(), ExitStack() as stack:
        settings = [ModelSettings.from_env(model=model, base_url=url) for url in base_urls]
        settings = settings or [ModelSettings.from_env(model=model)]
        if done(settings[0].model):
            typer.echo("every run is in the results file already: no model is started", err=True)
            yield [], settings[0].model, parallel
            return
        for each in settings:
            typer.echo(f"model: {describe(each)}, {parallel} slots", err=True)
        servers = [stack.enter_context(open_chat_model(s, parallel=parallel)) for s in settings]
        yield servers, settings[0].model, parallel * len(servers)
