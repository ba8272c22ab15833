"""Which stored BFCL runs of ours a change to reading the Action Input can reach, to run again.

A change to how a written input is bound to a tool (`custom_react/arguments.py`) or to what an
unknown argument's refusal says (`argument_checks.py`) alters a run only where its transcript shows
one of these: an Action Input in text that names an argument (`religion: "Buddhism"`,
`query="rose"`), an object inside other words (`a JSON object such as {...}`), or a refusal for
an argument the tool does not have. Every other run would read the same replies the same way. This
prints, per model and category, the cases of our agents (text, XML, JSON, `create_agent_text`)
where one shows, as arguments for `python -m bench.bfcl --redo`:

    python -m bench.bfcl_reach    # then, per line: --model M --categories C --ids IDS --half all
"""

from __future__ import annotations

import re
from pathlib import Path

from bench.bfcl_cases import is_multi_turn, newest_runs
from custom_react.compare.runners.fingerprint import reads_our_prompt

RESULTS = Path(__file__).resolve().parent / "results" / "bfcl"
NAMED = re.compile(r"\s*[A-Za-z_]\w*[ \t]*[:=](?!=)(?!//)")
REFUSED = ("has no argument", "没有参数")  # an unknown-argument refusal (`messages_*.toml`)


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


def reach(path: Path) -> dict[str, list[str]]:
    """Category -> the cases (any agent of ours) whose newest run the change can reach."""
    found: dict[str, set[str]] = {}
    for (case, agent), run in newest_runs(path).items():
        ours = reads_our_prompt(agent) and not is_multi_turn(run["category"])
        if ours and reached(run["transcript"]):
            found.setdefault(run["category"], set()).add(case)
    return {category: sorted(cases) for category, cases in sorted(found.items())}


def main() -> None:
    for path in sorted(RESULTS.glob("*.jsonl")):
        for category, cases in reach(path).items():
            print(f"--model {path.stem} --categories {category} --ids {','.join(cases)}")


if __name__ == "__main__":
    main()
