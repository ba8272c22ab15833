"""The BFCL tables (`bench/bfcl.py`): passed per category and agent, by half, and the kinds of miss.

`save` writes `<stem>.json` (the settings with each agent's prompt fingerprint per language,
read from its runs' keys, which `scripts/make_docs_assets.py --check` compares with the current
ones, and every run) and `<stem>.md`, and returns the Markdown. The Markdown also counts, for
each of our agents, the runs made on the package's code as it is when the report is made
(`on_code`): a run made before a change to the parser counts until it is run again. The even
case ids are the tuning half, the odd ones held out, the live categories a further held-out set,
and the multi-turn cases a table of their own. Nothing here runs a model.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.bfcl_cases import is_multi_turn
from custom_react.compare.runners.fingerprint import reads_our_prompt, shown_fingerprints

GROUPS = (
    ("even ids (tuning half)", lambda r: _single(r) and _number(r) % 2 == 0),
    ("odd ids (held-out half)", lambda r: _single(r) and _number(r) % 2 == 1),
    ("live categories (further held-out)", lambda r: r["id"].startswith("live")),
    ("several turns (multi_turn_base)", lambda r: is_multi_turn(r["category"])),
)


def _single(record: dict[str, Any]) -> bool:
    """A case of the non-live single-call categories (not live, not multi-turn)."""
    return not record["id"].startswith("live") and not is_multi_turn(record["category"])


def _number(record: dict[str, Any]) -> int:
    match = re.search(r"(\d+)", record["id"][len(record["category"]) :])
    return int(match.group(1)) if match else 0


def table(records: Sequence[dict[str, Any]], agents: Sequence[str]) -> list[str]:
    """One row per category, one column per agent: passed/cases, and the total."""
    categories = list(dict.fromkeys(r["category"] for r in records))
    rows = ["| category | " + " | ".join(agents) + " |", "|---|" + "---:|" * len(agents)]
    for category in [*categories, "**all**"]:
        cells = []
        for agent in agents:
            runs = [
                r for r in records if r["agent"] == agent and category in (r["category"], "**all**")
            ]
            passed = sum(r["passed"] for r in runs)
            cells.append(f"{passed}/{len(runs)}" if runs else "-")
        rows.append(f"| {category} | " + " | ".join(cells) + " |")
    return rows


def miss_kind(record: dict[str, Any]) -> str:
    """A miss's kind: BFCL's error type without the checker's name, or ours (no call, a crash)."""
    if record.get("error"):
        return "crashed: " + record["error"].split(":")[0]
    kind = record["miss"].split(":")[0] if ":" in record["miss"] else record["miss"]
    message = record["miss"].split(":", 1)[-1].strip()
    if kind.startswith("simple_function_checker") or kind.startswith("type_error"):
        kind = re.sub(r"'[^']*'", "'…'", message.split(".")[0])
    return kind


def misses(records: Sequence[dict[str, Any]], agents: Sequence[str]) -> list[str]:
    """The kinds of miss per agent, most common first."""
    rows = ["| agent | misses by kind |", "|---|---|"]
    for agent in agents:
        kinds = Counter(miss_kind(r) for r in records if r["agent"] == agent and not r["passed"])
        text = "; ".join(f"{count}× {kind}" for kind, count in kinds.most_common(6))
        rows.append(f"| {agent} | {text or '-'} |")
    return rows


def prompt_fingerprints(records: Sequence[dict[str, Any]]) -> dict[str, dict[str, str]]:
    """Each agent's prompt fingerprint per language, from its runs' keys (`<fingerprint>:<version>`)."""
    found: dict[str, dict[str, str]] = {}
    for record in records:
        fingerprint = record["key"].rsplit(":", 1)[0]
        found.setdefault(record["agent"], {})[record["language"]] = fingerprint
    return found


def on_code(records: Sequence[dict[str, Any]], code: str) -> str:
    """How many of each of our agents' runs the package's code `code` made (LangChain's run none)."""
    agents = [a for a in dict.fromkeys(r["agent"] for r in records) if reads_our_prompt(a)]
    counts = []
    for agent in agents:
        runs = [r for r in records if r["agent"] == agent]
        counts.append(f"{agent} {sum(r.get('code') == code for r in runs)}/{len(runs)}")
    return (
        f"Runs of ours made on the package's code as it is now (`{code}`, `code_fingerprint`): "
        f"{', '.join(counts)}; the others were made on earlier code (`--redo` runs them again).\n"
    )


def render(records: Sequence[dict[str, Any]], model: str, version: str, code: str = "") -> str:
    """The Markdown report; with `code`, how many of our runs that code made (`on_code`)."""
    agents = list(dict.fromkeys(r["agent"] for r in records))
    commands = "\n".join(f"    {c}" for c in dict.fromkeys(r.get("command", "") for r in records))
    read = shown_fingerprints(prompt_fingerprints(records))
    parts = [
        f"# BFCL v4 on {model}: text ReAct against native tool calls\n",
        f"Made {time.strftime('%Y-%m-%d')} by these commands (the runs of each are kept):\n\n"
        f"{commands}\n\nbfcl-eval {version}; the prompt each agent read, per language: {read}. "
        "A case passes when BFCL's `ast_checker` accepts the first call the agent let a tool run "
        "within 3 steps (every call, in the parallel categories); an irrelevance case when no "
        "tool ran, a live_relevance case when one did.\n",
    ]
    if code:
        parts.append(on_code(records, code))
    for title, member in GROUPS:
        chosen = [r for r in records if member(r)]
        if chosen:
            parts += [f"## {title}\n", "\n".join(table(chosen, agents)) + "\n"]
    parts += ["## Misses by kind (every case above)\n", "\n".join(misses(records, agents)) + "\n"]
    return "\n".join(parts)


def save(
    records: Sequence[dict[str, Any]], stem: Path, model: str, version: str, code: str = ""
) -> str:
    """Write `<stem>.json` and `<stem>.md` of the runs on bfcl-eval `version`; return the Markdown.

    `code` is the package's code fingerprint now, for the report's count of runs it made.
    """
    settings = {
        "model": model,
        "date": time.strftime("%Y-%m-%d"),
        "bfcl_eval": version,
        "prompt_fingerprints": prompt_fingerprints(records),
        "code": code,
    }
    data = {"settings": settings, "runs": list(records)}
    Path(f"{stem}.json").write_text(
        json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    text = render(records, model, version, code)
    Path(f"{stem}.md").write_text(text, encoding="utf-8")
    return text
