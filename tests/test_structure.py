"""The project's shape, held by tests: STYLE's rules, the learner's root, a core free of add-ons.

Every module of the package and of `tools/` is read: at most 300 lines (split by job, never by
size: nothing warns below that), functions at most 40 lines of code (their docstring not
counted), a module docstring, no `# fmt: skip`, no
lines packed to save space, and no `from x import _private` across modules. The package root
holds the tour and at most 16 modules. Importing the agent must load no add-on and no `sqlite3`:
the add-ons are read from the import contracts in `pyproject.toml` (which `make lint` checks
statically), and this test proves it at run time, in a fresh interpreter.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from fnmatch import fnmatchcase
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(
    path
    for folder in ("custom_react", "tools")
    for path in (ROOT / folder).rglob("*.py")
    if path.name != "__main__.py"
)
MAX_MODULE_LINES, MAX_FUNCTION_LINES, MAX_ROOT_MODULES = 300, 40, 16
TOUR = ("agent", "scratchpad", "parser", "acting", "toolbox", "steps", "events", "memory")
CONTRACTS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]


def name_of(path: Path) -> str:
    return str(path.relative_to(ROOT))


def packed_assignments(tree: ast.AST) -> list[int]:
    """Lines that assign several names from a tuple of values none of them reads (`a, b = 0, 1`).

    A swap or an update that reads a target (`shown, self.shown = self.shown, ""`) is not packing.
    """
    lines = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        target, value = node.targets[0], node.value
        if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple):
            written = {ast.unparse(element) for element in target.elts}
            read = {ast.unparse(part) for part in ast.walk(value) if isinstance(part, ast.expr)}
            if not written & read:
                lines.append(node.lineno)
    return lines


@pytest.mark.parametrize("path", MODULES, ids=name_of)
def test_module_is_readable_in_one_sitting(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) <= MAX_MODULE_LINES, (
        f"{name_of(path)} has {len(lines)} lines; split it by job"
    )
    tree = ast.parse(text)
    assert ast.get_docstring(tree), f"{name_of(path)} needs a module docstring saying what it holds"
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = code_lines(node)
            assert length <= MAX_FUNCTION_LINES, f"{name_of(path)}:{node.name} is {length} lines"


def code_lines(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The function's lines, its docstring (the contract, not the code) not counted."""
    length = (function.end_lineno or function.lineno) - function.lineno + 1
    first = function.body[0]
    docstring = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
    if docstring and isinstance(first.value.value, str):  # type: ignore[attr-defined]
        length -= (first.end_lineno or first.lineno) - first.lineno + 1
    return length


