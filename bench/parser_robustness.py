"""Parser robustness: our text parser against the peers' ReAct parsers, per dialect group.

Each case is a reply a model could write, labelled with what it means: the tool to run and the
arguments it should get, the final answer, or "no meaning" (the parser must refuse it). A parser
scores a case when the step its agent would take equals the label:

- ours: the text format's parser as the agent reads replies (`parse_llm_response`, then a call of
  one of the case's tools written in prose: `TEXT.reading_calls_of`), then the loop's own
  `resolve_call` and `bind_arguments`; arguments
  the loop's checks refuse (`argument_problem`, `placeholder_input`) count as refused;
- the peers (`bench/peer_parsers.py`): `legacy` (LangChain's `ReActSingleInputOutputParser`, the
  parser of `create_react_agent`), `mrkl`, `react-json`, `struct-chat`, `convo` and `xml` (LangChain's
  other agent parsers), and `crewai` when `--crewai-python` names an interpreter with crewAI; each
  result is then what its executor would run (exact tool name; a string input becomes the tool's
  only argument, a dict input its arguments).

String arguments and answers are compared with whitespace collapsed (and `*` trimmed from the ends
of an answer), so only differences that change what runs or what the user reads count.

Case files: `bench/parser_dialects.jsonl` (the default: dialects seen in other frameworks, in
groups, each case `tune` or `holdout`), `bench/parser_cases.jsonl` (the first 43 malformed
replies, in categories; what `load_cases()` reads when given no path) and
`bench/parser_replies_wild.jsonl` (real replies quoted in threads about agents that broke on them).
A case that names its agent's tools (`tools`: {name: [argument, ...]}) is scored against stand-ins
with those names and arguments; any other case against search, calculator and current_date.

The tables give passes per group, in total and per split, then per group within each split, and
end with the verdict: the groups (per split) where ours is not strictly ahead of every peer.

Run from the repository root:
    python bench/parser_robustness.py [--cases PATH] [--crewai-python PATH] [--json PATH]
        [--markdown PATH] [--quiet]
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from langchain_core.tools import BaseTool, StructuredTool

from custom_react.argument_checks import argument_problem, placeholder_input
from custom_react.arguments import bind_arguments
from custom_react.formats import TEXT
from custom_react.parser import Action, ParseError
from custom_react.toolbox import resolve_call
from tools import calculator, current_date, make_search_tool

try:  # run as a script: bench/ is on the path
    from peer_parsers import Peer, available_peers
except ModuleNotFoundError:  # loaded from the repository root (the tests)
    from bench.peer_parsers import Peer, available_peers

CASES = Path(__file__).with_name("parser_cases.jsonl")
DIALECTS = Path(__file__).with_name("parser_dialects.jsonl")
TOOLS: list[BaseTool] = [make_search_tool(tavily_api_key=""), calculator, current_date]


def load_cases(path: Path = CASES) -> list[dict[str, Any]]:
    """The labelled cases (lines starting with `#` are comments)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip() and not line.startswith("#")]


def case_tools(case: dict[str, Any]) -> list[BaseTool]:
    """The tools the case's agent had: stand-ins for the case's `tools`, else `TOOLS`."""
    named = case.get("tools")
    if named is None:
        return TOOLS
    return [_stand_in(name, arguments) for name, arguments in named.items()]


def _stand_in(name: str, arguments: list[str]) -> BaseTool:
    """A tool with only a name and argument names: enough to resolve and bind it, never run."""
    properties: dict[str, Any] = {argument: {} for argument in arguments}
    schema = {"type": "object", "properties": properties, "required": arguments}
    return StructuredTool.from_function(
        func=lambda **_: "", name=name, description=name, args_schema=schema
    )


