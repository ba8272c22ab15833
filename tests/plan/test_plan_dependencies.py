"""Step dependencies: the notes a plan's steps may end with, read by the parser, used by the task."""

from __future__ import annotations

import contextlib
import time

import pytest

from custom_react.parser import ParseError
from custom_react.plan.parser import Plan, parse_plan, parse_replan
from custom_react.plan.prompt import render_past_steps, step_task
from custom_react.plan.schema import split_dependency_note

DEPENDENCIES = [
    ("needs", "1. a\n2. b\n3. c (needs 1, 2)", ("a", "b", "c"), ((), (), (1, 2))),
    ("depends on ... and", "1. a\n2. b\n3. c (depends on 1 and 2).", ("a", "b", "c."), ((), (), (1, 2))),
    ("step words", "1. a\n2. b (needs step 1)\n3. c (uses the results of steps 1 and 2)", ("a", "b", "c"), ((), (1,), (1, 2))),
    ("colon, capital, mixed brackets", "1. a\n2. b (Needs: 1）", ("a", "b"), ((), (1,))),
    ("after the step's full stop", "1. a\n2. Multiply by 3. (needs 1)", ("a", "Multiply by 3."), ((), (1,))),
    ("brackets inside the step", "1. a\n2. Price (in yuan) of b (needs 1)", ("a", "Price (in yuan) of b"), ((), (1,))),
    ("bullets", "- a\n- b (requires 1)", ("a", "b"), ((), (1,))),
    ("bold step", "1. **a**\n2. **b** (needs 1)", ("a", "b"), ((), (1,))),
    ("Chinese 依赖 and 、", "1. 甲\n2. 乙\n3. 丙（依赖 1、2）", ("甲", "乙", "丙"), ((), (), (1, 2))),
    ("Chinese 需要步骤", "1. 甲\n2. 乙（需要步骤1）", ("甲", "乙"), ((), (1,))),
    ("Chinese ordinals", "1. 甲\n2. 乙\n3. 丙（依赖第一步和第二步的结果）。", ("甲", "乙", "丙。"), ((), (), (1, 2))),
    ("Chinese step list", "第一步：甲\n第二步：乙（用到 1）", ("甲", "乙"), ((), (1,))),
    ("itself, later, missing and zero are ignored", "1. a (needs 1)\n2. b (needs 3)\n3. c (needs 0, 9, 2)", ("a", "b", "c"), ((), (), (2,))),
    ("repeats and order", "1. a\n2. b\n3. c (needs 2, 1, 2)", ("a", "b", "c"), ((), (), (1, 2))),
    ("no numbers: not a note", "1. a\n2. b (needs care)", ("a", "b (needs care)"), ((), ())),
    ("not at the end: not a note", "1. a\n2. (needs 1) b", ("a", "(needs 1) b"), ((), ())),
    ("no dependencies", "1. a\n2. b", ("a", "b"), ((), ())),
]  # fmt: skip


@pytest.mark.parametrize(
    "text, steps, depends_on", [d[1:] for d in DEPENDENCIES], ids=[d[0] for d in DEPENDENCIES]
)
def test_dependency_notes_are_read_and_stripped(text, steps, depends_on):
    plan = parse_plan(text)
    assert (plan.steps, plan.depends_on) == (steps, depends_on)
    assert parse_replan(text) == plan


def test_a_step_that_is_only_a_note_is_dropped():
    assert parse_plan("1. a\n2. (needs 1)\n3. b (needs 1)") == Plan(("a", "b"), "", (), ((), (1,)))


def test_the_one_step_on_a_plan_line_loses_its_note():
    assert parse_plan("Plan: Search for the winner. (needs 1)") == Plan(("Search for the winner.",))


def test_a_replan_renumbers_after_dropping_finished_steps():
    text = "1. Search for the winner.\n2. Find his age. (needs 1)\n3. Find his birthday. (needs 2)"
    reply = parse_replan(text, done=["Search for the winner."])
    # "Find his age" needed a finished step: it keeps no dependencies and sees every result.
    assert reply == Plan(
        ("Find his age.", "Find his birthday."), "", ("Search for the winner.",), ((), (1,))
    )


def test_a_plan_aligns_its_dependencies_with_its_steps():
    assert Plan(("a", "b")).depends_on == ((), ())
    assert Plan(("a", "b")) == Plan(("a", "b"), depends_on=((), ()))
    with pytest.raises(ValueError, match="one entry per step"):
        Plan(("a", "b"), depends_on=((),))


def test_split_dependency_note():
    assert split_dependency_note("Add them (needs 1 2)") == ("Add them", (1, 2))
    assert split_dependency_note("相加（依赖于步骤 1 与 2）；") == ("相加；", (1, 2))
    assert split_dependency_note("f(x)") == ("f(x)", ())


def test_the_task_shows_only_the_results_a_step_needs():
    past = [("Find a.", "1"), ("Find b.", "2"), ("Find c.", "3")]
    assert (
        render_past_steps(past, numbers=[1, 3])
        == "1. Find a.\n   Result: 1\n3. Find c.\n   Result: 3"
    )
    assert step_task("Add a and c.", "q?", past, needs=[1, 3]) == (
        "What we know so far (while answering: q?):\n"
        "1. Find a.\n   Result: 1\n3. Find c.\n   Result: 3\n\n"
        "Your task now: Add a and c."
    )
    assert step_task("Add all.", "q?", past) == step_task("Add all.", "q?", past, needs=[1, 2, 3])
    assert step_task("相加。", "问？", past, "zh", needs=[2]) == (
        "目前已知（为了回答：问？）：\n2. Find b.\n   结果：2\n\n你现在的任务：相加。"
    )


@pytest.mark.parametrize(
    "text",
    [
        "1. a (needs " + "1, " * 50_000 + ")",
        "1. a (needs " + "1 " * 50_000,
        "1. a " + "(" * 100_000,
        "1. a " + "(needs 1" * 20_000,
        "1. 甲（依赖" + "第一步和" * 25_000,
        "1. a (depends " + " " * 100_000 + "on 1)",
    ],
    ids=["many numbers", "unclosed", "brackets", "many notes", "Chinese ordinals", "spaces"],
)
def test_reading_dependencies_is_linear_time(text):
    started = time.perf_counter()
    for parse in (parse_plan, parse_replan):
        with contextlib.suppress(ParseError):
            parse(text)
    assert time.perf_counter() - started < 1.0
