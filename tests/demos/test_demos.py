"""The demos: each runs end to end on a scripted model and ends with its real expected output."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

from custom_react.compare import Question
from tests.conftest import load_script

DEMOS = Path(__file__).resolve().parents[2] / "demos"
NAMES = ["price_question", "search_question", "compare_legacy", "weather_outfit", "video_ad"]


def load_demo(name: str) -> ModuleType:
    return load_script(f"demos/{name}.py")


def scripted(*texts: str) -> GenericFakeChatModel:
    return GenericFakeChatModel(messages=iter(AIMessage(content=text) for text in texts))


@pytest.fixture(autouse=True)
def offline_search(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TAVILY_API_KEY", raising=False)


@pytest.mark.parametrize("name", NAMES)
def test_each_demo_ends_with_the_output_of_a_real_run(name: str) -> None:
    lines = (DEMOS / f"{name}.py").read_text(encoding="utf-8").rstrip().splitlines()
    start = max(i for i, line in enumerate(lines) if line.startswith("# Expected output"))
    tail = lines[start + 1 :]
    assert len(tail) >= 5 and all(line.startswith("#") for line in tail)
    assert any("Final Answer" in line or "solved" in line for line in tail)


def test_price_demo_prints_the_transcript_and_the_answer() -> None:
    lines: list[str] = []
    model = scripted(
        "Thought: find the price\nAction: search\nAction Input: rose wholesale price China",
        "Thought: add 5%\nAction: calculator\nAction Input: 1 * 1.05",
        "Thought: I now know the final answer\nFinal Answer: 1.05 yuan",
    )
    demo = load_demo("price_question")
    answers = demo.run(model, [("en", demo.QUESTIONS[0][1])], write=lines.append)
    assert answers == ["1.05 yuan"]
    assert "Action: search" in lines and "Observation: 1.05" in lines
    assert any(line.startswith("Observation: [offline snapshot") for line in lines)
    assert lines[-1] == "--> 1.05 yuan  (3 model calls, final_answer)"


def test_search_demo_prints_the_transcript_and_returns_the_answer() -> None:
    lines: list[str] = []
    model = scripted(
        "Thought: who won?\nAction: search\nAction Input: 2025 Australian Open men's singles",
        "Thought: I now know the final answer\nFinal Answer: Jannik Sinner, from Italy.",
    )
    output = load_demo("search_question").run(model, write=lines.append)
    assert output == "Jannik Sinner, from Italy."
    assert "Final Answer: Jannik Sinner, from Italy." in lines


def test_compare_demo_prints_both_transcripts_and_the_table() -> None:
    lines: list[str] = []
    step = "Thought: compute\nAction: calculator\nAction Input: 20 * 0.73"
    answer = "Thought: I now know the final answer\nFinal Answer: 14.6 dollars"
    model = scripted(step, answer, step, answer)  # ours, then the legacy agent
    question = Question("How much do 20 stamps cost?", id="stamps", expected=14.6)
    report = load_demo("compare_legacy").run(model, [question], write=lines.append)
    text = "\n".join(lines)
    assert "== custom ==" in text and "== legacy ==" in text
    assert report.agents == ["custom", "legacy"]  # the other two are `custom-react compare`'s
    assert report.totals()["custom"]["solved"] == report.totals()["legacy"]["solved"] == 1
