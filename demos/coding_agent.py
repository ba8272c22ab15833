"""Demo: a coding agent builds a small snake game (HTML, CSS, JS) in a workspace folder.

The agent gets the workspace tools (`read_file`, `write_file`, `list_files`, `run_terminal_command`),
the XML ReAct format (`<thought>`, `<action>write_file("index.html", ...)</action>`, ...) and
the environment facts (OS, the workspace folder and its files) in its prompt. A terminal command
runs only after you type "y" at the approval prompt; anything else (or just Enter) refuses it.
Offline by default: the bundled local coder model on a loopback server; a hosted model when its key
is set (environment or `.env`). Open `index.html` from the workspace in a browser to play.
Measured on the bundled 1.5B model (2 cores, `bench/coding_demo.py`): 5 of 5 runs wrote the three
files in 78-111 s (4 model calls each) and the page loaded in headless Chromium without a script
error, but its game logic is a small model's: in 4 of 5 the collision check counts the snake's
new head, so the game ends at once, and only 1 game kept running (docs/measurements.md).

Run from the repository root:
    python demos/coding_agent.py [--workspace runs/snake] [--format xml|json|text]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dotenv import find_dotenv, load_dotenv
from langchain_core.language_models import BaseChatModel

from custom_react import ConsolePrinter, CustomReActAgent, RunFinished
from custom_react.console.printing import show_live
from custom_react.formats import FormatName
from custom_react.memory import AgentResult
from custom_react.serving.errors import exit_on_model_error
from custom_react.serving.models import ModelSettings, describe, open_chat_model
from tools import make_workspace_tools

TASK = (
    "Build a small snake game for the web browser in three files in the working folder: "
    "index.html (the page: a canvas and a score line; it links style.css and loads game.js), "
    "style.css (the look of the page) and game.js (the game, in plain JavaScript without "
    "libraries: get the canvas with document.getElementById; keep the snake as a list of cells; "
    "every 100 ms (setInterval) add a new head one cell further in the current direction and "
    "remove the tail unless the snake ate the food; the arrow keys change the direction in a "
    "keydown listener; hitting a wall or itself ends the game; show the score). Write each file "
    "with write_file, one file per step, then give a short final answer."
)
FILES = ("index.html", "style.css", "game.js")
DEFAULT_WORKSPACE = Path("runs") / "snake"

# One worked example per format, on a smaller task, so a small model sees how to write a file.
_PAGE = '<!DOCTYPE html>\n<html>\n<body>\n  <h1 class="title">Hello</h1>\n</body>\n</html>'
EXAMPLES: dict[FormatName, str] = {
    "xml": f"""
