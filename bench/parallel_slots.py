"""Cases a minute on the bundled model at 1, 2 and 4 server slots, side by side in one run.

For each slot count the bundled server is started with `--parallel N` (llama.cpp's continuous
batching: the N requests in flight are decoded together, each slot with its own full context
window) and our agent answers the same cases through the harness (`run_comparison`) with its
concurrency matched to the slots, after one warm-up question per slot (timed apart: it fills the
slot's prompt cache with the system prompt every case shares). Cases a minute = cases / wall time
of the run (the server start and the warm-up not counted). The table says which slot count `custom-react compare` uses by default
(`custom_react/cli/compare.py`, `DEFAULT_SLOTS`). Writes `bench/results/parallel_slots.{json,md}`.

    flock /tmp/custom-react-model.lock python bench/parallel_slots.py
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from datetime import date
from pathlib import Path
from typing import Any

from custom_react.compare import load_questions, run_comparison
from custom_react.compare.runners.custom import question_language
from custom_react.compare.runners.fingerprint import (
    agent_fingerprints,
    fingerprint_with,
    shown_fingerprints,
)
from custom_react.compare.store import ResultsStore
from custom_react.serving.server import LocalModelServer
from custom_react.serving.weights import ensure_model_file
from tools import default_tools

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "results" / "parallel_slots"


def measure(
    model: str, slots: int, questions: list[Any], warm_up: list[Any], threads: int | None
) -> dict[str, Any]:
    """Serve the model with `slots` slots; warm each slot up; run the cases `slots` at a time.

    The warm-up (one other question per slot, timed apart) fills each slot's prompt cache with
    the system prompt, which every case shares: a slot reads it once, in about a minute on this
    CPU, and a long comparison pays that once per slot, not once per case.
    """
    with LocalModelServer(ensure_model_file(model), parallel=slots, n_threads=threads) as server:
        started = time.perf_counter()
        run_comparison(
            warm_up[:slots],
            server.chat_model(),
            default_tools,
            agents=("custom",),
            probe_tool_calling=False,
            concurrency=slots,
        )
        warm = time.perf_counter() - started
        started = time.perf_counter()
        report = run_comparison(
            questions,
            server.chat_model(),
            default_tools,
            agents=("custom",),
            model_name=f"{model} ({slots} slots)",
            probe_tool_calling=False,
            store=ResultsStore.in_memory(),
            concurrency=slots,
        )
        wall = time.perf_counter() - started
    records = report.records
    print(f"{slots} slots: {len(records)} cases in {wall:.1f} s", file=sys.stderr, flush=True)
    return {
        "slots": slots,
        "warm_up_time": round(warm, 1),
        "concurrency": slots,
        "cases": len(records),
        "solved": sum(record.correct is True for record in records),
        "errors": sum(record.error is not None for record in records),
        "model_calls": sum(record.model_calls for record in records),
        "wall_time": round(wall, 1),
        "cases_per_minute": round(60 * len(records) / wall, 2),
        "seconds_per_call": round(
            sum(r.wall_time for r in records) / max(1, sum(r.model_calls for r in records)), 2
        ),
    }


def render(data: dict[str, Any]) -> str:
    base = data["rows"][0]["cases_per_minute"]
    lines = [
        "# Server slots on the bundled model: cases a minute",
        "",
        f"Model: {data['model']}, our agent, {data['rows'][0]['cases']} cases "
        f"(`{data['questions']}`), concurrency = slots. Machine: {data['cpus']} cores. "
        f"Date: {data['date']}. Prompt: {shown_fingerprints(data['prompt_fingerprints'])}.",
        f"Reproduce: `{data['command']}`.",
        "",
        "| slots | warm-up, s | cases | solved | model calls | wall time, s | cases/min | × 1 slot "
        "| s per call (in a run) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in data["rows"]:
        lines.append(
            f"| {row['slots']} | {row['warm_up_time']} | {row['cases']} | {row['solved']} | {row['model_calls']} | "
            f"{row['wall_time']} | {row['cases_per_minute']} | "
            f"{row['cases_per_minute'] / base:.2f} | {row['seconds_per_call']} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--questions", type=Path, default=ROOT / "questions" / "solve_rate.jsonl")
    parser.add_argument("--cases", type=int, default=8, help="the first N questions of the file")
    parser.add_argument("--slots", default="1,2,4")
    parser.add_argument("--threads", type=int, help="generation threads (default: the server's)")
    args = parser.parse_args()
    every = load_questions(args.questions)
    questions, warm_up = every[: args.cases], every[args.cases :]
    slots = [int(n) for n in args.slots.split(",")]
    rows = [measure(args.model, n, questions, warm_up, args.threads) for n in slots]
    # What our agent read: the cases' prompts, and the warm-up's (its time is in the table too).
    asked = [*questions, *warm_up[: max(slots)]]
    read = [("custom", question_language(question.question)) for question in asked]
    data = {
        "model": args.model,
        "questions": str(args.questions.resolve().relative_to(ROOT)),
        "cpus": os.cpu_count(),
        "date": date.today().isoformat(),
        "prompt_fingerprints": agent_fingerprints(read, fingerprint_with(default_tools())),
        "command": " ".join(
            ["flock /tmp/custom-react-model.lock python bench/parallel_slots.py", *sys.argv[1:]]
        ),
        "rows": rows,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.with_suffix(".json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    OUT.with_suffix(".md").write_text(render(data), encoding="utf-8")
    print(render(data))


if __name__ == "__main__":
    main()
