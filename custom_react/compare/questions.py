"""The comparison's questions: reading a JSONL question file, and checking an answer against one.

A `Question` holds the text and, optionally, what a correct answer contains: a number (matched
with a relative tolerance) or keywords. `load_questions` reads one JSON object a line;
`check_answer` decides whether an agent's answer holds the expected one. Nothing here runs an
agent or knows which agent answered.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


@dataclass(frozen=True)
class Question:
    """One question and, optionally, what a correct answer contains."""

    question: str
    """The text every agent is asked."""
    id: str = ""
    """A short name for tables and transcripts."""
    expected: float | str | list[str] | None = None
    """A number, a keyword, or keywords that must all appear (`a|b` accepts either)."""
    tolerance: float = 0.02
    """Relative tolerance for a numeric `expected`."""


Case = Question
"""A case of a benchmark is a question with what its answer must hold (the harness's word)."""


def load_questions(path: str | Path) -> list[Question]:
    """Read a JSONL question file: one `{"question": ..., "expected": ...}` object per line.

    Blank lines and lines starting with `#` are skipped; a missing `id` becomes `q<line>`.

    Raises:
        ValueError: A line is not a JSON object with a `question` string (the line is named).
    """
    questions: list[Question] = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            item = json.loads(line)
            identifier = str(item.get("id") or f"q{number}")
            tolerance = float(item.get("tolerance", 0.02))
            questions.append(
                Question(str(item["question"]), identifier, item.get("expected"), tolerance)
            )
        except (ValueError, TypeError, KeyError, AttributeError):
            raise ValueError(f'{path}:{number}: expected {{"question": "...", ...}}') from None
    return questions


def check_answer(output: str, question: Question) -> bool | None:
    """Tell whether `output` holds the expected answer; None when the question has no expectation.

    A number matches when any number in the output, other than those already in the question, is
    within the relative tolerance (thousands separators allowed); keywords match in any case.
    """
    expected = question.expected
    if expected is None:
        return None
    if isinstance(expected, str | list):
        lowered = output.lower()
        keywords = [expected] if isinstance(expected, str) else expected
        return all(any(word.lower() in lowered for word in kw.split("|")) for kw in keywords)
    given = set(_NUMBER.findall(question.question))  # restating the question proves nothing
    numbers = [
        float(text.replace(",", "")) for text in _NUMBER.findall(output) if text not in given
    ]
    margin = abs(float(expected)) * question.tolerance + 1e-9
    return any(abs(number - float(expected)) <= margin for number in numbers)
