"""`read_file` reads only the start of a file: a huge file costs no more memory than a short one.

The text shown is the file's first `max_output_chars` characters at most; when the file is longer,
the marker gives the file's size in bytes (counting the characters cut would mean reading it all).
"""

import tracemalloc
from pathlib import Path

import pytest
from langchain_core.tools import BaseTool

from custom_react.running.tool_output import truncate
from tools.workspace import Workspace

LIMIT = 200  # the `workspace_tools` fixture's max_output_chars


def marker(size: int) -> str:
    return f"\n…[truncated: the file has {size} bytes]"


def test_a_huge_file_is_read_in_little_memory(
    workspace_tools: dict[str, BaseTool], layout: dict[str, Path]
) -> None:
    """A 200 MB (sparse) file: the start is returned and Python's peak allocation stays small."""
    size = 200 * 1024 * 1024
    with (layout["root"] / "huge.bin").open("wb") as file:
        file.truncate(size)
    tracemalloc.start()
    try:
        text = workspace_tools["read_file"].invoke("huge.bin")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2 * 1024 * 1024, f"peak {peak / 2**20:.1f} MB"  # 400 MB before
    assert len(text) <= LIMIT
    assert text == truncate("\x00" * (LIMIT + 1), LIMIT, marker(size))


def test_a_large_real_file_is_read_in_little_memory(tmp_path: Path) -> None:
    """A 50 MB file of text, with the default limit of 4000 characters."""
    (tmp_path / "big.txt").write_bytes(b"0123456789\n" * 5_000_000)
    workspace = Workspace(tmp_path, command_timeout=1, max_output_chars=4000)
    tracemalloc.start()
    try:
        text = workspace.read_file("big.txt")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2 * 1024 * 1024, f"peak {peak / 2**20:.1f} MB"
    assert text == truncate("0123456789\n" * 400, 4000, marker(55_000_000))
    assert text.endswith("\n…[truncated: the file has 55000000 bytes]")


@pytest.mark.parametrize(
    ("content", "shown"),
    [
        ("x" * LIMIT, "x" * LIMIT),  # exactly the limit: whole, no marker
        ("", "(the file is empty)"),
        ("a\r\nb\n", "a\nb\n"),  # newlines read as before (universal newlines)
    ],
)
def test_short_files_are_shown_whole(
    workspace_tools: dict[str, BaseTool], layout: dict[str, Path], content: str, shown: str
) -> None:
    """A file up to the limit is shown as it was before: whole, or said to be empty."""
    (layout["root"] / "f.txt").write_bytes(content.encode("utf-8"))
    assert workspace_tools["read_file"].invoke("f.txt") == shown


def test_one_character_over_the_limit_is_cut(
    workspace_tools: dict[str, BaseTool], layout: dict[str, Path]
) -> None:
    """One character more than the limit is cut, with the marker."""
    (layout["root"] / "f.txt").write_text("x" * (LIMIT + 1), encoding="utf-8")
    text = workspace_tools["read_file"].invoke("f.txt")
    assert text == truncate("x" * (LIMIT + 1), LIMIT, marker(LIMIT + 1))
    assert len(text) <= LIMIT


def test_chinese_and_undecodable_text(
    workspace_tools: dict[str, BaseTool], layout: dict[str, Path]
) -> None:
    """The limit counts characters, not bytes; undecodable bytes become U+FFFD."""
    chinese = "你好，世界！" * 100  # 600 characters, 1800 bytes
    (layout["root"] / "zh.txt").write_text(chinese, encoding="utf-8")
    text = workspace_tools["read_file"].invoke("zh.txt")
    assert text == truncate(chinese[: LIMIT + 1], LIMIT, marker(1800))
    (layout["root"] / "bad.txt").write_bytes(b"ok \xff\xfe ok \xe4\xbd")
    assert workspace_tools["read_file"].invoke("bad.txt") == "ok \ufffd\ufffd ok \ufffd"
