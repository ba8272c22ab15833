"""PlanAndExecuteAgent on scripted models: the exact events, the result, callbacks, printing, Mermaid.

One scripted model plays planner, executor and replanner in turn (their calls never overlap), so each
script below reads as the run: the plan, each step's ReAct replies, each replanner reply.
"""

from __future__ import annotations

import asyncio
import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.tools import tool

from custom_react import CustomReActAgent, RunFinished
from custom_react.events import (
    AgentEvent,
)
from custom_react.export.mermaid import MERMAID_TEXT_LIMIT, mermaid_text
from custom_react.pausing.store import MemoryStore
from custom_react.plan import events as pe
from custom_react.plan.agent import PlanAndExecuteAgent
from custom_react.plan.mermaid import plan_to_mermaid
from custom_react.plan.printing import PlanConsolePrinter
from custom_react.prompts import message
from custom_react.testing import Script
from tests.conftest import run_by, summarize
from tests.running.test_runnable import Recorder, tree

STOPPED = message("plan_stopped", "en")

ROOT = Path(__file__).resolve().parents[2]
QUESTION = "What is a rose plus 5%, and what do 3 such roses cost?"
PLAN = "Plan:\n1. Search for the rose price.\n2. Add 5% to it.\n3. Multiply by 3."
STEP_1 = ("Thought: look it up\nAction: search\nAction Input: rose", "Final Answer: 1.2 yuan")
REVISED = "Plan:\n1. Calculate 1.2 * 1.05 * 3."
STEP_2 = ("Action: calculator\nAction Input: 1.2 * 1.05 * 3", "Final Answer: 3.78")
ANSWER = "Final Answer: 3.78 yuan for three roses."


def plan_agent(model: Any, tools: list[Any], **options: Any) -> PlanAndExecuteAgent:
    executor = CustomReActAgent(model, tools, max_iterations=options.pop("max_iterations", 4))
    return PlanAndExecuteAgent(model, executor, **options)


def plan_summary(events: list[Any]) -> list[tuple[Any, ...]]:
    """Plan events as tuples, the executor's events as `summarize` gives them."""
    rows: list[tuple[Any, ...]] = []
    for event in events:
        match event:
            case pe.PlanMade(steps=steps) | pe.Replanned(steps=steps):
                rows.append((event.type, *steps))
            case pe.StepStarted(number=number, step=step):
                rows.append(("step", number, step))
            case pe.StepResult(number=number, result=result, status=status):
                rows.append(("step_result", number, status, result))
            case pe.FinalResponse(output=output):
                rows.append(("response", output))
            case pe.PlanParseFailure(stage=stage, consecutive=consecutive):
                rows.append(("plan_parse_failure", stage, consecutive))
            case pe.StepLimitReached(steps=steps):
                rows.append(("step_limit", steps))
            case _:
                rows += summarize([event])
    return rows


def test_a_three_step_plan_is_revised_after_the_first_result(script, tools, calls):
    model = script(PLAN, *STEP_1, REVISED, *STEP_2, ANSWER)
    events = list(plan_agent(model.model, tools).stream(QUESTION))
    model.assert_consumed()
    assert plan_summary(events) == [
        ("plan", "Search for the rose price.", "Add 5% to it.", "Multiply by 3."),
        ("step", 1, "Search for the rose price."),
        ("action", "search", "rose"),
        ("observation", "ok", "A rose stem costs 1.2 yuan wholesale in Kunming."),
        ("final_answer", "1.2 yuan"),
        ("step_result", 1, "ok", "1.2 yuan"),
        ("replan", "Calculate 1.2 * 1.05 * 3."),
        ("step", 2, "Calculate 1.2 * 1.05 * 3."),
        ("action", "calculator", "1.2 * 1.05 * 3"),
        ("observation", "ok", "3.7800000000000002"),
        ("final_answer", "3.78"),
        ("step_result", 2, "ok", "3.78"),
        ("response", "3.78 yuan for three roses."),
        ("result", "final_answer", 2),
    ]
    assert calls.calls == [("search", "rose"), ("calculator", "1.2 * 1.05 * 3")]
    result = events[-1].result
    assert result.past_steps == [
        ("Search for the rose price.", "1.2 yuan"),
        ("Calculate 1.2 * 1.05 * 3.", "3.78"),
    ]
    assert result.plan == [] and [a.tool for a, _ in result.intermediate_steps] == [
        "search",
        "calculator",
    ]


