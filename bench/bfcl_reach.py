"""Which stored BFCL runs of ours a change to reading an action can reach, to run again.

Two kinds of change, each reaching only the runs whose transcript shows what it reads:

- `--kind inputs` (the default): how a written input is bound to a tool
  (`custom_react/arguments.py`) or what an unknown argument's refusal says (`argument_checks.py`):
  an Action Input in text that names an argument (`religion: "Buddhism"`, `query="rose"`), an
  object inside other words (`a JSON object such as {...}`), or a refusal for an argument the
  tool does not have.
- `--kind wrapped-calls`: a tool's call wrapped in code (`toolbox.resolve_call`): a refusal of
  an unknown tool after an action whose input holds a call of one of the case's tools (`Action:
  python`, `Action Input: area(radius=5)`; `print(area(radius=5))`).
- `--kind example-values`: a call refused for keeping the tool list's example values
  (`argument_checks.example_values`): a call that ran with one (`amount=0.0` where the question
  gives no zero), in the loop and in `TextReActMiddleware` alike.

Every other run would read the same replies the same way. This prints, per model and category,
the cases of our agents (text, XML, JSON, `create_agent_text`) where one shows, as arguments for
`python -m bench.bfcl --redo`:

    python -m bench.bfcl_reach [--kind K]   # then, per line: --model M --categories C --ids IDS --half all
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from langchain_core.tools import BaseTool

from bench.bfcl_cases import cases_by_id, is_multi_turn, newest_runs, recording_tools, tool_name
from custom_react.argument_checks import example_values
from custom_react.compare.runners.fingerprint import reads_our_prompt
from custom_react.parsing.action_input import parse_action_input
from custom_react.toolbox import resolve_call

RESULTS = Path(__file__).resolve().parent / "results" / "bfcl"
NAMED = re.compile(r"\s*[A-Za-z_]\w*[ \t]*[:=](?!=)(?!//)")
REFUSED = ("has no argument", "没有参数")  # an unknown-argument refusal (`messages_*.toml`)
UNKNOWN_TOOL = ("is not a valid tool", "不是可用的工具")  # an unknown tool's (`messages_*.toml`)


def wraps_a_call(transcript: list[str], tools: list[BaseTool]) -> bool:
    """Whether an unknown tool was refused after an action whose input calls one of `tools`."""
    for index, line in enumerate(transcript):
        if any(words in line for words in UNKNOWN_TOOL):
            before = transcript[:index]
            name = next((t for t in reversed(before) if t.startswith("Action:")), "")
            written = next((t for t in reversed(before) if t.startswith("Action Input:")), "")
            tool_input = parse_action_input(written.removeprefix("Action Input:"))
            if resolve_call(name.removeprefix("Action:").strip(), tool_input, tools)[0]:
                return True
    return False


def reached(transcript: list[str]) -> bool:
    """Whether a run's transcript shows an input or a refusal the change reads differently."""
    if any(words in line for line in transcript for words in REFUSED):
        return True
    written = [
        line.removeprefix("Action Input:").strip()
        for line in transcript
        if line.startswith("Action Input:")
    ]
    return any(not text.startswith("{") and (NAMED.match(text) or "{" in text) for text in written)


def _wraps_a_call(run: dict[str, Any]) -> bool:
    """`wraps_a_call` with the tools of the run's case (only this kind reads BFCL's data)."""
    tools = recording_tools(cases_by_id(run["category"])[run["id"]], [])
    return wraps_a_call(run["transcript"], tools)


def _keeps_example_values(run: dict[str, Any]) -> bool:
    """Whether a call that ran kept its tool's example values."""
    case = cases_by_id(run["category"])[run["id"]]
    tools = {tool.name: tool for tool in recording_tools(case, [])}
    for call in run["calls"]:
        for name, args in call.items():
            tool = tools.get(tool_name(name))
            if tool is not None and example_values(tool, args, case.question, []):
                return True
    return False


KINDS: dict[str, Callable[[dict[str, Any]], bool]] = {
    "inputs": lambda run: reached(run["transcript"]),
    "wrapped-calls": _wraps_a_call,
    "example-values": _keeps_example_values,
}


def reach(path: Path, kind: str = "inputs") -> dict[str, list[str]]:
    """Category -> the cases (any agent of ours) whose newest run the change can reach."""
    found: dict[str, set[str]] = {}
    for (case, agent), run in newest_runs(path).items():
        ours = reads_our_prompt(agent) and not is_multi_turn(run["category"])
        if ours and KINDS[kind](run):
            found.setdefault(run["category"], set()).add(case)
    return {category: sorted(ids) for category, ids in sorted(found.items())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", choices=sorted(KINDS), default="inputs")
    kind = parser.parse_args().kind
    for path in sorted(RESULTS.glob("*.jsonl")):
        for category, cases in reach(path, kind).items():
            print(f"--model {path.stem} --categories {category} --ids {','.join(cases)}")


if __name__ == "__main__":
    main()
