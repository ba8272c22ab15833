"""Run an experiment: every condition on every question, then save its results, report and chart.

`run_experiment` uses the comparison harness (`custom_react.compare.run_comparison`, the
conditions as its runners, fresh tools for every run, concurrency, a time limit and a results
file that resumes), adds the experiment's own counts to each
run (`measures.add_measures`, recounted from the saved runs whenever the report is rebuilt), and writes `<name>.json`, `<name>.md` and `<name>.svg` into the output folder. `rerender`
rewrites the report and chart from a saved `<name>.json` without running anything (scoring the
saved answers again when given the question file).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool

from custom_react.compare import Question, RunRecord, check_answer, load_questions, run_comparison
from custom_react.experiments.measures import add_measures
from custom_react.experiments.plot import save_plot
from custom_react.experiments.report import Experiment, load_report, render_report


def run_experiment(
    experiment: Experiment,
    llm: BaseChatModel | Sequence[BaseChatModel],
    tools_factory: Callable[[], Sequence[BaseTool]],
    *,
    model_name: str,
    command: str,
    out: Path,
    on_record: Callable[[RunRecord], None] | None = None,
    **harness: Any,
) -> dict[str, Any]:
    """Run every condition on every question; save and return the results (see `report.py`).

    `llm` may be one model per server of the same weights, or none when every run is in `store`.
    `harness` goes to `run_comparison`: `store` (a `ResultsStore`: the runs already in it are not
    run again), `concurrency`, `time_limit`, `watcher` (a progress bar).
    """
    questions = load_questions(experiment.questions)
    facts = _facts(experiment.questions)
    report = run_comparison(
        questions,
        llm,
        tools_factory,
        agents=list(experiment.conditions),
        max_iterations=experiment.max_iterations,
        model_name=model_name,
        runners=experiment.conditions,
        probe_tool_calling=False,
        on_record=on_record,
        **harness,
    )
    made = {key: report.settings[key] for key in ("prompt_fingerprints", "date")}
    data = {
        **_settings(experiment, model_name, command),
        **made,
        "questions": [
            {**asdict(question), "fact": facts.get(question.id)} for question in questions
        ],
        "records": [asdict(record) for record in report.records],
    }
    save(add_measures(data), out)
    return data


def _settings(experiment: Experiment, model_name: str, command: str) -> dict[str, Any]:
    """What was run, how and on which model: the head of the saved results."""
    return {
        "name": experiment.name,
        "title": experiment.title,
        "model": model_name,
        "command": command,
        "questions_file": _shown(experiment.questions),
        "max_iterations": experiment.max_iterations,
        "conditions": [
            {"label": label, "description": experiment.descriptions.get(label, "")}
            for label in experiment.conditions
        ],
    }


def save(data: dict[str, Any], out: Path) -> None:
    """Write `<name>.json`, `<name>.md` and `<name>.svg` into `out` (created if missing)."""
    out.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    (out / f"{data['name']}.json").write_text(text, encoding="utf-8")
    rerender(out / f"{data['name']}.json")


def rerender(path: Path, questions: Path | None = None) -> None:
    """Recount a saved `<name>.json` and rewrite it, its report and its chart.

    With `questions`, each saved answer is also scored again against that file's expectations
    (a corrected expected value or tolerance applies to the runs already made).
    """
    data = load_report(path)
    if questions is not None:
        data = rescore(data, load_questions(questions))
    data = add_measures(data)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    path.with_suffix(".md").write_text(render_report(data), encoding="utf-8")
    save_plot(data, path.with_suffix(".svg"))


def rescore(data: dict[str, Any], questions: Sequence[Question]) -> dict[str, Any]:
    """Score every saved answer again against `questions` (by id), and keep them in the results."""
    by_id = {question.id: question for question in questions}
    data["questions"] = [
        {**saved, **asdict(by_id[saved["id"]])} if saved["id"] in by_id else saved
        for saved in data["questions"]
    ]
    for run in data["records"]:
        if run["error"] is None and run["question_id"] in by_id:
            run["correct"] = check_answer(run["answer"], by_id[run["question_id"]])
    return data


def _facts(path: Path) -> dict[str, str]:
    """Question id -> the looked-up fact its answer needs, from the question file's `fact` keys."""
    facts: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            item = json.loads(line)
            if item.get("fact") and item.get("id"):
                facts[str(item["id"])] = str(item["fact"])
    return facts


def _shown(path: Path) -> str:
    """The question file as the report names it: relative to the working folder when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)