Example:
<question>Make a page hello.html that says Hello.</question>
<thought>I will write hello.html with write_file.</thought>
<action>write_file("hello.html", \"\"\"{_PAGE}\"\"\")</action>
<observation>Wrote {len(_PAGE)} characters to hello.html.</observation>
<thought>The page is written.</thought>
<final_answer>hello.html shows the heading Hello.</final_answer>
""",
    "json": f"""
Example:
Question: Make a page hello.html that says Hello.
{{"thought": "I will write hello.html with write_file.", "action": "write_file", "action_input": {{"path": "hello.html", "content": {json.dumps(_PAGE)}}}}}
{{"observation": "Wrote {len(_PAGE)} characters to hello.html."}}
{{"thought": "The page is written.", "final_answer": "hello.html shows the heading Hello."}}
""",
    "text": f"""
Example:
Question: Make a page hello.html that says Hello.
Thought: I will write hello.html with write_file.
Action: write_file
Action Input: {{"path": "hello.html", "content": {json.dumps(_PAGE)}}}
Observation: Wrote {len(_PAGE)} characters to hello.html.
Thought: The page is written.
Final Answer: hello.html shows the heading Hello.
""",
}


def ask_approval(
    name: str,
    args: dict[str, Any],
    *,
    read: Callable[[str], str] | None = None,
    write: Callable[[str], object] = print,
) -> bool:
    """Ask the user before a tool that needs approval runs; only "y" or "yes" approves.

    Args:
        name: The tool, e.g. `run_terminal_command`.
        args: Its arguments; the command is shown when there is one.
        read: Reads one answer line (default: `input`); end of input counts as "no".
        write: Where the refusal note goes.
    """
    shown = args.get("command", args)
    try:
        answer = (read or input)(f"Allow {name}: {shown!s} ? [y/N] ")
    except EOFError:
        answer = ""
    approved = answer.strip().lower() in ("y", "yes")
    if not approved:
        write(f"(not approved: {name} was not run)")
    return approved


def run(
    llm: BaseChatModel,
    workspace: Path = DEFAULT_WORKSPACE,
    *,
    format: FormatName = "xml",
    approve: Callable[[str, dict[str, Any]], bool] = ask_approval,
    write: Callable[[str], object] = print,
    max_iterations: int = 8,
) -> AgentResult:
    """Ask the agent to build the game in `workspace`, printing the live transcript.

    Returns:
        The run's result; it always ends, with a final answer or a stop reason.
    """
    tools = make_workspace_tools(workspace)
    agent = CustomReActAgent(
        llm,
        tools,
        format=format,
        environment=workspace,
        examples=EXAMPLES[format],
        approve=approve,
        max_iterations=max_iterations,
        max_observation_chars=1500,
    )
    write(f"=== {TASK}\n(workspace: {workspace.resolve()}, format: {format})")
    result: AgentResult | None = None
    printer = ConsolePrinter(lambda line: write(clip(line)), color=False)
    for event in show_live(agent.stream(TASK), printer):
        if isinstance(event, RunFinished):
            result = event.result
    assert result is not None  # the loop always ends with RunFinished
    write(f"--> {result.output}  ({result.iterations} model calls, {result.stop_reason})")
    for name in FILES:
        path = workspace / name
        write(f"    {name}: " + (f"{path.stat().st_size} bytes" if path.is_file() else "missing"))
    return result


def clip(line: str, limit: int = 300) -> str:
    """Shorten a long transcript line (a whole file as an Action Input); the file has it all."""
    hidden = len(line) - limit
    return line if hidden <= 0 else f"{line[:limit]}… [{hidden} more characters]"


def main(argv: list[str] | None = None) -> None:
    """Parse the options, pick the model from the environment / `.env`, run the demo."""
    parser = argparse.ArgumentParser(description="A coding agent builds a snake game.")
    parser.add_argument("--workspace", type=Path, default=DEFAULT_WORKSPACE)
    parser.add_argument("--format", choices=["xml", "json", "text"], default="xml")
    parser.add_argument("--max-iterations", type=int, default=8)
    options = parser.parse_args(argv)
    load_dotenv(find_dotenv(usecwd=True))
    settings = ModelSettings.from_env()
    print(f"model: {describe(settings)}")
    with exit_on_model_error(), open_chat_model(settings, max_tokens=1500) as llm:
        run(llm, options.workspace, format=options.format, max_iterations=options.max_iterations)


if __name__ == "__main__":
    main()


# Expected output (a real run on the bundled Qwen2.5-Coder-1.5B, about 75 s on 2 cores; long
# lines are clipped by the demo, the files hold everything):
#
# model: local qwen2.5-coder-1.5b (llama.cpp server on 127.0.0.1)
# === Build a small snake game for the web browser in three files in the working folder: index.html (t ...
# (workspace: .../runs/snake, format: xml)
# Thought: I will write index.html with write_file.
# Action: write_file
# Action Input: {"path": "index.html", "content": "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n  <meta charset=\"UTF-8\">\n  <meta name=\"viewport\" content=\"width=device-width, initial-scale=1.0\">\n  <title>Snake Game</title>\n  <link rel=\"stylesheet\" href=\"style.css\">\n</head>\n<body>\n  <can… [124 more characters]
# Observation: Wrote 342 characters to index.html.
# Thought: I will write style.css with write_file.
# Action: write_file
# Action Input: {"path": "style.css", "content": "body {\n  font-family: Arial, sans-serif;\n}\n\ncanvas {\n  border: 1px solid black;\n}\n\n#score {\n  margin-top: 20px;\n}\n"}
# Observation: Wrote 114 characters to style.css.
# Thought: I will write game.js with write_file.
# Action: write_file
# Action Input: {"path": "game.js", "content": "let canvas = document.getElementById('gameCanvas');\nlet ctx = canvas.getContext('2d');\n\nconst gridSize = 10;\nconst snakeSize = 10;\nconst foodSize = 10;\n\nlet snake = [[5, 5]];\nlet direction = 'right';\nlet food = [Math.floor(Math.random() * (canva… [1707 more characters]
# Observation: Wrote 1897 characters to game.js.
# Thought: I now know the final answer.
# Final Answer: index.html, style.css, and game.js are written. The snake game is ready to be tested in a web browser.
# --> index.html, style.css, and game.js are written. The snake game is ready to be tested in a web browser.  (4 model calls, final_answer)
#     index.html: 342 bytes
#     style.css: 114 bytes
#     game.js: 1897 bytes