def ours(text: str, tools: list[BaseTool] = TOOLS) -> dict[str, Any]:
    """The step our agent would take for `text`."""
    try:
        step = TEXT.reading_calls_of(tools).parse(
            text, "en"
        )  # the text format, as the agent reads it
    except ParseError:
        return {"error": True}
    if not isinstance(step, Action):
        return {"final": step.output}
    tool, tool_input = resolve_call(step.tool, step.tool_input, tools)
    if tool is None:
        return {"action": step.tool, "args": None}
    args, _ = bind_arguments(tool, tool_input)
    if argument_problem(tool, args) or placeholder_input(tool, args):
        return {"error": True}  # the loop refuses it before the tool runs
    return {"action": tool.name, "args": args}


def normalize(meaning: dict[str, Any]) -> dict[str, Any]:
    """Collapse whitespace in string arguments and answers; trim markdown stars off answers.

    An action with an empty tool name counts as refused: both agents answer it with an error
    observation ("... is not a valid tool"). A label's `error` may say why; any refusal matches it.
    """
    if "error" in meaning:
        return {"error": True}
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


def score(
    cases: list[dict[str, Any]], peers: dict[str, Peer] | None = None
) -> list[dict[str, Any]]:
    """Each case with what every parser made of it (`got`) and, under each parser's name, whether
    that matches the label. `group` and `split` are filled in for the older case file."""
    peers = available_peers(None) if peers is None else peers
    made: dict[str, list[dict[str, Any]]] = {name: [{}] * len(cases) for name in ["ours", *peers]}
    by_tools: dict[str, list[int]] = {}
    for index, case in enumerate(cases):
        by_tools.setdefault(json.dumps(case.get("tools"), sort_keys=True), []).append(index)
    for indexes in by_tools.values():  # each peer reads the cases of one set of tools at a time
        tools = case_tools(cases[indexes[0]])
        texts = [cases[index]["text"] for index in indexes]
        found = {"ours": [ours(text, tools) for text in texts]}
        found.update({name: peer(texts, tools) for name, peer in peers.items()})
        for name, meanings in found.items():
            for index, meaning in zip(indexes, meanings, strict=True):
                made[name][index] = meaning
    rows = []
    for index, case in enumerate(cases):
        expected = normalize(case["expected"])
        got = {name: normalize(meanings[index]) for name, meanings in made.items()}
        group, split = case.get("group", case.get("category", "")), case.get("split", "all")
        row = {**case, "group": group, "split": split, "got": got}
        rows.append(row | {name: meaning == expected for name, meaning in got.items()})
    return rows


Tallies = dict[str, Counter[str]]


def tally(rows: list[dict[str, Any]], names: list[str], key: str) -> Tallies:
    """Cases and passes per parser for each value of `row[key]` (`group`, `split`), in first-seen
    order; a key no row has (`all`) tallies every row under that name."""
    counters: dict[str, Counter[str]] = {}
    for row in rows:
        counter = counters.setdefault(row.get(key, key), Counter())
        counter.update(cases=1, **{name: int(row[name]) for name in names})
    return counters


def print_cases(rows: list[dict[str, Any]], names: list[str]) -> None:
    """One line per case: a mark per parser and, when ours misses, what ours made of it."""
    print(f"{'case':<46} {'split':<7} " + " ".join(f"{name:>{len(name)}}" for name in names))
    for row in rows:
        marks = " ".join(f"{'ok' if row[name] else '--':>{len(name)}}" for name in names)
        made = "" if row["ours"] else json.dumps(row["got"]["ours"], ensure_ascii=False)[:70]
        print(f"{row['id']:<46} {row['split']:<7} {marks}  {made}")


def table_sections(rows: list[dict[str, Any]], names: list[str]) -> list[tuple[str, Tallies]]:
    """(title, tallies) for each table: per group, in total, and -- when the file has splits --
    per split and per group within each split."""
    sections = [("all cases", tally(rows, names, "group")), ("", tally(rows, names, "all"))]
    splits = tally(rows, names, "split")
    if len(splits) > 1:
        sections.append(("", splits))
        for split in splits:
            chosen = [row for row in rows if row["split"] == split]
            sections.append((f"{split} split", tally(chosen, names, "group")))
    return sections


