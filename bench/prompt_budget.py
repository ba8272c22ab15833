"""What the prompt budget costs in a long run: 100, 200 and 400 tool steps in 3000 tokens.

The real agent (`CustomReActAgent`) with an instant scripted model (`custom_react.testing.Script`:
no server, no latency) that writes N distinct Actions, then a Final Answer, and a tool that
returns a few hundred characters; `max_prompt_tokens=3000`, so from a few dozen steps on every
prompt is over budget and the budget shortens older observations before each model call. What is
timed is the whole run (`agent.invoke`), so the wall time is the loop plus the budget; without
the budget's cost a run's time grows about linearly in N at first (each prompt has a reply line
and a marker per step). The requirement: 400 steps take at most 6 times as long as 100 steps.

Each run is also checked (it ends with the Final Answer after N + 1 model calls) and summed up
by a digest of every prompt the model was sent, so two versions of the budget can be compared
for the same prompts (`--baseline`: an earlier run's JSON, shown next to this one).

Run from the repository root:

    python bench/prompt_budget.py  [--steps 100 200 400] [--repeats 1] [--baseline PATH]
                                   [--out bench/results]

Writes `bench/results/prompt_budget.md` and `.json`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

from langchain_core.tools import tool

from custom_react import CustomReActAgent
from custom_react.testing import Script, count_tokens

ROOT = Path(__file__).resolve().parents[1]
BUDGET = 3000
LIMIT_RATIO = 6.0
"""400 steps may take at most this many times as long as 100 steps."""


@tool
def lookup(key: str) -> str:
    """Look up a record by its key."""
    return f"[record {key}] " + " ".join(f"field{n}={key}-{n * 7}" for n in range(40))[:380]


def script_for(steps: int) -> Script:
    """N distinct Actions (the repeated-action guard stays quiet), then a Final Answer."""
    actions = (
        f"Thought: I need record {n}.\nAction: lookup\nAction Input: {n}" for n in range(steps)
    )
    return Script(*actions, f"Final Answer: read {steps} records")


def run_once(steps: int) -> dict[str, Any]:
    """One timed run of `steps` tool steps; what it cost and what the model was sent."""
    script = script_for(steps)
    agent = CustomReActAgent(
        script.model, [lookup], max_prompt_tokens=BUDGET, max_iterations=steps + 5
    )
    start = time.perf_counter()
    result = agent.invoke(f"Read records 0 to {steps - 1}.")
    seconds = time.perf_counter() - start
    script.assert_consumed()
    if result["stop_reason"] != "final_answer" or result["iterations"] != steps + 1:
        raise RuntimeError(f"{steps} steps: {result['stop_reason']}, {result['iterations']} calls")
    digest = hashlib.sha256()
    for prompt in script.prompts:
        for message in prompt:
            digest.update(f"{message.type}\0{message.text}\0".encode())
    sizes = [count_tokens(prompt) for prompt in script.prompts]
    return {
        "seconds": seconds,
        "model_calls": len(script.prompts),
        "prompts_within_budget": sum(size <= BUDGET for size in sizes),
        "largest_prompt_tokens": max(sizes),
        "prompts_sha256": digest.hexdigest(),
    }


def measure(steps: int, repeats: int) -> dict[str, Any]:
    """`repeats` runs of `steps` steps: every time, the median, and the first run's checks."""
    runs = [run_once(steps) for _ in range(repeats)]
    if len({run["prompts_sha256"] for run in runs}) != 1:
        raise RuntimeError(f"{steps} steps: the prompts differ between repeats")
    seconds = [run["seconds"] for run in runs]
    checks = {key: value for key, value in runs[0].items() if key != "seconds"}
    return {"steps": steps, "seconds": seconds, "median_seconds": statistics.median(seconds)} | (
        checks
    )


