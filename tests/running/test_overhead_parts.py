"""The overhead bench's switches (`bench/overhead_parts.py`) switch off what they name, and only then.

A switch that named a function the loop no longer calls would measure nothing; one that stayed
switched off would change every later run.
"""

from __future__ import annotations

import custom_react.acting
from bench.overhead import FLOOR, ScriptedModel, build_runs, echo
from bench.overhead_parts import PARTS, variants, without
from custom_react import CustomReActAgent
from custom_react.testing import Script


def test_every_variant_answers_the_script_and_the_floor_is_kept() -> None:
    runs = variants(build_runs(ScriptedModel(messages=iter([])), [echo]))
    assert FLOOR in runs and "ours" in runs and len(runs) == len(PARTS) + 3
    for run in runs.values():
        run(2)  # each run asserts its answer ("done")


def test_the_guards_switch_lets_a_repeated_call_run_and_is_undone_after() -> None:
    reply = "Thought: again\nAction: echo\nAction Input: same"

    def statuses() -> list[str]:
        script = Script(reply, reply, "Thought: done\nFinal Answer: done")
        result = CustomReActAgent(script.model, [echo]).invoke("go")
        script.assert_consumed()
        return [observation for _, observation in result["intermediate_steps"]]

    shipped = custom_react.acting.argument_problem
    guarded = statuses()
    with without(PARTS["the tool-step guards"]):
        unguarded = statuses()
    assert custom_react.acting.argument_problem is shipped
    assert guarded[0] == "same" and guarded[1].startswith("You already")  # the repeat was refused
    assert unguarded == ["same", "same"]  # switched off: it ran twice
    assert statuses() == guarded