def test_later_steps_see_the_question_and_the_earlier_results(script, tools):
    model = script(PLAN, *STEP_1, REVISED, *STEP_2, ANSWER)
    started = [
        e for e in plan_agent(model.model, tools).stream(QUESTION) if e.type == "step_started"
    ]
    assert started[0].task == "Search for the rose price."
    assert started[1].task == (
        f"What we know so far (while answering: {QUESTION}):\n"
        "1. Search for the rose price.\n   Result: 1.2 yuan\n\n"
        "Your task now: Calculate 1.2 * 1.05 * 3."
    )


def test_the_replanner_reads_the_plan_and_past_steps(script, tools):
    model = script(PLAN, *STEP_1, ANSWER)
    seen = model.prompts  # every prompt the scripted model was sent
    plan_agent(model.model, tools).invoke(QUESTION)
    replanner_prompt = seen[-1][0].content
    assert f"Question: {QUESTION}" in replanner_prompt
    assert (
        "Steps done so far, with their results:\n1. Search for the rose price.\n   Result: 1.2 yuan"
        in replanner_prompt
    )
    assert "Steps of the plan still to do:\n1. Add 5% to it.\n2. Multiply by 3." in replanner_prompt
    assert "search: Look up facts and prices." in seen[0][0].content  # the planner knows the tools


def test_a_finished_step_the_replanner_copies_is_dropped(script, tools):
    copied = "Plan:\n1. Search for the rose price.\n2. Calculate 1.2 * 1.05 * 3."
    model = script(PLAN, *STEP_1, copied, *STEP_2, ANSWER)
    events = list(plan_agent(model.model, tools).stream(QUESTION))
    model.assert_consumed()
    replanned = next(e for e in events if isinstance(e, pe.Replanned))
    assert replanned.steps == ("Calculate 1.2 * 1.05 * 3.",)
    assert replanned.repeated == ("Search for the rose price.",)
    assert [e.step for e in events if isinstance(e, pe.StepStarted)] == [
        "Search for the rose price.",
        "Calculate 1.2 * 1.05 * 3.",
    ]


@pytest.mark.parametrize(
    ("language", "error"),
    [("en", "every step you wrote is already done"), ("zh", "你写的每一步都已经做完了")],
)
def test_a_new_plan_of_only_finished_steps_goes_back_to_the_replanner(
    script, tools, language, error
):
    model = script(PLAN, *STEP_1, "1. Search for the rose price.", ANSWER)
    events = list(plan_agent(model.model, tools, language=language).stream(QUESTION))
    model.assert_consumed()
    assert plan_summary(events)[-3:] == [
        ("plan_parse_failure", "replanner", 1),
        ("response", "3.78 yuan for three roses."),
        ("result", "final_answer", 1),
    ]
    failure = next(e for e in events if isinstance(e, pe.PlanParseFailure))
    assert error in failure.error


def test_the_replanner_may_answer_after_the_first_step(script, tools):
    model = script(PLAN, *STEP_1, ANSWER)
    result = plan_agent(model.model, tools).invoke(QUESTION)
    model.assert_consumed()
    assert (result["output"], result["stop_reason"], result["iterations"]) == (
        "3.78 yuan for three roses.",
        "final_answer",
        1,
    )
    assert result["past_steps"] == [("Search for the rose price.", "1.2 yuan")]


def test_the_step_limit_ends_with_a_result_not_an_exception(script, tools):
    model = script(PLAN, *STEP_1, REVISED, *STEP_2, "Plan:\n1. Check the sum.")
    events = list(plan_agent(model.model, tools, max_steps=2).stream(QUESTION))
    model.assert_consumed()
    assert plan_summary(events)[-3:] == [
        ("replan", "Check the sum."),
        ("step_limit", 2),
        ("result", "max_iterations", 2),
    ]
    result = events[-1].result
    assert result.output == STOPPED and result.plan == ["Check the sum."]


