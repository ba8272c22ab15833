"""Real replies that broke agents in the wild (`bench/parser_replies_wild.jsonl`), and the kinds of
failure they showed.

1. The case file: every reply labelled, its thread named, and a thread's replies in one split.
"""

from __future__ import annotations

from pathlib import Path

from bench.parser_robustness import load_cases

WILD = Path(__file__).resolve().parents[2] / "bench" / "parser_replies_wild.jsonl"
CASES = load_cases(WILD)

# -- 1. The case file ----------------------------------------------------------------------------


def test_every_reply_is_labelled_with_its_thread_and_split() -> None:
    assert len(CASES) >= 60 and len({case["id"] for case in CASES}) == len(CASES)
    assert len({case["source"] for case in CASES}) >= 25
    splits: dict[str, str] = {}
    for case in CASES:
        assert case["source"].startswith("https://github.com/")
        assert len({"action", "final", "error"} & set(case["expected"])) == 1
        assert splits.setdefault(case["source"], case["split"]) == case["split"]
    assert set(splits.values()) == {"tune", "holdout"}
