"""The learning path's code pages say what the code is: ReAct in 40 lines, the parser, the walkthrough.

- The Learn ReAct path is the pages under its heading in docs/README.md, and each of them ends
  with an Exercises section of two or three exercises, each answered by a Python block whose
  printed output is written under it (so test_docs.py runs it and checks that output).
- docs/react-in-40-lines(.zh).md shows `demos/react_in_40_lines.py` whole, and the block is the
  file exactly (not just a part of it); the agent part of that file stays within 40 lines of code.
- docs/parser(.zh).md takes its cases from the real-world dialect set: every reply a page names by
  its case id is that case's text, word for word.
- The walkthrough runs the ten-line driver of `agent.py`'s docstring as written.
- Each of these pages has the same sections as its Chinese twin, and says 行动 for Action (test_docs.py
  checks the twins' code, embeds and links, and the navigation line at the end of every page).
"""

from __future__ import annotations

import ast
import io
import json
import re
import tokenize
from pathlib import Path

import pytest

from tests.docs.test_docs import Block, code_blocks, expected_output

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
DEMO = ROOT / "demos" / "react_in_40_lines.py"
CASE_FILES = [ROOT / "bench" / "parser_dialects.jsonl", ROOT / "bench" / "parser_cases.jsonl"]
LANGUAGES = {"en": ".md", "zh": ".zh.md"}
PAGES = ["react-flow", "react-in-40-lines", "agent-walkthrough", "parser"]


def page(name: str, language: str) -> Path:
    return DOCS / f"{name}{LANGUAGES[language]}"


# -- The Learn path and its exercises -------------------------------------------------------------

EXERCISES = {"en": "Exercises", "zh": "练习"}


def learn_pages() -> list[str]:
    """The Learn ReAct path: the numbered pages under its heading in docs/README.md."""
    text = (DOCS / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Learn ReAct\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\d+\.\s+\[[^\]]+\]\(([\w.-]+?)\.md\)", section, re.MULTILINE)


def test_the_learn_path_is_the_pages_checked_here() -> None:
    assert learn_pages() == PAGES


@pytest.mark.parametrize("language", sorted(LANGUAGES))
@pytest.mark.parametrize("name", PAGES)
def test_each_learn_page_ends_with_checked_exercises(name: str, language: str) -> None:
    path = page(name, language)
    lines = path.read_text(encoding="utf-8").splitlines()
    sections = [n for n, line in enumerate(lines, 1) if re.fullmatch(r"## .+", line)]
    last = sections[-1]
    assert lines[last - 1] == f"## {EXERCISES[language]}", f"{path.name}: exercises come last"
    answers = [b for b in code_blocks(path) if b.line > last and b.info == "python"]
    assert 2 <= len(answers) <= 3, f"{path.name}: two or three exercises, each with its answer"
    for answer in answers:
        assert expected_output(answer.code), f"{answer.id}: write what it prints under it"


# -- ReAct in 40 lines ----------------------------------------------------------------------------


def agent_part(source: str) -> str:
    """The demo's agent: everything above the command line (`def chat_model`)."""
    return source[: source.index("\ndef chat_model")]


def lines_of_code(source: str) -> int:
    """Lines holding code: blank lines, comment lines and the module docstring not counted."""
    tree = ast.parse(source)
    first = tree.body[0] if tree.body else None
    docstring: set[int] = set()
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        docstring = set(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    skipped = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
    lines = source.splitlines()
    code: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in skipped or token.type == tokenize.ENDMARKER:
            continue
        code.update(range(token.start[0], token.end[0] + 1))
    return len({n for n in code - docstring if lines[n - 1].strip()})


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_page_shows_the_whole_demo_file_exactly(language: str) -> None:
    blocks = [
        block
        for block in code_blocks(page("react-in-40-lines", language))
        if block.info == f"python file={DEMO.relative_to(ROOT)}"
    ]
    assert blocks, "the page shows no excerpt of the demo"
    assert blocks[0].code == DEMO.read_text(encoding="utf-8"), (
        f"{blocks[0].id}: the first demo block must be the whole file, exactly as it is"
    )


def test_the_demo_agent_is_at_most_40_lines_of_code() -> None:
    count = lines_of_code(agent_part(DEMO.read_text(encoding="utf-8")))
    assert count <= 40, f"the agent part of {DEMO.name} has {count} lines of code"


def test_the_line_counter_counts_code_only() -> None:
    source = '"""Doc.\n\nMore doc."""\n\n# a comment\nimport re\nX = """a\n\nb"""\n\n\ndef f():\n    return 1  # ok\n'
    assert lines_of_code(source) == 5  # import, X's two lines with text, def, return


# -- The parser page's cases ----------------------------------------------------------------------


def dialect_cases() -> dict[str, str]:
    """Every labelled case's reply text, by its id."""
    cases: dict[str, str] = {}
    for path in CASE_FILES:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                case = json.loads(line)
                cases[case["id"]] = case["text"]
    return cases


def named_cases(block: Block) -> dict[str, str]:
    """The replies a block names by case id: the string items of its dict literals."""
    named: dict[str, str] = {}
    for node in ast.walk(ast.parse(block.code)):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and isinstance(value, ast.Constant):
                    named[str(key.value)] = str(value.value)
    return named


@pytest.mark.parametrize("name", ["parser", "react-in-40-lines"])
@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_cases_a_page_names_are_the_dialect_sets_own(name: str, language: str) -> None:
    known = dialect_cases()
    named = {
        case: (block, text)
        for block in code_blocks(page(name, language))
        if block.info == "python"
        for case, text in named_cases(block).items()
        if case in known or re.fullmatch(r"[\w-]+/[\w-]+", case)
    }
    if name == "parser":
        assert len(named) >= 5, "the parser page runs at least five cases from the dialect set"
    for case, (block, text) in named.items():
        assert case in known, f"{block.id}: no case {case!r} in bench/"
        assert text == known[case], f"{block.id}: {case} is not the dialect set's text"


# -- The walkthrough ------------------------------------------------------------------------------


def docstring_driver() -> str:
    """The ten-line driver of `agent.py`'s docstring, dedented (as tests/core/test_toy_driver.py)."""
    docstring = ast.get_docstring(ast.parse((ROOT / "custom_react" / "agent.py").read_text()))
    assert docstring is not None
    block = docstring.split("is ten lines:\n\n", 1)[1].split("\n\n", 1)[0]
    return "\n".join(line.removeprefix("    ") for line in block.splitlines()) + "\n"


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_walkthrough_runs_the_docstring_driver_as_written(language: str) -> None:
    driver = docstring_driver()
    blocks = code_blocks(page("agent-walkthrough", language))
    assert any(block.info == "python" and driver in block.code for block in blocks)


# -- Twins -----------------------------------------------------------------------------------------


def headings(path: Path) -> list[str]:
    """The levels of a page's headings, outside code blocks (`##`, `###`, ...)."""
    levels, fenced = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (match := re.match(r"(#{1,6}) ", line)):
            levels.append(match[1])
    return levels


@pytest.mark.parametrize("name", PAGES)
def test_each_page_has_the_headings_of_its_chinese_twin(name: str) -> None:
    assert headings(page(name, "zh")) == headings(page(name, "en")), "one section for each section"


@pytest.mark.parametrize("name", PAGES)
def test_the_chinese_pages_say_action_as_xingdong(name: str) -> None:
    text = page(name, "zh").read_text(encoding="utf-8")
    assert "重复动作" not in text, "Action is 行动: write 重复行动"