def test_an_executor_that_hits_its_limit_hands_the_replanner_a_result(script, tools):
    model = script(PLAN, "Action: search\nAction Input: rose", ANSWER)
    events = list(plan_agent(model.model, tools, max_iterations=1).stream(QUESTION))
    model.assert_consumed()
    assert plan_summary(events)[2:] == [
        ("action", "search", "rose"),
        ("observation", "ok", "A rose stem costs 1.2 yuan wholesale in Kunming."),
        ("limit_reached", "max_iterations", 1),
        (
            "step_result",
            1,
            "stopped",
            "Agent stopped at max_iterations=1, before a final answer. (stop reason: max_iterations)."
            " Last observation: A rose stem costs 1.2 yuan wholesale in Kunming.",
        ),
        ("response", "3.78 yuan for three roses."),
        ("result", "final_answer", 1),
    ]


def test_an_executor_whose_model_fails_hands_the_replanner_the_error(script, tools):
    def broken():
        raise ConnectionError("the server went away")
        yield  # a generator: the error comes on the first model call

    planner = script(PLAN, ANSWER)
    executor = CustomReActAgent(GenericFakeChatModel(messages=broken()), tools, model_retries=0)
    result = PlanAndExecuteAgent(planner.model, executor).invoke(QUESTION)
    planner.assert_consumed()
    error = (
        "The model could not answer, so the run stopped: ConnectionError: the server went away"
        " (stop reason: model_error)."
    )
    assert result["past_steps"] == [("Search for the rose price.", error)]
    assert (result["output"], result["stop_reason"]) == (
        "3.78 yuan for three roses.",
        "final_answer",
    )
    assert isinstance(result["messages"][2], HumanMessage)  # the executor's run is kept, too


@pytest.mark.parametrize(
    ("language", "error"),
    [
        ("en", "Invalid format: no plan found. Write the plan as a numbered list"),
        ("zh", "格式错误：没有找到计划。请把计划写成编号列表"),
    ],
)
def test_an_unreadable_plan_goes_back_to_the_planner(script, tools, language, error):
    model = script("I would look up the price.", PLAN, *STEP_1, ANSWER)
    seen = model.prompts
    events = list(plan_agent(model.model, tools, language=language).stream(QUESTION))
    assert plan_summary(events)[:2] == [
        ("plan_parse_failure", "planner", 1),
        ("plan", "Search for the rose price.", "Add 5% to it.", "Multiply by 3."),
    ]
    assert [type(m) for m in seen[1][1:]] == [AIMessage, HumanMessage]
    assert seen[1][2].content.startswith(error)


def test_without_a_readable_plan_the_question_is_the_one_step(script, tools):
    model = script("No idea.", "Still no idea.", "Final Answer: 1.2 yuan", ANSWER)
    events = list(plan_agent(model.model, tools).stream(QUESTION))
    model.assert_consumed()
    assert plan_summary(events)[:4] == [
        ("plan_parse_failure", "planner", 1),
        ("plan_parse_failure", "planner", 2),
        ("plan", QUESTION),
        ("step", 1, QUESTION),
    ]


def test_an_unreadable_replanner_ends_with_the_last_result(script, tools):
    model = script(PLAN, *STEP_1, "Hmm.", "Hmm again.")
    result = plan_agent(model.model, tools).invoke(QUESTION)
    model.assert_consumed()
    assert (result["output"], result["stop_reason"]) == ("1.2 yuan", "parse_failures")
    assert result["plan"] == ["Add 5% to it.", "Multiply by 3."]


def test_invoke_returns_the_react_keys_plus_plan_and_past_steps(script, tools):
    result = plan_agent(script(PLAN, *STEP_1, ANSWER).model, tools).invoke({"input": QUESTION})
    assert set(result) == {
        "input", "output", "messages", "intermediate_steps", "iterations", "stop_reason", "usage",
        "error", "run_id", "state", "structured_response", "checks_failed",
        "plan", "past_steps",
    }  # fmt: skip
    roles = [(type(m).__name__, getattr(m, "name", None)) for m in result["messages"]]
    assert roles == [
        ("HumanMessage", None),  # the question
        ("AIMessage", "planner"),
        ("HumanMessage", None),  # the executor's question: the step
        ("AIMessage", None),
        ("ToolMessage", "search"),
        ("AIMessage", None),
        ("AIMessage", "replanner"),
    ]


