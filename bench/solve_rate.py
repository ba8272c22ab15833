"""Solve rate on the bundled models: ours, the legacy agent and `create_agent`, on one question set.

For each model the local server is started once and every agent answers every question of the
chosen split (`questions/solve_rate.jsonl`: `"split": "tune"`, `"holdout"` or `"holdout2"`; the
held-out questions are measured only at the end, never read while tuning), with the same tools and step
limit, through the one comparison harness (`run_comparison` on `run_cases`): `--concurrency` runs at
a time on a server with `--parallel` slots, `--time-limit` seconds each, every run appended to
`<model>_<split>.jsonl` as it ends, so the same command after a crash runs only what is missing
(a missing results file is first made from the saved report, so after a prompt change only the
runs whose agent and language read another prompt run again).
Writes `bench/results/solve_rate/<model>_<split>.json` (every run, with its transcript) and `.md`
(solved, model calls per solved question, tokens and time, per agent and split), made from the
results file, and prints the table; a variant of ours adds `_no_example`, `_xml` or `_json` to
the names, and in the XML or JSON format its runs are named after the format. What was tried
while tuning, with what it measured and why it did not land:
`bench/results/solve_rate/tuning_log.md`.

    flock /tmp/custom-react-model.lock python bench/solve_rate.py --split tune
    flock /tmp/custom-react-model.lock python bench/solve_rate.py --split holdout
"""

from __future__ import annotations

import argparse
import json
import sys
from functools import partial
from pathlib import Path
from typing import Any

from custom_react import grounded_numbers
from custom_react.compare import DEFAULT_RUNNERS, load_questions, run_comparison
from custom_react.compare.grid import results_store
from custom_react.compare.report import to_json
from custom_react.compare.runners.custom import custom_runner
from custom_react.serving.server import LocalModelServer
from custom_react.serving.weights import ensure_model_file
from tools import default_tools

ROOT = Path(__file__).resolve().parents[1]
MODELS = ("qwen2.5-coder-1.5b", "qwen2.5-coder-0.5b")
AGENTS = ("custom", "legacy", "create_agent")


def _items(path: Path) -> list[dict[str, Any]]:
    """The question file's objects, with the keys `load_questions` does not keep (kind, split)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [
        json.loads(line) for line in lines if line.strip() and not line.lstrip().startswith("#")
    ]


def splits(path: Path) -> dict[str, str]:
    """Question id -> its split, from the question file."""
    return {item["id"]: item.get("split", "tune") for item in _items(path)}


def progress(model: str, record: Any, show_misses: bool) -> None:
    """One line per finished run on stderr; with `show_misses`, a miss's transcript too."""
    print(
        f"{model} {record.agent:<13} {record.question_id:<24} {record.correct} "
        f"calls={record.model_calls}",
        file=sys.stderr,
        flush=True,
    )
    if show_misses and record.correct is False:
        print("    " + "\n    ".join(record.transcript), file=sys.stderr, flush=True)


def summary(data: dict[str, Any], split_of: dict[str, str]) -> list[dict[str, Any]]:
    """One row per agent and split: solved, runs, calls, calls per solved, tokens, time."""
    rows = []
    for agent in data["agents"]:
        for split in sorted({split_of[r["question_id"]] for r in data["records"]}):
            runs = [
                r
                for r in data["records"]
                if r["agent"] == agent and split_of[r["question_id"]] == split
            ]
            solved = sum(r["correct"] is True for r in runs)
            calls = sum(r["model_calls"] for r in runs)
            rows.append(
                {
                    "agent": agent,
                    "split": split,
                    "solved": solved,
                    "runs": len(runs),
                    "model_calls": calls,
                    "calls_per_solved": round(calls / solved, 2) if solved else None,
                    "tokens": sum(r["prompt_tokens"] + r["completion_tokens"] for r in runs),
                    "wall_time": round(sum(r["wall_time"] for r in runs)),
                }
            )
    return rows