@pytest.mark.parametrize("path", MODULES, ids=name_of)
def test_code_is_written_plainly_not_packed_to_fit(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    skipped = [n for n, line in enumerate(text.splitlines(), 1) if "fmt: skip" in line]
    assert skipped == [], f"{name_of(path)}: `# fmt: skip` on lines {skipped}; write it plainly"
    packed = packed_assignments(ast.parse(text))
    assert packed == [], f"{name_of(path)}: packed assignments on lines {packed}; one per line"


def test_the_packing_check_tells_packing_from_a_swap() -> None:
    code = "a, b = 0, 1\nx, self.y = self.y, 2\nc, d = f()\n"
    assert packed_assignments(ast.parse(code)) == [1]


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


def test_the_root_holds_the_tour_and_what_a_learner_needs_next() -> None:
    root = sorted(path.stem for path in (ROOT / "custom_react").glob("*.py"))
    assert set(TOUR) <= set(root)
    assert len(root) <= MAX_ROOT_MODULES, f"{len(root)} modules at the root: {root}"


def add_ons() -> tuple[list[str], list[str]]:
    """The add-on packages (every layer above the core) and the add-on modules inside the core."""
    layers, forbidden = CONTRACTS["contracts"][0], CONTRACTS["contracts"][2]  # layers; no add-on
    assert layers["type"] == "layers" and forbidden["type"] == "forbidden"
    packages = [name.strip() for layer in layers["layers"][:-1] for name in layer.split("|")]
    modules = [m for m in forbidden["forbidden_modules"] if m.startswith("custom_react.")]
    return [f"custom_react.{name}" for name in packages], modules


def test_every_folder_of_the_package_is_named_in_the_layers() -> None:
    layers = CONTRACTS["contracts"][0]["layers"]
    named = {name.strip() for layer in layers for name in layer.replace(":", "|").split("|")}
    children = {path.stem for path in (ROOT / "custom_react").glob("*.py")}
    children |= {path.parent.name for path in (ROOT / "custom_react").glob("*/__init__.py")}
    assert children - {"__init__"} == named


def test_importing_the_agent_loads_no_add_on_and_no_sqlite() -> None:
    code = (
        "import sys; from custom_react import CustomReActAgent; "
        "print(' '.join(m for m in sys.modules if m.startswith("
        "('custom_react', 'langchain_classic', 'langchain.', 'sqlite3'))))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.split()
    assert "custom_react.agent" in loaded  # the check itself works
    packages, modules = add_ons()
    assert "custom_react.plan" in packages and "custom_react.pausing.checkpoints" in modules
    assert fnmatchcase("custom_react.formats.xml_format", "custom_react.formats.*")
    assert "custom_react.formats.*" in modules  # every step format but text is an add-on
    added = [m for m in loaded if any(fnmatchcase(m, pattern) for pattern in modules)]
    found = added + [m for m in loaded if m.startswith(tuple(packages))]
    found += [m for m in loaded if not m.startswith("custom_react")]
    assert found == [], f"importing the agent loads add-ons: {found}"


AGENT_PY_MODULES = 15
"""The modules `agent.py` reads from, counted as the modules that define the names (never through a
package's re-exports): the loop's collaborators, each named in the map of `custom_react/__init__.py`."""


def test_agent_py_imports_its_collaborators_from_the_modules_that_define_them() -> None:
    tree = ast.parse((ROOT / "custom_react" / "agent.py").read_text(encoding="utf-8"))
    internal = {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("custom_react")
    }
    packages = [m for m in internal if (ROOT / m.replace(".", "/") / "__init__.py").exists()]
    assert packages == [], f"agent.py imports through a package's re-exports: {packages}"
    assert len(internal) <= AGENT_PY_MODULES, sorted(internal)


def core_modules() -> set[str]:
    """Every module of the core: the package minus the add-on layers and add-on modules."""
    packages, modules = add_ons()
    found = set()
    for path in (ROOT / "custom_react").rglob("*.py"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        if name.startswith(tuple(packages)) or name == "custom_react":
            continue
        if not any(fnmatchcase(name, pattern) for pattern in modules) or name.endswith("formats"):
            found.add(name)
    return found


def test_the_core_contract_lists_every_core_module_in_a_layer() -> None:
    core = CONTRACTS["contracts"][1]
    assert core["type"] == "layers" and "containers" not in core
    listed = {n.strip() for layer in core["layers"] for n in layer.replace(":", "|").split("|")}
    # A module is listed itself or through the package that holds it (`parsing`, `formats`).
    missing = {
        m for m in core_modules() if not any(m == n or m.startswith(n + ".") for n in listed)
    }
    missing -= {
        "custom_react.console",
        "custom_react.running",
        "custom_react.pausing",
    }  # docstrings
    assert missing == set(), f"core modules in no layer: {sorted(missing)}"


def step_map() -> set[str]:
    """The modules the package's map (`custom_react/__init__.py`, first paragraph) says one step runs."""
    doc = ast.get_docstring(ast.parse((ROOT / "custom_react" / "__init__.py").read_text()))
    assert doc is not None
    paragraph = doc.split("\n\n")[1]
    tour = paragraph[: paragraph.index("Next to them")]
    files = re.findall(r"`([\w/]+)\.py`", tour)
    return {"custom_react." + name.replace("/", ".").removesuffix(".__init__") for name in files}


@pytest.mark.parametrize("action_input", ["2 + 2", '{"expression": "2 + 2"}'])
def test_one_scripted_step_runs_exactly_the_modules_the_map_names(action_input: str) -> None:
    code = """
import sys
from langchain_core.tools import tool
from custom_react import CustomReActAgent
from custom_react.testing import Script

@tool
def calculator(expression: str) -> str:
    '''Evaluate arithmetic.'''
    return "4"

script = Script("Thought: add\\nAction: calculator\\nAction Input: " + sys.argv[1], "Final Answer: 4")
agent = CustomReActAgent(script.model, [calculator])
ran = set()

def trace(frame, event, arg):
    ran.add(frame.f_globals.get("__name__", ""))

sys.settrace(trace)
result = agent.invoke("What is 2 + 2?")
sys.settrace(None)
assert result["output"] == "4" and result["intermediate_steps"][0][1] == "4"
print(" ".join(sorted(name for name in ran if name.startswith("custom_react"))))
"""
    ran = subprocess.run(
        [sys.executable, "-c", code, action_input],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout.split()
    assert "custom_react.agent" in ran and "custom_react.parsing.markers" in ran
    # The map is true both ways: every module the step runs is named, and every named one runs.
    assert set(ran) - {"custom_react.testing"} == step_map()


def package_imports() -> dict[str, set[str]]:
    """Every module of the package and the package modules it imports, type-only ones included.

    An import of a package's `__init__` by its own modules (or the reverse) is left out: that is a
    re-export, not a dependency between jobs.
    """
    modules = {}
    for path in (ROOT / "custom_react").rglob("*.py"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        modules[name] = path
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("custom_react"):
                targets = [f"{node.module}.{alias.name}" for alias in node.names]
                found = {t for t in targets if t in modules} or {node.module}
                graph[name] |= {t for t in found if t in modules}
    for name, targets in graph.items():
        graph[name] = {
            t
            for t in targets
            if t != name and not (t.startswith(name + ".") or name.startswith(t + "."))
        }
    return graph


def test_no_module_of_the_package_is_in_an_import_circle_not_even_under_type_checking() -> None:
    graph = package_imports()
    assert "custom_react.events" in graph["custom_react.memory"]  # the graph is read
    done: set[str] = set()
    path: list[str] = []

    def visit(name: str) -> None:
        if name in path:
            circle = [*path[path.index(name) :], name]
            pytest.fail(f"import circle: {' -> '.join(circle)}")
        if name in done:
            return
        path.append(name)
        for target in sorted(graph[name]):
            visit(target)
        path.pop()
        done.add(name)

    for name in sorted(graph):
        visit(name)
