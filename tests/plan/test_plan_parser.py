"""The plan parser: what real planners and replanners write, table-driven, and its errors."""

from __future__ import annotations

import contextlib
import time

import pytest

from custom_react.parser import FinalAnswer, ParseError
from custom_react.plan.parser import Plan, parse_plan, parse_replan
from custom_react.plan.prompt import render_past_steps, render_plan, step_task

PLANS = [
    ("numbered", "1. Search for the winner.\n2. Search for his hometown.", ("Search for the winner.", "Search for his hometown.")),
    ("plan header", "Plan:\n1. a\n2. b", ("a", "b")),
    ("bold header", "**Plan:**\n1. a\n2. b", ("a", "b")),
    ("heading", "## Updated plan\n1) a\n2) b", ("a", "b")),
    ("bulleted header", "- **Remaining steps**:\n  1. a\n  2. b", ("a", "b")),
    ("parenthesised", "(1) a\n(2) b", ("a", "b")),
    ("step words", "Step 1: a\nStep 2. b", ("a", "b")),
    ("bold step words", "- **Step 1:** a\n- **Step 2**: b", ("a", "b")),
    ("bold numbers", "**1.** a\n**2.** b", ("a", "b")),
    ("bold step text", "1. **Find the winner**: use search\n2. **Hometown**", ("Find the winner: use search", "Hometown")),
    ("bullets", "- a\n* b\n• c", ("a", "b", "c")),
    ("blank lines between steps", "1. a\n\n2. b\n\n3. c", ("a", "b", "c")),
    ("indented continuation", "1. a\n   more about a\n   - a detail\n2. b", ("a more about a - a detail", "b")),
    ("a result line is not part of a step", "1. a\n   Result: x\n2. b", ("a", "b")),
    ("comment after the list", "1. a\n2. b\n\nThis plan answers the question.", ("a", "b")),
    ("comment right after a step", "1. a\nDo not repeat a step.", ("a",)),
    ("thought before the list", "I need two lookups.\n1. a\n2. b", ("a", "b")),
    ("second list numbered again", "1. a\n2. b\n\nOr:\n1. c", ("a", "b")),
    ("Chinese header, full-width colon", "计划：\n1．搜索冠军\n2、搜索家乡", ("搜索冠军", "搜索家乡")),
    ("Chinese step words", "第一步：搜索冠军\n第二步：搜索家乡", ("搜索冠军", "搜索家乡")),
    ("Chinese step numbers", "步骤1：搜索冠军\n步骤 2: 搜索家乡", ("搜索冠军", "搜索家乡")),
    ("think block", "<think>1. not this\n2. nor this</think>\n1. a\n2. b", ("a", "b")),
    ("unclosed think before the list", "1. a\n<think>2. b", ("a",)),
    ("decimal in a step", "1. Weigh 2.5 kg\n2. 1.5 more", ("Weigh 2.5 kg", "1.5 more")),
    ("one step on the header line", "Plan: Search for the winner.", ("Search for the winner.",)),
    ("year is not a step number", "2025 was a good year.\n1. a", ("a",)),
]  # fmt: skip


@pytest.mark.parametrize("text, steps", [p[1:] for p in PLANS], ids=[p[0] for p in PLANS])
def test_plan_steps_are_read_forgivingly(text, steps):
    assert parse_plan(text).steps == steps
    assert parse_replan(text) == parse_plan(text)


def test_the_text_before_the_list_is_the_thought():
    assert parse_plan("Thought: two lookups.\nPlan:\n1. a") == Plan(("a",), "Thought: two lookups.")


ANSWERS = [
    ("plain", "Final Answer: Jannik Sinner, from San Candido.", "Jannik Sinner, from San Candido."),
    ("lower case, bold", "**final answer**: Sinner", "Sinner"),
    ("full-width colon", "Final Answer：辛纳", "辛纳"),
    ("Chinese marker", "最终答案：辛纳，来自圣坎迪多。", "辛纳，来自圣坎迪多。"),
    ("more lines", "Final Answer: Sinner.\nHe is from San Candido.", "Sinner.\nHe is from San Candido."),
    ("after a recap of finished steps", "1. done\nFinal Answer: Sinner", "Sinner"),
    ("think block", "<think>Final Answer: no</think>\nFinal Answer: yes", "yes"),
]  # fmt: skip


@pytest.mark.parametrize("text, output", [a[1:] for a in ANSWERS], ids=[a[0] for a in ANSWERS])
def test_the_replanner_may_answer(text, output):
    reply = parse_replan(text, done=["done"])
    assert isinstance(reply, FinalAnswer) and reply.output == output


