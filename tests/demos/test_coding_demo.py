"""The coding-agent demo (`demos/coding_agent.py`): approval, files, and the page in a real browser.

1. The approval prompt: only "y"/"yes" approves; Enter, "n", anything else or end of input refuse.
2. Scripted runs: a terminal command never runs without approval, through `run()` and through
   `main()` with `input()` answered "n"; the scripted game's three files load in headless Chromium
   without a script error (and a broken script is caught, so the check is not vacuous).
3. End to end (`e2e`): the demo on the bundled local model, as a learner runs it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

from bench.page_check import CHROMIUM, load_page
from tests.conftest import load_script

ROOT = Path(__file__).resolve().parents[2]
MODEL_LOCK = "/tmp/custom-react-model.lock"


def load_demo() -> ModuleType:
    return load_script("demos/coding_agent.py")


demo = load_demo()


def scripted(*texts: str) -> GenericFakeChatModel:
    return GenericFakeChatModel(messages=iter(AIMessage(content=text) for text in texts))


# -- 1. The approval prompt --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "approved"),
    [("y", True), ("YES ", True), ("n", False), ("", False), ("maybe", False), ("no", False)],
)
def test_only_yes_approves(answer: str, approved: bool) -> None:
    prompts: list[str] = []
    notes: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return answer

    args = {"command": "rm -rf build"}
    assert (
        demo.ask_approval("run_terminal_command", args, read=read, write=notes.append) is approved
    )
    assert prompts == ["Allow run_terminal_command: rm -rf build ? [y/N] "]
    assert notes == ([] if approved else ["(not approved: run_terminal_command was not run)"])


def test_end_of_input_refuses() -> None:
    def closed(prompt: str) -> str:
        raise EOFError

    assert demo.ask_approval("run_terminal_command", {"command": "ls"}, read=closed) is False


# -- 2. Scripted runs --------------------------------------------------------------------------

INDEX = """<!DOCTYPE html>
<html>
<head>
  <title>Snake</title>
  <link rel="stylesheet" href="style.css">
</head>
<body>
  <p id="score">Score: 0</p>
  <canvas id="game" width="200" height="200"></canvas>
  <script src="game.js"></script>
</body>
</html>"""
STYLE = "body { font-family: sans-serif; }\ncanvas { border: 1px solid #333; }"
GAME = """const canvas = document.getElementById("game");
const ctx = canvas.getContext("2d");
let snake = [{x: 5, y: 5}], dir = {x: 1, y: 0}, food = {x: 10, y: 10}, score = 0;
document.addEventListener("keydown", (e) => {
  const turns = {ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0]};
  if (turns[e.key]) dir = {x: turns[e.key][0], y: turns[e.key][1]};
});
function step() {
  const head = {x: snake[0].x + dir.x, y: snake[0].y + dir.y};
  if (head.x < 0 || head.y < 0 || head.x >= 20 || head.y >= 20) { clearInterval(timer); return; }
  snake.unshift(head);
  if (head.x === food.x && head.y === food.y) { score += 1; food = {x: 3, y: 7}; } else snake.pop();
  ctx.clearRect(0, 0, 200, 200);
  ctx.fillStyle = "green";
  snake.forEach((part) => ctx.fillRect(part.x * 10, part.y * 10, 9, 9));
  ctx.fillStyle = "red";
  ctx.fillRect(food.x * 10, food.y * 10, 9, 9);
  document.getElementById("score").textContent = "Score: " + score;
}
const timer = setInterval(step, 100);"""


def game_replies(game: str = GAME) -> list[str]:
    """The demo's run as a good model writes it, in the XML format."""
    return [
        f'<thought>First the page.</thought>\n<action>write_file("index.html", """{INDEX}""")</action>',
        f'<thought>Now the style.</thought>\n<action>write_file("style.css", """{STYLE}""")</action>',
        f'<thought>Now the game.</thought>\n<action>write_file("game.js", """{game}""")</action>',
        "<thought>Done.</thought>\n<final_answer>Open index.html to play snake.</final_answer>",
    ]


def test_a_terminal_command_never_runs_without_approval(tmp_path: Path) -> None:
    lines: list[str] = []
    model = scripted(
        '<thought>Check the folder.</thought>\n<action>run_terminal_command("touch ran.txt")</action>',
        "<thought>It was refused.</thought>\n<final_answer>Nothing ran.</final_answer>",
    )

    def approve(name: str, args: dict[str, Any]) -> bool:
        return bool(demo.ask_approval(name, args, read=lambda prompt: "n", write=lines.append))

    result = demo.run(model, tmp_path, approve=approve, write=lines.append)
    assert not (tmp_path / "ran.txt").exists()
    assert "(not approved: run_terminal_command was not run)" in lines
    assert any(line.startswith("Observation (not run): The user did not approve") for line in lines)
    assert result.stop_reason == "final_answer"


