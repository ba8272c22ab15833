"""The comparison's questions: reading the JSONL file, and checking answers against expectations."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from custom_react.compare import Question, check_answer, load_questions

ROOT = Path(__file__).resolve().parents[2]


def test_load_questions_reads_the_bundled_set_and_skips_comments(tmp_path: Path) -> None:
    """The bundled set has expectations and Chinese questions; comments and blanks are skipped."""
    bundled = load_questions(ROOT / "questions" / "default.jsonl")
    assert 8 <= len(bundled) <= 12
    assert all(question.expected is not None for question in bundled)
    assert any(any("\u4e00" <= c <= "\u9fff" for c in q.question) for q in bundled)
    path = tmp_path / "q.jsonl"
    path.write_text('# mine\n\n{"question": "2+2?", "expected": 4}\n', encoding="utf-8")
    assert load_questions(path) == [Question("2+2?", id="q3", expected=4)]


def test_load_questions_names_the_bad_line(tmp_path: Path) -> None:
    """A line without a question is an error naming the file and the line number."""
    path = tmp_path / "bad.jsonl"
    path.write_text('{"question": "ok"}\n{"expected": 4}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.jsonl:2"):
        load_questions(path)


@pytest.mark.parametrize(
    ("output", "expected", "correct"),
    [
        ("12.5% of 2480 is 310.", 310, True),
        ("About 9,300 dollars", 9300, True),
        ("1.05 yuan per stem", 1.05, True),
        ("1 yuan per stem", 1.05, False),
        ("It costs $215.88 a year", 215.88, True),
        ("no number here", 310, False),
        ("Jannik Sinner of Italy", ["Sinner", "Ital|意大利"], True),
        ("辛纳（Sinner），意大利选手", ["Sinner", "Ital|意大利"], True),
        ("Jannik Sinner", ["Sinner", "Ital|意大利"], False),
        ("anything", None, None),
    ],
)
def test_check_answer(output: str, expected: Any, correct: bool | None) -> None:
    """Numbers match within the tolerance, keywords in any case, `a|b` either; None is unjudged."""
    assert check_answer(output, Question("q", expected=expected)) is correct


def test_numbers_restated_from_the_question_do_not_count() -> None:
    """Repeating a number from the question is not an answer."""
    question = Question("买100枝要多少元？", expected=100)
    assert check_answer("买100枝要2000元。", question) is False
    assert check_answer("买100枝要100元。", Question("买一百枝要多少元？", expected=100)) is True
