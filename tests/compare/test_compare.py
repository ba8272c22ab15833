"""The comparison harness with scripted models: questions, answer checks, metrics, crashes, reports."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool

from custom_react.compare import (
    Question,
    check_answer,
    load_questions,
    run_comparison,
)
from custom_react.compare.report import render_table, side_by_side, to_json, to_markdown
from custom_react.compare.runners import Runner, RunOutcome, legacy_outcome
from tools import calculator, make_search_tool

ROOT = Path(__file__).resolve().parents[2]
PERCENT = Question("What is 12.5% of 2480?", id="percent", expected=310)


class ToolCallingFake(GenericFakeChatModel):
    """The scripted model, plus `bind_tools` (which the fake lacks) so `create_agent` accepts it."""

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Any:
        return self


def usage(prompt: int, completion: int) -> Any:
    return {
        "input_tokens": prompt,
        "output_tokens": completion,
        "total_tokens": prompt + completion,
    }


def reply(text: str, prompt: int = 100, completion: int = 10) -> AIMessage:
    return AIMessage(content=text, usage_metadata=usage(prompt, completion))


def scripted(*messages: AIMessage) -> GenericFakeChatModel:
    return GenericFakeChatModel(messages=iter(messages))


def offline_tools() -> list[BaseTool]:
    return [make_search_tool(tavily_api_key=""), calculator]


# A format error, then one calculator step, then the answer: 3 model calls, 1 tool call.
TEXT_SCRIPT = (
    reply("Thought: I should work this out.", 100, 7),
    reply("Thought: use the calculator\nAction: calculator\nAction Input: 12.5% of 2480", 120, 12),
    reply("Thought: I now know the final answer\nFinal Answer: 310", 140, 9),
)


def test_load_questions_reads_the_bundled_set_and_skips_comments(tmp_path: Path) -> None:
    bundled = load_questions(ROOT / "questions" / "default.jsonl")
    assert 8 <= len(bundled) <= 12
    assert all(question.expected is not None for question in bundled)
    assert any(any("\u4e00" <= c <= "\u9fff" for c in q.question) for q in bundled)
    path = tmp_path / "q.jsonl"
    path.write_text('# mine\n\n{"question": "2+2?", "expected": 4}\n', encoding="utf-8")
    assert load_questions(path) == [Question("2+2?", id="q3", expected=4)]


def test_load_questions_names_the_bad_line(tmp_path: Path) -> None:
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
    assert check_answer(output, Question("q", expected=expected)) is correct


def test_numbers_restated_from_the_question_do_not_count() -> None:
    question = Question("买100枝要多少元？", expected=100)
    assert check_answer("买100枝要2000元。", question) is False
    assert check_answer("买100枝要100元。", Question("买一百枝要多少元？", expected=100)) is True


@pytest.mark.parametrize("agent", ["custom", "legacy"])
def test_metrics_are_counted_from_the_run(agent: str) -> None:
    report = run_comparison([PERCENT], scripted(*TEXT_SCRIPT), offline_tools, agents=(agent,))
    (run,) = report.records
    assert (run.agent, run.correct, run.answer, run.error) == (agent, True, "310", None)
    assert (run.iterations, run.model_calls, run.tool_calls) == (3, 3, 1)
    assert (run.prompt_tokens, run.completion_tokens) == (360, 28)
    assert (run.parse_failures, run.stop_reason) == (1, "final_answer")
    assert any("Observation: 310" in line for line in run.transcript)
    assert report.totals()[agent]["solved"] == 1


def test_create_agent_runs_on_a_tool_calling_model_and_parses_nothing() -> None:
    call = {"name": "calculator", "args": {"expression": "12.5% of 2480"}, "id": "c1"}
    model = ToolCallingFake(
        messages=iter(
            [
                AIMessage("", tool_calls=[call]),  # answers the tool-calling probe
                AIMessage("", tool_calls=[call], usage_metadata=usage(80, 15)),
                AIMessage("310", usage_metadata=usage(95, 2)),
            ]
        )
    )
    report = run_comparison([PERCENT], model, offline_tools, agents=("create_agent",))
    (run,) = report.records
    assert report.skipped == {}
    assert (run.correct, run.iterations, run.model_calls, run.tool_calls) == (True, 2, 2, 1)
    assert (run.prompt_tokens, run.completion_tokens, run.parse_failures) == (175, 17, 0)
    assert run.transcript == [
        "Action: calculator",
        'Action Input: {"expression": "12.5% of 2480"}',
        "Observation: 310",
        "Final Answer: 310",
    ]


def test_create_agent_is_skipped_with_a_reason_when_the_model_cannot_call_tools() -> None:
    model = scripted(*TEXT_SCRIPT)  # GenericFakeChatModel has no bind_tools
    report = run_comparison([PERCENT], model, offline_tools, agents=("custom", "create_agent"))
    assert report.agents == ["custom"]
    assert "bind_tools" in report.skipped["create_agent"]
    assert "create_agent skipped: " in render_table(report)


def test_a_model_that_writes_calls_as_text_is_reported_as_no_tool_calling() -> None:
    model = ToolCallingFake(messages=iter([AIMessage('{"name": "calculator"}'), *TEXT_SCRIPT]))
    report = run_comparison([PERCENT], model, offline_tools, agents=("create_agent", "custom"))
    assert "returned no tool_calls" in report.skipped["create_agent"]
    assert [run.correct for run in report.records] == [True]


def crashing_runner(llm: Any, tools: list[BaseTool], max_iterations: int) -> Runner:
    def run(question: str, config: RunnableConfig) -> RunOutcome:
        raise RuntimeError("agent bug")

    return run


def answering_runner(llm: Any, tools: list[BaseTool], max_iterations: int) -> Runner:
    return lambda question, config: RunOutcome("310", 1, "final_answer", transcript=["ok"])


def test_a_crash_in_one_run_is_that_runs_failure_not_the_harness() -> None:
    runners = {"broken": crashing_runner, "fine": answering_runner}
    questions = [PERCENT, Question("Say hi", id="hi")]
    report = run_comparison(
        questions, scripted(), offline_tools, ("broken", "fine"), runners=runners
    )
    broken, fine = report.runs_of("broken"), report.runs_of("fine")
    assert [run.error for run in broken] == ["RuntimeError: agent bug"] * 2
    assert [run.correct for run in broken] == [False, None]  # no expectation: not judged
    assert [run.correct for run in fine] == [True, None]
    assert report.totals()["broken"] == report.totals()["broken"] | {"solved": 0, "errors": 2}
    assert "CRASH RuntimeError: agent bug" in render_table(report)


def test_a_model_that_fails_mid_run_is_recorded_per_agent() -> None:
    model = scripted(TEXT_SCRIPT[1])  # one reply, then the script runs out
    report = run_comparison([PERCENT], model, offline_tools, agents=("custom", "legacy"))
    assert all(run.error and run.correct is False for run in report.records)
    assert report.runs_of("custom")[0].model_calls == 2


def test_unknown_agent_names_fail_before_any_run() -> None:
    with pytest.raises(KeyError, match="no runner"):
        run_comparison([PERCENT], scripted(), offline_tools, agents=("nope",))


def test_legacy_outcome_reads_a_run_stopped_by_the_iteration_limit() -> None:
    from langchain_core.agents import AgentAction

    step = (AgentAction("search", "x", "Thought: t\nAction: search\nAction Input: x"), "found")
    result = {
        "output": "Agent stopped due to iteration limit or time limit.",
        "intermediate_steps": [step] * 3,
    }
    outcome = legacy_outcome(result, max_iterations=3)
    assert (outcome.iterations, outcome.stop_reason, outcome.parse_failures) == (
        3,
        "max_iterations",
        0,
    )


def test_reports_render_as_text_markdown_json_and_side_by_side() -> None:
    report = run_comparison([PERCENT], scripted(*TEXT_SCRIPT), offline_tools, agents=("custom",))
    report.records += run_comparison(
        [PERCENT], scripted(*TEXT_SCRIPT), offline_tools, agents=("legacy",)
    ).records
    report.agents.append("legacy")
    markdown = to_markdown(report)
    assert "## Totals" in markdown
    assert "| custom | 1/1 | 3 | 3 | 360/28 | 1 | 0 |" in markdown
    data = json.loads(to_json(report))
    assert data["totals"]["legacy"]["model_calls"] == 3
    assert len(data["records"][0]["transcript"]) > 3
    columns = side_by_side(report, "percent", width=40)
    assert "== custom ==" in columns and "== legacy ==" in columns
    assert all(line[40:42] == " |" for line in columns.splitlines()[1:])
    assert "| Action: calculator" in columns  # the legacy log keeps its lines


def test_parser_robustness_cases_are_labelled_and_ours_reads_more_than_legacy() -> None:
    spec = importlib.util.spec_from_file_location(
        "parser_robustness", ROOT / "bench" / "parser_robustness.py"
    )
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    rows = bench.score(bench.load_cases())
    assert len(rows) >= 30 and len({row["id"] for row in rows}) == len(rows)
    assert all({"action", "final", "error"} & set(row["expected"]) for row in rows)
    assert all(row["ours"] and row["legacy"] for row in rows if row["category"] == "control")
    assert sum(row["ours"] for row in rows) > sum(row["legacy"] for row in rows)
