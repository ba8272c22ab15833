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
