"""What a plan is: `Plan`, its steps and their dependencies, and the small pure functions on steps.

The names follow LangChain's plan-and-execute `schema` (a `Plan` of steps). A step may end with a
note naming the earlier steps whose results it uses: `(needs 1, 2)`, `(depends on 1 and 2)`,
`(uses the results of steps 1 and 3)`, `（依赖 1、2）`, `（需要步骤1）`, `（依赖第一步和第二步）`.
`read_dependencies` strips those notes from the steps and keeps the numbers that point to an
earlier step of the same list (the list's own numbering, from 1); anything else is ignored. Each
note is matched from its opening bracket with an anchored, possessive pattern: linear time.
`step_key` is how two steps are compared. Reading whole replies is `parser.py`'s job.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

_CHINESE_NUMBERS = "一二三四五六七八九十"
_NUMBER = r"(?:steps?\s*+|步骤\s*+|第\s*+)?+[\d" + _CHINESE_NUMBERS + r"]++(?:\s*+步)?+"
_DEPENDENCY_NOTE = re.compile(
    r"[(（]\s*+(?:needs?|depends?\s++on|requires?|uses?|using|依赖于?+|需要|用到|基于)\s*+[:：]?+\s*+"
    r"(?:(?:the\s++)?+results?\s++(?:of|from)\s++)?+"
    r"(?P<numbers>" + _NUMBER + r"(?:(?:\s*+(?:[,，、&和与及]|and)\s*+|\s++)" + _NUMBER + r")*+)"
    r"\s*+(?:的结果)?+\s*+[)）](?P<end>[\s.。;；!！]*+)",
    re.IGNORECASE,
)
_NUMERAL = re.compile(r"\d++|[" + _CHINESE_NUMBERS + r"]++")

Dependencies = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Plan:
    """A plan: the steps still to do, first step first.

    Attributes:
        steps: Each step's task, markdown and dependency note removed, never empty.
        thought: What the model wrote before the list ("" when nothing).
        repeated: Steps the replanner wrote that were already done; `parse_replan` dropped them.
        depends_on: For each step, the numbers (1-based, in this plan) of the earlier steps whose
            results it needs; `()` when its note named none. Aligned with `steps`: leave it out
            and every step depends on nothing.
    """

    steps: tuple[str, ...]
    thought: str = ""
    repeated: tuple[str, ...] = ()
    depends_on: Dependencies = ()

    def __post_init__(self) -> None:
        """Align `depends_on` with `steps`."""
        if not self.depends_on:
            object.__setattr__(self, "depends_on", ((),) * len(self.steps))
        elif len(self.depends_on) != len(self.steps):
            raise ValueError("Plan.depends_on needs one entry per step.")


def read_dependencies(steps: Sequence[str]) -> tuple[tuple[str, ...], Dependencies]:
    """Strip each step's dependency note; keep the numbers that name an earlier step.

    Returns:
        The steps that are not empty without their note, and for each the numbers of the earlier
        steps it needs, sorted, without repeats; a number for itself, a later or a missing step
        is dropped.
    """
    read = [split_dependency_note(step) for step in steps]
    read = [(text, numbers) for text, numbers in read if text]
    texts = tuple(text for text, _ in read)
    needs = tuple(
        tuple(sorted({n for n in numbers if 1 <= n < position}))
        for position, (_, numbers) in enumerate(read, 1)
    )
    return texts, needs


def split_dependency_note(step: str) -> tuple[str, tuple[int, ...]]:
    """The step without a dependency note at its end, and the numbers the note names."""
    start = max(step.rfind("("), step.rfind("（"))
    match = _DEPENDENCY_NOTE.fullmatch(step, start) if start >= 0 else None
    if match is None:
        return step, ()
    numbers = tuple(_value(numeral) for numeral in _NUMERAL.findall(match["numbers"]))
    return step[:start].rstrip() + "".join(match["end"].split()), numbers


def keep_dependencies(depends_on: Dependencies, kept: Sequence[bool]) -> Dependencies:
    """The dependencies of the kept steps, renumbered after dropping the others.

    A step that needs a dropped step (one already done) keeps no dependencies, so its executor
    sees every result so far.
    """
    number = {old: new for new, old in enumerate((i for i, k in enumerate(kept, 1) if k), 1)}
    return tuple(
        tuple(number[n] for n in needs) if all(n in number for n in needs) else ()
        for needs, keep in zip(depends_on, kept, strict=True)
        if keep
    )


def step_key(step: str) -> str:
    """What two steps are compared by: no case, spacing or end punctuation."""
    return " ".join(step.casefold().split()).rstrip(".。!！ ")


def _value(numeral: str) -> int:
    if numeral.isdigit():
        return int(numeral)
    return _CHINESE_NUMBERS.index(numeral) + 1 if numeral in _CHINESE_NUMBERS else 0
