"""Checks on a Final Answer before it is returned, and one built in: `grounded_numbers`.

A check is `check(answer, steps) -> str | None`: None accepts the answer, a string is why not,
and it goes back to the model as the next Observation (the agent's `final_answer_checks`, at most
`max_answer_retries` times; after that the answer is returned with the checks that failed in
`result["checks_failed"]`, never dropped in silence). `steps` is the run's step records in order,
a `RunSteps` list that also knows the question and the run's language. `review` runs every check.

`grounded_numbers` rejects an answer holding a number that appears in neither the question nor
any Observation: on small models the usual wrong answer is a well-formed one with a made-up
number (a sum never computed, a price never looked up). Numbers are compared by value (`1,240`
and `1240.0` are one number) and read where Chinese writes them, against the characters
(`每枝3.10元`), never inside an ASCII word (`v2`, `abc123`). A percentage the model was shown
also grounds its fraction: `5%` in the question lets the answer write `0.05`; a number shown
with more places grounds itself rounded (`22.22` for a tool's `22.22222222`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from contextlib import suppress
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from custom_react.prompts import load_messages
from custom_react.steps import Step, ToolStep


class RunSteps(list[Step]):
    """The run's step records, with the question, the run's language and the conversation before."""

    def __init__(
        self,
        steps: Iterable[Step],
        question: str,
        language: str = "en",
        history: Sequence[str] = (),
    ) -> None:
        super().__init__(steps)
        self.question = question
        self.language = language
        self.history = list(history)
        """The texts the model read before the question: the agent's system prompt, the
        conversation's turns (a thread's questions and answers, the input's system message)."""


Check = Callable[[str, RunSteps], str | None]
"""`check(answer, steps)`: None to accept the answer, or the message for the model."""

# Chinese, Japanese and Korean characters are `\w` too, but a number is written right against
# them (`总价为46.75元`): a number may start after one, never inside another word (`abc123`, `v2`)
# nor after a point or a comma (the rest of a number already read).
_CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0002fa1f"
_START = rf"(?<![.,])(?<!(?![{_CJK}])\w)"
_NUMBER = re.compile(
    rf"{_START}[-−]?\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?(?!\d)|{_START}[-−]?\d+(?:\.\d+)?"
)
_PERCENT = re.compile(rf"({_NUMBER.pattern})\s*[%％]")
_COMMA_NUMBER = re.compile(rf"{_START}\d[\d.]*,\d+(?![\d,])")
_SWAP = str.maketrans(".,", ",.")


def review(checks: Sequence[Check], answer: str, steps: RunSteps) -> list[str]:
    """Every check's message about `answer`, prefixed with the check's name ([]: all passed)."""
    problems = []
    for check in checks:
        message = check(answer, steps)
        if message:
            problems.append(f"{getattr(check, '__name__', 'check')}: {message}")
    return problems


def grounded_numbers(answer: str, steps: RunSteps) -> str | None:
    """Reject an answer with a number that neither the question nor any Observation holds.

    The agent's system prompt and the conversation before the question (a thread's earlier
    questions and answers) count as shown, and so does a number written with a decimal comma read either way (`12,5` is 12.5).
    """
    shown = [*steps.history, steps.question]
    shown += [step.observation for step in steps if isinstance(step, ToolStep)]
    seen = {value for text in shown for value in numbers_in(text) | fractions_in(text)}
    seen |= {value for text in shown for value in decimal_commas_in(text)}
    made_up = [written for written in _NUMBER.findall(answer) if not _grounded(written, seen)]
    if not made_up:
        return None
    listed = ", ".join(dict.fromkeys(made_up))
    return load_messages(steps.language)["ungrounded_numbers"].format(numbers=listed)


def numbers_in(text: str) -> set[Decimal]:
    """The values of the numbers written in `text`."""
    return {value for written in _NUMBER.findall(text) if (value := _value(written)) is not None}


def decimal_commas_in(text: str) -> set[Decimal]:
    """The values of numbers written with a decimal comma: 12.5 for `12,5`, 2480 for `2.480,00`."""
    written = (match.translate(_SWAP) for match in _COMMA_NUMBER.findall(text))
    return {value for number in written if (value := _value(number)) is not None}


def fractions_in(text: str) -> set[Decimal]:
    """The fractions of the percentages written in `text`: 0.05 for `5%`."""
    values = (_value(written) for written in _PERCENT.findall(text))
    return {(value / 100).normalize() for value in values if value is not None}


def _grounded(written: str, seen: set[Decimal]) -> bool:
    """Whether a number the answer wrote was shown: as it is, or one shown rounded to its places.

    `22.22` for the calculator's `22.22222222`: the answer rounds what a tool gave, keeping
    decimals. A whole number is never a rounding (`3` is not the `3.10` shown), and a number
    shown with fewer places is not rounded up into one with more.
    """
    value = _value(written)
    if value is None or value in seen:
        return value is not None
    places = len(written.partition(".")[2])
    if places == 0:
        return False
    step = Decimal(1).scaleb(-places)
    for shown in seen:
        exponent = shown.as_tuple().exponent
        if isinstance(exponent, int) and -exponent > places:
            with suppress(InvalidOperation):
                if shown.quantize(step, ROUND_HALF_UP) == value:
                    return True
    return False


def _value(written: str) -> Decimal | None:
    try:
        value = Decimal(written.replace(",", "").replace("−", "-"))
    except InvalidOperation:
        return None
    return value.normalize() if value != 0 else Decimal(0)
