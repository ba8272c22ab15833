"""The `tools` package as a whole: its exports, import without key or network, documented functions.

The size budget (module and function lengths) is `tests/test_structure.py`'s, for the whole
project; this file keeps only the rule particular to `tools`: every function, private or not, has
a docstring.
"""

import ast
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import tools
from custom_react.prompt import render_tools
from tools.search import make_search_tool, search_backend

TOOLS_DIR = Path(tools.__file__).parent
MODULES = sorted(TOOLS_DIR.glob("*.py"))

IMPORT_WITHOUT_NETWORK = """
import socket
def refuse(*args, **kwargs):
    raise AssertionError("importing tools opened a connection")
socket.socket.connect = refuse
socket.create_connection = refuse
import tools
print(",".join(sorted(tools.__all__)))
"""


def test_import_needs_no_key_and_no_network() -> None:
    """Importing `tools` opens no connection, needs no key, and exports the documented names."""
    environment = {name: value for name, value in os.environ.items() if name != "TAVILY_API_KEY"}
    completed = subprocess.run(
        [sys.executable, "-c", IMPORT_WITHOUT_NETWORK],
        cwd=TOOLS_DIR.parent,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    assert completed.stdout.strip() == (
        "CalculatorError,calculator,current_date,default_tools,make_search_tool,make_workspace_tools"
    )


def test_default_tools_without_key(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Without a Tavily key the default tools are the offline search, calculator and date."""
    monkeypatch.delenv("TAVILY_API_KEY", raising=False)
    caplog.set_level(logging.INFO, logger="tools.search")
    search, calculator, current_date = tools.default_tools()
    assert [search.name, calculator.name, current_date.name] == [
        "search",
        "calculator",
        "current_date",
    ]
    assert search_backend(search) == "offline"
    assert calculator is tools.calculator and current_date is tools.current_date
    assert len(caplog.records) == 1


@pytest.mark.parametrize("module", MODULES, ids=lambda path: path.name)
def test_every_module_and_function_is_documented(module: Path) -> None:
    """Each module opens with a paragraph, and every function (private ones too) has a docstring."""
    tree = ast.parse(module.read_text(encoding="utf-8"))
    docstring = ast.get_docstring(tree)
    assert docstring and len(docstring) > 80, (
        "each module opens with a paragraph saying what it holds"
    )
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            assert ast.get_docstring(node), f"{node.name} has no docstring"


def test_the_default_tools_give_no_sample_input_to_copy() -> None:
    """No quoted sample in a default tool's description: small models copied the old ones
    ('wholesale price of roses in Kunming' for a gasoline price, '12.5% of 2480' for a markup)."""
    shown = render_tools([*tools.default_tools(), make_search_tool(tavily_api_key="tvly-test")])
    assert not re.search(r"'[^']+'|\"[^\"]+\"", shown), shown
    assert "Action Input: none" in shown  # the one line left: a tool that takes no input
