"""Experiments: each condition on scripted replies through the real loop, the counts, the report."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from custom_react.compare import Question, ResultsStore
from custom_react.compare.harness import run_one
from custom_react.experiments import (
    Experiment,
    action_first_runner,
    cot_runner,
    made_up_fact,
    plan_runner,
    react_runner,
    render_report,
    repeated_actions,
    run_experiment,
)
from custom_react.experiments.conditions import NO_ACTION_ERROR, no_final_answer_check_runner
from custom_react.experiments.run import rerender
from custom_react.testing import Script
from tools import default_tools

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = Question("What is 17 * 23?", "product", 391)
CALL = "Action: calculator\nAction Input: 17 * 23"


def test_repeated_actions_counts_each_pair_written_again() -> None:
    transcript = [
        "Thought: first",
        "Action: search",
        "Action Input: gold price",
        "Observation: 3100",
        "Action: calculator",
        "Action Input: 3100 * 3",
        "Model wrote: Thought: again\nAction: search",
        "Action Input: gold price",
        "Action: search",
        "Action Input: gold price",
        "Action: search",
        "Action Input: gold price 2025",
    ]
    assert repeated_actions(transcript) == 2
    assert repeated_actions(["Action: search", "Observation: x", "Action Input: y"]) == 0
    chinese = [
        "行动：calculator",
        "行动输入：2 * 3",
        "观察：6",
        "行动：calculator",
        "行动输入：2 * 3",
    ]
    assert repeated_actions(chinese) == 1


@pytest.mark.parametrize(
    ("text", "answer", "correct", "made_up"),
    [
        ("Gold was about $2,000 an ounce. Final Answer: 6000", "6000", False, True),
        ("Observation: about $3,100 per ounce. Final Answer: 9400", "9400", False, False),
        ("Final Answer: 9300", "9300", True, False),
        ("Final Answer: I do not know the price.", "I do not know the price.", False, False),
        ("Final Answer: it depends on the market", "it depends on the market", False, False),
        ("金价约为每盎司 2000 美元", "我无法确定", False, False),
    ],
)
def test_made_up_fact_is_a_wrong_answer_on_numbers_the_run_never_saw(
    text: str, answer: str, correct: bool, made_up: bool
) -> None:
    assert made_up_fact(text, answer, "3100|3,100", correct) is made_up
    assert made_up_fact(text, answer, None, correct) is False


def test_action_first_prompt_has_no_thought_and_no_thought_cue() -> None:
    script = Script(CALL, "Final Answer: 391")
    runner = action_first_runner()(script.model, default_tools(), 5)
    outcome = runner(PRODUCT.question, {})
    assert (outcome.output, outcome.stop_reason, outcome.iterations) == ("391", "final_answer", 2)
    system, *rest = script.prompts[0]
    assert isinstance(system, SystemMessage)
    assert "Action Input: 3 * 4.5 * 1.10" in system.text  # the example, without its Thought
    assert not [line for line in system.text.splitlines() if line.startswith("Thought")]
    assert not rest[-1].text.rstrip().endswith("Thought:")
    assert "Thought" not in "\n".join(message.text for message in script.prompts[1][1:])
    normal = Script("Thought: multiply\n" + CALL, "Final Answer: 391")
    react_runner()(normal.model, default_tools(), 5)(PRODUCT.question, {})
    assert "Thought:" in normal.prompts[0][0].text
    assert normal.prompts[0][-1].text.rstrip().endswith("Thought:")


def test_action_first_in_chinese_uses_the_chinese_template() -> None:
    script = Script("Final Answer: 391")
    action_first_runner()(script.model, default_tools(), 5)("17 乘以 23 是多少？", {})
    assert "不要写 Thought" in script.prompts[0][0].text


def test_without_the_final_answer_check_only_the_step_limit_ends_the_run() -> None:
    script = Script(CALL, *["Final Answer: 391"] * 3)
    outcome = no_final_answer_check_runner()(script.model, default_tools(), 4)(PRODUCT.question, {})
    assert outcome.stop_reason == "max_iterations"
    assert outcome.parse_failures == 3 and len(script.prompts) == 4
    assert NO_ACTION_ERROR in script.prompts[-1][-1].text


def test_chain_of_thought_is_one_call_without_tools() -> None:
    script = Script("17 * 23 = 391.\nFinal Answer: 391")
    outcome = cot_runner(script.model, default_tools(), 5)(PRODUCT.question, {})
    assert (outcome.output, outcome.iterations) == ("391", 1)
    system, question = script.prompts[0]
    assert isinstance(question, HumanMessage) and question.text == PRODUCT.question
    assert "calculator" not in system.text and "step by step" in system.text
    plain = Script("It is 391.")
    assert cot_runner(plain.model, [], 5)(PRODUCT.question, {}).output == "It is 391."


def test_a_condition_that_crashes_is_that_runs_error() -> None:
    script = Script(RuntimeError("model gone"))
    record = run_one("CoT", cot_runner, PRODUCT, script.model, default_tools, 5)
    assert record.error == "RuntimeError: model gone" and record.correct is False


def write_questions(path: Path) -> Path:
    rows = [
        {"id": "product", "question": PRODUCT.question, "expected": 391},
        {"id": "gold", "question": "Gold price per ounce, end of March 2025?", "expected": 3100,
         "fact": "3100"},
    ]  # fmt: skip
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n", encoding="utf-8")
    return path


def test_an_experiment_saves_its_results_report_and_chart(
    tmp_path: Path, script: Callable[..., Script]
) -> None:
    experiment = Experiment(
        name="demo",
        title="ReAct vs CoT",
        questions=write_questions(tmp_path / "q.jsonl"),
        conditions={"ReAct": react_runner(), "CoT": cot_runner},
        descriptions={"ReAct": "with tools", "CoT": "without"},
        max_iterations=4,
    )
    model = script(
        "Thought: multiply\n" + CALL,
        "Thought: done\nFinal Answer: 391",
        "Thought: look it up\nAction: search\nAction Input: gold price end of March 2025",
        "Final Answer: about 3100 dollars",
        "Final Answer: 391",
        "Gold was about 2000 dollars.\nFinal Answer: 2000",
    ).model
    out = tmp_path / "out"
    data = run_experiment(
        experiment, model, default_tools, model_name="scripted", command="cmd", out=out
    )
    by_run = {(run["agent"], run["question_id"]): run for run in data["records"]}
    assert by_run["ReAct", "gold"]["correct"] and not by_run["ReAct", "gold"]["made_up_fact"]
    assert by_run["CoT", "gold"]["made_up_fact"] and by_run["CoT", "product"]["correct"]
    report = (out / "demo.md").read_text(encoding="utf-8")
    assert "| ReAct | 2/2 | 4 | 2.0 |" in report and "| CoT | 1/2 | 2 | 2.0 |" in report
    assert "| gold | ✓ (2) | ✗ (1) |" in report and "- CoT: final_answer 2" in report
    assert report == render_report(json.loads((out / "demo.json").read_text(encoding="utf-8")))
    svg = (out / "demo.svg").read_bytes()
    root = ElementTree.fromstring(svg)
    assert root.tag.endswith("svg") and b"questions solved" in svg
    rerender(out / "demo.json")
    assert (out / "demo.svg").read_bytes() == svg, "the chart is not reproducible"


@pytest.mark.parametrize(("replan", "calls"), [("always", 4), ("on_failure", 3)])
def test_plan_and_execute_conditions_differ_only_in_the_replanner(
    replan: Literal["always", "on_failure"], calls: int
) -> None:
    replies = ["Plan:\n1. Multiply 17 by 23 with the calculator.", CALL, "Final Answer: 391"]
    script = Script(*replies, *(["Final Answer: 17 * 23 = 391"] if replan == "always" else []))
    outcome = plan_runner(replan)(script.model, default_tools(), 4)(PRODUCT.question, {})
    assert (outcome.stop_reason, len(script.prompts)) == ("final_answer", calls)
    assert "391" in outcome.output and any("Plan" in line for line in outcome.transcript)


def test_list_numbers_are_not_facts_stated() -> None:
    steps = "1. Assume a rose costs 10 yuan.\n2. Add 5%: 10.5\nStep 3: done\n第1步：完成"
    assert made_up_fact(steps, "10.5", "1", False)
    assert not made_up_fact(
        "The wholesale price is 1 yuan; 1.05 with the markup.", "1.05", "1", False
    )


def test_the_questions_own_numbers_are_not_facts_stated() -> None:
    question = "What did gold cost at the end of March 2025, and 3 ounces?"
    stopped = "Thought: I need the price of gold in March 2025.\nAgent stopped."
    assert not made_up_fact(stopped, "Agent stopped.", "3100", False, question)
    assert made_up_fact(stopped + " It was 1900.", "1900", "3100", False, question)


def test_rendering_again_scores_the_saved_answers_against_the_question_file(
    tmp_path: Path, script: Callable[..., Script]
) -> None:
    questions = tmp_path / "q.jsonl"
    questions.write_text(
        '{"id": "netflix", "question": "12 months at 17.99?", "expected": 215.88}\n'
    )
    experiment = Experiment("rescore", "t", questions, {"CoT": cot_runner}, {"CoT": "no tools"})
    model = script("Final Answer: 219.96").model
    out = tmp_path / "out"
    data = run_experiment(experiment, model, default_tools, model_name="m", command="c", out=out)
    assert data["records"][0]["correct"] is True  # within the default 2% tolerance
    questions.write_text(
        '{"id": "netflix", "question": "12 months at 17.99?", "expected": 215.88, "tolerance": 0.002}\n'
    )
    rerender(out / "rescore.json", questions)
    saved = json.loads((out / "rescore.json").read_text(encoding="utf-8"))
    assert saved["records"][0]["correct"] is False and saved["questions"][0]["tolerance"] == 0.002
    assert "| CoT | 0/1 |" in (out / "rescore.md").read_text(encoding="utf-8")


def test_an_experiment_resumes_from_its_results_file(tmp_path: Path, script) -> None:
    questions = tmp_path / "q.jsonl"
    questions.write_text(
        '{"id": "a", "question": "What is 2 + 2?", "expected": 4}\n'
        '{"id": "b", "question": "What is 3 + 3?", "expected": 6}\n'
    )
    experiment = Experiment("resume", "t", questions, {"CoT": cot_runner}, {"CoT": "no tools"})
    results = tmp_path / "resume.jsonl"
    first = script("Final Answer: 4", "Final Answer: 6").model
    data = run_experiment(
        experiment,
        first,
        default_tools,
        model_name="m",
        command="c",
        out=tmp_path,
        store=ResultsStore(results),
    )
    assert len(results.read_text().splitlines()) == 2
    none_left = script().model  # a model with no replies: any call would fail the run
    again = run_experiment(
        experiment,
        none_left,
        default_tools,
        model_name="m",
        command="c",
        out=tmp_path,
        store=ResultsStore(results),
        concurrency=2,
    )
    assert again["records"] == data["records"]
    assert [run["correct"] for run in again["records"]] == [True, True]