def test_an_empty_final_answer_falls_back_to_the_steps():
    assert parse_replan("Final Answer:\n\nPlan:\n1. a") == Plan(("a",))


def test_a_list_under_the_final_answer_is_the_answer():
    reply = parse_replan("Final Answer:\n1. Sinner\n2. San Candido")
    assert isinstance(reply, FinalAnswer) and reply.output == "1. Sinner\n2. San Candido"


ERRORS = [
    ("planner", "", "no plan found"),
    ("planner", "I would search for it.", "numbered list"),
    ("planner", "Final Answer: Sinner", "Do not answer yet"),
    ("planner", "Plan:", "no plan found"),
    ("replanner", "", "no answer and no steps"),
    ("replanner", "He is from Italy, I think.", "'Final Answer: '"),
    ("replanner", "Final Answer:", "'Final Answer:' was empty"),
    ("replanner", "<think>1. a\n2. b</think>", "no answer and no steps"),
]


@pytest.mark.parametrize("stage, text, message", ERRORS)
def test_unreadable_replies_raise_a_message_for_the_model(stage, text, message):
    parse = parse_plan if stage == "planner" else parse_replan
    with pytest.raises(ParseError, match="Invalid format") as caught:
        parse(text)
    assert message in str(caught.value) and caught.value.text == text


DONE = ["Search for the winner.", "Search for his hometown."]
REPLANS = [
    ("finished steps are dropped", "1. search for the WINNER\n2. Find his age.", Plan(("Find his age.",), "", ("search for the WINNER",))),
    ("a recap with results, then the answer", "Plan:\n1. Search for the winner.\n   Result: Sinner\n2. Search for his hometown.\n   Result: San Candido\n\nFinal Answer: Sinner, from San Candido.", FinalAnswer("Sinner, from San Candido.")),
    ("a new step wins over an early answer", "Plan:\n1. Find his age.\n   Result: 23 (made up)\n\nFinal Answer: He is 23.", Plan(("Find his age.",))),
    ("an answer before a new step is early too", "Final Answer: He is 23.\n\nPlan:\n1. Find his age.", Plan(("Find his age.",))),
    ("an answer alone", "Final Answer: Sinner.", FinalAnswer("Sinner.")),
]  # fmt: skip


@pytest.mark.parametrize("text, expected", [r[1:] for r in REPLANS], ids=[r[0] for r in REPLANS])
def test_the_replanner_reply_is_read_against_the_finished_steps(text, expected):
    reply = parse_replan(text, DONE)
    if isinstance(expected, FinalAnswer):
        assert isinstance(reply, FinalAnswer) and reply.output == expected.output
    else:
        assert reply == expected


def test_a_reply_of_only_finished_steps_is_an_error_for_the_model():
    with pytest.raises(ParseError, match="every step you wrote is already done"):
        parse_replan("Plan:\n1. Search for the winner\n   Result: Sinner", DONE)


def test_plans_and_past_steps_render_as_numbered_text():
    assert render_plan(["a", "b"]) == "1. a\n2. b"
    assert (render_plan([]), render_plan([], "zh")) == ("(none)", "（无）")
    assert render_past_steps([("a", "found\n  x"), ("b", "y")]) == (
        "1. a\n   Result: found x\n2. b\n   Result: y"
    )
    assert render_past_steps([]) == "(none)"
    assert render_past_steps([("a", "x")], "zh") == "1. a\n   结果：x"


def test_the_executor_gets_the_step_then_the_step_with_context():
    assert step_task("Find his hometown.", "Who won?", []) == "Find his hometown."
    assert step_task("找家乡。", "谁赢了？", [("找冠军。", "辛纳")], "zh") == (
        "目前已知（为了回答：谁赢了？）：\n1. 找冠军。\n   结果：辛纳\n\n你现在的任务：找家乡。"
    )


@pytest.mark.parametrize(
    "text",
    [
        "1. " + "a" * 100_000,
        ("1" * 50_000 + ". ") * 2,
        "Step " + "1" * 100_000,
        "**" * 50_000 + "Plan",
        "- " * 50_000 + "\n" + "Final Answer" + " " * 100_000,
        "第" + "一" * 100_000,
    ],
    ids=[
        "long step",
        "long numbers",
        "long step number",
        "bold run",
        "bullets",
        "Chinese numerals",
    ],
)
def test_parsing_is_linear_time(text):
    started = time.perf_counter()
    for parse in (parse_plan, parse_replan):
        with contextlib.suppress(ParseError):
            parse(text)
    assert time.perf_counter() - started < 1.0