def test_one_chain_run_with_planner_executor_and_replanner_as_children(script, tools):
    recorder = Recorder()
    agent = plan_agent(script(PLAN, *STEP_1, ANSWER).model, tools)
    agent.invoke(QUESTION, config={"callbacks": [recorder]})
    (root,) = recorder.roots
    planner, executor, replanner = root.child_runs
    model_call = [[("prompt", "ChatPromptTemplate"), []], [("llm", "RecordingChatModel"), []]]
    assert (tree(planner), tree(replanner)) == (
        [("chain", "planner"), model_call],
        [("chain", "replanner"), model_call],
    )
    assert (root.run_type, root.name) == ("chain", "PlanAndExecuteAgent")
    assert (executor.run_type, executor.name) == ("chain", "CustomReActAgent")
    inner = [(run.run_type, run.name) for run in executor.child_runs]
    assert inner.count(("llm", "RecordingChatModel")) == 2 and ("tool", "search") in inner
    assert root.outputs is not None and root.outputs["output"] == "3.78 yuan for three roses."


def test_stream_astream_ainvoke_and_batch_agree(script, tools):
    def agent() -> PlanAndExecuteAgent:
        return plan_agent(script(PLAN, *STEP_1, ANSWER).model, tools)

    async def main() -> tuple[list[str], dict[str, Any]]:
        types = [event.type async for event in agent().astream(QUESTION)]
        return types, await agent().ainvoke(QUESTION)

    types, result = asyncio.run(main())
    assert types == [event.type for event in agent().stream(QUESTION)]
    assert types[-1] == "result" and result["output"] == "3.78 yuan for three roses."
    assert [r["output"] for r in agent().batch([QUESTION])] == ["3.78 yuan for three roses."]


def test_only_the_run_ends_with_run_finished(script, tools):
    events = list(
        plan_agent(script(PLAN, *STEP_1, REVISED, *STEP_2, ANSWER).model, tools).stream("q")
    )
    assert [type(e) for e in events].count(RunFinished) == 1 and isinstance(events[-1], RunFinished)


@pytest.mark.parametrize(
    "options, message",
    [
        ({"planner_prompt": "Plan this."}, r"planner template misses \['input'\]"),
        ({"replanner_prompt": "{input} {plan}"}, r"replanner template misses \['past_steps'\]"),
        ({"planner_prompt": "{input} {question}"}, r"uses unknown \['question'\]"),
        ({"max_steps": 0}, "at least 1"),
    ],
)
def test_bad_options_are_clear_errors(script, tools, options, message):
    with pytest.raises(ValueError, match=message):
        plan_agent(script().model, tools, **options)


def test_own_templates_are_used(script, tools):
    model = script("1. a", "Final Answer: done a", "Final Answer: all done")
    agent = plan_agent(
        model.model,
        tools,
        planner_prompt="Plan for {{this}}: {input}",
        replanner_prompt="{input}|{plan}|{past_steps}",
    )
    result = agent.invoke("q")
    assert result["output"] == "all done"
    planned = result["messages"][1]  # with its reply's id
    assert isinstance(planned, AIMessage) and planned.id
    assert (planned.text, planned.name) == ("1. a", "planner")


# -- What a learner sees --------------------------------------------------------------------

PRINTED = {
    "en": [
        "Plan:",
        "  1. Search for the rose price.",
        "  2. Add 5% to it.",
        "  3. Multiply by 3.",
        "Step 1: Search for the rose price.",
        "Thought: look it up",
        "Action: search",
        "Action Input: rose",
        "Observation: A rose stem costs 1.2 yuan wholesale in Kunming.",
        "Final Answer: 1.2 yuan",
        "Step 1 result: 1.2 yuan",
        "New plan:",
        "  1. Calculate 1.2 * 1.05 * 3.",
        "Step 2: Calculate 1.2 * 1.05 * 3.",
        "Action: calculator",
        "Action Input: 1.2 * 1.05 * 3",
        "Observation: 3.7800000000000002",
        "Final Answer: 3.78",
        "Step 2 result: 3.78",
        "Answer: 3.78 yuan for three roses.",
    ],
    "zh": [
        "计划：",
        "  1. Search for the rose price.",
        "  2. Add 5% to it.",
        "  3. Multiply by 3.",
        "第 1 步：Search for the rose price.",
        "思考：look it up",
        "行动：search",
        "行动输入：rose",
        "观察：A rose stem costs 1.2 yuan wholesale in Kunming.",
        "最终答案：1.2 yuan",
        "第 1 步结果：1.2 yuan",
        "新计划：",
        "  1. Calculate 1.2 * 1.05 * 3.",
        "第 2 步：Calculate 1.2 * 1.05 * 3.",
        "行动：calculator",
        "行动输入：1.2 * 1.05 * 3",
        "观察：3.7800000000000002",
        "最终答案：3.78",
        "第 2 步结果：3.78",
        "答案：3.78 yuan for three roses.",
    ],
}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_printer_shows_plans_step_transcripts_and_the_answer(script, tools, language):
    lines: list[str] = []
    printer = PlanConsolePrinter(lines.append, language=language, color=False)
    model = script(PLAN, *STEP_1, REVISED, *STEP_2, ANSWER)
    for event in plan_agent(model.model, tools, language=language).stream(QUESTION):
        printer(event)
    assert lines == PRINTED[language]