def commit() -> str:
    """The checkout's commit, with `+changes` when the work tree differs from it."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
    except OSError:
        return "unknown"
    if not head:
        return "unknown"
    return f"{head}+changes" if dirty else head


def ratio(rows: list[dict[str, Any]]) -> float | None:
    """Median time of the largest run over the smallest (400 / 100 by default)."""
    if len(rows) < 2:
        return None
    return float(rows[-1]["median_seconds"] / rows[0]["median_seconds"])


def render(result: dict[str, Any], baseline: dict[str, Any] | None) -> str:
    """The Markdown report."""
    rows = result["runs"]
    before = {row["steps"]: row for row in (baseline or {}).get("runs", [])}
    lines = [
        "# The prompt budget's cost in long runs",
        "",
        f"`CustomReActAgent` with `max_prompt_tokens={BUDGET}`, an instant scripted model "
        "(`custom_react.testing.Script`) that writes N distinct Actions then a Final Answer, and a "
        "tool that returns about 400 characters. Wall time of the whole run (`agent.invoke`); "
        f"requirement: {rows[-1]['steps'] if rows else 400} steps take at most "
        f"{LIMIT_RATIO:g} times as long as {rows[0]['steps'] if rows else 100} steps.",
        "",
        f"Date {result['date']}, commit `{result['commit']}`, {result['machine']}, "
        f"{result['repeats']} run(s) per size (median shown).",
        "",
    ]
    header = "| steps | model calls | seconds | largest prompt (tokens) | prompts within budget |"
    rule = "| ---: | ---: | ---: | ---: | ---: |"
    if baseline:
        header += " before, seconds | same prompts as before |"
        rule += " ---: | --- |"
        lines += [
            f"Before: {baseline['commit']}, {baseline['date']}, {baseline['repeats']} run(s) per "
            f"size (`{baseline['command']}`).",
            "",
        ]
    lines += [header, rule]
    for row in rows:
        line = (
            f"| {row['steps']} | {row['model_calls']} | {row['median_seconds']:.2f} | "
            f"{row['largest_prompt_tokens']} | {row['prompts_within_budget']} |"
        )
        if baseline:
            old = before.get(row["steps"])
            if old is None:
                line += " (not run) | |"
            else:
                same = "yes" if old["prompts_sha256"] == row["prompts_sha256"] else "**no**"
                line += f" {old['median_seconds']:.2f} | {same} |"
        lines.append(line)
    lines.append("")
    now = result["ratio"]
    if now is not None:
        verdict = "met" if now <= LIMIT_RATIO else "**not met**"
        lines.append(
            f"Ratio {rows[-1]['steps']} / {rows[0]['steps']} steps: **{now:.2f}** "
            f"(at most {LIMIT_RATIO:g}: {verdict})."
        )
        if baseline and baseline.get("ratio") is not None:
            lines[-1] += f" Before: {baseline['ratio']:.1f}."
    lines += [
        "",
        f"Command: `{result['command']}`. Every run ended with the Final Answer after N + 1 model "
        "calls; `prompts_sha256` in the JSON digests every prompt the model was sent, so two "
        "versions of the budget that agree on it sent the same prompts.",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, nargs="+", default=[100, 200, 400])
    parser.add_argument("--repeats", type=int, default=1, help="runs per size (median shown)")
    parser.add_argument("--baseline", type=Path, help="an earlier run's JSON, shown alongside")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results")
    parser.add_argument("--label", help="what was measured, instead of the git commit")
    args = parser.parse_args()
    baseline = json.loads(args.baseline.read_text(encoding="utf-8")) if args.baseline else None
    rows = []
    for steps in sorted(args.steps):
        row = measure(steps, args.repeats)
        print(f"{steps} steps: {row['median_seconds']:.2f} s ({row['model_calls']} model calls)")
        rows.append(row)
    command = "python bench/prompt_budget.py"
    if args.steps != [100, 200, 400]:
        command += " --steps " + " ".join(map(str, args.steps))
    if args.repeats != 1:
        command += f" --repeats {args.repeats}"
    if args.baseline:
        command += f" --baseline {args.baseline}"
    if args.label:
        command += f" --label '{args.label}'"
    result = {
        "date": time.strftime("%Y-%m-%d %H:%M %z"),
        "commit": args.label or commit(),
        "machine": f"{os.cpu_count()} CPUs ({platform.processor() or platform.machine()}), "
        f"Python {platform.python_version()}",
        "command": command,
        "budget_tokens": BUDGET,
        "repeats": args.repeats,
        "runs": rows,
        "ratio": ratio(rows),
        "limit_ratio": LIMIT_RATIO,
    }
    if baseline:
        result["baseline"] = baseline
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "prompt_budget.md").write_text(render(result, baseline), encoding="utf-8")
    (args.out / "prompt_budget.json").write_text(
        json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    print(f"ratio {rows[-1]['steps']} / {rows[0]['steps']}: {result['ratio']}")


if __name__ == "__main__":
    main()
