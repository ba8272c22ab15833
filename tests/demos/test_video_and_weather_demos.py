"""The video-ad demo (tools from the MCP server, a polled render) and the weather-outfit demo.

1. Scripted runs (no model): each demo's transcript, the video demo's polled render (several
   identical status calls, then the link) and the file the weather demo writes.
2. End to end (`e2e`): each demo on the bundled local model, as a learner runs it, one model run at
   a time (`flock`).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from custom_react.testing import Script
from tests.conftest import load_script

ROOT = Path(__file__).resolve().parents[2]
MODEL_LOCK = "/tmp/custom-react-model.lock"
LINK = "https://videos.example.com/render-1.mp4"

weather = load_script("demos/weather_outfit.py")


def run_demo(*args: str) -> subprocess.CompletedProcess[str]:
    """A demo as a learner runs it, on the local model, one model run at a time."""
    command = [sys.executable, *args]
    if shutil.which("flock"):
        command = ["flock", MODEL_LOCK, *command]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=3600)


# -- 1. Scripted runs --------------------------------------------------------------------------

WEATHER_REPLIES = [
    "Thought: I will get the weather.\nAction: get_weather\nAction Input: Hangzhou",
    "Thought: Now the advice.\nAction: clothing_advice\n"
    "Action Input: Hangzhou today: 31°C, sunny, UV index 9, light wind, no rain.",
    'Thought: Save it.\nAction: write_file\nAction Input: {"path": "outfit.txt", "content": '
    '"Wear a T-shirt, shorts and a sun hat."}',
    "Thought: I now know the final answer\nFinal Answer: Wear a T-shirt, shorts and a sun hat.",
]


def test_the_weather_demo_writes_the_advice_to_its_workspace(tmp_path: Path) -> None:
    script = Script(*WEATHER_REPLIES)
    lines: list[str] = []
    result = weather.run(script.model, tmp_path, write=lines.append)
    script.assert_consumed()
    assert result.stop_reason == "final_answer"
    assert (tmp_path / "outfit.txt").read_text() == "Wear a T-shirt, shorts and a sun hat."
    assert lines[-1] == "    outfit.txt: Wear a T-shirt, shorts and a sun hat."
    advice = next(line for line in lines if line.startswith("Observation: For 31°C"))
    assert "sunscreen" in advice and "T-shirt" in advice
    system = script.prompts[0][0].content
    assert (
        str(tmp_path.resolve()) in system
    )  # the environment: the workspace folder is in the prompt


@pytest.mark.parametrize(
    ("city", "expected"),
    [("Beijing", ["down coat", "windproof"]), ("London", ["sweater", "umbrella"])],
)
def test_the_advice_follows_the_weather(city: str, expected: list[str]) -> None:
    advice = weather.clothing_advice.invoke(weather.get_weather.invoke(city))
    assert all(word in advice for word in expected), advice


def test_advice_without_a_temperature_is_an_error_for_the_model() -> None:
    with pytest.raises(ValueError, match="temperature"):
        weather.clothing_advice.invoke("sunny")


VIDEO_REPLIES = [
    "Thought: find materials\nAction: search_materials\nAction Input: sunscreen",
    'Thought: write the script\nAction: write_script\nAction Input: {"product": "sunscreen", "seconds": 30}',
    "Thought: render it\nAction: start_render\nAction Input: script-1",
    *["Thought: check the render\nAction: render_status\nAction Input: render-1"] * 3,
    f"Thought: I now know the final answer\nFinal Answer: The video is ready: {LINK}",
]


def test_the_video_demo_polls_the_render_until_it_is_done(tmp_path: Path) -> None:
    pytest.importorskip("langchain_mcp_adapters", reason='the mcp extra is missing: ".[mcp]"')
    video = load_script("demos/video_ad.py")
    script = Script(*VIDEO_REPLIES)
    lines: list[str] = []
    tools = video.studio_tools(tmp_path, poll_interval=0.0)
    result = video.run(script.model, tools, write=lines.append)
    script.assert_consumed()
    assert [tool.name for tool in tools] == list(video.DEMO_TOOLS)
    statuses = [line for line in lines if line.startswith("Observation: ") and "render-1" in line]
    assert statuses[-3:] == [
        "Observation: queued. Not done yet: call render_status again with task_id render-1.",
        "Observation: rendering 50%. Not done yet: call render_status again with task_id render-1.",
        f"Observation: done: {LINK}",
    ]
    assert result.output == f"The video is ready: {LINK}"
    assert lines[-1].endswith("(7 model calls, 3 status calls, final_answer)")


# -- 2. End to end -----------------------------------------------------------------------------


@pytest.mark.e2e
def test_the_weather_demo_on_the_local_model(tmp_path: Path) -> None:
    result = run_demo("demos/weather_outfit.py", "--workspace", str(tmp_path))
    assert result.returncode == 0, result.stderr[-3000:]
    saved = tmp_path / "outfit.txt"
    assert saved.is_file(), result.stdout[-3000:]
    text = saved.read_text(encoding="utf-8").lower()
    assert any(word in text for word in ("t-shirt", "shorts", "sandals", "sun")), text


@pytest.mark.e2e
def test_the_video_demo_on_the_local_model(tmp_path: Path) -> None:
    pytest.importorskip("langchain_mcp_adapters", reason='the mcp extra is missing: ".[mcp]"')
    result = run_demo("demos/video_ad.py", "--state-dir", str(tmp_path))
    assert result.returncode == 0, result.stderr[-3000:]
    transcript = result.stdout
    assert transcript.count("Action: render_status") >= 3, transcript[-3000:]
    assert f"Observation: done: {LINK}" in transcript, transcript[-3000:]
    assert LINK in transcript.split("\n--> ")[-1]  # the answer gives the link
