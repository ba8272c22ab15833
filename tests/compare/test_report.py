"""The comparison report rendered as Markdown, JSON and two transcripts side by side."""

from __future__ import annotations

import json

from custom_react.compare import run_comparison, side_by_side, to_json, to_markdown
from tests.compare.fakes import PERCENT, TEXT_SCRIPT, offline_tools, scripted


def test_reports_render_as_text_markdown_json_and_side_by_side() -> None:
    """Totals reach Markdown and JSON, and the transcripts line up in two fixed-width columns."""
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


def test_the_report_explains_each_agent_and_where_the_results_differ() -> None:
    from custom_react.compare.notes import differences
    from custom_react.compare.report import ComparisonReport, RunRecord

    def record(agent: str, question_id: str, **fields: object) -> RunRecord:
        return RunRecord(agent, question_id, f"question {question_id}", **fields)  # type: ignore[arg-type]

    report = ComparisonReport(
        "m",
        ["custom", "legacy", "create_agent"],
        [
            record("custom", "a", correct=True, model_calls=2, stop_reason="final_answer"),
            record(
                "legacy",
                "a",
                correct=False,
                model_calls=8,
                stop_reason="max_iterations",
                parse_failures=3,
            ),
            record(
                "create_agent",
                "a",
                correct=False,
                model_calls=1,
                answer="I think 7",
                stop_reason="final_answer",
            ),
            record("custom", "b", correct=True, model_calls=2, stop_reason="final_answer"),
            record("legacy", "b", correct=True, model_calls=2, stop_reason="final_answer"),
            record("create_agent", "b", correct=True, model_calls=2, stop_reason="final_answer"),
        ],
    )

    lines = differences(report)

    first = lines[0]
    assert first.startswith("a: solved by custom; missed by legacy (stopped by max_iterations")
    assert "3 format errors" in first
    assert "create_agent (answered 'I think 7' without calling a tool)" in first
    assert not any(line.startswith("b:") for line in lines)  # all agents agreed on b
    assert any("model calls" in line and "most: legacy (10)" in line for line in lines)
    markdown = to_markdown(report)
    assert "## The agents" in markdown and "provider tool calls" in markdown
    assert "## Where they differ" in markdown
