"""What an experiment counts beyond the harness: repeated actions, and facts a run made up.

Both read a run as the harness saved it (its transcript lines and answer), so they work on any
condition and on a saved report, in English and Chinese transcripts (the console's words,
`labels.REACT`). `repeated_actions` counts the (Action, Action Input) pairs a run wrote again
after writing them once, whether or not the loop ran them again. `made_up_fact` tells whether a
wrong answer to a question that needs a looked-up fact rests on a number the run never saw: the
fact is in the question file (`"fact": "3100"`, the value the search snapshot holds), and the
run's text (its reasoning, observations and answer) states numbers but not that one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from custom_react.console.labels import REACT, SEPARATOR
from custom_react.parsing.markers import CHINESE_MARKERS, MARKERS
from custom_react.prompts import LANGUAGES

_REPLY = "|".join(re.escape(REACT[lang]["reply"] + SEPARATOR[lang]) for lang in LANGUAGES)
_ACTION = re.compile(
    rf"^(?:{_REPLY})?(?:{MARKERS['action']}|{CHINESE_MARKERS['action']})[:：]\s*(?P<tool>.+?)\s*$"
)
_INPUT = re.compile(
    rf"^(?:{MARKERS['action_input']}|{CHINESE_MARKERS['action_input']})[:：]\s*(?P<input>.*?)\s*$"
)
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
_LIST_MARKER = re.compile(r"^\W*(?:(?:step|步骤)\s*\d+|第\s*\d+\s*步|\d+[.)、](?!\d))", re.I | re.M)
_DECLINES = ("don't know", "do not know", "cannot", "can't", "not sure", "无法", "不知道", "不确定")


def repeated_actions(transcript: Sequence[str]) -> int:
    """How many actions in a run's transcript repeat an earlier (tool, input) pair exactly."""
    seen: set[tuple[str, str]] = set()
    repeats = 0
    tool = None
    for line in (line for entry in transcript for line in entry.splitlines()):
        if action := _ACTION.match(line):
            tool = action["tool"]
        elif tool is not None and (given := _INPUT.match(line)):
            pair = (tool, given["input"])
            repeats += pair in seen
            seen.add(pair)
            tool = None
    return repeats


def made_up_fact(
    text: str, answer: str, fact: str | None, correct: bool | None, question: str = ""
) -> bool:
    """Whether a run's `text` states numbers but never `fact`, and its `answer` was not correct.

    `fact` is None when the question needs no look-up, and may list spellings, `a|b`; numbers
    match ignoring thousands separators; list numbers ("1.", "Step 2") and the numbers of the
    `question` itself (a year, an amount) are not numbers the run stated. A correct answer, an answer that says it does not know,
    or a run without any number made nothing up.
    """
    if not fact or correct:
        return False
    lowered = answer.lower()
    if any(phrase in lowered for phrase in _DECLINES):
        return False
    numbers = {_plain(number) for number in _NUMBER.findall(_LIST_MARKER.sub(" ", text))}
    numbers -= {_plain(number) for number in _NUMBER.findall(question)}
    return bool(numbers) and not any(_plain(option) in numbers for option in fact.split("|"))


def _plain(number: str) -> str:
    """A number as text without separators or trailing zeros: "3,100.00" -> "3100"."""
    text = number.replace(",", "")
    return text.rstrip("0").rstrip(".") if "." in text else text


def add_measures(data: dict[str, Any]) -> dict[str, Any]:
    """Set each run's `repeated_actions` and `made_up_fact` in saved results; return them."""
    facts = {question["id"]: question.get("fact") for question in data["questions"]}
    for run in data["records"]:
        text = "\n".join([*run["transcript"], run["answer"]])
        fact = facts.get(run["question_id"])
        run["repeated_actions"] = repeated_actions(run["transcript"])
        run["made_up_fact"] = made_up_fact(
            text, run["answer"], fact, run["correct"], run["question"]
        )
    return data
