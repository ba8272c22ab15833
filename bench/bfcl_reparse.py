"""Whether a change to reading an action reads any stored BFCL step of ours differently.

A run's key is the prompt its agent read, not the code that read the replies, so a change to the
parsers, to binding an input to its tool or to the checks on it leaves the stored runs standing
only if it reads every step in them the same way. This writes how the code at hand reads each
step of our agents' stored transcripts (text, XML, JSON and `create_agent_text`, both models):
the step the reply parses to, and for an action the case's tool it resolves to, the arguments it
binds and what the argument checks say (`resolve_call`, `bind_arguments`, `argument_problem`,
`placeholder_input`). It compares two such files:

    python bench/bfcl_reparse.py --write /tmp/new.json
    PYTHONPATH=/path/to/old/checkout python bench/bfcl_reparse.py --write /tmp/old.json
    python bench/bfcl_reparse.py --compare /tmp/old.json /tmp/new.json

The second line reads this checkout's stored runs with another checkout's code (`custom_react`
and `bench`; a checkout from before `bfcl_cases.cases_by_id` lacks what this imports). A transcript
holds a run's lines as the agent logged them (markers made plain); one step is the lines between
two observations, which every format reads as it read the reply.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from langchain_core.tools import BaseTool

# Run as a script, `bench` is found here last: another checkout on PYTHONPATH comes first.
sys.path.append(str(Path(__file__).resolve().parents[1]))

from bench.bfcl_cases import cases_by_id, is_multi_turn, recording_tools
from custom_react.argument_checks import argument_problem, placeholder_input
from custom_react.arguments import bind_arguments
from custom_react.compare.runners.fingerprint import reads_our_prompt
from custom_react.formats import FORMAT_NAMES, get_format
from custom_react.toolbox import resolve_call

# Its own path, not `bfcl_reach.RESULTS`: run against another checkout, `bench` is that one's.
RESULTS = Path(__file__).resolve().parent / "results" / "bfcl"
OBSERVATIONS = ("observation", "<observation", '{"observation')


def read_steps(results: Path = RESULTS) -> dict[str, str]:
    """`model|agent|case|key|step` -> how the code at hand reads and checks that stored step."""
    readings: dict[str, str] = {}
    for path in sorted(results.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            run = json.loads(line)
            if not reads_our_prompt(run["agent"]):
                continue
            # An agent named after a step format reads that format; every other of ours, text.
            step_format = get_format(run["agent"] if run["agent"] in FORMAT_NAMES else "text")
            tools = _tools(run.get("category", ""), run["id"])
            parse = step_format.reading_calls_of(tools).parse  # as the agent reads a reply
            for index, step in enumerate(steps_of(run["transcript"])):
                key = f"{path.stem}|{run['agent']}|{run['id']}|{run['key']}|{index}"
                readings[key] = reading(step, parse, tools)
    return readings


def steps_of(transcript: list[str]) -> list[str]:
    """The run's steps: each the lines the model wrote between two observations."""
    steps: list[list[str]] = [[]]
    for entry in transcript:
        if entry.lstrip().lower().startswith(OBSERVATIONS):
            steps.append([])
        else:
            steps[-1].append(entry)
    return ["\n".join(lines) for lines in steps if lines]


def reading(step: str, parse: Callable[[str, str], Any], tools: list[BaseTool]) -> str:
    """The parsed step; for an action also its tool, its bound arguments and the checks' verdict."""
    try:
        parsed = parse(step, "en")
    except ValueError as error:  # a ParseError
        return f"refused: {error}"
    if not hasattr(parsed, "tool_input"):  # the final answer
        return repr(vars(parsed))
    tool, tool_input = resolve_call(parsed.tool, parsed.tool_input, tools)
    if tool is None:
        return f"{vars(parsed)!r} -> no tool"
    args, _ = bind_arguments(tool, tool_input)
    verdict = argument_problem(tool, args) or placeholder_input(tool, args) or "runs"
    return f"{vars(parsed)!r} -> {tool.name}({args!r}): {verdict}"


def _tools(category: str, case: str) -> list[BaseTool]:
    """The case's tools (none for a multi-turn case, or a run of a case BFCL no longer has)."""
    if not category or is_multi_turn(category) or case not in cases_by_id(category):
        return []
    return recording_tools(cases_by_id(category)[case], [])


def read_differently(old: dict[str, str], new: dict[str, str]) -> list[str]:
    """The steps in both readings that the two read differently."""
    return sorted(key for key in old.keys() & new.keys() if old[key] != new[key])


def main() -> None:
    """Write this checkout's readings, or print the steps two such files read differently."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", type=Path, help="write this checkout's readings here")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("OLD", "NEW"))
    args = parser.parse_args()
    if args.write:
        readings = read_steps()
        args.write.write_text(json.dumps(readings, ensure_ascii=False), encoding="utf-8")
        print(f"{len(readings)} stored steps read")
    if args.compare:
        old, new = (json.loads(path.read_text(encoding="utf-8")) for path in args.compare)
        for key in read_differently(old, new):
            print(f"{key}\n  before: ...{old[key][-160:]}\n  now:    ...{new[key][-160:]}")
        both = len(old.keys() & new.keys())
        print(f"{len(read_differently(old, new))} of {both} steps in both read differently")


if __name__ == "__main__":
    main()
