"""The project's shape, held by tests: budgets (STYLE.md), no private imports, a core free of add-ons.

Every module of the package and of `tools/` is read: at most 200 lines, functions at most 40, the
loop module at most 190, a module docstring, and no `from x import _private` across modules.
Importing the agent must load no add-on (the import contract in `make check` says the same
statically; this test proves it at run time, in a fresh interpreter).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(
    path
    for folder in ("custom_react", "tools")
    for path in (ROOT / folder).rglob("*.py")
    if path.name != "__main__.py"
)
MAX_MODULE_LINES, MAX_FUNCTION_LINES = 200, 40
MAX_LOOP_LINES = 190  # STYLE: "the loop module well under 200 lines"
ADD_ONS = (
    "plan",
    "export",
    "serving",
    "compare",
    "experiments",
    "cli",
    "cli_support",
    "mcp",
    "middleware",
    "formats.xml_format",
    "formats.json_format",
)


def name_of(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", MODULES, ids=name_of)
def test_module_is_readable_in_one_sitting(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_MODULE_LINES, f"{name_of(path)} has {len(lines)} lines; split it"
    tree = ast.parse("\n".join(lines))
    assert ast.get_docstring(tree), f"{name_of(path)} needs a module docstring saying what it holds"
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            assert length <= MAX_FUNCTION_LINES, f"{name_of(path)}:{node.name} is {length} lines"


@pytest.mark.parametrize("path", MODULES, ids=name_of)
def test_no_module_imports_another_modules_private_names(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    private = [
        f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        and node.module
        and node.module.startswith("custom_react")
        for alias in node.names
        if alias.name.startswith("_")
    ]
    assert private == [], f"{name_of(path)} imports private names: {private}"


def test_the_loop_module_is_short() -> None:
    lines = (ROOT / "custom_react" / "agent.py").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_LOOP_LINES


def test_importing_the_agent_loads_no_add_on() -> None:
    code = (
        "import sys; from custom_react import CustomReActAgent; "
        "print(' '.join(m for m in sys.modules if m.startswith(('custom_react', 'langchain_classic', 'langchain.'))))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.split()
    assert "custom_react.agent" in loaded  # the check itself works
    add_ons = [m for m in loaded if m.removeprefix("custom_react.").startswith(ADD_ONS)]
    add_ons += [m for m in loaded if not m.startswith("custom_react")]
    assert add_ons == [], f"importing the agent loads add-ons: {add_ons}"
