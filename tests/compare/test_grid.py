"""The one harness (`run_cases`): concurrency, the results file and resume, time limits, servers.

Runs are real: our agent on `SimulatedModel` (a text-ReAct model with a set latency that any
number of threads can share), or runners that record what the harness did with them.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool

from custom_react.compare import (
    Question,
    ResultsStore,
    RunKey,
    RunRecord,
    SimulatedModel,
    arithmetic_cases,
    plan_jobs,
    run_cases,
)
from custom_react.compare.runners import Runner, RunOutcome, custom_runner
from custom_react.compare.runners.fingerprint import prompt_fingerprint
from tests.conftest import change_prompt
from tools import calculator


def calculator_only() -> list[BaseTool]:
    return [calculator]


class Peak:
    """A runner factory whose runs take `pause` s and that records how many ran at once."""

    def __init__(self, pause: float = 0.05) -> None:
        self.pause, self.now, self.most, self.runs = pause, 0, 0, []
        self.lock = threading.Lock()

    def __call__(self, llm: Any, tools: list[BaseTool], max_iterations: int) -> Runner:
        def run(question: str, config: RunnableConfig) -> RunOutcome:
            with self.lock:
                self.now += 1
                self.most = max(self.most, self.now)
                self.runs.append((question, llm))
            time.sleep(self.pause)
            with self.lock:
                self.now -= 1
            return RunOutcome("done", 1, "final_answer")

        return run


def test_our_agent_answers_every_case_on_the_simulated_model_concurrently() -> None:
    cases = arithmetic_cases(12)
    records = run_cases(
        cases,
        {"custom": custom_runner},
        {"simulated": SimulatedModel(latency=0.01)},
        calculator_only,
        concurrency=6,
    )
    assert [record.question_id for record in records] == [case.id for case in cases]
    assert all(record.correct and record.model_calls == 2 for record in records)
    assert all(record.tool_calls == 1 and record.error is None for record in records)


@pytest.mark.parametrize("concurrency", [1, 4])
def test_concurrency_is_the_most_runs_at_once(concurrency: int) -> None:
    peak = Peak()
    run_cases(
        arithmetic_cases(12),
        {"a": peak},
        {"m": SimulatedModel()},
        calculator_only,
        concurrency=concurrency,
    )
    assert peak.most == concurrency and len(peak.runs) == 12


def test_each_result_is_a_line_of_the_results_file_and_a_rerun_runs_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "results.jsonl"
    cases = arithmetic_cases(5)
    first = run_cases(
        cases,
        {"a": Peak(0)},
        {"m": SimulatedModel()},
        calculator_only,
        store=ResultsStore(path),
        concurrency=2,
    )
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert sorted(line["key"]["case"] for line in lines) == [case.id for case in cases]
    assert {line["key"]["agent"] for line in lines} == {"a"}
    again = Peak(0)
    second = run_cases(
        cases, {"a": again}, {"m": SimulatedModel()}, calculator_only, store=ResultsStore(path)
    )
    assert again.runs == [] and second == first
    assert len(path.read_text().splitlines()) == 5


def test_a_new_agent_model_or_prompt_runs_again_and_only_that(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    cases = arithmetic_cases(3)
    run_cases(
        cases, {"a": Peak(0)}, {"m": SimulatedModel()}, calculator_only, store=ResultsStore(path)
    )
    more = Peak(0)
    run_cases(
        cases,
        {"a": more, "b": more},
        {"m": SimulatedModel(), "n": SimulatedModel()},
        calculator_only,
        store=ResultsStore(path),
    )
    assert len(more.runs) == 3 * 4 - 3  # b on m, a and b on n
    other_prompt = Peak(0)  # other tools: another prompt fingerprint
    run_cases(cases, {"a": other_prompt}, {"m": SimulatedModel()}, list, store=ResultsStore(path))
    assert len(other_prompt.runs) == 3


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_changed_prompt_runs_again_only_the_runs_that_read_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    path = tmp_path / "results.jsonl"
    cases = [*arithmetic_cases(2), Question("17 乘以 23 等于多少？", "zh-product", 391)]
    agents = {"custom": Peak(0), "legacy": Peak(0), "create_agent": Peak(0)}
    run_cases(cases, agents, {"m": SimulatedModel()}, calculator_only, store=ResultsStore(path))
    change_prompt(monkeypatch, language)
    again = {name: Peak(0) for name in agents}
    run_cases(cases, again, {"m": SimulatedModel()}, calculator_only, store=ResultsStore(path))
    chinese = [question for question, _ in again["custom"].runs if "乘以" in question]
    assert len(again["custom"].runs) == (2 if language == "en" else 1)
    assert len(chinese) == (0 if language == "en" else 1)
    assert again["legacy"].runs == again["create_agent"].runs == []  # they never read ours


def test_a_line_cut_short_by_a_crash_is_ignored_and_its_run_made_again(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    cases = arithmetic_cases(3)
    run_cases(
        cases, {"a": Peak(0)}, {"m": SimulatedModel()}, calculator_only, store=ResultsStore(path)
    )
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:2]) + "\n" + lines[2][:40])  # killed mid-write
    store = ResultsStore(path)
    assert len(store) == 2
    again = Peak(0)
    run_cases(cases, {"a": again}, {"m": SimulatedModel()}, calculator_only, store=store)
    assert len(again.runs) == 1 and len(ResultsStore(path)) == 3


def test_a_run_over_the_time_limit_is_recorded_and_the_others_go_on() -> None:
    slow = Peak(pause=3.0)
    records = run_cases(
        [Question("slow one", "slow", 1)],
        {"a": slow},
        {"m": SimulatedModel()},
        calculator_only,
        time_limit=0.2,
    )
    (record,) = records
    assert record.stop_reason == "time_limit" and record.correct is False
    assert record.error == "TimeoutError: no answer within the time limit of 0.2 s"


def test_crashed_runs_count_as_done_unless_asked_to_run_them_again(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"

    def broken(llm: Any, tools: list[BaseTool], max_iterations: int) -> Runner:
        raise RuntimeError("agent bug")

    cases = arithmetic_cases(2)
    run_cases(
        cases, {"a": broken}, {"m": SimulatedModel()}, calculator_only, store=ResultsStore(path)
    )
    fixed = Peak(0)
    run_cases(
        cases, {"a": fixed}, {"m": SimulatedModel()}, calculator_only, store=ResultsStore(path)
    )
    assert fixed.runs == []
    run_cases(
        cases,
        {"a": fixed},
        {"m": SimulatedModel()},
        calculator_only,
        store=ResultsStore(path),
        rerun_errors=True,
    )
    assert len(fixed.runs) == 2
    fingerprint = prompt_fingerprint(calculator_only(), language="en")
    stored = [ResultsStore(path).get(RunKey(case.id, "a", "m", fingerprint)) for case in cases]
    assert [record.answer for record in stored if record] == ["done", "done"]


def test_several_servers_of_one_model_share_its_runs() -> None:
    first, second = SimulatedModel(), SimulatedModel()
    peak = Peak(0)
    run_cases(arithmetic_cases(6), {"a": peak}, {"m": [first, second]}, calculator_only)
    used = [id(llm) for _, llm in peak.runs]
    assert used.count(id(first)) == 3 and used.count(id(second)) == 3


def test_case_ids_must_be_unique() -> None:
    with pytest.raises(ValueError, match="unique"):
        plan_jobs([Question("a", "x"), Question("b", "x")], ["a"], ["m"])


def test_the_progress_bar_shows_runs_done_failures_and_the_rate(tmp_path: Path) -> None:
    import io

    from rich.console import Console

    from custom_react.compare import ProgressBar

    path = tmp_path / "results.jsonl"
    cases = arithmetic_cases(4)
    run_cases(
        cases[:1],
        {"a": Peak(0)},
        {"m": SimulatedModel()},
        calculator_only,
        store=ResultsStore(path),
    )
    screen = io.StringIO()
    with ProgressBar(Console(file=screen, width=120)) as bar:
        run_cases(
            [*cases, Question("slow", "slow")],
            {"a": Peak(0.3)},
            {"m": SimulatedModel()},
            calculator_only,
            store=ResultsStore(path),
            time_limit=0.1,
            watcher=bar,
        )
    assert (bar.new, bar.failures) == (4, 4)  # the one stored is not run again
    shown = screen.getvalue()
    assert "5/5" in shown and "4 failed, 0 solved" in shown and "/min" in shown


def test_the_command_and_the_harness_load_no_ray() -> None:
    import subprocess
    import sys

    code = (
        "import sys, custom_react.cli.app, custom_react.compare, custom_react.experiments; "
        "print([m for m in sys.modules if m == 'ray' or m.startswith('ray.')])"
    )
    ROOT = Path(__file__).resolve().parents[2]
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.strip()
    assert loaded == "[]"


def test_the_commands_servers_become_ray_sources_one_per_url_or_a_bundled_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from custom_react.compare.on_ray import sources_for
    from custom_react.compare.sources import BundledServer, Endpoint

    for name in ("OPENAI_API_KEY", "DEEPSEEK_API_KEY", "OPENAI_BASE_URL", "CUSTOM_REACT_MODEL"):
        monkeypatch.delenv(name, raising=False)
    urls = ["http://gpu-1:8000/v1", "http://gpu-2:8000/v1"]
    remote = sources_for("qwen-7b", urls, 32)
    assert [(s.base_url, s.model, s.slots) for s in remote if isinstance(s, Endpoint)] == [
        (urls[0], "qwen-7b", 32),
        (urls[1], "qwen-7b", 32),
    ]
    assert sources_for("qwen2.5-coder-1.5b", [], 2) == [BundledServer("qwen2.5-coder-1.5b", 2)]


SAVED_REPORTS = [
    "bench/results/solve_rate/qwen2.5-coder-1.5b_all.json",
    "bench/results/compare/compare.json",
    "bench/results/experiments/loop_defences.json",
]


@pytest.mark.parametrize("report", SAVED_REPORTS)
@pytest.mark.parametrize("changed", ["en", "zh"])
def test_a_saved_report_makes_the_missing_results_file_so_only_stale_runs_run_again(
    report: str, changed: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from custom_react.compare import Job, results_store
    from custom_react.compare.runners.custom import question_language
    from custom_react.compare.runners.fingerprint import fingerprint_with, reads_our_prompt
    from tools import default_tools

    saved = Path(__file__).resolve().parents[2] / report
    data = json.loads(saved.read_text(encoding="utf-8"))
    jobs = [
        Job(Question(run["question"], run["question_id"]), run["agent"], data["model"])
        for run in data["records"]
    ]

    def stale(store: ResultsStore) -> set[tuple[str, str]]:
        fingerprint = fingerprint_with(default_tools())
        return {(j.case.id, j.agent) for j in jobs if not store.done(j.key(fingerprint))}

    path = tmp_path / "results.jsonl"
    store = results_store(path, saved)
    assert len(store) == len(jobs) and stale(store) == set()  # a fresh clone runs nothing again
    change_prompt(monkeypatch, changed)
    again = stale(results_store(path, saved))  # the file exists now: it is read, not remade
    expected = {
        (j.case.id, j.agent)
        for j in jobs
        if reads_our_prompt(j.agent) and question_language(j.case.question) == changed
    }
    assert again == expected and expected  # exactly our agents' runs in the changed language


def test_no_saved_report_opens_the_results_file_as_it_is(tmp_path: Path) -> None:
    from custom_react.compare import results_store

    path = tmp_path / "results.jsonl"
    key = RunKey("q1", "custom", "m", "f")
    ResultsStore(path).append(key, RunRecord(agent="custom", question_id="q1", question="?"))
    assert results_store(path, tmp_path / "missing.json").keys() == [key]
    assert len(results_store(tmp_path / "new.jsonl", None)) == 0
