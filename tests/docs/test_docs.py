"""Every command in README.md and docs/*.md works as written, and every generated piece is current.

- ```bash blocks: each command must name things that exist: a `make` target in the Makefile, a
  file for `python FILE` / `node FILE`, an importable module for `python -m`, a `custom-react`
  subcommand and options that its `--help` lists, extras that pyproject.toml defines. The cheap
  ones (`--help`) run for real; `pip install` and long model runs are only checked, not run.
- ```python blocks run in a fresh interpreter. Comment lines right after a `print(...)` line are
  the expected output (`...` matches anything). Blocks that open the local model are `e2e`.
- ```python file=PATH blocks are excerpts: they must appear in PATH word for word.
- `<!-- embed: PATH -->` regions hold PATH's current content, scripted transcripts regenerate
  identically, Mermaid blocks are valid, the Chinese pages match the English ones, links resolve.
- One way through: docs/README.md lists the reading order; every page ends with its Previous /
  Next line, links its twin, is reached from the index, and every `#anchor` finds its heading.
- Never stale: `make_docs_assets.py --check` names what another prompt made (`test_stale.py`); no
  page uses a word we replaced (重复动作, 黄金问题).

After an intended change, refresh the docs with `python scripts/make_docs_assets.py --scripted`.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import load_script
from tests.export.test_export import MERMAID_CHECK, MERMAID_MODULES, assert_valid_sequence_diagram

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", ROOT / "README.zh.md", *sorted(DOCS.glob("*.md"))]
INDEX = {"en": DOCS / "README.md", "zh": DOCS / "README.zh.md"}
ORDER_ITEM = re.compile(
    r"^\d+\.\s+\*{0,2}\[[^\]]+\]\((?P<page>[\w.-]+?)(?:\.zh)?\.md\)", re.MULTILINE
)


def reading_order(index: Path = INDEX["en"]) -> list[str]:
    """The pages of the docs in reading order: the numbered links of the docs index."""
    return ORDER_ITEM.findall(index.read_text(encoding="utf-8"))


MAIN_PAGES = reading_order()
"""Every page of the reading order (docs/README.md), the path and the reference after it."""
MODEL_LOCK = "/tmp/custom-react-model.lock"


def load_assets_script():  # the script is not a package module; load it by path
    return load_script("scripts/make_docs_assets.py")


assets = load_assets_script()


@dataclass(frozen=True)
class Block:
    page: Path
    line: int
    info: str
    code: str

    @property
    def id(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def code_blocks(page: Path) -> list[Block]:
    """The fenced code blocks of a Markdown page (fences of three or more backticks)."""
    blocks, lines, index = [], page.read_text(encoding="utf-8").splitlines(), 0
    while index < len(lines):
        opening = re.fullmatch(r"(`{3,})(.*)", lines[index])
        if opening is None:
            index += 1
            continue
        fence, start = opening[1], index
        index += 1
        while index < len(lines) and lines[index].rstrip() != fence:
            index += 1
        body = "\n".join(lines[start + 1 : index]) + "\n"
        blocks.append(Block(page, start + 1, opening[2].strip(), body))
        index += 1
    return blocks


BLOCKS = [block for page in PAGES for block in code_blocks(page)]
BASH = [block for block in BLOCKS if block.info in ("bash", "sh", "shell")]
PYTHON = [block for block in BLOCKS if block.info == "python"]
EXCERPTS = [block for block in BLOCKS if block.info.startswith("python file=")]


# -- Commands in bash blocks ------------------------------------------------------------------


def commands(code: str) -> list[list[str]]:
    """Split a bash block into simple commands (comments dropped, `&&`, `;`, `|` split)."""
    text = code.replace("\\\n", " ")
    result: list[list[str]] = []
    for line in text.splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|")
        lexer.whitespace_split, lexer.commenters = True, "#"
        current: list[str] = []
        for token in lexer:
            if set(token) <= set(";&|"):
                result += [current] if current else []
                current = []
            else:
                current.append(token)
        result += [current] if current else []
    return result


def command_problems(words: list[str]) -> list[str]:
    """What is wrong with one command: things it names that do not exist (empty: fine)."""
    while words and re.fullmatch(r"\w+=.*", words[0]):
        words = words[1:]  # environment assignments
    name, args = words[0], words[1:]
    if name == "flock":
        return command_problems(args[1:])
    if name == "custom-react":
        return cli_problems(args)
    if name == "make":
        targets = make_targets()
        return [
            f"no make target {t!r}"
            for t in args
            if not t.startswith("-") and "=" not in t and t not in targets
        ]
    if name in ("python", "python3"):
        return python_problems(args)
    if name in ("pytest",):
        return pytest_problems(args)
    if name == "pip":
        return extras_problems(args)
    if name in ("node", "bash"):
        return [] if (ROOT / args[0]).is_file() else [f"no file {args[0]}"]
    if name == "npm":
        prefix = args[args.index("--prefix") + 1] if "--prefix" in args else "."
        return [] if (ROOT / prefix / "package.json").is_file() else [f"no {prefix}/package.json"]
    if name in (".", "source", "cd", "export"):
        return []
    return [f"unknown command {name!r}: teach tests/docs/test_docs.py what it must check"]


def cli_problems(args: list[str]) -> list[str]:
    if not args or args[0].startswith("-"):
        return [
            f"custom-react option {o!r} not in --help"
            for o in options(args)
            if not has_option(cli_help(()) or "", o)
        ]
    help_text = cli_help((args[0],))
    if help_text is None:
        return [f"custom-react has no subcommand {args[0]!r}"]
    return [
        f"custom-react {args[0]} has no option {o!r}"
        for o in options(args)
        if not has_option(help_text, o)
    ]


def options(args: list[str]) -> list[str]:
    return [arg.split("=")[0] for arg in args if arg.startswith("-")]


def has_option(help_text: str, option: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", help_text) is not None


@functools.cache
def cli_help(subcommand: tuple[str, ...]) -> str | None:
    """`custom-react [SUB] --help`, run for real; None when the subcommand does not exist."""
    executable = shutil.which("custom-react")
    command = (
        [executable]
        if executable
        else [sys.executable, "-c", "from custom_react.cli.app import app; app()"]
    )
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"}
    result = subprocess.run(
        [*command, *subcommand, "--help"], capture_output=True, text=True, env=env, timeout=60
    )
    return result.stdout if result.returncode == 0 else None


@functools.cache
def make_targets() -> frozenset[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return frozenset(re.findall(r"^([\w.-]+)\s*:(?!=)", text, re.MULTILINE))


def python_problems(args: list[str]) -> list[str]:
    if not args or args[0] == "-c":
        return []
    if args[0] == "-m":
        module = args[1]
        if module in ("venv", "pip", "pytest"):
            return pytest_problems(args[2:]) if module == "pytest" else []
        return [] if importlib.util.find_spec(module) else [f"no module {module!r}"]
    script = ROOT / args[0]
    if not script.is_file():
        return [f"no file {args[0]}"]
    wanted = options(args[1:])
    if not wanted:
        return []
    result = subprocess.run(
        [sys.executable, str(script), "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    return [f"{args[0]} has no option {o!r}" for o in wanted if not has_option(result.stdout, o)]


def pytest_problems(args: list[str]) -> list[str]:
    problems = [
        f"no file {a}"
        for a in args
        if not a.startswith("-") and not (ROOT / a.split("::")[0]).exists()
    ]
    wanted = [o for o in options(args) if o.startswith("--")]
    if wanted:
        help_text = subprocess.run(
            [sys.executable, "-m", "pytest", "--help"], capture_output=True, text=True, cwd=ROOT
        ).stdout
        problems += [f"pytest has no option {o!r}" for o in wanted if not has_option(help_text, o)]
    return problems


def extras_problems(args: list[str]) -> list[str]:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    named = [
        name
        for arg in args
        for group in re.findall(r"^\.\[([\w,-]+)\]$", arg)
        for name in group.split(",")
    ]
    return [f"pyproject.toml has no extra {name!r}" for name in named if name not in extras]


@pytest.mark.parametrize("block", BASH, ids=lambda block: block.id)
def test_every_command_names_what_exists(block: Block) -> None:
    problems = [
        f"{' '.join(words)}: {p}" for words in commands(block.code) for p in command_problems(words)
    ]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    "command, problem",
    [
        ("make no-such-target", "no make target 'no-such-target'"),
        ('custom-react ask "q" --no-such-option 1', "no option '--no-such-option'"),
        ("custom-react no-such-command", "no subcommand 'no-such-command'"),
        ("python scripts/no_such_script.py", "no file scripts/no_such_script.py"),
        ('pip install -e ".[local,no-such-extra]"', "no extra 'no-such-extra'"),
        ("python -m no_such_module_here", "no module 'no_such_module_here'"),
        ("wget http://example.com", "unknown command 'wget'"),
    ],
)
def test_the_checker_catches_what_is_missing(command: str, problem: str) -> None:
    found = [p for words in commands(command) for p in command_problems(words)]
    assert any(problem in p for p in found), found


def test_the_checker_accepts_real_commands() -> None:
    block = 'flock /tmp/x.lock custom-react ask "What is 2**10?" --lang zh --max-iterations 3 && make check  # ok'
    assert [p for words in commands(block) for p in command_problems(words)] == []
    assert commands("a && b; c | d # e") == [["a"], ["b"], ["c"], ["d"]]


def test_cheap_commands_run_for_real() -> None:
    assert cli_help(()) is not None and "ask" in (cli_help(()) or "")
    assert has_option(cli_help(("ask",)) or "", "--lang")


# -- Python blocks ----------------------------------------------------------------------------


def expected_output(code: str) -> list[str]:
    """Comment lines right after a `print(...)` line (or after such a comment): the expected stdout."""
    expected, after_print = [], False
    for line in code.splitlines():
        stripped = line.strip()
        if after_print and stripped.startswith("#") and line.startswith("#"):
            expected.append(stripped[1:].removeprefix(" "))
            continue
        after_print = "print(" in line
    return expected


def needs_model(block: Block) -> bool:
    return "open_chat_model" in block.code


def distinct(blocks: list[Block]) -> list[Block]:
    """Each block of code once: a translated page that repeats a block word for word (the
    Chinese plan-and-execute page) runs it once, under the first page's id (a model run of
    several minutes on the CPU, so CI does not pay for it twice)."""
    first: dict[str, Block] = {}
    for block in blocks:
        first.setdefault(block.code, block)
    return list(first.values())


PYTHON_PARAMS = [
    pytest.param(block, id=block.id, marks=[pytest.mark.e2e] if needs_model(block) else [])
    for block in distinct(PYTHON)
]


@pytest.mark.parametrize("block", PYTHON_PARAMS)
def test_python_block_runs_as_written(block: Block, tmp_path: Path) -> None:
    command = [sys.executable, "-c", block.code]
    if needs_model(block) and shutil.which("flock"):
        command = ["flock", MODEL_LOCK, *command]  # one local-model run at a time on this machine
    result = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=1800)
    assert result.returncode == 0, result.stderr[-3000:]
    if expected := expected_output(block.code):
        actual = [line.rstrip() for line in result.stdout.splitlines()]
        patterns = [re.escape(line.rstrip()).replace(r"\.\.\.", ".*") for line in expected]
        assert len(actual) == len(patterns), (
            f"expected:\n{chr(10).join(expected)}\ngot:\n{result.stdout}"
        )
        for pattern, line in zip(patterns, actual, strict=True):
            assert re.fullmatch(pattern, line), f"{line!r} does not match {pattern!r}"


@pytest.mark.parametrize("block", EXCERPTS, ids=lambda block: block.id)
def test_code_excerpt_is_word_for_word_from_its_file(block: Block) -> None:
    source = ROOT / block.info.split("=", 1)[1]
    assert block.code in source.read_text(encoding="utf-8"), (
        f"{block.id} no longer matches {source.name}"
    )


# -- Generated content ------------------------------------------------------------------------


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_embedded_files_are_current(page: Path) -> None:
    assert assets.refilled(page) == page.read_text(encoding="utf-8"), (
        f"{page.name} embeds stale content: run `python scripts/make_docs_assets.py --embed`"
    )


def test_scripted_transcripts_regenerate_identically(tmp_path: Path) -> None:
    assets.make_scripted(tmp_path)
    for made in sorted(tmp_path.iterdir()):
        kept = DOCS / "assets" / made.name
        assert kept.is_file() and kept.read_text(encoding="utf-8") == made.read_text(
            encoding="utf-8"
        ), f"docs/assets/{made.name} is stale: run `python scripts/make_docs_assets.py --scripted`"


@pytest.mark.parametrize("name", sorted(assets.REAL_RUNS))
def test_real_runs_are_saved_in_every_format(name: str) -> None:
    for suffix in assets.FORMATS:
        assert (DOCS / "assets" / f"{name}{suffix}").is_file(), (
            f"run {assets.__file__} on the model"
        )
    diagram = (DOCS / "assets" / f"{name}.mmd").read_text(encoding="utf-8")
    assert_valid_sequence_diagram(diagram)
    assert "Agent-->>User" in diagram


MERMAID = [block for block in BLOCKS if block.info == "mermaid"]


DIAGRAM_TYPES = ("sequenceDiagram", "flowchart", "graph", "stateDiagram-v2")
LANE = re.compile(r"    (?:participant|actor) (\w+)(?: as .+)?")
MESSAGE = re.compile(r"\s+(\w+)\s*(?:->>|-->>|--x|-x|->|-->|-\)|--\))\s*[+-]?(\w+): .+")


@pytest.mark.parametrize("block", MERMAID, ids=lambda block: block.id)
def test_mermaid_blocks_are_valid(block: Block) -> None:
    """A run's diagram (User, Agent, Model, Tool lanes) as the exporter draws it; a drawn one
    is of a known type, and a drawn sequence diagram sends messages between declared lanes only
    (Mermaid's own parser checks the rest, below)."""
    first, *lines = block.code.rstrip("\n").split("\n")
    assert first.split()[0] in DIAGRAM_TYPES, f"{block.id}: not a Mermaid diagram: {first!r}"
    lanes = [match[1] for line in lines if (match := LANE.fullmatch(line))]
    if lanes[:4] == ["User", "Agent", "Model", "Tool"]:
        assert_valid_sequence_diagram(block.code)
    elif first == "sequenceDiagram":
        for line in lines:
            if match := MESSAGE.fullmatch(line):
                assert {match[1], match[2]} <= set(lanes), f"{block.id}: undeclared lane: {line}"
            assert not re.search(r"[;#]", line.split(":", 1)[-1]), f"{block.id}: ; or # in {line}"


@pytest.mark.skipif(
    shutil.which("node") is None or not MERMAID_MODULES.is_dir(),
    reason="run `npm ci --prefix scripts/mermaid` (needs node)",
)
def test_mermaid_blocks_parse_with_mermaid_itself() -> None:
    pages = [str(page) for page in PAGES if "```mermaid" in page.read_text(encoding="utf-8")]
    result = subprocess.run(
        ["node", str(MERMAID_CHECK), *pages], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("\nok ") + 1 >= len(MERMAID)


# -- The pages themselves ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["README", *MAIN_PAGES])
def test_each_main_page_has_a_matching_chinese_version(name: str) -> None:
    english, chinese = DOCS / f"{name}.md", DOCS / f"{name}.zh.md"
    assert english.is_file(), f"docs/{name}.md is missing"
    assert chinese.is_file(), f"docs/{name}.zh.md is missing"
    assert f"({name}.zh.md)" in first_lines(english), "link the Chinese page in the first lines"
    assert f"({name}.md)" in first_lines(chinese), "link the English page in the first lines"
    assert runnable_code(chinese) == runnable_code(english), "the code blocks must be the same"
    assert embed_paths(chinese) == embed_paths(english), "the pages must embed the same runs"


def first_lines(page: Path, count: int = 5) -> str:
    """Where a page links its twin: its title and the lines right under it."""
    return "\n".join(page.read_text(encoding="utf-8").splitlines()[:count])


def runnable_code(page: Path) -> list[tuple[str, str]]:
    return [(b.info, b.code) for b in code_blocks(page) if b.info.startswith(("python", "bash"))]


def embed_paths(page: Path) -> list[str]:
    """The files a page embeds, language markers dropped (`real_rose_zh.mmd` -> `real_rose.mmd`)."""
    paths = re.findall(r"<!-- embed: (\S+) -->", page.read_text(encoding="utf-8"))
    return [re.sub(r"_(?:zh|en)(?=[._])", "", path) for path in paths]


CONCEPTS = {
    "en": ["Thought", "Action", "Action Input", "Observation", "Final Answer", "stop sequence",
           "tools as functions with descriptions", "message history", "max_iterations", "step limits",
           "repeated-action detection", "errors as observations", "human approval"],
    "zh": ["思考", "行动", "行动输入", "观察", "最终答案", "停止序列", "带描述的函数", "消息历史",
           "max_iterations", "步数上限", "重复行动检测", "错误作为观察", "人工批准"],
}  # fmt: skip


@pytest.mark.parametrize("language", sorted(CONCEPTS))
def test_the_docs_explain_every_concept(language: str) -> None:
    suffix = ".zh.md" if language == "zh" else ".md"
    pages = [DOCS / f"{name}{suffix}" for name in MAIN_PAGES]
    text = "\n".join(page.read_text(encoding="utf-8") for page in pages if page.is_file())
    missing = [concept for concept in CONCEPTS[language] if concept.lower() not in text.lower()]
    assert not missing, f"not explained in the {language} docs: {missing}"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_relative_links_resolve(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"\w+:|#", target):
            continue
        assert (page.parent / target.split("#")[0]).exists(), (
            f"{page.name} links to missing {target}"
        )


# -- One way through the docs -----------------------------------------------------------------

NAV = {
    "en": ("← Previous: ", "Docs index", "Next: "),
    "zh": ("← 上一篇：", "文档目录", "下一篇："),
}
"""The nav line's words: before the previous page's title, the index link, before the next's."""


def page_file(name: str, language: str) -> str:
    return f"{name}.zh.md" if language == "zh" else f"{name}.md"


def nav_pattern(position: int, language: str) -> str:
    """The nav line the page at `position` of the reading order must end with (a regex)."""
    order = ["README", *MAIN_PAGES]
    previous, index, following = NAV[language]
    title = r"[^\[\]]+"
    parts = []
    if position > 0:
        link = re.escape(page_file(order[position - 1], language))
        parts.append(rf"\[{previous}{title}\]\({link}\) · ")
    parts.append(rf"\[{index}\]\({re.escape(page_file('README', language))}\)")
    if position < len(order) - 1:
        link = re.escape(page_file(order[position + 1], language))
        parts.append(rf" · \[{following}{title} →\]\({link}\)")
    return "".join(parts)


def test_the_index_holds_every_page_once_in_both_languages() -> None:
    assert len(MAIN_PAGES) == len(set(MAIN_PAGES)), "a page is listed twice in docs/README.md"
    pages = {page.name.removesuffix(".md").removesuffix(".zh") for page in DOCS.glob("*.md")}
    missing = sorted(pages - {"README", *MAIN_PAGES})
    assert not missing, f"docs/README.md does not list: {missing}"
    assert reading_order(INDEX["zh"]) == MAIN_PAGES, "docs/README.zh.md lists another order"


@pytest.mark.parametrize("language", sorted(NAV))
@pytest.mark.parametrize("name", ["README", *MAIN_PAGES])
def test_every_page_ends_with_previous_and_next_in_the_reading_order(
    name: str, language: str
) -> None:
    page = DOCS / page_file(name, language)
    if not page.is_file():
        pytest.fail(f"docs/{page.name} is in the reading order but missing")
    lines = [line for line in page.read_text(encoding="utf-8").splitlines() if line.strip()]
    pattern = nav_pattern(["README", *MAIN_PAGES].index(name), language)
    assert lines[-2:-1] == ["---"] and re.fullmatch(pattern, lines[-1]), (
        f"docs/{page.name} must end with `---` and a nav line matching {pattern}, not {lines[-1]!r}"
    )


# -- Words and links a learner can follow -----------------------------------------------------

WRONG_WORDS = {
    "重复动作": "重复行动 (Action = 行动)",
    "黄金问题": "金价问题 (the gold-price question)",
}


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_no_page_uses_the_words_we_replaced(page: Path) -> None:
    if not page.is_file():
        pytest.fail(f"{page.relative_to(ROOT)} is missing")
    text = page.read_text(encoding="utf-8")
    found = {word: better for word, better in WRONG_WORDS.items() if word in text}
    assert not found, f"{page.relative_to(ROOT)} says {sorted(found)}: write {found} instead"


def doc_links(page: Path) -> set[Path]:
    """The docs pages that `page` links to (relative Markdown links, anchors dropped)."""
    text = page.read_text(encoding="utf-8")
    targets = (target.split("#")[0] for target in re.findall(r"\]\(([^)\s]+)\)", text))
    found = {(page.parent / target).resolve() for target in targets if target.endswith(".md")}
    return {path for path in found if path.parent == DOCS and path.is_file()}


@pytest.mark.parametrize("language", sorted(INDEX))
def test_every_docs_page_is_reached_from_the_index(language: str) -> None:
    reached, todo = set(), [INDEX[language].resolve()]
    while todo:
        page = todo.pop()
        if page not in reached:
            reached.add(page)
            todo += doc_links(page)
    pages = {page.resolve() for page in DOCS.glob("*.md")}
    pages = {page for page in pages if page.name.endswith(".zh.md") == (language == "zh")}
    missing = sorted(page.name for page in pages - reached)
    assert not missing, f"no path of links from docs/{INDEX[language].name} reaches {missing}"


def heading_anchors(page: Path) -> set[str]:
    """The anchors GitHub gives `page`'s headings: lower case, punctuation dropped, `-` for spaces."""
    text = re.sub(r"^(`{3,}|~{3,}).*?^\1", "", page.read_text(encoding="utf-8"), flags=re.M | re.S)
    anchors: set[str] = set()
    count: dict[str, int] = {}
    for heading in re.findall(r"^#{1,6}[ \t]+(.+?)[ \t]*$", text, re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        anchors.add(f"{slug}-{count[slug]}" if slug in count else slug)  # a repeat gets -1, -2
        count[slug] = count.get(slug, 0) + 1
    return anchors


def test_heading_anchors_follow_github() -> None:
    page = DOCS / "parser.zh.md"
    assert "4-绕圈子同样的行动又来一次" in heading_anchors(page)
    assert "1-编造的观察以及第一个步骤优先" in heading_anchors(page)
    assert "1-an-answer-that-fits-a-schema-response_format" in heading_anchors(
        DOCS / "structured-answers.md"
    )


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_links_to_a_section_find_its_heading(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        path, _, anchor = target.partition("#")
        if not anchor or re.match(r"\w+:", target) or not (path or "x.md").endswith(".md"):
            continue
        linked = (page.parent / path) if path else page
        assert anchor in heading_anchors(linked), (
            f"{page.relative_to(ROOT)} links to #{anchor}, which no heading of {linked.name} makes"
        )


NUMBERS = re.compile(r"(?<!`)<!-- numbers: (\S+) -->")


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_numbers_from_real_runs_name_the_saved_file_they_come_from(page: Path) -> None:
    """Each `<!-- numbers: PATH -->` names one saved file (from the repository's root) that exists."""
    named = NUMBERS.findall(page.read_text(encoding="utf-8"))
    missing = [path for path in named if not (ROOT / path).is_file()]
    assert not missing, f"{page.name}: numbers from no saved file: {missing}"
