"""The parser robustness benchmark: labelled cases, and ours reading more of them than legacy's."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_parser_robustness_cases_are_labelled_and_ours_reads_more_than_legacy() -> None:
    """Every case has an id and an expectation; both parsers read the controls, ours reads more."""
    spec = importlib.util.spec_from_file_location(
        "parser_robustness", ROOT / "bench" / "parser_robustness.py"
    )
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    rows = bench.score(bench.load_cases())
    assert len(rows) >= 30 and len({row["id"] for row in rows}) == len(rows)
    assert all({"action", "final", "error"} & set(row["expected"]) for row in rows)
    assert all(row["ours"] and row["legacy"] for row in rows if row["category"] == "control")
    assert sum(row["ours"] for row in rows) > sum(row["legacy"] for row in rows)