def test_the_printer_shows_failures_and_the_step_limit(script, tools):
    lines: list[str] = []
    model = script("No plan.", PLAN, *STEP_1, REVISED)
    for event in plan_agent(model.model, tools, max_steps=1).stream(QUESTION):
        PlanConsolePrinter(lines.append, color=False)(event)
    assert lines[:2] == [
        "Planner wrote: No plan.",
        "Format error: Invalid format: no plan found. Write the plan as a numbered list, "
        "one step per line: '1. ...', '2. ...'.",
    ]
    assert lines[-2:] == [
        "Stopped: step limit reached after 1 steps",
        f"Final Answer: {STOPPED}",
    ]


def test_verbose_prints_to_the_console(script, tools, capsys):
    plan_agent(script(PLAN, *STEP_1, ANSWER).model, tools, verbose=True).invoke(QUESTION)
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "Plan:" and printed[-1] == "Answer: 3.78 yuan for three roses."


# -- The Mermaid diagram ----------------------------------------------------------------------

_LANES = ("User", "Planner", "Executor", "Replanner")
_STATEMENT = re.compile(
    r"    (?:participant (?P<lane>\w+) as [^\n]+"
    r"|(?P<source>\w+)(?:->>|-->>|--x)(?P<target>\w+): [^\n]+"
    r"|Note over (?P<over>\w+): [^\n]+)"
)


def assert_valid_plan_diagram(text: str) -> None:
    """Every line is a statement of Mermaid's sequence grammar, over the four plan lanes only."""
    first, *lines = text.rstrip("\n").split("\n")
    assert first == "sequenceDiagram"
    assert [line.split()[1] for line in lines[:4]] == list(_LANES)
    for line in lines:
        match = _STATEMENT.fullmatch(line)
        assert match, f"not a sequence diagram statement: {line!r}"
        assert {match["lane"], match["source"], match["target"], match["over"]} - {None} <= set(
            _LANES
        ), line
        text_part = line.split(": ", 1)[1] if ": " in line else ""
        assert not set(text_part) & set(';#"<>%'), line
        assert len(text_part) <= MERMAID_TEXT_LIMIT, line


RUNS = {
    "revised": ((PLAN, *STEP_1, REVISED, *STEP_2, ANSWER), {}),
    "limit": (("No plan.", PLAN, "Action: search\nAction Input: rose", REVISED), {"max_steps": 1, "max_iterations": 1}),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(RUNS))
@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_diagram_is_a_valid_sequence_diagram(script, tools, name, language):
    replies, options = RUNS[name]
    events = list(plan_agent(script(*replies).model, tools, **options).stream(QUESTION))
    assert_valid_plan_diagram(plan_to_mermaid(QUESTION, events, language))


def test_the_diagram_has_planner_executor_and_replanner_lanes(script, tools):
    events = list(
        plan_agent(script(PLAN, *STEP_1, REVISED, *STEP_2, ANSWER).model, tools).stream(QUESTION)
    )
    lines = plan_to_mermaid(QUESTION, events).splitlines()
    assert lines[1:6] == [
        "    participant User as User",
        "    participant Planner as Planner",
        "    participant Executor as Executor (ReAct)",
        "    participant Replanner as Replanner",
        f"    User->>Planner: Question: {mermaid_text(QUESTION)}",
    ]
    assert "    Note over Planner: Plan: 1. Search for the rose price." in lines
    assert "    Planner->>Executor: Step 1: Search for the rose price." in lines
    assert "    Executor->>Executor: search(rose)" in lines
    assert "    Executor-->>Replanner: Step 1 result: 1.2 yuan" in lines
    assert "    Note over Replanner: New plan: 1. Calculate 1.2 * 1.05 * 3." in lines
    assert "    Replanner->>Executor: Step 2: Calculate 1.2 * 1.05 * 3." in lines
    assert lines[-1] == "    Replanner-->>User: Answer: 3.78 yuan for three roses."