def behind(rows: list[dict[str, Any]], names: list[str]) -> list[str]:
    """The `group/split` keys where ours is not strictly ahead of every peer (ties included)."""
    keyed = [row | {"key": f"{row['group']}/{row['split']}"} for row in rows]
    peers = [name for name in names if name != "ours"]
    return [
        key
        for key, counter in tally(keyed, names, "key").items()
        if peers and counter["ours"] <= max(counter[name] for name in peers)
    ]


def verdict(rows: list[dict[str, Any]], names: list[str]) -> str:
    """One line: ours ahead of every peer on every group and split, or where it is not."""
    lagging = behind(rows, names)
    if not lagging:
        return "Verdict: ours is ahead of every peer on every group, in every split."
    return "Verdict: ours is NOT ahead of every peer on: " + ", ".join(lagging)


def print_table(rows: list[dict[str, Any]], names: list[str]) -> None:
    """The tables of `table_sections`, then the verdict."""
    header = f"{'group':<18} {'cases':>5} " + " ".join(f"{name:>{len(name)}}" for name in names)
    for title, counters in table_sections(rows, names):
        print(f"\n{title}\n{header}" if title else "-" * len(header))
        if title:
            print("-" * len(header))
        for label, counter in counters.items():
            cells = " ".join(f"{counter[name]:>{len(name)}}" for name in names)
            print(f"{label:<18} {counter['cases']:>5} {cells}")
    print(f"\n{verdict(rows, names)}")


def write_markdown(path: str, rows: list[dict[str, Any]], names: list[str]) -> None:
    """Save the tables as Markdown, with the command that made them and the verdict."""
    command = shlex.join(["python", "bench/parser_robustness.py", *sys.argv[1:]])
    lines = ["# Parser robustness", "", f"Made by `{command}`."]
    header = ["group", "cases", *names]
    for title, counters in table_sections(rows, names):
        if title:
            lines += ["", f"## {title.capitalize()}", "", "| " + " | ".join(header) + " |"]
            lines.append("|" + " --- |" * len(header))
        for label, counter in counters.items():
            cells = [f"**{label}**" if not title else label, str(counter["cases"])]
            lines.append("| " + " | ".join(cells + [str(counter[n]) for n in names]) + " |")
    lines += ["", verdict(rows, names), ""]
    Path(path).write_text("\n".join(lines), encoding="utf-8")


def write_json(path: str, rows: list[dict[str, Any]], names: list[str]) -> None:
    """Save the per-case results and the tallies (per group, per split, per group and split)."""
    keyed = [row | {"key": f"{row['group']}/{row['split']}"} for row in rows]
    summary = {
        "cases": len(rows),
        "totals": {name: sum(row[name] for row in rows) for name in names},
        "groups": tally(rows, names, "group"),
        "splits": tally(rows, names, "split"),
        "groups_by_split": tally(keyed, names, "key"),
        "not_ahead": behind(rows, names),
    }
    text = json.dumps({"summary": summary, "cases": rows}, ensure_ascii=False, indent=2)
    Path(path).write_text(text + "\n", encoding="utf-8")


def main() -> None:
    """Score ours and every available peer on one case file; print the tables, optionally save JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=Path, default=DIALECTS, help="the labelled case file")
    parser.add_argument(
        "--crewai-python",
        default=os.environ.get("CREWAI_PYTHON"),
        help="an interpreter with crewAI installed (or $CREWAI_PYTHON); without it, no crewai column",
    )
    parser.add_argument("--json", default=None, help="also write the per-case results here")
    parser.add_argument("--markdown", default=None, help="also write the tables here as Markdown")
    parser.add_argument("--quiet", action="store_true", help="only the tables")
    args = parser.parse_args()
    peers = available_peers(args.crewai_python)
    rows = score(load_cases(args.cases), peers)
    names = ["ours", *peers]
    if not args.quiet:
        print_cases(rows, names)
    print_table(rows, names)
    if not args.crewai_python:
        print("\n(no crewai column: pass --crewai-python PATH to score crewAI's parser too)")
    if args.json:
        write_json(args.json, rows, names)
    if args.markdown:
        write_markdown(args.markdown, rows, names)


if __name__ == "__main__":
    main()
