"""BFCL's multi-turn category (`bench/bfcl_multi_turn.py`), offline: scripted turns, BFCL's backends.

Skipped when `bfcl-eval` is not installed (`pip install --no-deps bfcl-eval==2026.3.23 mpmath==1.3.0 "filelock>=3.12"`).
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("bfcl_eval")

from bench.bfcl import run_case
from bench.bfcl_cases import load_cases
from bench.bfcl_multi_turn import call_string, with_earlier
from custom_react.testing import Script

# multi_turn_base_0's ground truth, turn by turn, as our text format writes it.
TURNS = [
    [
        ("cd", {"folder": "document"}),
        ("mkdir", {"dir_name": "temp"}),
        ("mv", {"source": "final_report.pdf", "destination": "temp"}),
    ],
    [
        ("cd", {"folder": "temp"}),
        ("grep", {"file_name": "final_report.pdf", "pattern": "budget analysis"}),
    ],
    [("sort", {"file_name": "final_report.pdf"})],
    [
        ("cd", {"folder": ".."}),
        ("mv", {"source": "previous_report.pdf", "destination": "temp"}),
        ("cd", {"folder": "temp"}),
        ("diff", {"file_name1": "final_report.pdf", "file_name2": "previous_report.pdf"}),
    ],
]


def step(name: str, args: dict) -> str:
    return f"Thought: next.\nAction: {name}\nAction Input: {json.dumps(args)}"


def replies(turns: list) -> list[str]:
    return [r for turn in turns for r in [*(step(*call) for call in turn), "Final Answer: done"]]


def first_case():
    """`multi_turn_base_0`: a file system and a posting API, four turns."""
    return next(c for c in load_cases("multi_turn_base") if c.id == "multi_turn_base_0")


def test_a_case_is_its_turns_with_bfcls_function_docs_and_ground_truth() -> None:
    case = first_case()
    assert len(case.entry["question"]) == len(case.answer) == 4
    assert {"cd", "mv", "diff", "post_tweet"} <= {f["name"] for f in case.functions}
    assert case.answer[0][0] == "cd(folder='document')"


def test_the_right_calls_in_every_turn_pass_on_bfcls_backends_and_the_observations_are_real() -> (
    None
):
    case = first_case()
    record = run_case(case, "text", Script(*replies(TURNS)).model)
    assert record["passed"], record["miss"]
    moved = "mv(source='final_report.pdf', destination='temp')"
    assert record["calls"][0] == [["cd(folder='document')"], ["mkdir(dir_name='temp')"], [moved]]
    transcript = "\n".join(record["transcript"])
    assert "This is the final report content including budget analysis" in transcript  # grep's
    assert transcript.count("Turn ") == 4


def test_a_turn_without_its_calls_fails_by_bfcls_checker() -> None:
    case = first_case()
    skipped = [TURNS[0], [], TURNS[2], TURNS[3]]  # turn 2 answered without a call
    record = run_case(case, "text", Script(*replies(skipped)).model)
    assert not record["passed"] and record["miss"].startswith(
        "multi_turn:empty_turn_model_response"
    )
    assert record["calls"][1] == []


def test_the_later_turns_read_the_earlier_ones_and_calls_are_bfcls_strings() -> None:
    assert with_earlier([], "Now this.") == "Now this."
    later = with_earlier([("Make a folder.", "Done, it is there.")], "Move the file.")
    assert later.index("Make a folder.") < later.index("Done, it is there.") < later.index("Move")
    assert call_string("mv", {"source": "a's.txt", "n": 2}) == 'mv(source="a\'s.txt", n=2)'
