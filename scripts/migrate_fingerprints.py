"""One-off: the one combined prompt fingerprint of every saved record, as per-agent ones.

Until now every record held `prompt_fingerprint`, one hash of our English AND Chinese system
prompts (`a691ace1b9a5` with the shipped tools, `5f3318f25580` with BFCL's), and `--check` passed:
everything was made with the prompts that ship. This rewrites each record holding exactly that
value into `prompt_fingerprints` (agent -> language of its runs -> the fingerprint of what that
agent reads first, `agent_fingerprint`), computed from the code that ships now; a record holding
any other value is left as it is, so it stays stale. BFCL's runs get their `language` (from the
case) and the per-agent key (`<fingerprint>:<bfcl-eval version>`): ours from the combined key,
LangChain's from the bare version they were stored under (which the old rule made current).
Then the Markdown made from those records is remade offline. Run once from the checkout's root:

    PYTHONPATH=. python scripts/migrate_fingerprints.py
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import bfcl, bfcl_report, parallel_slots  # noqa: E402
from custom_react.compare import load_questions  # noqa: E402
from custom_react.compare.report import ComparisonReport, RunRecord  # noqa: E402
from custom_react.compare.runners.custom import question_language  # noqa: E402
from custom_react.compare.runners.fingerprint import (  # noqa: E402
    agent_fingerprints,
    fingerprint_with,
)
from custom_react.compare.tables import to_markdown  # noqa: E402
from custom_react.prompt import build_react_prompt  # noqa: E402
from tools import default_tools  # noqa: E402

OLD, OLD_BFCL = "a691ace1b9a5", "5f3318f25580-fdc2f0e1"
RESULTS = ROOT / "bench" / "results"


def load_assets_script() -> Any:
    path = ROOT / "scripts" / "make_docs_assets.py"
    spec = importlib.util.spec_from_file_location("make_docs_assets", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_docs_assets"] = module
    spec.loader.exec_module(module)
    return module


def combined(tools: list[Any]) -> str:
    """The old `prompt_fingerprint(tools)`: English and Chinese together."""
    texts = [
        build_react_prompt(tools, language=language, examples=True)
        .format_messages(input="")[0]
        .text
        for language in ("en", "zh")
    ]
    return hashlib.sha256("\n\0".join(texts).encode("utf-8")).hexdigest()[:12]


def check_old_values() -> None:
    """The values replaced are the old fingerprint of the prompts that ship now."""
    assert combined(default_tools()) == OLD, "the shipped prompt is not the one the records hold"
    case = bfcl.load_cases("simple_python")[0]
    assert combined(bfcl.recording_tools(case, [])) == OLD_BFCL.split("-")[0]
    assert bfcl.bfcl_fingerprints()("text", "en").split("-")[1] == OLD_BFCL.split("-")[1]


def write_json(path: Path, data: Any) -> None:
    """Write `data` as `path` was written: its indent (a comparison's is 2) and its last newline."""
    old = path.read_text(encoding="utf-8")
    indent = 2 if old.startswith('{\n  "') else 1
    end = "\n" if old.endswith("\n") else ""
    path.write_text(json.dumps(data, ensure_ascii=False, indent=indent) + end, encoding="utf-8")


def replaced(made: dict[str, Any], fingerprints: dict[str, Any]) -> dict[str, Any]:
    """`made` with its `prompt_fingerprint` replaced, in its place, by `prompt_fingerprints`."""
    return {
        ("prompt_fingerprints" if key == "prompt_fingerprint" else key): (
            fingerprints if key == "prompt_fingerprint" else value
        )
        for key, value in made.items()
    }


def result_reads(path: Path, data: dict[str, Any]) -> list[tuple[str, str]]:
    """The (agent, language) pairs a saved result's runs read."""
    if path.name == "parallel_slots.json":  # the cases, then the warm-up (as the bench counts)
        every = load_questions(ROOT / data["questions"])
        cases = data["rows"][0]["cases"]
        asked = every[:cases] + every[cases:][: max(row["slots"] for row in data["rows"])]
        return [("custom", question_language(question.question)) for question in asked]
    if path.name == "answer_grammar.json":
        return [("custom", "zh" if r["id"].startswith("zh-") else "en") for r in data["records"]]
    return [(r["agent"], question_language(r["question"])) for r in data["records"]]


def migrate_results() -> None:
    fingerprint = fingerprint_with(default_tools())
    for pattern in ("compare/compare.json", "experiments/*.json", "solve_rate/*.json"):
        for path in sorted(RESULTS.glob(pattern)):
            migrate_result(path, fingerprint)
    for name in ("parallel_slots.json", "answer_grammar.json"):
        migrate_result(RESULTS / name, fingerprint)


def migrate_result(path: Path, fingerprint: Any) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    inside = "settings" in data
    made = data["settings"] if inside else data
    if made.get("prompt_fingerprint") != OLD:
        print(f"left stale: {path.relative_to(ROOT)}")
        return
    made = replaced(made, agent_fingerprints(result_reads(path, data), fingerprint))
    write_json(path, {**data, "settings": made} if inside else made)
    print(f"migrated: {path.relative_to(ROOT)}")


def migrate_bfcl_run(run: dict[str, Any], fingerprint: Any, language: str) -> dict[str, Any]:
    """One BFCL run with its language and, if it was current, its per-agent key."""
    prefix, _, version = run["key"].rpartition(":")
    ours = bfcl.reads_our_prompt(run["agent"])
    current = (prefix == OLD_BFCL) if ours else (run["key"] == bfcl.BFCL_VERSION)
    key = run["key"]
    if current:
        key = f"{fingerprint(run['agent'], language)}:{version}"
    moved: dict[str, Any] = {}
    for name, value in run.items():
        moved[name] = key if name == "key" else value
        if name == "agent":
            moved["language"] = language
    return moved


def migrate_bfcl() -> None:
    fingerprint = bfcl.bfcl_fingerprints()
    cases = {case.id: case for category in bfcl.CATEGORIES for case in bfcl.load_cases(category)}

    def run_of(run: dict[str, Any]) -> dict[str, Any]:
        language = question_language(cases[run["id"]].question)
        return migrate_bfcl_run(run, fingerprint, language)

    new_key = f"{fingerprint('text', 'en')}:{bfcl.BFCL_VERSION}"
    for store in sorted((RESULTS / "bfcl").rglob("*.jsonl")):
        lines = store.read_text(encoding="utf-8").splitlines()
        runs = [run_of(json.loads(line)) for line in lines if line.strip()]
        text = "".join(json.dumps(run, ensure_ascii=False) + "\n" for run in runs)
        store.write_text(text, encoding="utf-8")
        saved = store.with_suffix(".json")
        data = json.loads(saved.read_text(encoding="utf-8"))
        data["runs"] = [run_of(run) for run in data["runs"]]
        old = data["settings"]
        data["settings"] = {
            "model": old["model"],
            "date": old["date"],
            "bfcl_eval": old["key"].rpartition(":")[2],
            "prompt_fingerprints": bfcl_report.prompt_fingerprints(data["runs"]),
        }
        write_json(saved, data)
        report = store.with_suffix(".md")
        old_key = f"{OLD_BFCL}:{bfcl.BFCL_VERSION}"
        text = report.read_text(encoding="utf-8").replace(old_key, new_key)
        report.write_text(text, encoding="utf-8")
        print(f"migrated: {store.relative_to(ROOT)} and its .json, .md")


def migrate_provenance(assets: Any) -> None:
    """Each asset's record: what its runs read (the script's own tables), now."""
    path = assets.PROVENANCE
    known = json.loads(path.read_text(encoding="utf-8"))
    reads = asset_reads(assets)
    for name, made in known.items():
        if made.get("prompt_fingerprint") != OLD:
            print(f"left stale: {name}")
            continue
        fingerprints = assets.shipped(reads[name]) if name in reads else None
        if fingerprints is None:  # made from a saved result: what its shown runs read there
            fingerprints = shown_from_results(assets, name)
        known[name] = assets.provenance(made["model"], fingerprints, made["date"])
    write_json(path, dict(sorted(known.items())))


def asset_reads(assets: Any) -> dict[str, dict[str, tuple[str, ...]]]:
    reads = {
        f"{name}{suffix}": {"custom": (run.language,)}
        for name, run in assets.REAL_RUNS.items()
        for suffix in assets.FORMATS
    }
    reads |= {f"demos/{name}.py": read for name, read in assets.DEMO_READS.items()}
    reads |= {name: assets.DEMO_READS["plan_execute"] for name in assets.PLAN_EXECUTE_ASSETS}
    return reads | {assets.PAUSE_RESUME: assets.ENGLISH}


def shown_from_results(assets: Any, name: str) -> dict[str, Any]:
    if name.startswith("experiment_"):
        experiment = name.removeprefix("experiment_").removesuffix(".txt")
        question, left, right = assets.EXPERIMENT_TRANSCRIPTS[experiment]
        data = json.loads((assets.EXPERIMENTS / f"{experiment}.json").read_text(encoding="utf-8"))
        asked = next(r["question"] for r in data["records"] if r["question_id"] == question)
        return assets.shown_runs(
            data["prompt_fingerprints"], (left, right), question_language(asked)
        )
    data = json.loads(assets.COMPARISON.read_text(encoding="utf-8"))
    made = data["settings"]["prompt_fingerprints"]
    if name == "compare_local.md":
        return made
    question = assets.COMPARISON_QUESTION
    asked = next(r["question"] for r in data["records"] if r["question_id"] == question)
    agents = (
        ("create_agent", "create_agent_text") if "create_agent" in name else ("custom", "legacy")
    )
    return assets.shown_runs(made, agents, question_language(asked))


def remake_markdown(assets: Any) -> None:
    """The Markdown made from the migrated records, remade offline (nothing else in it changes)."""
    data = json.loads(assets.COMPARISON.read_text(encoding="utf-8"))
    data.pop("totals", None)
    data["records"] = [RunRecord(**record) for record in data["records"]]
    tables = to_markdown(ComparisonReport(**data))
    assets.COMPARISON.with_suffix(".md").write_text(tables, encoding="utf-8")
    (assets.ASSETS / "compare_local.md").write_text(tables, encoding="utf-8")
    slots = json.loads((RESULTS / "parallel_slots.json").read_text(encoding="utf-8"))
    (RESULTS / "parallel_slots.md").write_text(parallel_slots.render(slots), encoding="utf-8")
    assets.embed_all()


def main() -> None:
    check_old_values()
    assets = load_assets_script()
    migrate_results()
    migrate_bfcl()
    migrate_provenance(assets)
    remake_markdown(assets)


if __name__ == "__main__":
    main()
