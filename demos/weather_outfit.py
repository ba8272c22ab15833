"""Demo: today's weather, clothing advice for it, and the advice saved to a file in a workspace.

Three tools, used in order: `get_weather` (simulated: a fixed, offline report per city),
`clothing_advice` (rules over the weather text: temperature, rain, sun, wind) and `write_file`
from the workspace tools (`tools/workspace.py`, confined to the workspace folder). The prompt
carries the environment (the operating system, the workspace folder and its files, through the
agent's `environment=` option), so the model knows where the file goes. Offline by default: the
bundled local model; a hosted model when its key is set (environment or `.env`).

Run from the repository root:  python demos/weather_outfit.py [--workspace runs/outfit] [--city Hangzhou]
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable
from pathlib import Path

from dotenv import find_dotenv, load_dotenv
from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool, tool

from custom_react import ConsolePrinter, CustomReActAgent, RunFinished
from custom_react.console.printing import show_live
from custom_react.memory import AgentResult
from custom_react.serving.errors import exit_on_model_error
from custom_react.serving.models import ModelSettings, describe, open_chat_model
from tools import make_workspace_tools

FILE = "outfit.txt"
DEFAULT_WORKSPACE = Path("runs") / "outfit"
TASK = (
    "What is the weather in {city} today? Get it with get_weather, then get clothing advice for "
    f"that weather with clothing_advice, then save the advice to the file {FILE} in the working "
    "folder with write_file. The Final Answer is the advice."
)
WEATHER = {  # simulated reports: the demo runs offline and gives the same weather every time
    "hangzhou": "Hangzhou today: 31°C, sunny, UV index 9, light wind, no rain.",
    "beijing": "Beijing today: 4°C, cloudy, strong north wind, no rain.",
    "london": "London today: 12°C, light rain all day, moderate wind.",
}

_PARIS = "For 25°C: wear a long-sleeved shirt, light trousers."
EXAMPLES = f"""
Example:
Question: What is the weather in Paris today? Get clothing advice for it and save the advice to paris.txt.
Thought: I will get the weather in Paris.
Action: get_weather
Action Input: Paris
Observation: Paris today: 25°C, cloudy, light wind, no rain.
Thought: I will get clothing advice for that weather.
Action: clothing_advice
Action Input: Paris today: 25°C, cloudy, light wind, no rain.
Observation: {_PARIS} Next: save this advice with write_file.
Thought: I will save the advice to paris.txt with write_file.
Action: write_file
Action Input: {json.dumps({"path": "paris.txt", "content": _PARIS})}
Observation: Wrote {len(_PARIS)} characters to paris.txt.
Thought: I now know the final answer
Final Answer: {_PARIS} I saved the advice to paris.txt.
"""


@tool
def get_weather(city: str) -> str:
    """Today's weather in a city: temperature, sky, rain and wind. Input: the city, e.g. Hangzhou."""
    name = city.strip().strip("\"'").split(",")[0].strip()
    report = WEATHER.get(name.lower())
    return report or f"{name} today: 18°C, partly cloudy, light wind, no rain."


@tool
def clothing_advice(weather: str) -> str:
    """Clothing advice for a weather report. Input: the weather text that get_weather returned."""
    text = weather.lower()
    found = re.search(r"(-?\d+(?:\.\d+)?)\s*°?\s*c\b", text)
    if found is None:
        raise ValueError("Give the weather report with its temperature, e.g. '31°C, sunny'.")
    degrees = float(found.group(1))
    if degrees >= 26:
        advice = ["a light, breathable T-shirt", "shorts or a thin skirt", "sandals"]
    elif degrees >= 16:
        advice = ["a long-sleeved shirt", "light trousers", "a thin jacket for the evening"]
    elif degrees >= 6:
        advice = ["a sweater", "a warm jacket", "long trousers", "closed shoes"]
    else:
        advice = ["a down coat", "a hat, scarf and gloves", "warm boots"]
    if "rain" in text and "no rain" not in text:
        advice.append("an umbrella or a rain jacket")
    if "sunny" in text or "uv index" in text:
        advice.append("sunglasses, a sun hat and sunscreen")
    if "strong" in text and "wind" in text:
        advice.append("a windproof outer layer")
    return (
        f"For {degrees:g}°C: wear "
        + ", ".join(advice)
        + ". Next: save this advice with write_file."
    )


