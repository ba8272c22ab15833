"""Run the comparison harness on a question set with the configured model (by default the bundled
local model) and save the report under bench/results/.

Our `CustomReActAgent`, the legacy `create_react_agent` + `AgentExecutor(handle_parsing_errors=True)`
and `create_agent` (skipped, with the reason, when the model returns no tool calls) answer every
question with the same model, the same fresh tools and the same step limit. Writes
`<name>.json` (every run with its transcript), `<name>.md` (the tables) and
`<name>_transcripts.txt` (ours and the legacy agent's transcripts side by side), and prints the table.

Run from the repository root (the lock keeps one local-model run at a time on a shared machine):

    flock /tmp/custom-react-model.lock python bench/compare_local.py
    flock /tmp/custom-react-model.lock python bench/compare_local.py --questions my.jsonl --limit 3
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from custom_react.compare import (
    AGENTS,
    ComparisonReport,
    RunRecord,
    load_questions,
    render_table,
    run_comparison,
    side_by_side,
    to_json,
    to_markdown,
)
from custom_react.serving.models import ModelSettings, describe, open_chat_model
from tools import default_tools

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    """Parse the arguments, run the comparison, print and save the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", default=str(ROOT / "questions" / "default.jsonl"))
    parser.add_argument("--agents", default=",".join(AGENTS), help="comma-separated agent names")
    parser.add_argument("--max-iterations", type=int, default=8)
    parser.add_argument("--limit", type=int, default=None, help="only the first N questions")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results"))
    parser.add_argument("--name", default="compare_local", help="file name stem of the results")
    args = parser.parse_args()

    questions = load_questions(args.questions)[: args.limit]
    settings = ModelSettings.from_env()
    started = time.perf_counter()
    with open_chat_model(settings) as llm:
        report = run_comparison(
            questions,
            llm,
            default_tools,
            agents=tuple(args.agents.split(",")),
            max_iterations=args.max_iterations,
            model_name=describe(settings),
            on_record=show_progress,
        )
    report.settings["questions"] = os.path.relpath(args.questions, ROOT)
    report.settings["command"] = "flock /tmp/custom-react-model.lock python bench/compare_local.py"
    print(f"\n{render_table(report)}\n\ntotal time {time.perf_counter() - started:.0f} s")
    save(report, Path(args.out), args.name)


def show_progress(record: RunRecord) -> None:
    """One line per finished run."""
    verdict = {True: "correct", False: "WRONG", None: "unchecked"}[record.correct]
    detail = record.error or " ".join(record.answer.split())[:70]
    print(
        f"{record.agent:>12} {record.question_id:<14} {verdict:<9} calls={record.model_calls} "
        f"parse_failures={record.parse_failures} {record.wall_time:5.1f}s  {detail}",
        flush=True,
    )


def save(report: ComparisonReport, folder: Path, name: str) -> None:
    """Write the JSON, Markdown and side-by-side transcript files."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.json").write_text(to_json(report) + "\n", encoding="utf-8")
    (folder / f"{name}.md").write_text(to_markdown(report), encoding="utf-8")
    pairs = [agent for agent in ("custom", "legacy") if agent in report.agents]
    if len(pairs) == 2:
        ids = list(dict.fromkeys(record.question_id for record in report.records))
        text = "\n\n".join(side_by_side(report, question_id) for question_id in ids)
        (folder / f"{name}_transcripts.txt").write_text(text + "\n", encoding="utf-8")
    print(f"saved {folder / name}.json, .md and _transcripts.txt")


if __name__ == "__main__":
    main()
