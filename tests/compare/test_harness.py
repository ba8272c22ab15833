"""The comparison harness with scripted models: metrics, the tool-calling probe, crashes, limits."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.agents import AgentAction
from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool

from custom_react.compare import AGENTS, Question, render_table, run_comparison
from custom_react.compare.runners import Runner, RunOutcome, legacy_outcome
from tests.compare.fakes import (
    PERCENT,
    TEXT_SCRIPT,
    ToolCallingFake,
    offline_tools,
    scripted,
    usage,
)


@pytest.mark.parametrize("agent", ["custom", "legacy"])
def test_metrics_are_counted_from_the_run(agent: str) -> None:
    """Both text agents count the same steps, calls, tokens and parse failures for one script."""
    report = run_comparison([PERCENT], scripted(*TEXT_SCRIPT), offline_tools, agents=(agent,))
    (run,) = report.records
    assert (run.agent, run.correct, run.answer, run.error) == (agent, True, "310", None)
    assert (run.iterations, run.model_calls, run.tool_calls) == (3, 3, 1)
    assert (run.prompt_tokens, run.completion_tokens) == (360, 28)
    assert (run.parse_failures, run.stop_reason) == (1, "final_answer")
    assert any("Observation: 310" in line for line in run.transcript)
    assert report.totals()[agent]["solved"] == 1


def test_create_agent_runs_on_a_tool_calling_model_and_parses_nothing() -> None:
    """After the probe, `create_agent` runs on provider tool calls and reports no parse failure."""
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
    assert run.transcript == [  # one entry per step, as for the text agents
        'Action: calculator\nAction Input: {"expression": "12.5% of 2480"}',
        "Observation: 310",
        "Final Answer: 310",
    ]


def test_create_agent_is_skipped_with_a_reason_when_the_model_cannot_call_tools() -> None:
    """A model without `bind_tools` skips `create_agent`, and the table says why."""
    model = scripted(*TEXT_SCRIPT)  # GenericFakeChatModel has no bind_tools
    report = run_comparison([PERCENT], model, offline_tools, agents=("custom", "create_agent"))
    assert report.agents == ["custom"]
    assert "bind_tools" in report.skipped["create_agent"]
    assert "create_agent skipped: " in render_table(report)


def test_a_model_that_writes_calls_as_text_is_reported_as_no_tool_calling() -> None:
    """A probe reply with the call written as text skips `create_agent`; the others still run."""
    model = ToolCallingFake(messages=iter([AIMessage('{"name": "calculator"}'), *TEXT_SCRIPT]))
    report = run_comparison([PERCENT], model, offline_tools, agents=("create_agent", "custom"))
    assert "returned no tool_calls" in report.skipped["create_agent"]
    assert [run.correct for run in report.records] == [True]


def crashing_runner(llm: Any, tools: list[BaseTool], max_iterations: int) -> Runner:
    """Build a runner whose every run raises, as a buggy agent would."""

    def run(question: str, config: RunnableConfig) -> RunOutcome:
        raise RuntimeError("agent bug")

    return run


def answering_runner(llm: Any, tools: list[BaseTool], max_iterations: int) -> Runner:
    """Build a runner that answers "310" in one step."""
    return lambda question, config: RunOutcome("310", 1, "final_answer", transcript=["ok"])


def test_a_crash_in_one_run_is_that_runs_failure_not_the_harness() -> None:
    """A crashing agent's runs are recorded as errors; the other agent's runs are unaffected."""
    runners = {"broken": crashing_runner, "fine": answering_runner}
    questions = [PERCENT, Question("Say hi", id="hi")]
    report = run_comparison(
        questions, scripted(), offline_tools, ("broken", "fine"), runners=runners
    )
    broken = report.runs_of("broken")
    fine = report.runs_of("fine")
    assert [run.error for run in broken] == ["RuntimeError: agent bug"] * 2
    assert [run.correct for run in broken] == [False, None]  # no expectation: not judged
    assert [run.correct for run in fine] == [True, None]
    assert report.totals()["broken"] == report.totals()["broken"] | {"solved": 0, "errors": 2}
    assert "CRASH RuntimeError: agent bug" in render_table(report)


def test_a_model_that_fails_mid_run_is_recorded_per_agent() -> None:
    """A model whose script runs out mid-run is each agent's error, with the calls it made."""
    model = scripted(TEXT_SCRIPT[1])  # one reply, then the script runs out
    report = run_comparison([PERCENT], model, offline_tools, agents=("custom", "legacy"))
    assert all(run.error and run.correct is False for run in report.records)
    assert report.runs_of("custom")[0].model_calls == 2


def test_unknown_agent_names_fail_before_any_run() -> None:
    """An agent without a runner is a `KeyError` before the model is called."""
    with pytest.raises(KeyError, match="no runner"):
        run_comparison([PERCENT], scripted(), offline_tools, agents=("nope",))


def test_legacy_outcome_reads_a_run_stopped_by_the_iteration_limit() -> None:
    """The executor's "Agent stopped" output after `max_iterations` steps is a limit, not an answer."""
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


def test_create_agent_with_text_react_runs_on_text_replies_and_counts_its_format_errors() -> None:
    """The fourth agent needs no tool calls: the scripted text run solves, as ours does."""
    report = run_comparison(
        [PERCENT], scripted(*TEXT_SCRIPT), offline_tools, agents=("create_agent_text",)
    )

    (record,) = report.records
    assert (record.correct, record.model_calls, record.tool_calls) == (True, 3, 1)  # not _Exception
    assert record.parse_failures == 1 and record.stop_reason == "final_answer"
    assert record.transcript[0].startswith("Thought: I should work this out.")
    assert record.transcript[1].startswith("Observation: Invalid format")
    assert "Action: calculator" in record.transcript[2]
    assert record.transcript[-1].endswith("Final Answer: 310")
    assert "create_agent_text" in AGENTS and not report.skipped
