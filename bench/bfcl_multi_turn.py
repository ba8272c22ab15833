"""BFCL's multi-turn category on BFCL's own executable backends: several user turns, tools with state.

A `multi_turn_base` case is a conversation of several user turns over BFCL's executable classes
(a file system, a trading bot, a message API, ...), each set up from the case's `initial_config`.
Every agent answers the turns in order with the same live instances, so what it did in turn 1 is
there in turn 2. The runners take one question, so the earlier turns and the agent's answers are
written before the new one (`with_earlier`), the same text for every agent. A tool call runs on
those instances through BFCL's own `execute_multi_turn_func_call` (the call written as BFCL's call
string, `call_string`), and its result is the Observation. The calls of each turn, one per step,
go to BFCL's `multi_turn_checker`, which replays them and the ground truth on fresh instances and
compares the states and the results turn by turn. The case's functions are BFCL's own function
docs for its classes (`bench.bfcl_cases.load_cases`).

The math backend needs `mpmath` and BFCL's loader `filelock` (`bench/bfcl_cases.py`'s install line).
`bench/bfcl.py` runs these cases with the others (`--categories multi_turn_base`); nothing here
starts a model.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from typing import Any

from bench.bfcl_cases import Case, case_tools, question_text, run_record

TURN_STEPS = 6
"""The steps an agent gets for each turn."""
EARLIER = "Earlier in this conversation:\n{turns}\n\nNow: {question}"
EARLIER_TURN = "User: {question}\nYou answered: {answer}"


def call_string(name: str, args: dict[str, Any]) -> str:
    """A call as BFCL writes and runs it: `mv(source='a.txt', destination='temp')`."""
    return f"{name}({', '.join(f'{key}={value!r}' for key, value in args.items())})"


def with_earlier(earlier: Sequence[tuple[str, str]], question: str) -> str:
    """The question of a later turn, after the earlier turns and the agent's answers to them."""
    if not earlier:
        return question
    turns = "\n".join(EARLIER_TURN.format(question=q, answer=a) for q, a in earlier)
    return EARLIER.format(turns=turns, question=question)


def run_multi_turn_case(
    case: Case, agent: str, make_runner: Callable[..., Any], llm: Any
) -> dict[str, Any]:
    """`agent` (its runner made by `make_runner`) through every turn of a case: its calls per turn,
    BFCL's verdict; never raises."""
    from bfcl_eval.eval_checker.multi_turn_eval.multi_turn_utils import (
        execute_multi_turn_func_call,
    )

    entry, run_name = case.entry, f"custom_react_{agent}_{uuid.uuid4().hex[:8]}"
    turns: list[list[list[str]]] = []  # per turn, per step, its calls: the checker's input

    def execute(name: str, args: dict[str, Any]) -> str:
        call = call_string(name, args)
        turns[-1].append([call])
        results, _ = execute_multi_turn_func_call(
            [call], entry["initial_config"], entry["involved_classes"], run_name, case.id
        )
        return str(results[0])

    tools = case_tools(case.functions, execute, direct=False, one_string=agent == "legacy")

    def run(transcript: list[str]) -> str:
        runner, earlier = make_runner(llm, tools, TURN_STEPS), []
        for number, turn in enumerate(entry["question"], 1):
            turns.append([])
            asked = question_text([turn])
            outcome = runner(with_earlier(earlier, asked), {"run_name": agent})
            transcript += [f"Turn {number}: {asked}", *outcome.transcript]
            earlier.append((asked, outcome.output))
        return earlier[-1][1] if earlier else ""

    record = run_record(case, agent, run)
    return record | {"calls": turns} | multi_turn_verdict(case, turns, run_name)


def multi_turn_verdict(case: Case, turns: list[list[list[str]]], run_name: str) -> dict[str, Any]:
    """BFCL's `multi_turn_checker` on the calls of each turn (a turn not reached made none)."""
    from bfcl_eval.eval_checker.multi_turn_eval.multi_turn_checker import multi_turn_checker

    made = turns + [[] for _ in range(len(case.answer) - len(turns))]
    checked = multi_turn_checker(made, case.answer, case.entry, case.category, run_name)
    if checked["valid"]:
        return {"passed": True, "miss": ""}
    return {"passed": False, "miss": f"{checked['error_type']}: {checked['error_message'][:200]}"}
