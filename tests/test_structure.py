"""Readability budgets the project holds itself to (STYLE.md): small modules, short functions."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(
    p for folder in ("custom_react", "tools", "prompts") for p in (ROOT / folder).glob("*.py")
)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_module_is_readable_in_one_sitting(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 220, f"{path.name} has {len(lines)} lines; split it"
    tree = ast.parse("\n".join(lines))
    assert ast.get_docstring(tree), f"{path.name} needs a module docstring saying what it holds"
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            assert length <= 45, f"{path.name}:{node.name} is {length} lines long"


def test_the_loop_module_stays_well_under_200_lines() -> None:
    assert len((ROOT / "custom_react" / "agent.py").read_text(encoding="utf-8").splitlines()) < 200
