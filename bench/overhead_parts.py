"""Where our loop's per-step overhead above the floor goes: ours with one part at a time taken out.

`bench/overhead.py` measures our agent against the floor (call the model, parse, run the tool).
This script runs the same scripted model and tool through our agent as it ships, and through
copies of it with one part of each step switched off, in the same interleaved, paired repeats:

- "the tool-step guards": the schema check of the Action Input (`argument_problem`), the
  copied-input check (`copied_input`) and the repeated-action look-up (`ran_before`);
- "the prompt": the chat prompt (template, scratchpad) is not built; the model gets one message;
- "the result's messages": the run's `AIMessage`/`ToolMessage` list is not built at the end;
- all three at once.

Each switch replaces one function for the length of one run and puts it back after, so what is
left is measured as it runs. A part's cost is what taking it out saves; what is still above the
floor with all three out is the rest of the loop (records, events, binding the input to the
tool, the approval and budget checks, the run's counters). Nothing here is a way to run the
agent: the copies answer the scripted questions only.

Run from the repository root:  python -m bench.overhead_parts  [--steps 20] [--repeats 30] [--json PATH]
"""

from __future__ import annotations

import statistics
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any
from unittest import mock

from langchain_core.messages import HumanMessage

from bench.overhead import (
    FLOOR,
    Run,
    ScriptedModel,
    build_runs,
    echo,
    measure,
    paired_ratio,
    parse_arguments,
    save_results,
)

PARTS: dict[str, list[tuple[str, Any]]] = {
    "the tool-step guards": [
        ("custom_react.acting.argument_problem", lambda *args, **kwargs: None),
        ("custom_react.acting.copied_input", lambda *args, **kwargs: None),
        ("custom_react.memory.RunMemory.ran_before", lambda self, call: (None, 0)),
    ],
    "the prompt": [
        (
            "custom_react.agent.CustomReActAgent._prompt",
            lambda self, run, steps, history, handed, note="", unfinished="": [
                HumanMessage(run.question)
            ],
        ),
    ],
    "the result's messages": [("custom_react.memory.to_messages", lambda steps, observe: [])],
}


@contextmanager
def without(targets: list[tuple[str, Any]]) -> Iterator[None]:
    """Each target function replaced by its stand-in while the block runs."""
    with ExitStack() as stack:
        for target, stand_in in targets:
            stack.enter_context(mock.patch(target, stand_in))
        yield


def switched_off(run: Run, targets: list[tuple[str, Any]]) -> Run:
    """`run` with `targets` switched off during each call only."""

    def run_without(steps: int) -> None:
        with without(targets):
            run(steps)

    return run_without


def variants(runs: dict[str, Run]) -> dict[str, Run]:
    """Ours as shipped, ours without each part and without all of them, and the floor."""
    ours = runs["custom"]
    every = [target for targets in PARTS.values() for target in targets]
    made: dict[str, Run] = {"ours": ours}
    made |= {f"ours without {part}": switched_off(ours, t) for part, t in PARTS.items()}
    made["ours without all three"] = switched_off(ours, every)
    return made | {FLOOR: runs[FLOOR]}


def main() -> None:
    """Measure, print per-step time, the ratio to the floor and the part's saving; maybe JSON."""
    args = parse_arguments(__doc__.split("\n\n")[0])
    slopes = measure(
        variants(build_runs(ScriptedModel(messages=iter([])), [echo])), args.steps, args.repeats
    )
    print(
        f"Per tool step, {args.repeats} interleaved repeats; ratios to the floor paired per repeat"
    )
    print(f"{'variant':<44} {'per step':>10} {'/ floor':>8} {'saves':>8}")
    ours = statistics.median(slopes["ours"])
    results: dict[str, dict[str, Any]] = {}
    for name, per_repeat in slopes.items():
        median = statistics.median(per_repeat)
        to_floor = paired_ratio(per_repeat, slopes[FLOOR])
        results[name] = {"per_step_us": median * 1e6, "ratio_to_floor": to_floor}
        saves = "" if name in ("ours", FLOOR) else f"{(ours - median) * 1e6:.0f} us"
        print(f"{name:<44} {median * 1e6:>7.0f} us {to_floor['ratio']:>7.2f}x {saves:>8}")
    save_results(args, results)


if __name__ == "__main__":
    main()
