"""Transcript export: golden Markdown / HTML / Mermaid files of scripted runs, escaping, validity.

The golden files are `tests/golden/export_<run>.{md,html,mmd}`. Regenerate them after an intended
change with:
    pytest tests/export/test_export.py --regenerate-golden

Mermaid output is checked structurally here (every line a statement Mermaid's sequence grammar
accepts) and, when `npm ci --prefix scripts/mermaid` has been run, by Mermaid's own parser. The HTML
page is rendered in headless Chromium (Debian package `chromium`): a screenshot must be the window
size and not blank, and the rendered DOM must hold every step's text.
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import zlib
from html import unescape
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.tools import tool

from custom_react import ConsolePrinter, CustomReActAgent
from custom_react.events import AgentEvent, LimitReached, ObservationEvent
from custom_react.export import save_transcript
from custom_react.export.blocks import transcript_blocks
from custom_react.export.html import to_html
from custom_react.export.markdown import to_markdown
from custom_react.export.mermaid import MERMAID_TEXT_LIMIT, mermaid_text, to_mermaid
from custom_react.steps import ToolStep

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
MERMAID_CHECK = ROOT / "scripts" / "mermaid" / "parse_mermaid.mjs"
MERMAID_MODULES = ROOT / "scripts" / "mermaid" / "node_modules" / "mermaid"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

# Scripted runs: (question, model replies, agent options, language).
RUNS = {
    "tour": (
        "What is the wholesale price of a rose plus 5%?",
        [
            "Thought: I need the wholesale price first.\nAction: search\nAction Input: rose",
            "Thoughts: something without a step\nAction Input: rose",
            "Action: Calculator\nAction Input: 1.2 * 1.05",
            "Thought: Let me check again.\nAction: calculator\nAction Input: 1.2 * 1.05",
            "Action: weather\nAction Input: Kunming",
            "Action: calculator\nAction Input: 1.2 / 0",
            'Thought: I now know the final answer\nFinal Answer: About 1.26 yuan; see `rose` & <b>"5%"</b>; #1.',
        ],
        {},
        "en",
    ),
    "limit": (
        "How much is a rose?",
        [
            "Thought: search first\nAction: search\nAction Input: rose price",
            'Action: calculator\nAction Input: {"expression": "1.2 * 3"}',
        ],
        {"max_iterations": 2},
        "en",
    ),
    "zh": (
        "玫瑰批发价加价 5% 是多少？",
        [
            "Thought: 先查批发价。\nAction: search\nAction Input: 玫瑰",
            "Action: calculator\nAction Input: 1.2 * 1.05",
            "Thought: 我现在知道最终答案了\nFinal Answer: 每枝约 1.26 元；含 5% 加价。",
        ],
        {},
        "zh",
    ),
}
RENDERERS = {"md": to_markdown, "html": to_html, "mmd": to_mermaid}


def run_events(script, tools, name: str) -> tuple[str, list[AgentEvent], str]:
    question, replies, options, language = RUNS[name]
    scripted = script(*replies)
    agent = CustomReActAgent(scripted.model, tools, language=language, **options)
    events = list(agent.stream(question))
    scripted.assert_consumed()
    return question, events, language


@pytest.mark.parametrize("suffix", sorted(RENDERERS))
@pytest.mark.parametrize("name", sorted(RUNS))
def test_export_matches_golden_file(script, tools, name, suffix, regenerate):
    question, events, language = run_events(script, tools, name)
    text = RENDERERS[suffix](question, events, language)
    golden = GOLDEN / f"export_{name}.{suffix}"
    if regenerate:
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")


def test_blocks_follow_the_model_calls(script, tools):
    question, events, _ = run_events(script, tools, "tour")
    blocks = transcript_blocks(question, events)
    assert [(block.kind, block.step) for block in blocks[:6]] == [
        ("question", 0), ("thought", 1), ("action", 1), ("observation", 1),
        ("parse_failure", 2), ("action", 3),
    ]  # fmt: skip
    statuses = [block.status for block in blocks if block.kind == "observation"]
    assert statuses == ["ok", "ok", "repeated", "unknown_tool", "error"]


def test_a_limit_shows_why_the_run_stopped_once(script, tools):
    question, events, _ = run_events(script, tools, "limit")
    markdown = to_markdown(question, events)
    assert markdown.count("**Stopped:**") == 1
    assert "**Stopped:** Agent stopped at max\\_iterations=2, before a final answer." in markdown
    assert markdown.rstrip().endswith("*stop reason: `max_iterations` · model calls: 2*")
    assert "Agent stopped at max_iterations=2, before a final answer." in to_html(question, events)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_failed_model_is_a_stop_in_its_step_not_an_answer(script, tools, language):
    agent = CustomReActAgent(script(ValueError("server down")).model, tools, language=language)
    events = list(agent.stream("hi"))
    blocks = transcript_blocks("hi", events, language)
    assert [(block.kind, block.step) for block in blocks] == [("question", 0), ("stopped", 1)]
    markdown = to_markdown("hi", events, language)
    stopped = {"en": "**Stopped:**", "zh": "**已停止：**"}[language]
    assert f"{stopped} " in markdown and "server down" in markdown
    assert "Final Answer" not in markdown and "最终答案" not in markdown


def test_a_resumed_run_names_the_call_it_decided_in_its_step(script):
    @tool
    def delete_file(path: str) -> str:
        """Delete a file."""
        return f"deleted {path}"

    delete_file.metadata = {"requires_approval": True}
    paused = CustomReActAgent(
        script("Action: delete_file\nAction Input: a.txt").model,
        [delete_file],
        approval="interrupt",
    ).invoke("Delete a.txt")
    resumed = CustomReActAgent(script("Final Answer: done").model, [delete_file])
    events = list(resumed.stream({"resume": paused["state"], "decision": {"approve": True}}))
    kinds = [(block.kind, block.step) for block in transcript_blocks("Delete a.txt", events)]
    assert kinds[:4] == [("question", 0), ("action", 1), ("decision", 1), ("observation", 1)]
    assert "**Action:** `delete_file`" in to_markdown("Delete a.txt", events)


def test_markdown_escapes_model_text_and_fences_outlast_backticks():
    step = ToolStep(
        thought="",
        tool="search",
        tool_input="q",
        args={},
        tool_call_id="c1",
        iteration=1,
        log="",
        observation="```\n# not a heading",
        status="ok",
    )
    events = [ObservationEvent(step)]
    markdown = to_markdown("Is *this* a `question`?", events)
    assert r"**Question:** Is \*this\* a \`question\`?" in markdown
    assert "````text\n```\n# not a heading\n````" in markdown
    assert "*(the run did not finish)*" in markdown


def test_html_escapes_every_text_and_is_self_contained(script, tools):
    question, events, _ = run_events(script, tools, "tour")
    page = to_html(question, events)
    assert "<b>" not in page and "&lt;b&gt;&quot;5%&quot;&lt;/b&gt;" in page
    assert not re.search(r"<(script|link|img|iframe)\b|https?://|src=", page)
    assert page.count('class="step"') == 7
    assert 'class="block final_answer status-ok"' in page


def test_html_labels_follow_the_language(script, tools):
    question, events, language = run_events(script, tools, "zh")
    page = to_html(question, events, language)
    assert '<html lang="zh">' in page
    assert all(word in page for word in ("思考", "行动输入", "观察", "最终答案", "停止原因"))


def test_save_transcript_picks_the_format_by_suffix(tmp_path, script, tools):
    question, events, _ = run_events(script, tools, "tour")
    for name, start in (
        ("run.md", "# ReAct"),
        ("a/run.HTML", "<!DOCTYPE"),
        ("run.mmd", "sequence"),
    ):
        path = save_transcript(tmp_path / name, question, iter(events))
        assert path.read_text(encoding="utf-8").startswith(start)
    with pytest.raises(ValueError, match=r"use one of \.md"):
        save_transcript(tmp_path / "run.txt", question, events)
    with pytest.raises(ValueError, match="Unsupported language"):
        save_transcript(tmp_path / "run.md", question, events, language="fr")


# -- Mermaid validity -------------------------------------------------------------------------

_LANES = ("User", "Agent", "Model", "Tool")
_STATEMENT = re.compile(
    r"    (?:participant (?P<lane>\w+) as [^\n]+"
    r"|(?P<source>\w+)(?:->>|-->>|--x)(?P<target>\w+): [^\n]+"
    r"|Note over (?P<over>\w+): [^\n]+)"
)


def assert_valid_sequence_diagram(text: str) -> None:
    """Every line is a statement Mermaid's sequence grammar accepts, over declared lanes only."""
    first, *lines = text.rstrip("\n").split("\n")
    assert first == "sequenceDiagram"
    assert [line.split()[1] for line in lines[:4]] == ["User", "Agent", "Model", "Tool"]
    for line in lines:
        match = _STATEMENT.fullmatch(line)
        assert match, f"not a sequence diagram statement: {line!r}"
        names = {match["lane"], match["source"], match["target"], match["over"]} - {None}
        assert names <= set(_LANES), line
        text_part = line.split(": ", 1)[1] if ":" in line else ""
        assert not set(text_part) & set(';#"<>%'), line
        assert len(text_part) <= MERMAID_TEXT_LIMIT + len("Question: "), line


