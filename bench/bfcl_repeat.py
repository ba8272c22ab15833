"""Do two BFCL runs of the same cases repeat? Run by run: the same transcript, the same verdict.

`bench/bfcl.py` keeps every run in a results file (`.jsonl`). Given two such files (say the same
command run twice with `--out` in two folders, or at `--parallel 1` and `--parallel 2`), this
compares each case and agent both ran (the newest run of each, as the tables count them): how many
wrote the same transcript word for word, and which verdicts moved, per agent.

    python -m bench.bfcl_repeat FIRST.jsonl SECOND.jsonl
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from bench.bfcl_cases import newest_runs


def compare(first: Path, second: Path) -> list[str]:
    """Per agent: runs in both files, how many repeated their transcript, the verdicts that moved."""
    a, b = newest_runs(first), newest_runs(second)
    runs, same, passed_a, passed_b = Counter[str](), Counter[str](), Counter[str](), Counter[str]()
    moved: dict[str, list[str]] = {}
    for case, agent in sorted(set(a) & set(b)):
        one, two = a[case, agent], b[case, agent]
        runs[agent] += 1
        same[agent] += one["transcript"] == two["transcript"]
        passed_a[agent] += bool(one["passed"])
        passed_b[agent] += bool(two["passed"])
        if one["passed"] != two["passed"]:
            moved.setdefault(agent, []).append(case)
    lines = ["| agent | runs in both | same transcript | passed (first, second) | verdicts moved |"]
    lines.append("|---|---:|---:|---:|---|")
    for agent in sorted(runs):
        cases = ", ".join(moved.get(agent, [])) or "none"
        counts = f"{runs[agent]} | {same[agent]} | {passed_a[agent]}, {passed_b[agent]}"
        lines.append(f"| {agent} | {counts} | {cases} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path)
    args = parser.parse_args()
    print("\n".join(compare(args.first, args.second)))


if __name__ == "__main__":
    main()
