"""The BFCL bench (`bench/bfcl.py`), offline: its cases, its tools, BFCL's checker, one scripted run.

Skipped when `bfcl-eval` is not installed (`pip install --no-deps bfcl-eval==2026.3.23 mpmath==1.3.0 "filelock>=3.12"`).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import pytest

pytest.importorskip("bfcl_eval")

from bench.bfcl import (
    AGENTS,
    BFCL_VERSION,
    append,
    bfcl_fingerprints,
    chosen_cases,
    code_fingerprint,
    current,
    run_all,
    run_case,
    run_key,
)
from bench.bfcl_cases import json_schema, load_cases, pick, recording_tools, tool_name, verdict
from bench.bfcl_report import save
from custom_react.testing import Script
from tests.conftest import change_prompt


def test_the_checker_runs_without_the_provider_sdks_through_the_registry_stub() -> None:
    case = load_cases("simple_python")[0]
    assert verdict(case, [{"calculate_triangle_area": {"base": 10, "height": 5}}])["passed"]
    wrong = verdict(case, [{"calculate_triangle_area": {"base": "10", "height": 5}}])
    assert not wrong["passed"] and "Expected type integer, got str" in wrong["miss"]
    assert "anthropic" not in sys.modules  # the registry's SDKs were never imported


def test_bfcl_types_become_json_schema_and_names_lose_their_dots() -> None:
    schema = {"type": "dict", "properties": {"x": {"type": "float"}, "t": {"type": "tuple"}}}
    assert json_schema(schema) == {
        "type": "object",
        "properties": {"x": {"type": "number"}, "t": {"type": "array"}},
    }
    assert tool_name("math.factorial") == "math_factorial"


def test_the_halves_split_by_the_case_number_and_the_sample_is_seeded() -> None:
    cases = load_cases("multiple")
    even, odd = pick(cases, "even", 5, 0), pick(cases, "odd", 5, 0)
    assert all(case.number % 2 == 0 for case in even) and all(c.number % 2 for c in odd)
    assert [c.id for c in even] == [c.id for c in pick(cases, "even", 5, 0)]


@pytest.mark.parametrize("category", ["simple_python", "multiple", "irrelevance"])
def test_a_larger_sample_holds_the_smaller_one_and_ids_narrow_it(category: str) -> None:
    small, large = (chosen_cases([category], "odd", n, 0) for n in (8, 20))
    assert len(large) == 20 and {c.id for c in small} < {c.id for c in large}
    named = {large[3].id, large[11].id}
    assert {c.id for c in chosen_cases([category], "odd", 20, 0, named)} == named
    assert chosen_cases(["live_simple"], "odd", None, 0) == chosen_cases(
        ["live_simple"], "all", None, 0
    )


def test_the_tools_record_calls_under_bfcls_names_and_relevance_is_whether_one_ran() -> None:
    case = load_cases("simple_python")[1]  # math.factorial
    calls: list = []
    (tool,) = recording_tools(case, calls)
    tool.invoke({"number": 5})
    assert calls == [{"math.factorial": {"number": 5}}] and verdict(case, calls)["passed"]
    irrelevant = load_cases("irrelevance")[0]
    assert verdict(irrelevant, [])["passed"] and not verdict(irrelevant, calls)["passed"]
    relevant = load_cases("live_relevance")[0]  # no answer file: any call of a tool passes
    assert relevant.answer == [] and verdict(relevant, calls)["passed"]
    assert verdict(relevant, [])["miss"] == "no call" and not verdict(relevant, [])["passed"]


def test_one_scripted_run_is_scored_on_the_call_our_agent_let_run(monkeypatch) -> None:
    case = load_cases("simple_python")[0]
    script = Script(
        'Thought: area.\nAction: calculate_triangle_area\nAction Input: {"base": "10", "height": 5}'
    )
    record = run_case(case, "text", script.model)
    assert record["calls"] == [{"calculate_triangle_area": {"base": 10, "height": 5}}]
    assert record["passed"] and record["transcript"] and record["language"] == "en"


def test_a_change_to_our_prompt_redoes_only_our_agents_runs(monkeypatch, tmp_path) -> None:
    read = bfcl_fingerprints()
    runs = [
        {"id": "simple_python_0", "category": "simple_python", "agent": agent, "language": "en"}
        | {"key": run_key(read, agent, "en"), "passed": True, "miss": ""}
        for agent in AGENTS
    ]
    assert current(runs, read) == runs and runs[0]["key"].endswith(f":{BFCL_VERSION}")
    again = runs[0] | {"passed": False}  # the same case and agent stored twice: the newest counts
    assert current([*runs, again], read) == [again, *runs[1:]]
    assert read("legacy", "en") != read("create_agent", "en") != read("text", "en")
    save(runs, tmp_path / "m", "m", BFCL_VERSION)
    saved = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))["settings"]
    assert saved["prompt_fingerprints"] == {agent: {"en": read(agent, "en")} for agent in AGENTS}
    change_prompt(monkeypatch, "en")
    left = current(runs, bfcl_fingerprints())  # LangChain's agents never read ours,
    assert [run["agent"] for run in left] == ["xml", "json", "legacy", "create_agent"]
    change_prompt(monkeypatch, "en", "react_xml")  # the XML and JSON formats read their own
    left = current(runs, bfcl_fingerprints())
    assert [run["agent"] for run in left] == ["json", "legacy", "create_agent"]


def test_each_run_goes_to_the_results_file_as_it_is_when_the_run_ends(tmp_path) -> None:
    # `git checkout` replaces a file (a new one under the old name); a handle held open since
    # the bench started would write the next runs into the replaced, deleted copy.
    store = tmp_path / "runs.jsonl"
    append(store, {"id": "first"})
    replacement = tmp_path / "checked-out.jsonl"
    replacement.write_text(store.read_text(encoding="utf-8"), encoding="utf-8")
    os.replace(replacement, store)
    append(store, {"id": "second"})
    lines = store.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["id"] for line in lines] == ["first", "second"]


def test_a_redo_runs_a_stored_case_again_the_newest_counting_and_each_run_names_its_code(
    tmp_path,
) -> None:
    case, store, read = load_cases("simple_python")[0], tmp_path / "runs.jsonl", bfcl_fingerprints()
    reply = (
        "Thought: area.\nAction: calculate_triangle_area\nAction Input: {{'base': {}, 'height': 5}}"
    )
    refused = reply.format('"ten"')  # not an integer: refused, then the run ends with an answer
    first = run_all([case], ["text"], Script(refused, "Final Answer: 25").model, 1, store, read)
    assert first[0]["miss"] == "no call" and first[0]["code"] == code_fingerprint()
    skipped = run_all([case], ["text"], Script(reply.format(10)).model, 1, store, read)
    assert skipped == first  # stored under the current key: not run again
    again = run_all([case], ["text"], Script(reply.format(10)).model, 1, store, read, redo=True)
    assert again[0]["passed"] and len(store.read_text(encoding="utf-8").splitlines()) == 2
    report = save(again, tmp_path / "m", "m", BFCL_VERSION, code_fingerprint())
    assert f"(`{code_fingerprint()}`, `code_fingerprint`): text 1/1;" in report
    assert "text 0/1;" in save(again, tmp_path / "m", "m", BFCL_VERSION, "another")


def test_the_code_fingerprint_follows_the_code_and_the_prompts_not_docstrings(tmp_path) -> None:
    module = tmp_path / "parsing" / "action.py"
    module.parent.mkdir()
    module.write_text('"""Reads."""\n\ndef f():\n    """Does."""\n    return 1\n', encoding="utf-8")
    (tmp_path / "react_en.txt").write_text("Answer.\n", encoding="utf-8")
    before = code_fingerprint(tmp_path)
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / "action.pyc").write_bytes(b"\0")
    module.write_text('"""Reads a call."""\n\n\ndef f():  # one\n    return 1\n', encoding="utf-8")
    assert code_fingerprint(tmp_path) == before  # docstrings, comments, layout, caches
    module.write_text("def f():\n    return 2\n", encoding="utf-8")
    assert code_fingerprint(tmp_path) != before
    module.write_text("def f():\n    return 1\n", encoding="utf-8")
    assert code_fingerprint(tmp_path) == before
    (tmp_path / "react_en.txt").write_text("Answer well.\n", encoding="utf-8")
    assert code_fingerprint(tmp_path) != before  # a prompt is text the model reads


def test_the_repeat_check_counts_same_transcripts_and_moved_verdicts(tmp_path) -> None:
    from bench.bfcl_repeat import compare

    def store(name: str, runs: list[tuple[str, str, list[str], bool]]) -> Any:
        path = tmp_path / name
        for case, agent, transcript, passed in runs:
            append(path, {"id": case, "agent": agent, "transcript": transcript, "passed": passed})
        return path

    first = store("a.jsonl", [("c1", "text", ["x"], True), ("c2", "text", ["y"], False)])
    second = store("b.jsonl", [("c1", "text", ["x"], True), ("c2", "text", ["z"], True)])
    assert compare(first, second)[2] == "| text | 2 | 1 | 1, 2 | c2 |"
    assert compare(first, first)[2] == "| text | 2 | 2 | 1, 1 | none |"


@pytest.mark.parametrize(
    ("transcript", "expected"),
    [
        (["Action: f", 'Action Input: religion: "Buddhism"', "Observation: ok"], True),
        (["Action: f", 'Action Input: a JSON object such as {"a": 1}'], True),
        (
            ["Action: f", 'Action Input: {"a": 1, "b": 2}', "Observation: f has no argument b."],
            True,
        ),
        (["Action: f", 'Action Input: {"a": 1}', "Observation: ok"], False),
        (["Action: search", "Action Input: https://example.com", "Observation: ok"], False),
        (["Action: search", "Action Input: rose price", "Observation: ok"], False),
    ],
)
def test_the_reach_check_finds_the_runs_a_change_to_reading_inputs_can_alter(
    transcript: list[str], expected: bool
) -> None:
    from bench.bfcl_reach import reached

    assert reached(transcript) is expected


@pytest.mark.parametrize(
    ("action", "tool_input", "expected"),
    [
        ("python", "area(radius=5)", True),  # a call of the case's tool, wrapped
        ("print", '{"*args": ["Area:", "area(radius=5)"]}', True),
        ("python", "volume(radius=5)", False),  # a call, but of no tool of the case
        ("search", "rose price", False),
    ],
)
def test_the_reach_check_finds_the_runs_where_a_call_was_wrapped_in_code(
    action: str, tool_input: str, expected: bool
) -> None:
    from langchain_core.tools import tool

    from bench.bfcl_reach import wraps_a_call

    @tool
    def area(radius: int) -> str:
        """The area of a circle."""
        return str(radius)

    refused = f"Observation: '{action}' is not a valid tool. Use one of: area."
    transcript = ["Thought: t", f"Action: {action}", f"Action Input: {tool_input}", refused]
    assert wraps_a_call(transcript, [area]) is expected
    assert wraps_a_call(transcript[:3], [area]) is False  # no refusal: nothing to read again


def test_the_reparse_check_reads_every_stored_step_of_ours_and_names_what_moved(tmp_path):
    from bench.bfcl_reparse import read_differently, read_steps

    # A transcript holds lines; a step is the lines between two observations.
    call = 'Action Input: {"base": "10", "height": 5}'
    lines = ["Thought: t", "Action: calculate_triangle_area", call, "Observation: done"]
    lines += [
        "Thought: t",
        "Action: calculate_triangle_area",
        "Observation: no",
        "Final Answer: 25",
    ]
    run = {"id": "simple_python_0", "category": "simple_python", "agent": "text", "key": "k"}
    append(tmp_path / "m.jsonl", {**run, "transcript": lines})
    append(tmp_path / "m.jsonl", {**run, "agent": "legacy", "transcript": lines})  # not ours
    readings = read_steps(tmp_path)
    assert list(readings) == [f"m|text|simple_python_0|k|{index}" for index in range(3)]
    first, second, answer = readings.values()
    # the case's tool, the arguments as bound (coerced) and what the checks say
    assert first.endswith("-> calculate_triangle_area({'base': 10, 'height': 5}): runs")
    assert "the required argument base (a JSON integer) is missing" in second
    assert "'output': '25'" in answer
    moved = {**readings, "m|text|simple_python_0|k|2": "refused: no"}
    assert read_differently(readings, moved) == ["m|text|simple_python_0|k|2"]
    assert read_differently(readings, readings) == []