@pytest.mark.parametrize(("answer", "ran"), [("n", False), ("", False), ("y", True)])
def test_main_asks_at_the_input_prompt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answer: str, ran: bool
) -> None:
    model = scripted(
        '<action>run_terminal_command("touch ran.txt")</action>',
        "<final_answer>Done.</final_answer>",
    )

    @contextmanager
    def fake_model(settings: Any, **kwargs: Any) -> Iterator[GenericFakeChatModel]:
        assert kwargs == {"max_tokens": 1500}
        yield model

    asked: list[str] = []
    monkeypatch.setattr(demo, "open_chat_model", fake_model)
    monkeypatch.setattr("builtins.input", lambda prompt: asked.append(prompt) or answer)
    demo.main(["--workspace", str(tmp_path)])
    assert asked == ["Allow run_terminal_command: touch ran.txt ? [y/N] "]
    assert (tmp_path / "ran.txt").exists() is ran


def test_the_scripted_demo_writes_three_files(tmp_path: Path) -> None:
    lines: list[str] = []
    result = demo.run(scripted(*game_replies()), tmp_path, write=lines.append)
    assert result.stop_reason == "final_answer" and result.iterations == 4
    assert (tmp_path / "index.html").read_text() == INDEX
    assert (tmp_path / "game.js").read_text() == GAME
    assert lines[-4:] == [
        "--> Open index.html to play snake.  (4 model calls, final_answer)",
        f"    index.html: {len(INDEX)} bytes",
        f"    style.css: {len(STYLE)} bytes",
        f"    game.js: {len(GAME)} bytes",
    ]
    assert lines.count("Action: write_file") == 3
    long_input = next(line for line in lines if line.startswith('Action Input: {"path": "game.js"'))
    assert len(long_input) < 350 and long_input.endswith("more characters]")  # the file has it all


def script_errors(page: Path, profile: Path, wait: float = 30.0) -> list[str]:
    """The script errors of `page` in headless Chromium (`bench/page_check.py`)."""
    load = load_page(page, profile, wait)
    assert load.stopped or "<canvas" in load.dom  # the page was loaded and dumped
    return load.errors


needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed (apt-get install -y chromium)"
)


@needs_chromium
def test_the_scripted_game_loads_in_a_browser_without_script_errors(tmp_path: Path) -> None:
    demo.run(scripted(*game_replies()), tmp_path / "game", write=lambda line: None)
    assert script_errors(tmp_path / "game" / "index.html", tmp_path / "profile") == []


@needs_chromium
def test_the_browser_check_catches_a_broken_game(tmp_path: Path) -> None:
    broken = GAME.replace("ctx.clearRect", "ctx.clearRectangle")  # fails in the game loop
    demo.run(scripted(*game_replies(broken)), tmp_path / "game", write=lambda line: None)
    errors = script_errors(tmp_path / "game" / "index.html", tmp_path / "profile")
    assert errors and "clearRectangle is not a function" in errors[0]


def ending_at_once(game: str) -> str:
    """`game` started at the wall, with a game over that alerts and reloads: it ends at once, forever."""
    return game.replace(
        "clearInterval(timer); return;", 'alert("Game over"); location.reload(); return;'
    ).replace("let snake = [{x: 5, y: 5}]", "let snake = [{x: 19, y: 5}]")


@needs_chromium
def test_the_browser_check_survives_a_game_that_reloads_forever(tmp_path: Path) -> None:
    looping = ending_at_once(GAME)
    broken = looping.replace("function step() {", "function step() {\n  ctx.fillStyle = red;")
    for game, expected in ((looping, []), (broken, ["red is not defined"])):
        folder = tmp_path / str(len(expected))
        demo.run(scripted(*game_replies(game)), folder, write=lambda line: None)
        errors = script_errors(folder / "index.html", tmp_path / "profile", wait=5.0)
        assert [error.split("ReferenceError: ")[1][:18] for error in errors[:1]] == expected


@needs_chromium
def test_the_bench_counts_a_game_that_ends_at_once_as_a_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "bench"))  # it imports `page_check` beside it
    bench = load_script("bench/coding_demo.py")
    for game, works in ((GAME, True), (ending_at_once(GAME), False)):
        folder = tmp_path / f"works-{works}" / "workspace"
        demo.run(scripted(*game_replies(game)), folder, write=lambda line: None)
        row = bench.check(demo, folder, wait=5.0)
        assert (row["page_errors"], row["page_stopped"], row["success"]) == ([], not works, works)


# -- 3. End to end -----------------------------------------------------------------------------


@pytest.mark.e2e
def test_the_demo_on_the_local_model(tmp_path: Path) -> None:
    """The demo as a learner runs it; every approval prompt is answered "n"."""
    command = [sys.executable, str(ROOT / "demos/coding_agent.py"), "--workspace", str(tmp_path)]
    if shutil.which("flock"):
        command = ["flock", MODEL_LOCK, *command]  # one local-model run at a time on this machine
    result = subprocess.run(
        command, input="n\n" * 20, capture_output=True, text=True, cwd=ROOT, timeout=3600
    )
    assert result.returncode == 0, result.stderr[-3000:]
    transcript = result.stdout
    assert "Action: write_file" in transcript
    assert "\n--> " in transcript  # the run ended with a result
    written = [name for name in demo.FILES if (tmp_path / name).is_file()]
    assert written == list(demo.FILES), transcript[-3000:]
    if CHROMIUM is not None:
        errors = script_errors(tmp_path / "index.html", tmp_path / "profile")
        assert errors == [], "\n".join(errors)