def render(model: str, rows: list[dict[str, Any]], command: str) -> str:
    """The Markdown table of one model."""
    lines = [
        f"# Solve rate: {model}",
        "",
        f"Reproduce: `{command}`.",
        "",
        "| agent | split | solved | % | model calls | calls per solved | tokens | time, s |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        share = round(100 * row["solved"] / row["runs"]) if row["runs"] else 0
        per = "–" if row["calls_per_solved"] is None else row["calls_per_solved"]
        lines.append(
            f"| {row['agent']} | {row['split']} | {row['solved']}/{row['runs']} | {share} | "
            f"{row['model_calls']} | {per} | {row['tokens']} | {row['wall_time']} |"
        )
    return "\n".join(lines) + "\n"


def results_name(stem: str, args: argparse.Namespace) -> str:
    """The name of a run's files: one per model, split and variant of our agent (they differ)."""
    variant = ("_no_example" if args.no_example else "") + (
        f"_{args.format}" if args.format != "text" else ""
    )
    return f"{stem}{variant}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=Path, default=ROOT / "questions" / "solve_rate.jsonl")
    parser.add_argument("--split", choices=("tune", "holdout", "holdout2", "all"), default="tune")
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--agents", default=",".join(AGENTS))
    parser.add_argument("--kinds", help="only these kinds, comma-separated (while tuning)")
    parser.add_argument("--show-misses", action="store_true", help="print each miss's transcript")
    parser.add_argument(
        "--no-example",
        action="store_true",
        help="our agent without its few-shot example (on by default, as in the agent)",
    )
    parser.add_argument(
        "--format",
        choices=("text", "xml", "json"),
        default="text",
        help="how our agent's model writes a step (the agent's default: text)",
    )
    parser.add_argument(
        "--answer-checks",
        action="store_true",
        help="our agent with final_answer_checks=[grounded_numbers] (off by default, as in the agent)",
    )
    parser.add_argument("--max-iterations", type=int, default=8)
    parser.add_argument("--threads", type=int)
    parser.add_argument("--parallel", type=int, default=1, help="slots of the local server")
    parser.add_argument("--concurrency", type=int, help="runs at a time (default: the slots)")
    parser.add_argument("--time-limit", type=float, help="seconds one run may take")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "solve_rate")
    args = parser.parse_args()
    items = {item["id"]: item for item in _items(args.questions)}  # read once: kind and split
    split_of = {id_: item.get("split", "tune") for id_, item in items.items()}
    chosen_kinds = args.kinds.split(",") if args.kinds else None
    questions = [
        q
        for q in load_questions(args.questions)
        if args.split in ("all", split_of[q.id])
        and (chosen_kinds is None or items[q.id].get("kind") in chosen_kinds)
    ]
    args.out.mkdir(parents=True, exist_ok=True)
    command = "flock /tmp/custom-react-model.lock python bench/solve_rate.py " + " ".join(
        sys.argv[1:]
    )
    # Our agent as a user gets it (the few-shot example on), or without the example if asked.
    # In the XML or JSON format it is named after the format: its runs read that format's prompt
    # (`agent_fingerprint`), so a change to that prompt makes them stale, not the text format's.
    ours = "custom" if args.format == "text" else args.format
    agents = [ours if name == "custom" else name for name in args.agents.split(",")]
    runners = {
        **DEFAULT_RUNNERS,
        ours: partial(
            custom_runner,
            examples=not args.no_example,
            format=args.format,
            final_answer_checks=[grounded_numbers] if args.answer_checks else [],
        ),
    }
    for model in args.models.split(","):
        stem = f"{model}_{args.split}" + ("_checks" if args.answer_checks else "")
        path = ensure_model_file(model)
        name = results_name(stem, args)
        with LocalModelServer(path, n_threads=args.threads, parallel=args.parallel) as server:
            report = run_comparison(
                questions,
                server.chat_model(),
                default_tools,
                agents=agents,
                max_iterations=args.max_iterations,
                model_name=model,
                runners=runners,
                on_record=lambda r, model=model: progress(model, r, args.show_misses),
                store=results_store(args.out / f"{name}.jsonl", args.out / f"{name}.json"),
                concurrency=args.concurrency or args.parallel,
                time_limit=args.time_limit,
            )
        data = json.loads(to_json(report))
        (args.out / f"{name}.json").write_text(
            json.dumps(data, ensure_ascii=False, indent=1) + "\n"
        )
        table = render(model, summary(data, split_of), command)
        (args.out / f"{name}.md").write_text(table, encoding="utf-8")
        print(table)


if __name__ == "__main__":
    main()