@pytest.mark.parametrize("name", sorted(RUNS))
def test_mermaid_is_a_valid_sequence_diagram(script, tools, name):
    question, events, language = run_events(script, tools, name)
    assert_valid_sequence_diagram(to_mermaid(question, events, language))


def test_mermaid_draws_each_model_call_tool_call_and_the_answer(script, tools):
    question, events, _ = run_events(script, tools, "tour")
    lines = to_mermaid(question, events).splitlines()
    assert sum("Agent->>Model: call" in line for line in lines) == 7
    assert sum(line.startswith("    Agent->>Tool:") for line in lines) == 3  # not repeat/unknown
    assert any(line.startswith("    Tool--xAgent: Observation: Error") for line in lines)
    assert lines[-1].startswith("    Agent-->>User: Final Answer: About 1.26 yuan, see")


def test_a_refused_approval_is_shown_as_never_run_in_every_export(script):
    """Driven through the real agent: the user says no, the limit comes, "generate" answers."""
    ran: list[str] = []

    @tool
    def run_terminal_command(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return "done"

    run_terminal_command.metadata = {"requires_approval": True}
    model = script(
        "Action: run_terminal_command\nAction Input: rm -rf /", "Final Answer: It is 42."
    )
    agent = CustomReActAgent(
        model.model, [run_terminal_command], approve=lambda name, args: False,
        max_iterations=1, early_stopping_method="generate",
    )  # fmt: skip
    events = list(agent.stream("q"))
    assert ran == []
    assert [e.step.status for e in events if isinstance(e, ObservationEvent)] == ["denied"]
    assert [e.answer_generated for e in events if isinstance(e, LimitReached)] == [True]
    text = to_mermaid("q", events)
    assert_valid_sequence_diagram(text)
    assert "    Agent->>User: approve run_terminal_command?\n    User-->>Agent: no\n" in text
    assert "Agent->>Tool" not in text  # the diagram never shows the command running
    assert "    Agent->>Model: no steps left: write the Final Answer now\n" in text
    answer = "Final Answer: It is 42."  # the model's answer, drawn as every answer is
    assert text.endswith(f"    Model-->>Agent: {answer}\n    Agent-->>User: {answer}\n")
    assert "**Observation (denied):**" in to_markdown("q", events)
    printed: list[str] = []
    ConsolePrinter(printed.append, color=False)(events[1])
    assert printed[0].startswith("Observation (not run): The user did not approve")


@given(st.text())
def test_mermaid_text_is_one_safe_line(text):
    safe = mermaid_text(text)
    assert "\n" not in safe and "\r" not in safe and not set(safe) & set(';#"<>%')
    assert len(safe) <= MERMAID_TEXT_LIMIT and safe == safe.strip() and safe.isprintable()
    assert not safe.lower().startswith(("wrap:", "nowrap:"))


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.skipif(
    not MERMAID_MODULES.is_dir(),
    reason="Mermaid's parser is not installed: run `npm ci --prefix scripts/mermaid`",
)
def test_mermaid_parses_with_mermaid_itself(script, tools, tmp_path):
    files = []
    for name in sorted(RUNS):
        question, events, language = run_events(script, tools, name)
        files.append(save_transcript(tmp_path / f"{name}.mmd", question, events, language))
    result = subprocess.run(
        ["node", str(MERMAID_CHECK), *map(str, files)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count(" sequence\n") == len(RUNS)


# -- The HTML page in a real browser ----------------------------------------------------------


def chromium(tmp_path: Path, page: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    """Run headless Chromium offline on a local page, with a throwaway profile."""
    command = [
        str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}", *flags, page.as_uri(),
    ]  # fmt: skip
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)


def read_png(path: Path) -> tuple[int, int, list[bytes]]:
    """Decode an 8-bit RGB/RGBA PNG without dependencies: (width, height, pixel rows)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG file"
    position, chunks = 8, {}
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        chunks[kind] = chunks.get(kind, b"") + data[position + 8 : position + 8 + length]
        position += 12 + length
    width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", chunks[b"IHDR"])
    assert (depth, color, interlace) in ((8, 2, 0), (8, 6, 0)), "unexpected PNG layout"
    channels = 3 if color == 2 else 4
    raw, stride = zlib.decompress(chunks[b"IDAT"]), width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, row = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for x in range(stride):  # undo the PNG filter of this row, byte by byte
            left = row[x - channels] if x >= channels else 0
            up, corner = previous[x], previous[x - channels] if x >= channels else 0
            if kind == 1:
                row[x] = (row[x] + left) & 0xFF
            elif kind == 2:
                row[x] = (row[x] + up) & 0xFF
            elif kind == 3:
                row[x] = (row[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                guess = left + up - corner
                pa, pb, pc = abs(guess - left), abs(guess - up), abs(guess - corner)
                row[x] = (
                    row[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)
                ) & 0xFF
        rows.append(bytes(row))
        previous = row
    return width, height, rows


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")
def test_html_page_renders_the_steps_in_chromium(script, tools, tmp_path):
    question, events, _ = run_events(script, tools, "tour")
    page = save_transcript(tmp_path / "run.html", question, events)
    shot = tmp_path / "shot.png"
    chromium(tmp_path, page, f"--screenshot={shot}", "--window-size=1000,1400")
    width, height, rows = read_png(shot)
    assert (width, height) == (1000, 1400)
    channels = len(rows[0]) // width
    colours = {row[i : i + 3] for row in rows for i in range(0, len(row), channels)}
    assert len(colours) > 50, f"the screenshot looks blank ({len(colours)} colours)"
    # Each kind of block has its own background: thought, action, observation, error, repeated.
    backgrounds = {bytes.fromhex(h) for h in ("eff4ff", "fff7e8", "ecfdf5", "fef2f2", "f5f3ff")}
    assert backgrounds <= colours


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")
@pytest.mark.parametrize("name", ["tour", "zh"])
def test_rendered_dom_holds_every_step(script, tools, tmp_path, name):
    question, events, language = run_events(script, tools, name)
    page = save_transcript(tmp_path / "run.html", question, events, language)
    dom = unescape(chromium(tmp_path, page, "--dump-dom").stdout)
    fields = ("thought", "observation", "output", "tool")
    texts = [question] + [
        text for event in events for name in fields if (text := getattr(event, name, ""))
    ]
    for text in texts:
        assert text in dom, f"{text!r} is not in the rendered page"
    assert 'class="stop-reason">final_answer<' in dom


# --- every prompt and raw reply (`custom-react ask --show-prompts --save`) ----------------------


def run_with_prompts(script, tools, name: str) -> tuple[str, list, str]:
    """A scripted run with its `ModelCall`s interleaved, each call's time set to 0 (stable files)."""
    from dataclasses import replace

    from custom_react.running.prompt_log import ModelCall, PromptLog

    question, replies, options, language = RUNS[name]
    scripted = script(*replies)
    agent = CustomReActAgent(scripted.model, tools, language=language, **options)
    log = PromptLog()
    events = list(log.interleave(agent.stream(question, {"callbacks": [log]})))
    zeroed = [replace(e, seconds=0.0) if isinstance(e, ModelCall) else e for e in events]
    return question, zeroed, language


@pytest.mark.parametrize("suffix", ["md", "html"])
def test_export_with_prompts_matches_golden_file(script, tools, suffix, regenerate):
    question, events, language = run_with_prompts(script, tools, "zh")
    text = RENDERERS[suffix](question, events, language)
    golden = GOLDEN / f"export_prompts_zh.{suffix}"
    if regenerate:
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")


def test_every_prompt_and_raw_reply_is_saved_the_new_part_marked(script, tools):
    question, events, _ = run_with_prompts(script, tools, "limit")
    markdown = to_markdown(question, events)
    assert markdown.count("<details><summary>Prompt of call") == 2
    assert markdown.count("<details><summary>Reply of call") == 2
    assert "──── new since call 1 ────\nThought: search first" in markdown
    assert "Answer the question as well as you can" in markdown  # the system prompt, exact
    page = to_html(question, events)
    assert page.count('<details class="prompt') == 2 and page.count('<details class="reply') == 2
    assert "<mark>Thought: search first\nAction: search" in page  # the new part highlighted
    assert "<details open" not in page  # folded until the reader opens one
    # Without model calls among the events, nothing changes: no prompt section at all.
    plain = [event for event in events if not hasattr(event, "messages")]
    assert "<details" not in to_markdown(question, plain) + to_html(question, plain)
    assert to_mermaid(question, events) == to_mermaid(question, plain)


def test_a_chinese_export_names_each_status_in_chinese(script, tools):
    model = script("行动：web_browser\n行动输入：玫瑰", "最终答案：不知道")
    events = list(CustomReActAgent(model.model, tools, language="zh").stream("玫瑰价格？"))
    markdown = to_markdown("玫瑰价格？", events, "zh")
    assert "(未知工具)" in markdown and "unknown_tool" not in markdown
