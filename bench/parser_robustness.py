"""Parser robustness: our parser vs LangChain's legacy `ReActSingleInputOutputParser`.

Each case in `bench/parser_cases.jsonl` is a reply a model could write, labelled with what it means:
the tool to run and the arguments it should get, the final answer, or "no meaning" (the parser must
refuse it). A parser scores a case when the step its agent would take equals the label:

- ours: `parse_llm_response`, then the loop's own `resolve_tool` and `tool_arguments`;
- legacy: `ReActSingleInputOutputParser.parse`, then what `AgentExecutor` does with the result
  (exact tool-name lookup; the Action Input string becomes the tool's only argument).

String arguments and answers are compared with whitespace collapsed (and `*` trimmed from the ends
of an answer), so only differences that change what runs or what the user reads count.

Run from the repository root:  python bench/parser_robustness.py [--json PATH] [--quiet]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

from langchain_classic.agents.output_parsers import ReActSingleInputOutputParser
from langchain_core.agents import AgentAction
from langchain_core.exceptions import OutputParserException
from langchain_core.tools import BaseTool

from custom_react.parser import Action, ParseError, parse_llm_response
from custom_react.toolbox import resolve_tool, tool_arguments
from tools import calculator, current_date, make_search_tool

CASES = Path(__file__).with_name("parser_cases.jsonl")
TOOLS: list[BaseTool] = [make_search_tool(tavily_api_key=""), calculator, current_date]


def load_cases(path: Path = CASES) -> list[dict[str, Any]]:
    """The labelled cases (lines starting with `#` are comments)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip() and not line.startswith("#")]


def ours(text: str) -> dict[str, Any]:
    """The step our agent would take for `text`."""
    try:
        step = parse_llm_response(text)
    except ParseError:
        return {"error": True}
    if not isinstance(step, Action):
        return {"final": step.output}
    tool = resolve_tool(step.tool, TOOLS)
    if tool is None:
        return {"action": step.tool, "args": None}
    return {"action": tool.name, "args": tool_arguments(tool, step.tool_input)}


def legacy(text: str) -> dict[str, Any]:
    """The step `AgentExecutor` with the legacy parser would take for `text`."""
    try:
        step = ReActSingleInputOutputParser().parse(text)
    except OutputParserException:
        return {"error": True}
    if not isinstance(step, AgentAction):
        return {"final": str(step.return_values["output"])}
    tool = next((tool for tool in TOOLS if tool.name == step.tool), None)
    if tool is None:
        return {"action": step.tool, "args": None}
    fields = list(tool.args)
    return {"action": tool.name, "args": {fields[0]: step.tool_input} if fields else {}}


def normalize(meaning: dict[str, Any]) -> dict[str, Any]:
    """Collapse whitespace in string arguments and answers; trim markdown stars off answers.

    An action with an empty tool name counts as refused: both agents answer it with an error
    observation ("... is not a valid tool").
    """
    if meaning.get("args", {}) is None and not str(meaning.get("action", "")).strip():
        return {"error": True}
    if "final" in meaning:
        return {"final": " ".join(str(meaning["final"]).split()).strip("* ")}
    if "args" in meaning and isinstance(meaning["args"], dict):
        args = {
            k: " ".join(v.split()) if isinstance(v, str) else v for k, v in meaning["args"].items()
        }
        return {"action": meaning["action"], "args": args}
    return meaning


def score(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each case with what both parsers made of it and whether that matches the label."""
    rows = []
    for case in cases:
        expected = normalize(case["expected"])
        got = {"ours": normalize(ours(case["text"])), "legacy": normalize(legacy(case["text"]))}
        rows.append({**case, "got": got, **{name: got[name] == expected for name in got}})
    return rows


def main() -> None:
    """Score both parsers, print the table and totals, optionally save JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", default=None, help="also write the per-case results here")
    parser.add_argument("--quiet", action="store_true", help="only the totals")
    args = parser.parse_args()
    rows = score(load_cases())
    if not args.quiet:
        print(f"{'case':<32} {'category':<14} {'ours':<5} {'legacy':<6} legacy made it")
        for row in rows:
            mark = {True: "ok", False: "FAIL"}
            made = json.dumps(row["got"]["legacy"], ensure_ascii=False)[:60]
            print(
                f"{row['id']:<32} {row['category']:<14} {mark[row['ours']]:<5} {mark[row['legacy']]:<6} {made}"
            )
    by_category: dict[str, Counter[str]] = {}
    for row in rows:
        counter = by_category.setdefault(row["category"], Counter())
        counter.update(total=1, ours=row["ours"], legacy=row["legacy"])
    print(f"\n{'category':<14} {'cases':>5} {'ours':>5} {'legacy':>6}")
    for category, counter in by_category.items():
        print(f"{category:<14} {counter['total']:>5} {counter['ours']:>5} {counter['legacy']:>6}")
    ours_total, legacy_total = sum(r["ours"] for r in rows), sum(r["legacy"] for r in rows)
    print(f"{'all':<14} {len(rows):>5} {ours_total:>5} {legacy_total:>6}")
    print(
        f"\nours: {ours_total}/{len(rows)} parsed to the labelled meaning; legacy: {legacy_total}/{len(rows)}"
    )
    if args.json:
        summary = {"cases": len(rows), "ours": ours_total, "legacy": legacy_total}
        Path(args.json).write_text(
            json.dumps({"summary": summary, "cases": rows}, ensure_ascii=False, indent=2) + "\n",
            encoding="utf-8",
        )


if __name__ == "__main__":
    main()
