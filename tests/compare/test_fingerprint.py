"""What each agent reads first (`custom_react.compare.runners.fingerprint`), and what a result records.

Ours read our prompt in the run's language; LangChain's legacy agent its own prompt with the
tools; `create_agent` its system prompt and the tools' schemas. A change to one of them changes
only the fingerprints of the agents (and languages) that read it.
"""

from __future__ import annotations

import pytest
from langchain_core.tools import BaseTool, tool

from custom_react.compare import Question, SimulatedModel, run_comparison
from custom_react.compare.runners import custom_runner, fingerprint
from custom_react.compare.runners.fingerprint import (
    agent_fingerprint,
    agent_fingerprints,
    changed_fingerprints,
    fingerprint_with,
    is_fingerprints,
    prompt_fingerprint,
    shown_fingerprints,
)
from tests.conftest import change_prompt
from tools import calculator

AGENTS = ("custom", "create_agent_text", "legacy", "create_agent", "xml", "json")


def every(tools: list[BaseTool]) -> dict[tuple[str, str], str]:
    return {(a, lang): agent_fingerprint(a, tools, lang) for a in AGENTS for lang in ("en", "zh")}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_change_to_our_prompt_in_one_language_changes_only_our_agents_in_it(
    monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    before = every([calculator])
    change_prompt(monkeypatch, language)
    after = every([calculator])
    changed = sorted(pair for pair in before if before[pair] != after[pair])
    assert changed == [("create_agent_text", language), ("custom", language)]


@pytest.mark.parametrize("step_format", ["xml", "json"])
def test_an_agent_named_after_a_step_format_reads_that_formats_prompt(
    monkeypatch: pytest.MonkeyPatch, step_format: str
) -> None:
    before = every([calculator])
    assert len({before[agent, "en"] for agent in ("custom", "xml", "json")}) == 3
    change_prompt(monkeypatch, "zh", f"react_{step_format}")
    after = every([calculator])
    assert [pair for pair in before if before[pair] != after[pair]] == [(step_format, "zh")]


def test_ours_read_our_prompt_and_langchains_read_the_same_in_both_languages() -> None:
    read = every([calculator])
    assert read["custom", "en"] == prompt_fingerprint([calculator], language="en")
    assert read["custom", "zh"] == prompt_fingerprint([calculator], language="zh")
    assert read["custom", "en"] != read["custom", "zh"]
    assert read["legacy", "en"] == read["legacy", "zh"] != read["custom", "en"]
    assert read["create_agent", "en"] == read["create_agent", "zh"] != read["legacy", "en"]


def test_langchains_prompts_change_only_their_own_agents(monkeypatch: pytest.MonkeyPatch) -> None:
    before = every([calculator])
    monkeypatch.setattr(fingerprint, "LEGACY_REACT_PROMPT", "Answer.\n{tools}\n{tool_names}")
    monkeypatch.setattr(fingerprint, "CREATE_AGENT_SYSTEM_PROMPT", "Answer briefly.")
    after = every([calculator])
    assert {a for a, _ in before if before[a, "en"] != after[a, "en"]} == {"legacy", "create_agent"}


def test_a_tools_description_is_read_by_every_agent() -> None:
    @tool
    def lookup(query: str) -> str:
        """Look up a fact."""
        return query

    @tool("lookup")
    def renamed(query: str) -> str:
        """Look up a fact, with its source."""
        return query

    before, after = every([lookup]), every([renamed])
    assert all(before[pair] != after[pair] for pair in before)


def test_a_result_records_each_agent_per_language_its_runs_read() -> None:
    reads = [("custom", "zh"), ("legacy", "en"), ("custom", "en"), ("custom", "en")]
    made = agent_fingerprints(reads, fingerprint_with([calculator]))
    assert list(made) == ["custom", "legacy"] and list(made["custom"]) == ["en", "zh"]
    assert made["legacy"] == {"en": agent_fingerprint("legacy", [calculator], "en")}
    assert is_fingerprints(made)
    assert changed_fingerprints(made, fingerprint_with([calculator])) == []
    line = shown_fingerprints(made)
    assert line.startswith(f"custom (en {made['custom']['en']}, zh {made['custom']['zh']}), legacy")


@pytest.mark.parametrize(
    "recorded",
    [None, "a691ace1b9a5", {}, {"custom": "1a2b"}, {"custom": {}}, {"custom": {"fr": "1a2b"}}],
)
def test_a_record_of_another_shape_is_not_taken_for_one(recorded: object) -> None:
    assert not is_fingerprints(recorded)


def test_a_changed_fingerprint_is_named_with_its_agent_language_and_both_values() -> None:
    current = fingerprint_with([calculator])
    made = {"custom": {"en": current("custom", "en"), "zh": "0ld"}, "legacy": {"en": "0ld"}}
    assert changed_fingerprints(made, current) == [
        ("custom", "zh", "0ld", current("custom", "zh")),
        ("legacy", "en", "0ld", current("legacy", "en")),
    ]


def test_a_comparison_records_what_each_agent_read_in_the_languages_of_its_runs() -> None:
    questions = [Question("What is 6 * 7?", "en-product", 42), Question("6 乘以 7？", "zh", 42)]
    report = run_comparison(
        questions,
        SimulatedModel(),
        lambda: [calculator],
        agents=["custom"],
        runners={"custom": custom_runner},
        probe_tool_calling=False,
    )
    current = fingerprint_with([calculator])
    assert report.settings["prompt_fingerprints"] == {
        "custom": {"en": current("custom", "en"), "zh": current("custom", "zh")}
    }
