"""Read plans from a planner's or replanner's plain-text reply.

`parse_plan(text)` reads the planner's reply into a `Plan` (its steps, in order, and the earlier
steps each one needs: `schema.read_dependencies`); `parse_replan(text)` reads the replanner's
reply into a new `Plan` or a `FinalAnswer`. Both are pure and forgiving in the style of
`custom_react.parser`: numbered (`1.`, `1)`, `(1)`, `1、`, `Step 1:`, `第一步：`) or bulleted
steps, markdown bold and headings, `Plan:` headers, full-width colons, Chinese markers, `<think>`
blocks. Anchored, possessive patterns scan it line by line, in linear time. A reply they cannot
read raises `ParseError` with a message written for the model. `parse_replan` also drops the steps already done, which small
models like to copy. Writing plans into prompts is `prompt.py`'s job; nothing here calls a model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from custom_react.parser import FinalAnswer, ParseError
from custom_react.parsing.thinking import strip_think
from custom_react.plan.schema import (
    Plan,
    keep_dependencies,
    read_dependencies,
    split_dependency_note,
    step_key,
)
from custom_react.prompts import message

__all__ = ["Plan", "parse_plan", "parse_replan"]

# Markdown noise a model puts before a marker: headings, quotes, list bullets, bold or code marks.
_NOISE = r"\s*+(?:[-#>*_`•+]\s*+)*+"
_CLOSE = r"\s*+(?:[*_`]++\s*+)?+"  # markdown closing before the colon (`**Final Answer**:`)
_FINAL_LINE = re.compile(
    _NOISE
    + r"(?:final[\s_-]*+answer|最终答案|最终回答)"
    + _CLOSE
    + r"[:：](?:[*_`]++(?=\s|$))?+\s*+",
    re.IGNORECASE,
)
_HEADER_LINE = re.compile(
    _NOISE + r"(?:(?:(?:updated|new|revised|remaining|next)\s++)?+(?:plan|steps)"
    r"|(?:更新后的|新的?|剩余的?|修改后的)?+(?:计划|步骤))",
    re.IGNORECASE,
)
_RESULT_LINE = re.compile(_NOISE + r"(?:result|结果)" + _CLOSE + r"[:：]", re.IGNORECASE)
_HEADER_END = re.compile(_CLOSE + r"(?:[:：]|$)(?:[*_`]++(?=\s|$))?+\s*+")
_CHINESE_NUMBERS = "一二三四五六七八九十"
_STEP_LINE = re.compile(
    r"(?P<indent>[ \t]*+)(?:[>#]++\s*+)*+(?:(?P<bullet>[-*•+])\s++)?+(?:[*_]{2}\s*+)?+"
    r"(?:(?P<number>\d++)[.)、．](?!\d)|\((?P<paren>\d++)\)"
    r"|(?:step|步骤)\s*+(?P<step>\d++)\s*+[.:：)、]?+|第\s*+(?P<nth>[\d"
    + _CHINESE_NUMBERS
    + r"]++)\s*+步\s*+[.:：、]?+)?+"
    r"(?:[*_]{2})?+\s*+(?:[:：]\s*+)?+(?P<text>.*)",
    re.IGNORECASE,
)


def parse_plan(text: str, language: str = "en") -> Plan:
    """Read the planner's reply.

    Args:
        text: The raw reply.
        language: The language of the error message (the run's).

    Returns:
        The steps of the first list in the reply (a list numbered from 1 again starts another
        plan, which is dropped), or the one step written on a `Plan:` line with no list under it.

    Raises:
        ParseError: The reply holds no steps (for instance only a `Final Answer:`).
    """
    answer, lines, _ = _split_answer(strip_think(text).splitlines())
    plan = _read_steps(lines)
    if plan is None:
        answered = message("plan_answer_first", language) if answer else ""
        what_to_write = message("plan_write_plan", language)
        error = message("plan_no_plan", language, answered=answered, what_to_write=what_to_write)
        raise ParseError(error, text)
    return plan


def parse_replan(text: str, done: Sequence[str] = (), language: str = "en") -> Plan | FinalAnswer:
    """Read the replanner's reply: the steps still to do, or the answer.

    Small models often list the finished steps again (with their results), and often write a
    `Final Answer:` under a list of steps they have not done. So the finished steps (`done`,
    compared without case, spacing and end punctuation) are dropped from the list, and what is
    left decides: a new step to do wins over an answer (an answer written before its steps are
    done is a guess), and a list of only finished steps is a recap before the answer.

    Args:
        text: The raw reply.
        done: The steps already executed.
        language: The language of the error message (the run's).

    Returns:
        A `Plan` of the steps not yet done (the dropped ones in `Plan.repeated`, the
        dependencies renumbered without them) when there are any, else the non-empty
        `Final Answer:` as a `FinalAnswer`.

    Raises:
        ParseError: No step left to do and no answer: the reply is empty or prose, its
            `Final Answer:` is empty, or every step it lists is already done.
    """
    reply = strip_think(text).splitlines()
    answer, lines, before = _split_answer(reply)
    plan = _read_steps(lines)
    finished = {step_key(step) for step in done}
    kept = [step_key(step) not in finished for step in plan.steps] if plan else []
    if plan is not None and any(kept):
        steps = tuple(step for step, keep in zip(plan.steps, kept, strict=True) if keep)
        repeated = tuple(step for step in plan.steps if step not in steps)
        return Plan(steps, plan.thought, repeated, keep_dependencies(plan.depends_on, kept))
    if answer:
        return FinalAnswer(output=answer, thought=_thought(before), log=text.strip())
    problem = "plan_nothing"
    if plan is not None:
        problem = "plan_all_done"
    elif any(_FINAL_LINE.match(line) for line in reply):
        problem = "plan_empty_answer"
    what_to_write = message("plan_write_replan", language)
    error = message(
        "plan_invalid", language, problem=message(problem, language), what_to_write=what_to_write
    )
    raise ParseError(error, text)


def _split_answer(lines: list[str]) -> tuple[str, list[str], list[str]]:
    """Split off the first `Final Answer:` and its lines (up to a following `Plan:` header).

    Returns the answer text ("" when there is none), the other lines, and the lines before it.
    """
    for index, line in enumerate(lines):
        if match := _FINAL_LINE.match(line):
            end = next((j for j in range(index + 1, len(lines)) if _is_bare(lines[j])), len(lines))
            answer = "\n".join([line[match.end() :], *lines[index + 1 : end]]).strip()
            return answer, lines[:index] + lines[end:], lines[:index]
    return "", lines, lines


def _read_steps(lines: list[str]) -> Plan | None:
    """The first list of steps in `lines`; None when there is none."""
    steps: list[str] = []
    thought: list[str] = []
    kind = ""
    inline = ""
    for line in lines:
        match = _STEP_LINE.match(line)
        assert match is not None  # every group is optional: any line matches
        numbered = any(match[g] is not None for g in ("number", "paren", "step", "nth"))
        this_kind = "number" if numbered else "bullet" if match["bullet"] else ""
        if this_kind and (not kind or this_kind == kind) and not _is_bare(match["text"]):
            if steps and numbered and _number(match) == 1:
                break  # a second list numbered from 1: the first list is the plan
            kind = this_kind
            steps.append(_clean(match["text"]))
        elif steps and line.strip() and match["indent"] and not _RESULT_LINE.match(line):
            steps[-1] = f"{steps[-1]} {_clean(line)}".strip()  # an indented line continues a step
        elif steps:
            continue  # text after or between the steps is a comment, not part of the plan
        elif header := _header_text(line):
            inline = inline or header
        elif line.strip():
            thought.append(line.strip())
    texts, needs = read_dependencies(steps)
    if not texts:
        inline = split_dependency_note(inline)[0]  # one step: it can need no earlier one
        return Plan((inline,), _thought(thought)) if inline else None
    return Plan(texts, _thought(thought), depends_on=needs)


def _header_text(line: str) -> str:
    """The text after a `Plan:` header on the same line ("" for a bare header or no header)."""
    match = _HEADER_LINE.match(line)
    end = _HEADER_END.match(line, match.end()) if match else None
    return _clean(line[end.end() :]) if end else ""


def _number(match: re.Match[str]) -> int:
    value = match["number"] or match["paren"] or match["step"] or match["nth"] or ""
    if value.isdigit():
        return int(value)
    return _CHINESE_NUMBERS.index(value) + 1 if value in _CHINESE_NUMBERS else 0


def _clean(text: str) -> str:
    """Drop markdown emphasis and surrounding space from a step."""
    return " ".join(text.replace("**", "").replace("__", "").split())


def _is_bare(line: str) -> bool:
    """A header with nothing after it (`Plan:`, `**Remaining steps**`, `## 计划`), not a step."""
    match = _HEADER_LINE.match(line)
    return match is not None and _HEADER_END.fullmatch(line, match.end()) is not None


def _thought(lines: list[str]) -> str:
    return "\n".join(line.strip() for line in lines if line.strip() and not _is_bare(line))
