"""Throughput of the harness: a 200 ms model, 400 cases, at concurrency 1, 8 and 32, and on Ray.

Our agent answers 400 arithmetic cases on `SimulatedModel` (a text-ReAct model that takes 200 ms a
reply, as a server would: the thread waits without using a core; two replies a case), through
`run_cases` with a results file, at concurrency 1, 8 and 32 in this process, then on a local Ray
cluster with two workers (`run_cases_on_ray`, two `Simulated` sources of 16 slots each: 32 at
once in two processes; then 64 each). Concurrency 128 and 400 (all at once) show where one process bends. Each row: wall time, cases a second, the ratio to concurrency 1, and the
CPU time this process used per case. Then the harness's own cost per case, without the model's
wait: the same cases at 0 ms with our agent (agent + harness), and with a runner that does
nothing (the harness alone: planning, batching, the results file's fsync). Writes
`bench/results/scale_throughput.{json,md}`. Needs no model server; the Ray row needs the `scale`
extra.

    python bench/scale_throughput.py
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from custom_react.compare import ResultsStore, SimulatedModel, arithmetic_cases, run_cases
from custom_react.compare.runners import RunOutcome, custom_runner
from tools import calculator

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "results" / "scale_throughput"


def calculator_only() -> list[Any]:
    return [calculator]


def idle_runner(llm: Any, tools: list[Any], max_iterations: int) -> Callable[..., RunOutcome]:
    """A runner that answers at once without a model: the harness's own cost, alone."""
    return lambda question, config: RunOutcome("0", 1, "final_answer")


def timed(label: str, run: Callable[[Path], list[Any]], cases: int) -> dict[str, Any]:
    """Run once with a fresh results file; wall time, CPU time of this process, all solved?"""
    with tempfile.TemporaryDirectory() as folder:
        cpu, started = time.process_time(), time.perf_counter()
        records = run(Path(folder) / "results.jsonl")
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    errors = [r.error for r in records if r.error is not None]
    assert len(records) == cases and not errors, (label, len(records), errors[:1])
    row = {
        "setting": label,
        "cases": cases,
        "wall_time": round(wall, 2),
        "cases_per_second": round(cases / wall, 2),
        "cpu_ms_per_case": round(1000 * cpu / cases, 2),
        "wall_ms_per_case": round(1000 * wall / cases, 2),
    }
    print(row, file=sys.stderr, flush=True)
    return row


def local(concurrency: int, latency: float, runner: Any = custom_runner) -> Callable[[Path], Any]:
    def run(path: Path) -> Any:
        cases = arithmetic_cases(ARGS.cases)
        model = {"simulated": SimulatedModel(latency=latency)}
        return run_cases(
            cases,
            {"custom": runner},
            model,
            calculator_only,
            store=ResultsStore(path),
            concurrency=concurrency,
        )

    return run


def on_ray(workers: int, slots: int, latency: float, cases: int = 0) -> Callable[[Path], Any]:
    from custom_react.compare.on_ray import run_cases_on_ray
    from custom_react.compare.sources import Simulated

    def run(path: Path) -> Any:
        sources = [Simulated(latency=latency, slots=slots) for _ in range(workers)]
        return run_cases_on_ray(
            arithmetic_cases(cases or ARGS.cases),
            {"custom": custom_runner},
            sources,
            calculator_only,
            store=ResultsStore(path),
        )

    return run


def render(data: dict[str, Any]) -> str:
    base = data["rows"][0]["cases_per_second"]
    lines = [
        "# Harness throughput: a simulated model with a set latency",
        "",
        f"Our agent on `SimulatedModel` ({data['latency_ms']} ms a reply, 2 replies a case), "
        f"{data['cases']} cases, results in a JSONL file. Machine: {data['cpus']} cores. "
        f"Date: {data['date']}. Reproduce: `{data['command']}`.",
        "",
        "| setting | wall time, s | cases/s | × concurrency 1 | CPU ms per case (this process) |",
        "|---|---:|---:|---:|---:|",
    ]
    for row in data["rows"]:
        lines.append(
            f"| {row['setting']} | {row['wall_time']} | {row['cases_per_second']} | "
            f"{row['cases_per_second'] / base:.1f} | {row['cpu_ms_per_case']} |"
        )
    if data.get("ray_start"):
        lines += [
            "",
            f"Ray rows include starting two workers (they import LangChain): "
            f"{data['ray_start']['wall_time']} s for a run of one case.",
        ]
    lines += ["", "The harness's own cost, with no wait for a model (concurrency 1):", ""]
    lines += ["| what runs | ms per case (wall) | CPU ms per case |", "|---|---:|---:|"]
    for row in data["costs"]:
        lines.append(f"| {row['setting']} | {row['wall_ms_per_case']} | {row['cpu_ms_per_case']} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    latency = ARGS.latency_ms / 1000
    rows = [timed(f"concurrency {n}", local(n, latency), ARGS.cases) for n in (1, 8, 32, 128, 400)]
    if not ARGS.no_ray:
        import ray

        from custom_react.compare.on_ray import init_local_ray

        init_local_ray(
            ray,
            num_cpus=os.cpu_count(),
            log_to_driver=False,
            runtime_env={"env_vars": {"PYTHONPATH": str(ROOT)}},
        )
        start = timed("Ray start-up: 2 workers, 1 case", on_ray(2, 1, 0, cases=1), 1)
        rows.append(timed("Ray, 2 workers × 16 slots", on_ray(2, 16, latency), ARGS.cases))
        rows.append(timed("Ray, 2 workers × 64 slots", on_ray(2, 64, latency), ARGS.cases))
        ray.shutdown()
    costs = [
        timed(
            "the harness alone (a runner that answers at once)",
            local(1, 0, idle_runner),
            ARGS.cases,
        ),
        timed("our agent + the harness (a 0 ms model)", local(1, 0), ARGS.cases),
    ]
    data = {
        "cases": ARGS.cases,
        "latency_ms": ARGS.latency_ms,
        "cpus": os.cpu_count(),
        "date": date.today().isoformat(),
        "command": " ".join(["python bench/scale_throughput.py", *sys.argv[1:]]),
        "rows": rows,
        "costs": costs,
        "ray_start": None if ARGS.no_ray else start,
    }
    OUT.with_suffix(".json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    OUT.with_suffix(".md").write_text(render(data), encoding="utf-8")
    print(render(data))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=400)
    parser.add_argument("--latency-ms", type=float, default=200)
    parser.add_argument("--no-ray", action="store_true")
    ARGS = parser.parse_args()
    main()