def make_tools(workspace: Path) -> list[BaseTool]:
    """The weather and advice tools, and `write_file` confined to `workspace`."""
    write_file = next(t for t in make_workspace_tools(workspace) if t.name == "write_file")
    return [get_weather, clothing_advice, write_file]


def run(
    llm: BaseChatModel,
    workspace: Path = DEFAULT_WORKSPACE,
    *,
    city: str = "Hangzhou",
    write: Callable[[str], object] = print,
    max_iterations: int = 6,
) -> AgentResult:
    """Ask for the weather, the advice and the file, printing the live transcript."""
    tools = make_tools(workspace)  # creates the workspace before the environment is listed
    agent = CustomReActAgent(
        llm, tools, examples=EXAMPLES, environment=workspace, max_iterations=max_iterations
    )
    task = TASK.format(city=city)
    write(f"=== {task}\n(workspace: {workspace.resolve()})")
    result: AgentResult | None = None
    for event in show_live(agent.stream(task), ConsolePrinter(write, color=False)):
        if isinstance(event, RunFinished):
            result = event.result
    assert result is not None  # the loop always ends with RunFinished
    write(f"--> {result.output}  ({result.iterations} model calls, {result.stop_reason})")
    saved = workspace / FILE
    write(f"    {FILE}: " + (saved.read_text(encoding="utf-8") if saved.is_file() else "missing"))
    return result


def main(argv: list[str] | None = None) -> None:
    """Parse the options, pick the model from the environment / `.env`, run the demo."""
    parser = argparse.ArgumentParser(description="Weather, clothing advice, and a file.")
    parser.add_argument("--workspace", type=Path, default=DEFAULT_WORKSPACE)
    parser.add_argument("--city", default="Hangzhou")
    options = parser.parse_args(argv)
    (options.workspace / FILE).unlink(missing_ok=True)  # a run shows its own file, not an old one
    load_dotenv(find_dotenv(usecwd=True))
    settings = ModelSettings.from_env()
    print(f"model: {describe(settings)}")
    with exit_on_model_error(), open_chat_model(settings) as llm:
        run(llm, options.workspace, city=options.city)


if __name__ == "__main__":
    main()


# Expected output (a real run on the bundled Qwen2.5-Coder-1.5B, 4 model calls;
# `python demos/weather_outfit.py`):
#
# model: local qwen2.5-coder-1.5b (llama.cpp server on 127.0.0.1)
# === What is the weather in Hangzhou today? Get it with get_weather, then get clothing advice for that weather with clothing_advice, then save the advice to the file outfit.txt in the working folder with write_file. The Final Answer is the advice.
# (workspace: .../runs/outfit)
# Thought: I will get the weather in Hangzhou today.
# Action: get_weather
# Action Input: Hangzhou
# Observation: Hangzhou today: 31°C, sunny, UV index 9, light wind, no rain.
# Thought: I will get clothing advice for that weather.
# Action: clothing_advice
# Action Input: Hangzhou today: 31°C, sunny, UV index 9, light wind, no rain.
# Observation: For 31°C: wear a light, breathable T-shirt, shorts or a thin skirt, sandals, sunglasses, a sun hat and sunscreen. Next: save this advice with write_file.
# Thought: I will save the advice to outfit.txt with write_file.
# Action: write_file
# Action Input: {"path": "outfit.txt", "content": "For 31°C: wear a light, breathable T-shirt, shorts or a thin skirt, sandals, sunglasses, a sun hat and sunscreen."}
# Observation: Wrote 113 characters to outfit.txt.
# Thought: I now know the final answer
# Final Answer: For 31°C: wear a light, breathable T-shirt, shorts or a thin skirt, sandals, sunglasses, a sun hat and sunscreen.
# --> For 31°C: wear a light, breathable T-shirt, shorts or a thin skirt, sandals, sunglasses, a sun hat and sunscreen.  (4 model calls, final_answer)
#     outfit.txt: For 31°C: wear a light, breathable T-shirt, shorts or a thin skirt, sandals, sunglasses, a sun hat and sunscreen.
