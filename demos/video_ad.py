"""Demo: make a 30-second e-commerce video ad for a sunscreen with tools from an MCP server.

The tools come from a small MCP server the project writes (`demos/servers/video_studio.py`,
FastMCP), which this demo starts over stdio through `custom_react.mcp.load_mcp_tools`: search
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
from custom_react.events import AgentResult
from custom_react.mcp import load_mcp_tools
from custom_react.printing import show_live
from custom_react.serving.errors import exit_on_model_error
from custom_react.serving.models import ModelSettings, describe, open_chat_model

SERVER = Path(__file__).resolve().parent / "servers" / "video_studio.py"
TASK = (
    "Make a 30-second e-commerce video ad for a sunscreen. Steps: find materials with "
    "search_materials, write the script with write_script, start the render with start_render, "
    "then check it with render_status again and again until it says done. "
    "The Final Answer is the link to the finished video."
)
DEMO_TOOLS = ("search_materials", "write_script", "start_render", "render_status")
DEFAULT_STATE = Path("runs") / "video_studio"

# A worked example on another job that must be polled, so a small model sees how polling looks.
EXAMPLES = """
Example:
Question: Translate report.pdf into French and give me the link.
Thought: I will start the translation.
Action: start_translation
Action Input: report.pdf
Observation: Translation started: task id tr-7. Check it with translation_status.
Thought: I will check the translation.
Action: translation_status
Action Input: tr-7
Observation: running 50%. Not done yet: call translation_status again with task_id tr-7.
Thought: It is not done yet. I will check again.
Action: translation_status
Action Input: tr-7
Observation: done: https://files.example.com/report-fr.pdf
Thought: I now know the final answer
Final Answer: The French report is ready: https://files.example.com/report-fr.pdf
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
