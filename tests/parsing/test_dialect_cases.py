"""The tune split of `bench/parser_dialects.jsonl`, case by case.

Each case is a reply a model could write, labelled with what the agent must do: run a tool with
given arguments, answer, or refuse the reply. Here our agent's step for each reply (parse, resolve
the tool, bind its arguments, as `bench/parser_robustness.py` scores it) must be the label. Only the
tune split is tested: the holdout split stays the benchmark's, to check that a fix handles the
kind of reply and not the one case (`python bench/parser_robustness.py` scores both).
"""

from __future__ import annotations

from typing import Any

import pytest

from bench.parser_robustness import DIALECTS, case_tools, load_cases, normalize, ours

TUNE = [case for case in load_cases(DIALECTS) if case["split"] == "tune"]


def test_the_tune_split_covers_every_group() -> None:
    groups = {case["group"] for case in load_cases(DIALECTS)}
    assert {case["group"] for case in TUNE} == groups
    assert len(TUNE) >= 100


@pytest.mark.parametrize("case", TUNE, ids=[case["id"] for case in TUNE])
def test_tune_case(case: dict[str, Any]) -> None:
    assert normalize(ours(case["text"], case_tools(case))) == normalize(case["expected"])
