"""Whether a change to the parsers reads any stored BFCL step of ours differently.

A run's key is the prompt its agent read, not the code that read the replies, so a parser change
leaves the stored runs standing only if it reads every step in them the same way. This writes how
the code at hand reads each step of our agents' stored transcripts (text, XML, JSON and
`create_agent_text`, both models; observations skipped), and compares two such files:

    python bench/bfcl_reparse.py --write /tmp/new.json
    PYTHONPATH=/path/to/old/checkout python bench/bfcl_reparse.py --write /tmp/old.json
    python bench/bfcl_reparse.py --compare /tmp/old.json /tmp/new.json

The second line reads this checkout's stored runs with another checkout's code (the script needs
nothing but `custom_react`). The transcript holds each step as the agent logged it (markers made
plain), which every format reads as it read the reply.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from custom_react.compare.runners.fingerprint import reads_our_prompt
from custom_react.formats import FORMAT_NAMES, get_format

# Its own path, not `bfcl_reach.RESULTS`: run against another checkout, `bench` is that one's.
RESULTS = Path(__file__).resolve().parent / "results" / "bfcl"
OBSERVATIONS = ("observation", "<observation", '{"observation')


def read_steps(results: Path = RESULTS) -> dict[str, str]:
    """`model|agent|case|key|index` -> how the code at hand reads that stored step."""
    readings: dict[str, str] = {}
    for path in sorted(results.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            run = json.loads(line)
            if not reads_our_prompt(run["agent"]):
                continue
            # An agent named after a step format reads that format; every other of ours, text.
            parse = get_format(run["agent"] if run["agent"] in FORMAT_NAMES else "text").parse
            for index, entry in enumerate(run["transcript"]):
                if entry.lstrip().lower().startswith(OBSERVATIONS):
                    continue
                try:
                    step = parse(entry, "en")
                    reading = repr(vars(step))
                except ValueError as error:  # a ParseError
                    reading = f"refused: {error}"
                readings[f"{path.stem}|{run['agent']}|{run['id']}|{run['key']}|{index}"] = reading
    return readings


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
            print(f"{key}\n  before: {old[key][:160]}\n  now:    {new[key][:160]}")
        both = len(old.keys() & new.keys())
        print(f"{len(read_differently(old, new))} of {both} steps in both read differently")


if __name__ == "__main__":
    main()
