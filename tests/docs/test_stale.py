"""Never stale: `scripts/make_docs_assets.py --check`, on temporary copies of the shipped records.

Each asset and saved result records, per agent and per language of its runs, the fingerprint of
what that agent's model read first. A change to our Chinese prompt names only what Chinese runs
made; a change to our English prompt names only our agents' English rows, never those of
LangChain's agents; a change to LangChain's prompt names only theirs. A record the check cannot
read is named too.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
import sys
from pathlib import Path

import pytest

from custom_react.compare.runners import fingerprint
from tests.conftest import ROOT, change_prompt, load_script

pytest.importorskip("bfcl_eval")  # the BFCL results are checked with BFCL's tools

assets = load_script("scripts/make_docs_assets.py")
NAMED = re.compile(r"^(?P<name>\S+) \(agent '(?P<agent>.+)', (?P<language>en|zh): prompt ")
LANGCHAINS = {"legacy", "create_agent"}


@pytest.fixture
def copies(tmp_path: Path) -> tuple[Path, Path]:
    """The shipped provenance and saved results, copied: (assets, results)."""
    kept, results = tmp_path / "assets", tmp_path / "results"
    kept.mkdir()
    shutil.copy(assets.PROVENANCE, kept / assets.PROVENANCE.name)
    for pattern in assets.REAL_RESULTS:
        for path in assets.RESULTS.glob(pattern):
            copy = results / path.relative_to(assets.RESULTS)
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, copy)
    return kept, results


def named(found: list[str]) -> list[tuple[str, str, str]]:
    """(file name, agent, language) of each stale line; every line must say which."""
    lines = [NAMED.match(line) for line in found]
    assert all(lines), f"a line names no agent and language: {found}"
    return [(Path(m["name"]).name, m["agent"], m["language"]) for m in lines if m]


def test_the_shipped_records_are_current(copies: tuple[Path, Path]) -> None:
    assert assets.stale(*copies) == []


def test_a_change_to_the_chinese_prompt_names_only_what_chinese_runs_made(
    copies: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    change_prompt(monkeypatch, "zh")
    found = named(assets.stale(*copies))
    files = {name for name, _, _ in found}
    assert {language for _, _, language in found} == {"zh"}
    assert not {agent for _, agent, _ in found} & LANGCHAINS
    assert {f"real_rose_zh{suffix}" for suffix in assets.FORMATS} | {"price_question.py"} <= files
    assert {"compare.json", "compare_local.md", "qwen2.5-coder-1.5b_all.json"} <= files
    english = {"real_rose.txt", "real_percent.txt", "compare_rose-markup.txt", "react_vs_plan.json"}
    assert not files & english
    assert not [name for name in files if name.startswith(("qwen2.5-coder-1.5b.", "experiment_"))]


def test_a_change_to_the_english_prompt_names_our_agents_rows_never_langchains(
    copies: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    change_prompt(monkeypatch, "en")
    found = named(assets.stale(*copies))
    assert {language for _, _, language in found} == {"en"}
    assert not {agent for _, agent, _ in found} & LANGCHAINS
    compared = {agent for name, agent, _ in found if name == "compare.json"}
    assert compared == {"custom", "create_agent_text"}
    bfcl = {agent for name, agent, _ in found if name == "qwen2.5-coder-1.5b.json"}
    assert bfcl == {"text", "create_agent_text"}  # BFCL's own tools; XML and JSON read theirs
    assert "real_rose_zh.txt" not in {name for name, _, _ in found}


def test_a_change_to_langchains_prompt_names_only_its_rows(
    copies: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fingerprint, "LEGACY_REACT_PROMPT", "Answer.\n{tools}\n{tool_names}")
    found = named(assets.stale(*copies))
    assert {agent for _, agent, _ in found} == {"legacy"}
    assert {"compare.json", "compare_rose-markup.txt", "compare_legacy.py"} <= {
        name for name, _, _ in found
    }


def test_a_record_the_check_cannot_read_is_named_not_passed(copies: tuple[Path, Path]) -> None:
    kept, results = copies
    old = {"prompt_fingerprint": "a691ace1b9a5", "date": "2026-12-03"}  # one hash for all
    (results / "parallel_slots.json").write_text(json.dumps(old), encoding="utf-8")
    path = results / "compare" / "compare.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["settings"]["prompt_fingerprints"]["legacy"]
    path.write_text(json.dumps(data), encoding="utf-8")
    known = json.loads((kept / "provenance.json").read_text(encoding="utf-8"))
    known["real_rose.txt"]["prompt_fingerprints"] = {"custom": {"fr": "1a2b3c4d5e6f"}}
    del known["real_percent.mmd"]
    (kept / "provenance.json").write_text(json.dumps(known), encoding="utf-8")
    found = [line.replace(str(results), "results") for line in assets.stale(kept, results)]
    assert sorted(found) == [
        "docs/assets/real_percent.mmd (no record of its prompt)",
        "docs/assets/real_rose.txt (no record of each agent's prompt, per language)",
        "results/compare/compare.json (no record of agent 'legacy''s prompt)",
        "results/parallel_slots.json (no record of each agent's prompt, per language)",
    ]


def test_check_exits_1_naming_each_stale_asset_its_agent_and_language(
    copies: tuple[Path, Path],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    kept, results = copies
    monkeypatch.setattr(assets, "stale", functools.partial(assets.stale, kept, results))
    monkeypatch.setattr(sys, "argv", ["make_docs_assets.py", "--check"])
    with pytest.raises(SystemExit) as ended:
        assets.main()
    assert (ended.value.code, capsys.readouterr().err) == (0, "")
    made = assets.provenance("a model", {"custom": {"zh": "0ld"}}, "2026-01-02")
    assets.record(kept, ["real_rose_zh.mmd"], made)
    with pytest.raises(SystemExit) as ended:
        assets.main()
    shipped = fingerprint.fingerprint_with(assets.default_tools())("custom", "zh")
    assert ended.value.code == 1
    assert capsys.readouterr().err.splitlines() == [
        f"stale: docs/assets/real_rose_zh.mmd (agent 'custom', zh: prompt 0ld, shipped {shipped}; "
        "made 2026-01-02): remake it on the shipped prompt (see the docstring)"
    ]


def test_the_real_checkout_is_current() -> None:
    assert assets.stale() == [], "run the migration or remake the named records"
    assert ROOT == assets.ROOT
