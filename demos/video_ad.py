"""Demo: make a 30-second e-commerce video ad for a sunscreen with tools from an MCP server.

The tools come from a small MCP server the project writes (`demos/servers/video_studio.py`,
FastMCP), which this demo starts over stdio through `custom_react.integrations.mcp.load_mcp_tools`: search
materials, write a script, start a render (it returns a task id at once), then poll the render's
status until it says done, and answer with the link. The status tool is marked `repeatable`, so
the repeated-action guard lets the identical status call through, with `poll_interval` seconds
between polls and a `max_calls` budget so polling cannot run forever. The render needs three
status calls (`--polls`); its state lives in a JSON file under `--state-dir`, because every tool
call opens a fresh MCP session. Needs the `mcp` extra (`pip install -e ".[mcp]"`). Offline by
default: the bundled local model; a hosted model when its key is set (environment or `.env`).

Run from the repository root:  python demos/video_ad.py [--state-dir runs/video_studio]
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

from dotenv import find_dotenv, load_dotenv
from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool

from custom_react import ConsolePrinter, CustomReActAgent, RunFinished
from custom_react.console.printing import show_live
from custom_react.integrations.mcp import load_mcp_tools
from custom_react.memory import AgentResult
from custom_react.serving.errors import exit_on_model_error
from custom_react.serving.models import ModelSettings, describe, open_chat_model

SERVER = Path(__file__).resolve().parent / "servers" / "video_studio.py"
TASK = (
    "Make a 30-second e-commerce video ad for a sunscreen. Do these steps in order: "
    "1. find materials with search_materials; 2. write the script with write_script; "
    "3. start the render with start_render; 4. check the render with render_status, again and "
    "again, until it says done. The Final Answer is the link to the finished video."
)
DEMO_TOOLS = ("search_materials", "write_script", "start_render", "render_status")
DEFAULT_STATE = Path("runs") / "video_studio"

# A worked example of the same shape on another job (a podcast), so a small model sees the order
# of the steps and how polling looks, without copying this task's ids or link.
EXAMPLES = """
Example:
Question: Make a 5-minute podcast episode about green tea. Do these steps in order: 1. find sources with find_sources; 2. write the outline with write_outline; 3. start the recording with start_recording; 4. check it with recording_status until it says done.
Thought: Step 1: I will find sources.
Action: find_sources
Action Input: green tea
Observation: Sources for green tea: article tea_history.txt, interview farmer.mp3. Next: write the outline with write_outline.
Thought: Step 2: I will write the outline.
Action: write_outline
Action Input: green tea
Observation: Outline outline-4 is written: 5 min, 3 parts. Next: start the recording with start_recording and outline_id outline-4.
Thought: Step 3: I will start the recording.
Action: start_recording
Action Input: outline-4
Observation: Recording started: task id rec-4. Check it with recording_status.
Thought: Step 4: I will check the recording.
Action: recording_status
Action Input: rec-4
Observation: recording 50%. Not done yet: call recording_status again with task_id rec-4.
Thought: It is not done yet. I will check again.
Action: recording_status
Action Input: rec-4
Observation: done: https://audio.example.com/rec-4.mp3
Thought: I now know the final answer
Final Answer: The episode is ready: https://audio.example.com/rec-4.mp3
"""


def studio_tools(
    state_dir: Path, *, polls: int = 3, poll_interval: float = 1.0, max_calls: int = 6
) -> list[BaseTool]:
    """Start the video-studio MCP server once, list its tools and mark the status tool."""
    command = shlex.join(
        [sys.executable, str(SERVER), "--state-dir", str(state_dir), "--polls", str(polls)]
    )
    status = {"poll_interval": poll_interval, "max_calls": max_calls}
    tools = load_mcp_tools(
        command, repeatable=["render_status"], metadata={"render_status": status}
    )
    return [tool for tool in tools if tool.name in DEMO_TOOLS]


def run(
    llm: BaseChatModel,
    tools: list[BaseTool],
    *,
    write: Callable[[str], object] = print,
    max_iterations: int = 10,
) -> AgentResult:
    """Ask the agent for the video, printing the live transcript; return the run's result."""
    agent = CustomReActAgent(llm, tools, examples=EXAMPLES, max_iterations=max_iterations)
    write(f"=== {TASK}")
    result: AgentResult | None = None
    for event in show_live(agent.stream(TASK), ConsolePrinter(write, color=False)):
        if isinstance(event, RunFinished):
            result = event.result
    assert result is not None  # the loop always ends with RunFinished
    polls = sum(1 for action, _ in result.intermediate_steps if action.tool == "render_status")
    write(f"--> {result.output}  ({result.iterations} model calls, {polls} status calls, "
          f"{result.stop_reason})")  # fmt: skip
    return result


def main(argv: list[str] | None = None) -> None:
    """Start the MCP server, pick the model from the environment / `.env`, run the demo."""
    parser = argparse.ArgumentParser(description="A video ad made with tools from an MCP server.")
    parser.add_argument("--state-dir", type=Path, default=DEFAULT_STATE)
    parser.add_argument("--polls", type=int, default=3, help="status calls a render needs")
    parser.add_argument("--max-iterations", type=int, default=10)
    options = parser.parse_args(argv)
    shutil.rmtree(options.state_dir, ignore_errors=True)  # a fresh studio: script-1, render-1
    tools = studio_tools(options.state_dir, polls=options.polls)
    load_dotenv(find_dotenv(usecwd=True))
    settings = ModelSettings.from_env()
    print(f"model: {describe(settings)}")
    with exit_on_model_error(), open_chat_model(settings) as llm:
        run(llm, tools, max_iterations=options.max_iterations)


if __name__ == "__main__":
    main()


# Expected output (a real run on the bundled Qwen2.5-Coder-1.5B: 7 model calls, 3 identical status
# calls that all ran, 3 min 12 s on 2 cores; `python demos/video_ad.py`):
#
# model: local qwen2.5-coder-1.5b (llama.cpp server on 127.0.0.1)
# === Make a 30-second e-commerce video ad for a sunscreen. Do these steps in order: 1. find materials with search_materials; 2. write the script with write_script; 3. start the render with start_render; 4. check the render with render_status, again and again, until it says done. The Final Answer is the link to the finished video.
# Thought: Step 1: I will find materials.
# Action: search_materials
# Action Input: sunscreen
# Observation: Materials for sunscreen: clip beach_sunrise.mp4, clip applying_sunscreen.mp4, image sunscreen_bottle.png, slogan "All-day sun, zero worries." Next: write the script with write_script.
# Thought: Step 2: I will write the script.
# Action: write_script
# Action Input: sunscreen
# Observation: Script script-1 is written: 30 s, 3 scenes. Next: start the render with start_render and script_id script-1.
# Thought: Step 3: I will start the render.
# Action: start_render
# Action Input: script-1
# Observation: Render started: task id render-1. It takes a while: check it with render_status and task_id render-1 until it says done.
# Thought: It is not done yet. I will check again.
# Action: render_status
# Action Input: render-1
# Observation: queued. Not done yet: call render_status again with task_id render-1.
# Thought: It is not done yet. I will check again.
# Action: render_status
# Action Input: render-1
# Observation: rendering 50%. Not done yet: call render_status again with task_id render-1.
# Thought: It is not done yet. I will check again.
# Action: render_status
# Action Input: render-1
# Observation: done: https://videos.example.com/render-1.mp4
# Final Answer: The e-commerce video ad is ready: https://videos.example.com/render-1.mp4
# --> The e-commerce video ad is ready: https://videos.example.com/render-1.mp4  (7 model calls, 3 status calls, final_answer)
