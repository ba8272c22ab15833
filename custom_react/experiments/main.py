"""The command line of an experiment script: pick the model, run, print progress, save.

`main(experiment)` is what each script in `bench/experiments/` calls. The model is the one the
environment selects (`custom_react.serving.models.ModelSettings.from_env`: the bundled local model
unless a hosted or OpenAI-compatible one is configured), or `--model` / `--base-url`; the bundled
model is served on loopback for the run, with `--threads` threads and `--parallel` slots. Every
run goes through the one harness: `--concurrency` runs at a time (default: the slots),
`--time-limit` seconds each, each result appended to `--results` (JSONL, default
`<out>/<name>.jsonl`) as it ends, so the same command after a crash runs only what is missing.
A missing results file is first made from the saved report (`<out>/<name>.json`), so on a fresh
clone, after a prompt change, only the runs that read the changed prompt run again; when no run
is left, no model is started.
`--render` only rebuilds the report and chart from the saved results, scoring the saved answers
against the question file.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from langchain_core.language_models import BaseChatModel

from custom_react.compare import (
    ResultsStore,
    RunRecord,
    load_questions,
    missing,
    plan_jobs,
    results_store,
)
from custom_react.compare.runners.fingerprint import fingerprint_with
from custom_react.experiments.report import Experiment
from custom_react.experiments.run import rerender, run_experiment
from custom_react.serving.models import ModelSettings, describe, open_chat_model
from custom_react.serving.server import LocalModelServer
from custom_react.serving.weights import ensure_model_file
from tools import default_tools

MODEL_LOCK = "/tmp/custom-react-model.lock"
"""The lock every local-model job on a small machine takes, one at a time (`flock`)."""


def main(experiment: Experiment, argv: Sequence[str] | None = None) -> None:
    """Run `experiment` from the command line (see the module docstring for the options)."""
    parser = argparse.ArgumentParser(description=experiment.title)
    parser.add_argument("--model", help="a bundled model name, a GGUF path or a hosted model")
    parser.add_argument("--base-url", help="any OpenAI-compatible server")
    parser.add_argument("--threads", type=int, help="threads of the local server")
    parser.add_argument("--parallel", type=int, default=1, help="slots of the local server")
    parser.add_argument("--concurrency", type=int, help="runs at a time (default: the slots)")
    parser.add_argument("--time-limit", type=float, help="seconds one run may take")
    parser.add_argument("--results", type=Path, help="JSONL of finished runs (resumes)")
    parser.add_argument("--out", type=Path, default=Path("bench/results/experiments"))
    parser.add_argument("--render", action="store_true", help="only rebuild the report and chart")
    args = parser.parse_args(argv)
    if args.render:
        rerender(args.out / f"{experiment.name}.json", experiment.questions)
        return
    script = Path(sys.argv[0]).resolve()
    shown = script.relative_to(Path.cwd()) if script.is_relative_to(Path.cwd()) else script
    options = shlex.join(argv if argv is not None else sys.argv[1:])
    command = f"flock {MODEL_LOCK} python {shown} {options}".strip()
    settings = ModelSettings.from_env(model=args.model, base_url=args.base_url)
    results = args.results or args.out / f"{experiment.name}.jsonl"
    store = results_store(results, args.out / f"{experiment.name}.json")
    done = all_done(experiment, describe(settings), store)
    with _chat_model(settings, args.threads, args.parallel, done) as llm:
        data = run_experiment(
            experiment,
            llm,
            default_tools,
            model_name=describe(settings),
            command=command,
            out=args.out,
            on_record=_progress,
            store=store,
            concurrency=args.concurrency or args.parallel,
            time_limit=args.time_limit,
        )
    sys.stdout.write((args.out / f"{data['name']}.md").read_text(encoding="utf-8"))


def all_done(experiment: Experiment, model_name: str, store: ResultsStore) -> bool:
    """Whether every run of `experiment` on the model is in `store` (then no model is needed)."""
    jobs = plan_jobs(
        load_questions(experiment.questions), list(experiment.conditions), [model_name]
    )
    return not missing(jobs, store, fingerprint_with(default_tools()))


@contextmanager
def _chat_model(
    settings: ModelSettings, threads: int | None, parallel: int, done: bool = False
) -> Iterator[BaseChatModel | list[BaseChatModel]]:
    """The chat model for `settings`; the bundled one served with `threads` threads, slots.

    None is started when every run is `done` already: the report is only made again.
    """
    if done:
        sys.stderr.write("every run is in the results file already: no model is started\n")
        yield []
        return
    if settings.provider != "local":
        with open_chat_model(settings) as llm:
            yield llm
        return
    path = ensure_model_file(settings.model)
    with LocalModelServer(path, n_threads=threads, parallel=parallel) as server:
        yield server.chat_model(temperature=settings.temperature)


def _progress(record: RunRecord) -> None:
    """One line per finished run, on stderr."""
    answer = " ".join(record.answer.split())[:70]
    mark = {True: "solved", False: "missed", None: "-"}[record.correct]
    sys.stderr.write(
        f"{record.agent:<34} {record.question_id:<18} {mark} calls={record.model_calls} "
        f"{record.wall_time:.0f}s {answer!r}\n"
    )
    sys.stderr.flush()
