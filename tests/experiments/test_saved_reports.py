"""The experiment scripts, and the saved reports and charts the docs quote, checked against each other."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from custom_react.compare import load_questions
from custom_react.experiments import Experiment, render_report
from custom_react.experiments.main import main
from custom_react.testing import Script
from tests.conftest import load_script
from tools import default_tools

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "bench" / "experiments").glob("*.py"))
RESULTS = ROOT / "bench" / "results" / "experiments"
DOCS = ROOT / "docs"


def experiment_of(script: Path) -> Experiment:
    experiment: Experiment = load_script(str(script.relative_to(ROOT))).EXPERIMENT
    return experiment


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.stem)
def test_each_script_names_its_results_and_questions(script: Path) -> None:
    experiment = experiment_of(script)
    assert experiment.name == script.stem
    assert load_questions(experiment.questions), f"{experiment.questions} has no questions"
    assert set(experiment.descriptions) == set(experiment.conditions)
    assert f"python bench/experiments/{script.name}" in (script.read_text(encoding="utf-8"))


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.stem)
def test_every_condition_builds_its_runner(script: Path) -> None:
    # A condition that cannot even be built would be saved as a run that errored, question after
    # question, with nothing said: build each one here, offline.
    experiment = experiment_of(script)
    model = Script("Final Answer: 4").model
    for name, factory in experiment.conditions.items():
        runner = factory(model, list(default_tools()), experiment.max_iterations)
        assert callable(runner), name


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.stem)
def test_each_saved_report_is_its_results_rendered(script: Path, tmp_path: Path) -> None:
    experiment = experiment_of(script)
    saved = RESULTS / f"{experiment.name}.json"
    assert saved.is_file(), f"run {script.relative_to(ROOT)} to save its results"
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert [c["label"] for c in data["conditions"]] == list(experiment.conditions)
    assert len(data["records"]) == len(data["conditions"]) * len(data["questions"])
    assert saved.with_suffix(".md").read_text(encoding="utf-8") == render_report(data)
    shutil.copy(saved, tmp_path / saved.name)
    main(experiment, ["--render", "--out", str(tmp_path)])  # the script's own --render
    assert (tmp_path / saved.with_suffix(".md").name).read_text(encoding="utf-8") == render_report(
        data
    )
    assert (tmp_path / saved.with_suffix(".svg").name).read_bytes().startswith(b"<?xml")


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.stem)
def test_the_docs_show_each_chart_and_table(script: Path) -> None:
    name = script.stem
    pages = [
        page
        for page in DOCS.glob("*.md")
        if f"experiments/{name}.svg" in page.read_text(encoding="utf-8")
    ]
    assert {page.name.endswith(".zh.md") for page in pages} == {True, False}, (
        f"an English and a Chinese page must show {name}.svg"
    )
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert f"<!-- embed: ../bench/results/experiments/{name}.md -->" in text
        assert f"python bench/experiments/{name}.py" in text


EMBED = re.compile(r"<!-- embed: (\S+) -->\n.*?<!-- /embed -->", re.DOTALL)
SCORE = re.compile(r"\b\d+/\d+\b")


@pytest.mark.parametrize("page", sorted(DOCS.glob("*.md")), ids=lambda page: page.name)
def test_scores_in_the_prose_are_the_saved_reports(page: Path) -> None:
    """A score a page states in its own words ("3/5") is one its embedded reports show."""
    text = page.read_text(encoding="utf-8")
    reports = [path for path in EMBED.findall(text) if "bench/results/experiments/" in path]
    if not reports:
        return
    shown = "\n".join((page.parent / path).read_text(encoding="utf-8") for path in reports)
    prose = EMBED.sub("", text)
    prose = re.sub(r"```.*?```", "", prose, flags=re.DOTALL)
    missing = [score for score in SCORE.findall(prose) if f"| {score} |" not in shown]
    assert not missing, f"{page.name} states scores no embedded report shows: {missing}"


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.stem)
def test_on_a_fresh_clone_the_script_runs_nothing_again_and_starts_no_model(
    script: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A clone has the saved report, not the results file: every run is taken from the report.
    import custom_react.experiments.main as cli

    def no_server(*args: object, **kwargs: object) -> None:
        raise AssertionError("a model was started, so a saved run was not taken from the report")

    monkeypatch.setattr(cli, "LocalModelServer", no_server)
    monkeypatch.setattr(cli, "open_chat_model", no_server)
    experiment = experiment_of(script)
    saved = RESULTS / f"{experiment.name}.json"
    shutil.copy(saved, tmp_path / saved.name)
    main(experiment, ["--out", str(tmp_path)])
    again = json.loads((tmp_path / saved.name).read_text(encoding="utf-8"))
    assert again["records"] == json.loads(saved.read_text(encoding="utf-8"))["records"]
    assert (tmp_path / f"{experiment.name}.jsonl").is_file()
