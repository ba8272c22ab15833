"""`replan="on_failure"` on scripted models: no replanner while steps work, a repair when one fails.

The planner (and repair replanner) and the executor get a scripted model each, so a test can say
exactly which calls the planning side got: the plan, then one repair per failed step, nothing else.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from typing import Any

import pytest

from custom_react import CustomReActAgent, RunFinished
from custom_react.plan import events as pe
from custom_react.plan.agent import PlanAndExecuteAgent
from custom_react.plan.mermaid import plan_to_mermaid
from custom_react.plan.printing import PlanConsolePrinter
from custom_react.prompts import message
from tests.plan.test_plan_execute import (
    PLAN,
    QUESTION,
    ROOT,
    STEP_1,
    assert_valid_plan_diagram,
    plan_agent,
    plan_summary,
)

STOPPED = message("plan_stopped", "en")

# Step 2 ("Add 5% to it.") fails: two calculator calls the tool refuses, then the executor's limit.
FAILS = (
    "Action: calculator\nAction Input: 1.2 plus 5%",
    "Action: calculator\nAction Input: 5% of 1.2",
)
FAILED = (
    "Agent stopped at max_iterations=2, before a final answer. (stop reason: max_iterations)."
    " Last observation: Error: calculator failed: ValueError: cannot evaluate '5% of 1.2'"
)
FAILED_ZH = (  # the replanner reads the step's end in the run's language; the executor's own text stays
    "Agent stopped at max_iterations=2, before a final answer.（停止原因：max_iterations）。"
    "最后一个观察：Error: calculator failed: ValueError: cannot evaluate '5% of 1.2'"
)
INSERTED = "Plan:\n1. Calculate 5% of 1.2: 1.2 * 0.05.\n2. Add 5% to it.\n3. Multiply by 3."
AFTER_INSERTED = (
    "Action: calculator\nAction Input: 1.2 * 0.05",
    "Final Answer: 0.06",
    "Final Answer: 1.26",
    "Final Answer: 3.78",
)
REPLACED = "Plan:\n1. Calculate 1.2 * 1.05 * 3."
AFTER_REPLACED = ("Action: calculator\nAction Input: 1.2 * 1.05 * 3", "Final Answer: 3.78")
REPLANNER_MARK, REPAIR_MARK = "You are checking the progress", "The step that failed:"


def on_failure_agent(
    planner: Any, executor: Any, tools: list[Any], **options: Any
) -> PlanAndExecuteAgent:
    react = CustomReActAgent(executor.model, tools, max_iterations=options.pop("max_iterations", 2))
    return PlanAndExecuteAgent(planner.model, react, replan="on_failure", **options)


def plan_rows(events: list[Any]) -> list[tuple[Any, ...]]:
    """The plan events and the result (no executor steps); repairs and responses in full."""
    rows: list[tuple[Any, ...]] = []
    for event in events:
        if isinstance(event, pe.PlanRepaired):
            changes = (event.inserted, event.replaced, event.removed)
            rows.append(("repaired", event.failed_step, event.steps, *changes))
        elif isinstance(event, pe.FinalResponse):
            rows.append(("response", event.output, event.source))
        elif isinstance(event, pe.PlanEvent | RunFinished):
            rows += plan_summary([event])
    return rows


def texts(prompts: list[list[Any]]) -> list[str]:
    return ["\n".join(message.text for message in prompt) for prompt in prompts]


def test_a_failed_step_is_repaired_by_inserting_a_step_before_it(script, tools):
    planner = script(PLAN, INSERTED)
    executor = script(*STEP_1, *FAILS, *AFTER_INSERTED)
    events = list(on_failure_agent(planner, executor, tools).stream(QUESTION))
    new_step = "Calculate 5% of 1.2: 1.2 * 0.05."
    assert plan_rows(events) == [
        ("plan", "Search for the rose price.", "Add 5% to it.", "Multiply by 3."),
        ("step", 1, "Search for the rose price."),
        ("step_result", 1, "ok", "1.2 yuan"),
        ("step", 2, "Add 5% to it."),  # no replanner call between the steps
        ("step_result", 2, "stopped", FAILED),
        ("repaired", "Add 5% to it.", (new_step, "Add 5% to it.", "Multiply by 3."), (new_step,), False, ()),
        ("step", 3, new_step),  # the inserted step runs next
        ("step_result", 3, "ok", "0.06"),
        ("step", 4, "Add 5% to it."),
        ("step_result", 4, "ok", "1.26"),
        ("step", 5, "Multiply by 3."),
        ("step_result", 5, "ok", "3.78"),
        ("response", "3.78", "last_step"),
        ("result", "final_answer", 5),
    ]  # fmt: skip
    result = events[-1].result
    assert result.past_steps == [
        ("Search for the rose price.", "1.2 yuan"),  # finished steps are kept as they were
        ("Add 5% to it.", FAILED),
        (new_step, "0.06"),
        ("Add 5% to it.", "1.26"),
        ("Multiply by 3.", "3.78"),
    ]
    assert (result.output, result.plan) == ("3.78", [])
    plan_prompt, repair_prompt = texts(planner.prompts)  # the plan and one repair, nothing else
    assert "devise a plan" in plan_prompt and REPAIR_MARK not in plan_prompt
    assert (
        "Steps done so far, with their results:\n1. Search for the rose price.\n   Result: 1.2 yuan\n\n"
        f"The step that failed:\nAdd 5% to it.\nWhat went wrong: {FAILED}\n\n"
        "Steps of the plan still to do after it:\n1. Multiply by 3.\n"
    ) in repair_prompt
    assert REPLANNER_MARK not in repair_prompt


def test_without_a_failure_the_replanner_is_never_called(script, tools):
    planner = script(PLAN)
    executor = script(
        *STEP_1,
        "Final Answer: 1.26",
        "Action: calculator\nAction Input: 1.26 * 3",
        "Final Answer: 3.78",
    )
    events = list(on_failure_agent(planner, executor, tools).stream(QUESTION))
    assert len(planner.prompts) == 1 and "devise a plan" in texts(planner.prompts)[0]
    sent = texts(planner.prompts + executor.prompts)
    assert not any(REPLANNER_MARK in prompt or REPAIR_MARK in prompt for prompt in sent)
    assert not [e for e in events if isinstance(e, pe.Replanned | pe.PlanParseFailure)]
    assert plan_rows(events)[-3:] == [
        ("step_result", 3, "ok", "3.78"),
        ("response", "3.78", "last_step"),  # the last step's result is the answer
        ("result", "final_answer", 3),
    ]
    result = events[-1].result
    assert [step for step, _ in result.past_steps] == [
        "Search for the rose price.",
        "Add 5% to it.",
        "Multiply by 3.",
    ]
    started = [e for e in events if isinstance(e, pe.StepStarted)]
    assert (
        "1. Search for the rose price.\n   Result: 1.2 yuan\n2. Add 5% to it.\n   Result: 1.26"
        in started[2].task
    )


def test_a_repair_may_replace_the_failed_step_and_drop_later_ones(script, tools):
    planner = script(PLAN, REPLACED)
    executor = script(*STEP_1, *FAILS, *AFTER_REPLACED)
    events = list(on_failure_agent(planner, executor, tools).stream(QUESTION))
    assert plan_rows(events)[4:] == [
        ("step_result", 2, "stopped", FAILED),
        ("repaired", "Add 5% to it.", ("Calculate 1.2 * 1.05 * 3.",), ("Calculate 1.2 * 1.05 * 3.",), True, ("Multiply by 3.",)),
        ("step", 3, "Calculate 1.2 * 1.05 * 3."),
        ("step_result", 3, "ok", "3.78"),
        ("response", "3.78", "last_step"),
        ("result", "final_answer", 3),
    ]  # fmt: skip
    assert events[-1].result.past_steps[0] == ("Search for the rose price.", "1.2 yuan")


def test_the_repair_runs_the_same_under_ainvoke_and_astream(script, tools):
    def agent() -> PlanAndExecuteAgent:
        return on_failure_agent(
            script(PLAN, REPLACED), script(*STEP_1, *FAILS, *AFTER_REPLACED), tools
        )

    async def main() -> tuple[list[str], dict[str, Any]]:
        types = [event.type async for event in agent().astream(QUESTION)]
        return types, await agent().ainvoke(QUESTION)

    types, result = asyncio.run(main())
    assert types == [event.type for event in agent().stream(QUESTION)]
    keys = ("output", "stop_reason", "iterations", "past_steps", "plan")
    assert [result[key] for key in keys] == [agent().invoke(QUESTION)[key] for key in keys]
    assert [result["output"], result["stop_reason"], result["iterations"]] == ["3.78", "final_answer", 3]  # fmt: skip
    assert result["past_steps"][1] == ("Add 5% to it.", FAILED)


def test_a_repair_that_answers_ends_the_run(script, tools, monkeypatch):
    planner = script(PLAN, "Final Answer: 1.2 yuan plus 5% is 1.26 yuan; three cost 3.78 yuan.")
    agent = on_failure_agent(planner, script(*STEP_1), tools)
    stream = agent.executor.stream

    def breaks_on_step_2(task: str, config: Any = None, **kwargs: Any) -> Any:  # it raises
        if task.endswith("Add 5% to it."):
            raise RuntimeError("the executor broke")
        yield from stream(task, config)

    monkeypatch.setattr(agent.executor, "stream", breaks_on_step_2)
    events = list(agent.stream(QUESTION))
    error = "Error: the step failed: RuntimeError: the executor broke"
    assert plan_rows(events)[3:] == [
        ("step", 2, "Add 5% to it."),
        ("step_result", 2, "error", error),
        ("response", "1.2 yuan plus 5% is 1.26 yuan; three cost 3.78 yuan.", "replanner"),
        ("result", "final_answer", 2),
    ]
    assert f"What went wrong: {error}" in texts(planner.prompts)[1]
    assert events[-1].result.plan == []  # "Multiply by 3." was never started


def test_repairs_are_bounded_by_max_steps(script, tools):
    retry = "Plan:\n1. Add 5% to it.\n2. Multiply by 3."
    planner = script(PLAN, retry, retry)
    executor = script(*STEP_1, *FAILS, *FAILS)
    events = list(on_failure_agent(planner, executor, tools, max_steps=3).stream(QUESTION))
    assert plan_rows(events)[4:] == [
        ("step_result", 2, "stopped", FAILED),
        ("repaired", "Add 5% to it.", ("Add 5% to it.", "Multiply by 3."), (), False, ()),
        ("step", 3, "Add 5% to it."),  # a failed step may be tried again: it is not "done"
        ("step_result", 3, "stopped", FAILED),
        ("repaired", "Add 5% to it.", ("Add 5% to it.", "Multiply by 3."), (), False, ()),
        ("step_limit", 3),  # every step counts, so the repairs end at the step limit
        ("result", "max_iterations", 3),
    ]
    assert events[-1].result.plan == ["Add 5% to it.", "Multiply by 3."]


def test_an_unreadable_repair_ends_with_the_last_result(script, tools):
    planner = script(PLAN, "Hmm.", "Hmm again.")
    events = list(on_failure_agent(planner, script(*STEP_1, *FAILS), tools).stream(QUESTION))
    assert plan_rows(events)[-3:] == [
        ("plan_parse_failure", "repair", 1),
        ("plan_parse_failure", "repair", 2),
        ("result", "parse_failures", 2),
    ]
    result = events[-1].result
    assert (result.output, result.plan) == (FAILED, ["Multiply by 3."])


# -- Dependencies in the executor's task ------------------------------------------------------

DEPENDENT = {
    "en": (
        "Plan:\n1. Search for the rose price.\n2. Search for the tulip price.\n"
        "3. Double the tulip price. (needs 2)\n4. Add the rose price to that. (needs 1, 3)",
        ("1.2 yuan", "2.5 yuan", "5.0 yuan", "6.2 yuan"),
        f"What we know so far (while answering: {QUESTION}):\n"
        "1. Search for the rose price.\n   Result: 1.2 yuan\n"
        "3. Double the tulip price.\n   Result: 5.0 yuan\n\n"
        "Your task now: Add the rose price to that.",
    ),
    "zh": (
        "计划：\n1. 搜索玫瑰的价格。\n2. 搜索郁金香的价格。\n3. 把郁金香的价格乘以 2（依赖 2）\n"
        "4. 把玫瑰的价格加上这个结果（需要步骤1、3）",
        ("1.2 元", "2.5 元", "5.0 元", "6.2 元"),
        f"目前已知（为了回答：{QUESTION}）：\n"
        "1. 搜索玫瑰的价格。\n   结果：1.2 元\n3. 把郁金香的价格乘以 2\n   结果：5.0 元\n\n"
        "你现在的任务：把玫瑰的价格加上这个结果",
    ),
}


@pytest.mark.parametrize("language", sorted(DEPENDENT))
def test_a_dependent_step_sees_only_the_results_it_names(script, tools, language):
    plan, answers, last_task = DEPENDENT[language]
    executor = script(*(f"Final Answer: {answer}" for answer in answers))
    agent = on_failure_agent(script(plan), executor, tools, language=language)
    started = [e for e in agent.stream(QUESTION) if isinstance(e, pe.StepStarted)]
    assert started[2].task.count(answers[1]) == 1 and answers[0] not in started[2].task
    assert started[3].task == last_task
    assert f"Question: {last_task}\nThought: " in executor.prompts[3][-1].text  # what it was sent


def test_a_repaired_plan_numbers_its_dependencies_from_its_own_first_step(script, tools):
    repair = (
        "Plan:\n1. Search for the price of one tulip stem.\n"
        "2. Double the tulip price. (needs 1)\n3. Add the rose price to that."
    )
    answers = ("Final Answer: 2.5 yuan", "Final Answer: 5.0 yuan", "Final Answer: 6.2 yuan")
    executor = script("Final Answer: 1.2 yuan", "Action: search\nAction Input: tulip", *answers)
    agent = on_failure_agent(script(DEPENDENT["en"][0], repair), executor, tools, max_iterations=1)
    events = list(agent.stream(QUESTION))
    statuses = [e.status for e in events if isinstance(e, pe.StepResult)]
    assert statuses == ["ok", "stopped", "ok", "ok", "ok"]
    started = [e for e in events if isinstance(e, pe.StepStarted)]
    assert started[3].task == (  # the repaired plan's step 2 needs its step 1: the run's step 3
        f"What we know so far (while answering: {QUESTION}):\n"
        "3. Search for the price of one tulip stem.\n   Result: 2.5 yuan\n\n"
        "Your task now: Double the tulip price."
    )
    assert [line for line in started[4].task.splitlines() if line[:1].isdigit()] == [
        "1. Search for the rose price.",  # no note: every result so far
        "2. Search for the tulip price.",
        "3. Search for the price of one tulip stem.",
        "4. Double the tulip price.",
    ]


@pytest.mark.parametrize("replan", ["sometimes", "never", "", "ALWAYS"])
def test_an_unknown_replan_option_is_a_clear_error(script, tools, replan):
    with pytest.raises(ValueError, match="replan must be 'always' or 'on_failure'"):
        plan_agent(script().model, tools, replan=replan)


def test_the_repair_template_is_checked_and_may_be_your_own(script, tools):
    with pytest.raises(ValueError, match=r"repair template misses \['error', 'failed_step'\]"):
        plan_agent(script().model, tools, repair_prompt="{input} {past_steps} {plan}")
    planner = script(PLAN, "Final Answer: done")
    own = "{input}|{past_steps}|{failed_step}|{error}|{plan}"
    agent = on_failure_agent(planner, script(*STEP_1, *FAILS), tools, repair_prompt=own)
    assert agent.invoke(QUESTION)["output"] == "done"
    assert texts(planner.prompts)[1] == (
        f"{QUESTION}|1. Search for the rose price.\n   Result: 1.2 yuan"
        f"|Add 5% to it.|{FAILED}|1. Multiply by 3."
    )


def test_replan_always_is_the_default_and_reads_every_step(script, tools):
    replan = "Plan:\n1. Add 5% to it.\n2. Multiply by 3."
    replies = (PLAN, *STEP_1, replan, *FAILS, "Final Answer: 3.78 yuan")

    def run(**options: Any) -> tuple[list[Any], list[str]]:
        model = script(*replies)
        agent = plan_agent(model.model, tools, max_iterations=2, **options)
        return list(agent.stream(QUESTION)), texts(model.prompts)

    (default, default_prompts), (always, always_prompts) = run(), run(replan="always")
    assert plan_summary(default) == plan_summary(always) and default_prompts == always_prompts
    # The replanner reads both results, the failed one too; there is no repair.
    read = [n for n, prompt in enumerate(always_prompts) if REPLANNER_MARK in prompt]
    assert read == [3, 6]  # the plan, step 1 (two calls), replan, step 2 (two calls), replan
    assert not any(REPAIR_MARK in prompt for prompt in always_prompts)
    assert not [event for event in always if isinstance(event, pe.PlanRepaired)]
    assert plan_summary(always)[-2:] == [("response", "3.78 yuan"), ("result", "final_answer", 2)]


# -- What a learner sees --------------------------------------------------------------------

PRINTED_REPAIR = {
    "en": [
        f"Step 2 result: {FAILED}",
        "Repaired plan:",
        "  1. Calculate 5% of 1.2: 1.2 * 0.05.",
        "  2. Add 5% to it.",
        "  3. Multiply by 3.",
        "  (inserted: Calculate 5% of 1.2: 1.2 * 0.05.)",
        "  (tries the failed step again: Add 5% to it.)",
        "Step 3: Calculate 5% of 1.2: 1.2 * 0.05.",
    ],
    "zh": [
        f"第 2 步结果：{FAILED_ZH}",
        "修复后的计划：",
        "  1. Calculate 5% of 1.2: 1.2 * 0.05.",
        "  2. Add 5% to it.",
        "  3. Multiply by 3.",
        "  (新加的步骤：Calculate 5% of 1.2: 1.2 * 0.05.)",
        "  (重试失败的步骤：Add 5% to it.)",
        "第 3 步：Calculate 5% of 1.2: 1.2 * 0.05.",
    ],
}


@pytest.mark.parametrize("language", sorted(PRINTED_REPAIR))
def test_the_printer_shows_what_a_repair_changed(script, tools, language):
    lines: list[str] = []
    printer = PlanConsolePrinter(lines.append, language=language, color=False)
    agent = on_failure_agent(
        script(PLAN, INSERTED), script(*STEP_1, *FAILS, *AFTER_INSERTED), tools, language=language
    )
    for event in agent.stream(QUESTION):
        printer(event)
    start = lines.index(PRINTED_REPAIR[language][0])
    assert lines[start : start + 8] == PRINTED_REPAIR[language]
    assert lines[-1] == ("Answer: 3.78" if language == "en" else "答案：3.78")


def test_the_printer_shows_replaced_dropped_and_removed_steps():
    lines: list[str] = []
    printer = PlanConsolePrinter(lines.append, color=False)
    printer(pe.PlanRepaired(("b",), failed_step="a", inserted=("b",), removed=("c",)))
    printer(pe.PlanRepaired(("c",), failed_step="a", repeated=("x",)))
    printer(pe.PlanParseFailure("repair", "Hmm.", "Invalid format", 1))
    assert lines == [
        "Repaired plan:", "  1. b", "  (inserted: b)", "  (replaces the failed step: a)", "  (removed: c)",
        "Repaired plan:", "  1. c", "  (drops the failed step: a)", "  (already done, dropped: x)",
        "Repair replanner wrote: Hmm.", "Format error: Invalid format",
    ]  # fmt: skip


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_diagram_of_a_repaired_run_is_valid(script, tools, language):
    agent = on_failure_agent(
        script(PLAN, INSERTED), script(*STEP_1, *FAILS, *AFTER_INSERTED), tools
    )
    text = plan_to_mermaid(QUESTION, list(agent.stream(QUESTION)), language)
    assert_valid_plan_diagram(text)
    lines = text.splitlines()
    if language == "en":
        assert "    Executor-->>Planner: Step 1 result: 1.2 yuan" in lines  # nobody replans
        assert "    Planner->>Executor: Step 2: Add 5％ to it." in lines
        assert (
            "    Note over Replanner: Repaired plan: 1. Calculate 5％ of 1.2: 1.2 * 0.05." in lines
        )
        assert "    Note over Replanner: inserted: Calculate 5％ of 1.2: 1.2 * 0.05." in lines
        assert "    Replanner->>Executor: Step 3: Calculate 5％ of 1.2: 1.2 * 0.05." in lines
        assert lines[-1] == "    Executor-->>User: Answer: 3.78"  # the last step's result
    assert sum(line.startswith("    Executor--xReplanner: ") for line in lines) == 1


def test_the_diagram_of_an_on_failure_run_at_the_step_limit(script, tools):
    agent = on_failure_agent(
        script(PLAN), script(*STEP_1, "Final Answer: 1.26"), tools, max_steps=2
    )
    text = plan_to_mermaid(QUESTION, list(agent.stream(QUESTION)))
    assert_valid_plan_diagram(text)
    assert "    Note over Planner: Stopped: step limit reached after 2 steps\n" in text
    assert text.endswith(f"    Planner-->>User: {STOPPED}\n")


@pytest.mark.skipif(
    shutil.which("node") is None
    or not (ROOT / "scripts" / "mermaid" / "node_modules" / "mermaid").is_dir(),
    reason="Mermaid's parser is not installed: run `npm ci --prefix scripts/mermaid`",
)
def test_the_on_failure_diagrams_parse_with_mermaid_itself(script, tools, tmp_path):
    runs = {
        "repaired": (script(PLAN, INSERTED), script(*STEP_1, *FAILS, *AFTER_INSERTED), {}),
        "limit": (script(PLAN), script(*STEP_1, "Final Answer: 1.26"), {"max_steps": 2}),
    }
    files = []
    for name, (planner, executor, options) in runs.items():
        events = list(on_failure_agent(planner, executor, tools, **options).stream(QUESTION))
        path = tmp_path / f"{name}.mmd"
        path.write_text(plan_to_mermaid(QUESTION, events, "zh" if name == "limit" else "en"))
        files.append(str(path))
    check = ROOT / "scripts" / "mermaid" / "parse_mermaid.mjs"
    result = subprocess.run(
        ["node", str(check), *files], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count(" sequence\n") == len(runs)