def test_the_diagram_shows_a_failed_step_and_the_step_limit(script, tools):
    replies, options = RUNS["limit"]
    events = list(plan_agent(script(*replies).model, tools, **options).stream(QUESTION))
    text = plan_to_mermaid(QUESTION, events)
    assert "    Note over Planner: Format error (1): Invalid format: no plan found." in text
    assert "    Executor--xReplanner: Step 1 result: Agent stopped" in text
    assert "    Note over Replanner: Stopped: step limit reached after 1 steps\n" in text
    assert text.endswith(f"    Replanner-->>User: {STOPPED}\n")


@pytest.mark.skipif(
    shutil.which("node") is None
    or not (ROOT / "scripts" / "mermaid" / "node_modules" / "mermaid").is_dir(),
    reason="Mermaid's parser is not installed: run `npm ci --prefix scripts/mermaid`",
)
def test_the_diagram_parses_with_mermaid_itself(script, tools, tmp_path):
    files = []
    for name, (replies, options) in sorted(RUNS.items()):
        events = list(plan_agent(script(*replies).model, tools, **options).stream(QUESTION))
        path = tmp_path / f"{name}.mmd"
        path.write_text(plan_to_mermaid(QUESTION, events, "zh" if name == "limit" else "en"))
        files.append(str(path))
    check = ROOT / "scripts" / "mermaid" / "parse_mermaid.mjs"
    result = subprocess.run(
        ["node", str(check), *files], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count(" sequence\n") == len(RUNS)


# -- The demo ---------------------------------------------------------------------------------


def load_demo() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "demo_plan_execute", ROOT / "demos" / "plan_execute.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_demo_prints_both_runs_and_saves_the_transcripts(monkeypatch, tmp_path):
    monkeypatch.delenv("TAVILY_API_KEY", raising=False)
    model = GenericFakeChatModel(
        messages=iter(
            [
                "1. Search for the 2025 Australian Open men's singles winner.\n2. Find his hometown.",
                "Action: search\nAction Input: 2025 Australian Open men's singles",
                "Final Answer: Jannik Sinner",
                "Plan:\n1. Search for Jannik Sinner's hometown.",
                "Action: search\nAction Input: Jannik Sinner hometown",
                "Final Answer: San Candido",
                "Final Answer: Jannik Sinner; his hometown is San Candido.",
                "Action: search\nAction Input: 2025 Australian Open men's singles",
                "Final Answer: Jannik Sinner, from Italy.",
            ]
        )
    )
    lines: list[str] = []
    outcomes = load_demo().run(model, write=lines.append, save=tmp_path)
    assert [o.output for o in outcomes] == [
        "Jannik Sinner; his hometown is San Candido.",
        "Jannik Sinner, from Italy.",
    ]
    assert [o.model_calls for o in outcomes] == [7, 2]
    assert "Step 2: Search for Jannik Sinner's hometown." in lines
    assert any(line.startswith("Observation: [offline snapshot") for line in lines)
    assert lines[-1] == "  --> Jannik Sinner, from Italy."
    assert_valid_plan_diagram((tmp_path / "real_plan_execute.mmd").read_text())
    saved = (tmp_path / "real_plan_execute.txt").read_text()
    assert saved.startswith("Plan:\n") and saved.endswith(
        "\nAnswer: Jannik Sinner; his hometown is San Candido.\n"
    )
    assert (tmp_path / "real_plan_execute_react.txt").read_text().startswith("Action: search\n")


def test_the_demo_ends_with_the_output_of_a_real_run():
    lines = (ROOT / "demos" / "plan_execute.py").read_text(encoding="utf-8").rstrip().splitlines()
    start = max(i for i, line in enumerate(lines) if line.startswith("# Expected output"))
    tail = lines[start + 1 :]
    assert len(tail) >= 10 and all(line.startswith("#") for line in tail)
    # The plan-and-execute run ends with its answer, or at its step limit (a real run may).
    assert any(line.startswith(("# Answer: ", "# Stopped: ")) for line in tail)
    assert any(line.startswith("# === side by side") for line in tail)


def test_the_result_event_types_are_a_closed_set():
    kinds = {cls.__dataclass_fields__["type"].default for cls in pe.PlanEvent.__args__}
    assert kinds == {
        "plan", "step_started", "step_result", "replan", "response", "plan_parse_failure", "step_limit",
    }  # fmt: skip
    assert not kinds & {cls.__dataclass_fields__["type"].default for cls in AgentEvent.__args__}


def test_a_system_prompt_opens_the_planner_and_replanner_turns(script, tools):
    model = script(PLAN, *STEP_1, ANSWER)
    agent = plan_agent(model.model, tools, system_prompt="Plan in at most two steps.")
    agent.invoke(QUESTION)
    planner, *_, replanner = model.prompts
    for prompt in (planner, replanner):
        assert (
            isinstance(prompt[0], SystemMessage) and prompt[0].text == "Plan in at most two steps."
        )
    executor = model.prompts[1]
    assert "Plan in at most two steps." not in executor[0].text  # the executor has its own


@pytest.mark.parametrize("system_prompt", ["Plan in at most two steps.", ""])
@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream"])
def test_the_input_s_system_message_opens_every_call_s_one_system_turn(
    script, tools, way, system_prompt
):
    model = script(PLAN, *STEP_1, ANSWER)
    agent = plan_agent(model.model, tools, system_prompt=system_prompt)
    earlier = [HumanMessage("Hi"), AIMessage("Hello!")]
    asked = [SystemMessage("Answer in French."), *earlier, HumanMessage(QUESTION)]
    result, _ = run_by(agent, way, {"messages": asked})
    assert result["output"] == "3.78 yuan for three roses."
    planner, executor, _, replanner = model.prompts
    for prompt in (planner, executor, replanner):  # one system turn, first, the input's text first
        assert [m.type for m in prompt].count("system") == 1 and prompt[0].type == "system"
        assert prompt[0].text.startswith("Answer in French.")
    for prompt in (planner, replanner):  # then the planner's own, and the conversation as before
        assert prompt[0].text == "\n\n".join(filter(None, ["Answer in French.", system_prompt]))
        assert prompt[1:3] == earlier
    assert "Answer the question" in executor[0].text  # the executor's own prompt follows
    # The input's messages open the result, as a ReAct run's; not recorded again as a step's.
    assert result["messages"][:4] == asked
    assert [m.type for m in result["messages"]].count("system") == 1


# One plan, one step, the answer: (system prompt, question, search query, replies, answer).
SYSTEM_PROMPT_RUNS = {
    "en": (
        "Plan in at most two steps.",
        QUESTION,
        "rose",
        (PLAN, *STEP_1, ANSWER),
        "3.78 yuan for three roses.",
    ),
    "zh": (
        "计划最多两步。",
        "三枝玫瑰多少钱？",
        "玫瑰",
        (
            "计划：\n1. 搜索玫瑰的价格。\n2. 乘以 3。",
            "思考：查一下\n行动：search\n行动输入：玫瑰",
            "最终答案：每枝 1.2 元",
            "最终答案：三枝玫瑰共 3.6 元。",
        ),
        "三枝玫瑰共 3.6 元。",
    ),
}


@pytest.mark.parametrize(
    ("way", "language"),
    [
        (way, language)
        for way in ("invoke", "ainvoke", "stream")
        for language in ("en", "zh")
        if (way, language) != ("invoke", "en")  # the test above
    ],
)
def test_a_system_prompt_opens_the_planners_turn_in_every_way_and_language(
    script, tools, calls, way, language
):

    system, question, query, replies, answer = SYSTEM_PROMPT_RUNS[language]
    model = script(*replies)
    executor = CustomReActAgent(model.model, tools, max_iterations=4, language=language)
    agent = PlanAndExecuteAgent(model.model, executor, language=language, system_prompt=system)
    result, _ = run_by(agent, way, question)
    assert (result["output"], len(model.prompts), calls.calls) == (answer, 4, [("search", query)])
    planner, executor_turn, _, replanner = model.prompts
    for prompt in (planner, replanner):
        assert isinstance(prompt[0], SystemMessage) and prompt[0].text == system
    assert system not in executor_turn[0].text  # the executor has its own


def test_a_step_is_not_a_turn_of_the_user_s_thread():
    store = MemoryStore()
    planner = Script("1. Say hi.\n2. Say bye.", "1. Say bye.", "Final Answer: hi and bye")
    steps = Script("Final Answer: hi", "Final Answer: bye")
    executor = CustomReActAgent(steps.model, [], checkpoint=store)
    agent = PlanAndExecuteAgent(planner.model, executor)
    result = agent.invoke("Greet me, then say bye.", {"configurable": {"thread_id": "user-42"}})
    assert result["output"] == "hi and bye"
    assert store.history("user-42") == []  # the steps' tasks are not the user's questions
    assert [m.type for m in steps.prompts[1][:-1]] == ["system"]  # no earlier step as history


def test_the_step_limit_is_said_in_the_run_s_language():
    planner = Script("1. 算一下。\n2. 再算一下。", "1. 再算一下。")
    steps = Script("最终答案：1")
    executor = CustomReActAgent(steps.model, [], language="zh")
    agent = PlanAndExecuteAgent(planner.model, executor, max_steps=1, language="zh")
    result = agent.invoke("算两次。")
    assert result["output"] == message("plan_stopped", "zh") and "步数上限" in result["output"]


@pytest.mark.parametrize("way", ["sync", "async"])
def test_stream_final_answer_gives_the_run_s_answer_not_a_step_s(way):
    planner = Script(
        "1. Compute 17 * 23.\n2. Add 9 to it.", "1. Add 9 to it.", "Final Answer: It is 400."
    )
    steps = Script(
        "Action: sums\nAction Input: 17 * 23",
        "Final Answer: 391",
        "Action: sums\nAction Input: 391 + 9",
        "Final Answer: 400",
    )
    agent = PlanAndExecuteAgent(planner.model, CustomReActAgent(steps.model, [sums]))
    if way == "sync":
        pieces = list(agent.stream_final_answer("What is 17 * 23 + 9?"))
    else:

        async def collect() -> list[str]:
            return [piece async for piece in agent.astream_final_answer("What is 17 * 23 + 9?")]

        pieces = asyncio.run(collect())
    assert pieces == ["It is 400."]


@tool
def sums(expression: str) -> str:
    """Evaluate arithmetic."""
    return {"17 * 23": "391", "391 + 9": "400"}[expression]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_langgraph_graph_of_the_plan_agent_keeps_each_question_once_and_ends_on_the_answer(
    script, language
):
    # A `MessagesState` graph merges by id: the question must come back as it came in, and the
    # last message is the answer (not the replanner's "Final Answer: ..." reply).
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.graph import END, START, MessagesState, StateGraph

    marker = "Final Answer: " if language == "en" else "最终答案："
    planner = script("1. Add.", f"{marker}4", "1. Add.", f"{marker}6")
    steps = script(f"{marker}4", f"{marker}6")
    executor = CustomReActAgent(steps.model, [], language=language)
    graph = StateGraph(MessagesState)
    graph.add_node("agent", PlanAndExecuteAgent(planner.model, executor, language=language))
    graph.add_edge(START, "agent")
    graph.add_edge("agent", END)
    app = graph.compile(checkpointer=InMemorySaver())
    thread = {"configurable": {"thread_id": "1"}}
    first = app.invoke({"messages": [("user", "2+2?")]}, thread)["messages"]
    assert [m.text for m in first if m.type == "human"] == ["2+2?", "Add."]
    assert first[-1].text == "4" and first[-1].response_metadata["react_log"] == f"{marker}4"
    out = app.invoke({"messages": [("user", "3+3?")]}, thread)["messages"]
    assert [m.text for m in out if m.type == "human"] == ["2+2?", "Add.", "3+3?", "Add."]
    assert out[-1].text == "6"


def test_the_plan_agent_s_messages_begin_with_the_input_s_as_they_came(script, tools):
    model = script(PLAN, *STEP_1, ANSWER)
    question = HumanMessage(QUESTION, id="q-1", name="li")
    earlier = [HumanMessage("Hi", id="h-1"), AIMessage("Hello!", id="a-1")]
    result = plan_agent(model.model, tools).invoke({"messages": [*earlier, question]})
    assert [m.id for m in result["messages"][:3]] == ["h-1", "a-1", "q-1"]
    assert result["messages"][2].name == "li"
    assert result["messages"][-1].text == result["output"] == "3.78 yuan for three roses."
