"""What a learner sees: the printed transcript of scripted runs, compared with golden files.

Regenerate the golden files after an intended change with:
    pytest tests/core/test_printing.py tests/core/test_prompt.py --regenerate-golden
"""

from __future__ import annotations

from pathlib import Path

import pytest

from custom_react import ConsolePrinter, CustomReActAgent

GOLDEN = Path(__file__).resolve().parents[1] / "golden"

SCRIPTS = {
    "en": (
        "What is the wholesale price of a rose plus 5%?",
        [
            "Thought: I need the wholesale price first.\nAction: search\nAction Input: rose",
            "Thoughts: something without a step",
            "Action: Calculator\nAction Input: 1.2 * 1.05",
            "Thought: I now know the final answer\nFinal Answer: About 1.26 yuan per stem.",
        ],
    ),
    "zh": (
        "玫瑰批发价加价 5% 是多少？",
        [
            "Thought: 先查批发价。\nAction: search\nAction Input: 玫瑰",
            "Action: calculator\nAction Input: 1.2 * 1.05",
            "Thought: 我现在知道最终答案了\nFinal Answer: 每枝约 1.26 元。",
        ],
    ),
}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_transcript_matches_golden_file(script, tools, language, regenerate):
    question, replies = SCRIPTS[language]
    lines: list[str] = []
    printer = ConsolePrinter(lines.append, language=language, color=False)
    for event in CustomReActAgent(script(*replies).model, tools, language=language).stream(
        question
    ):
        printer(event)
    text = "\n".join(lines) + "\n"
    golden = GOLDEN / f"transcript_{language}.txt"
    if regenerate:
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")


def test_colour_wraps_only_the_labels(script, tools):
    lines: list[str] = []
    printer = ConsolePrinter(lines.append, color=True)
    for event in CustomReActAgent(script("Final Answer: 42").model, tools).stream("q"):
        printer(event)
    assert lines == ["\x1b[1;32mFinal Answer: \x1b[0m42"]


def test_a_limit_prints_why_the_run_stopped_not_an_answer(script, tools):
    lines: list[str] = []
    agent = CustomReActAgent(
        script("Action: search\nAction Input: rose").model, tools, max_iterations=1
    )
    for event in agent.stream("q"):
        ConsolePrinter(lines.append, color=False)(event)
    assert lines[-1] == "Stopped: Agent stopped at max_iterations=1, before a final answer."
    assert not any(line.startswith("Final Answer") for line in lines)


def test_an_answer_generated_at_a_limit_is_the_final_answer(script, tools):
    replies = ("Action: search\nAction Input: rose", "Final Answer: about 1.2 yuan")
    agent = CustomReActAgent(
        script(*replies).model, tools, max_iterations=1, early_stopping_method="generate"
    )
    lines: list[str] = []
    for event in agent.stream("q"):
        ConsolePrinter(lines.append, color=False)(event)
    assert lines[-2:] == ["Stopped: stop reason: max_iterations", "Final Answer: about 1.2 yuan"]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_failed_model_is_a_stop_not_an_answer(script, tools, language):
    agent = CustomReActAgent(script(ValueError("bad request")).model, tools, language=language)
    lines: list[str] = []
    for event in agent.stream("q"):
        ConsolePrinter(lines.append, color=False, language=language)(event)
    label = {"en": "Stopped: ", "zh": "已停止："}[language]
    assert len(lines) == 1 and lines[0].startswith(label) and "bad request" in lines[0]


def test_unknown_language_is_refused():
    with pytest.raises(ValueError, match="Unsupported language"):
        ConsolePrinter(language="fr")
