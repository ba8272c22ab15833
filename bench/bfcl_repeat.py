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
from typing import Any

from bench.bfcl_cases import read_lines


def newest(path: Path) -> dict[tuple[str, str], dict[str, Any]]:
    """The newest run of each (case, agent) in a results file."""
    return {(run["id"], run["agent"]): run for run in read_lines(path)}


def compare(first: Path, second: Path) -> list[str]:
    """Per agent: runs in both files, how many repeated their transcript, the verdicts that moved."""
    a, b = newest(first), newest(second)
    both = sorted(set(a) & set(b))
    same: Counter[str] = Counter()
    runs: Counter[str] = Counter()
    passed: dict[str, list[int]] = {}
    moved: dict[str, list[str]] = {}
    for case, agent in both:
        runs[agent] += 1
        same[agent] += a[case, agent]["transcript"] == b[case, agent]["transcript"]
        counts = passed.setdefault(agent, [0, 0])
        counts[0] += bool(a[case, agent]["passed"])
        counts[1] += bool(b[case, agent]["passed"])
        if a[case, agent]["passed"] != b[case, agent]["passed"]:
            moved.setdefault(agent, []).append(case)
    lines = ["| agent | runs in both | same transcript | passed (first, second) | verdicts moved |"]
    lines.append("|---|---:|---:|---:|---|")
    for agent in sorted(runs):
        cases = ", ".join(moved.get(agent, [])) or "none"
        first_passed, second_passed = passed[agent]
        lines.append(
            f"| {agent} | {runs[agent]} | {same[agent]} | {first_passed}, {second_passed} | {cases} |"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path)
    args = parser.parse_args()
    print("\n".join(compare(args.first, args.second)))


if __name__ == "__main__":
    main()
