"""The attack table: run `tests/security`, count per kind (test file) the tries, held and broke.

    python bench/attack_table.py

Runs pytest on `tests/security` with a JUnit XML report in a temporary folder, then counts per
test file: tries (test cases run), held (passed) and broke (failed, errored or xfailed: an
xfail there documents a known break). Writes `bench/results/attacks.md` (a Markdown table with
the date and the commit) and `bench/results/attacks.json`. Skipped cases are not counted.
"""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"


def run_suite(report: Path) -> tuple[int, float]:
    """Run the attack suite; its exit code and wall time in seconds."""
    started = time.monotonic()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "tests/security",
            "-q",
            "-p",
            "no:cacheprovider",
            f"--junitxml={report}",
        ],
        cwd=ROOT,
        check=False,
    )
    return done.returncode, time.monotonic() - started


def count(report: Path) -> dict[str, dict[str, int]]:
    """Per kind (the test file's name without `test_`): tries, held, broke."""
    table: dict[str, dict[str, int]] = defaultdict(lambda: {"tries": 0, "held": 0, "broke": 0})
    for case in ElementTree.parse(report).iter("testcase"):
        kind = case.get("classname", "").rsplit(".", 1)[-1].removeprefix("test_")
        outcome = {child.tag: child for child in case}
        skipped = outcome.get("skipped")
        if skipped is not None and skipped.get("type") != "pytest.xfail":
            continue  # not tried
        row = table[kind]
        row["tries"] += 1
        broke = "failure" in outcome or "error" in outcome or skipped is not None
        row["broke" if broke else "held"] += 1
    return dict(sorted(table.items()))


def commit() -> str:
    done = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    )
    return done.stdout.strip() or "unknown"


def markdown(table: dict[str, dict[str, int]], when: str, head: str, seconds: float) -> str:
    lines = [
        "# Attacks on custom-react: tries, held, broke",
        "",
        f"Made by `python bench/attack_table.py` on {when} at commit `{head}` "
        f"(`tests/security`, {seconds:.1f} s). Broke counts failed tests and `xfail(strict=True)` "
        "tests, which document a known break; see each test's reason.",
        "",
        "| kind | tries | held | broke |",
        "|---|---:|---:|---:|",
    ]
    for kind, row in table.items():
        lines.append(
            f"| {kind.replace('_', ' ')} | {row['tries']} | {row['held']} | {row['broke']} |"
        )
    total = {key: sum(row[key] for row in table.values()) for key in ("tries", "held", "broke")}
    lines.append(f"| **total** | {total['tries']} | {total['held']} | {total['broke']} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "attacks.xml"
        code, seconds = run_suite(report)
        table = count(report)
    when = datetime.date.today().isoformat()
    head = commit()
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "attacks.md").write_text(markdown(table, when, head, seconds), encoding="utf-8")
    data = {
        "date": when,
        "commit": head,
        "seconds": round(seconds, 1),
        "pytest_exit": code,
        "kinds": table,
    }
    (RESULTS / "attacks.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    print((RESULTS / "attacks.md").read_text(encoding="utf-8"), end="")


if __name__ == "__main__":
    main()
