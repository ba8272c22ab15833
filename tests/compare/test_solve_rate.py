"""The solve-rate benchmark: its question set, its held-out split, and its report."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from custom_react.compare import check_answer, load_questions
from custom_react.compare.runners.custom import custom_runner
from custom_react.formats import FormatName
from custom_react.testing import Script
from tests.conftest import load_script

ROOT = Path(__file__).resolve().parents[2]
QUESTIONS = ROOT / "questions" / "solve_rate.jsonl"
KINDS = ("lookup", "lookup-compute", "two-lookups", "arithmetic", "unanswerable")
CHINESE = re.compile(r"[\u4e00-\u9fff]")


def items() -> list[dict]:
    lines = QUESTIONS.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip() and not line.startswith("#")]


def test_the_set_has_every_kind_in_both_languages() -> None:
    found = items()
    assert len(found) >= 40
    assert len({item["id"] for item in found}) == len(found)
    assert set(Counter(item["kind"] for item in found)) == set(KINDS)
    for kind in KINDS:
        of_kind = [item for item in found if item["kind"] == kind]
        assert any(CHINESE.search(item["question"]) for item in of_kind), kind
        assert any(not CHINESE.search(item["question"]) for item in of_kind), kind
    assert all(item.get("expected") not in (None, "", []) for item in found)
    assert len(load_questions(QUESTIONS)) == len(found)


def test_the_held_out_split_is_every_fourth_question_of_each_kind() -> None:
    found = [item for item in items() if item["split"] != "holdout2"]
    for kind in KINDS:
        of_kind = [item for item in found if item["kind"] == kind]
        splits = [item["split"] for item in of_kind]
        assert splits == ["holdout" if n % 4 == 3 else "tune" for n in range(len(of_kind))], kind
    assert sum(item["split"] == "holdout" for item in found) >= 10


def test_the_second_held_out_split_has_every_kind_in_both_languages() -> None:
    fresh = [item for item in items() if item["split"] == "holdout2"]
    assert {item["kind"] for item in fresh} == set(KINDS)
    assert len(fresh) >= 12
    for kind in KINDS:
        ids = [item["id"] for item in fresh if item["kind"] == kind]
        assert any(i.startswith("zh-") for i in ids) and any(not i.startswith("zh-") for i in ids)
    assert not {item["question"] for item in fresh} & {
        item["question"] for item in items() if item["split"] != "holdout2"
    }


@pytest.mark.parametrize(
    ("answer", "solved"),
    [
        ("I could not find the 2026 price in the snapshot.", True),
        ("快照里没有找到 2026 年的数据。", True),
        ("The price was 3,100 dollars per ounce.", False),
    ],
)
def test_an_unanswerable_question_is_solved_only_by_saying_so(answer: str, solved: bool) -> None:
    question = next(q for q in load_questions(QUESTIONS) if q.id == "un-gold-2026")
    assert check_answer(answer, question) is solved


def test_the_summary_counts_each_agent_and_split() -> None:
    bench = load_script("bench/solve_rate.py")
    split_of = {"a": "tune", "b": "tune", "c": "holdout"}
    record = {"prompt_tokens": 10, "completion_tokens": 5, "wall_time": 2.0}
    data = {
        "agents": ["custom", "legacy"],
        "records": [
            {**record, "agent": "custom", "question_id": "a", "correct": True, "model_calls": 2},
            {**record, "agent": "custom", "question_id": "b", "correct": True, "model_calls": 4},
            {**record, "agent": "custom", "question_id": "c", "correct": False, "model_calls": 8},
            {**record, "agent": "legacy", "question_id": "a", "correct": False, "model_calls": 8},
            {**record, "agent": "legacy", "question_id": "b", "correct": None, "model_calls": 1},
            {**record, "agent": "legacy", "question_id": "c", "correct": True, "model_calls": 3},
        ],
    }
    rows = {(row["agent"], row["split"]): row for row in bench.summary(data, split_of)}
    assert rows["custom", "tune"]["solved"] == 2 and rows["custom", "tune"]["calls_per_solved"] == 3
    assert rows["custom", "holdout"]["solved"] == 0
    assert rows["custom", "holdout"]["calls_per_solved"] is None
    assert rows["legacy", "tune"]["solved"] == 0 and rows["legacy", "tune"]["model_calls"] == 9
    assert rows["legacy", "holdout"]["tokens"] == 15
    table = bench.render("m", bench.summary(data, split_of), "python bench/solve_rate.py")
    assert "| custom | tune | 2/2 | 100 | 6 | 3.0 | 30 | 4 |" in table
    assert "| custom | holdout | 0/1 | 0 | 8 | – |" in table


@pytest.mark.parametrize(
    ("step_format", "reply", "marker"),
    [
        ("text", "Thought: done\nFinal Answer: 310", "Final Answer:"),
        ("json", '{"thought": "done", "final_answer": "310"}', '"final_answer"'),
        ("xml", "<thought>done</thought>\n<final_answer>310</final_answer>", "<final_answer>"),
    ],
)
def test_the_custom_runner_uses_the_step_format_it_is_given(
    step_format: FormatName, reply: str, marker: str
) -> None:
    script = Script(reply)
    run = custom_runner(script.model, [], 8, format=step_format)
    outcome = run("What is 12.5% of 2480?", {})
    assert outcome.output == "310" and outcome.stop_reason == "final_answer"
    assert marker in script.prompts[0][0].text  # the system prompt teaches that format
    script.assert_consumed()
