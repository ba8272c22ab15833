"""A small MCP server for the video-ad demo: stock materials, ad scripts and a render you poll.

Written with FastMCP (from the `mcp` package) and spoken to over stdio. Everything is simulated,
offline and deterministic:

- `search_materials(product)`: stock clips, images and a slogan for the product.
- `write_script(product, seconds)`: a scene-by-scene ad script; returns its id (`script-1`).
- `start_render(script_id)`: starts rendering the script; returns a task id (`render-1`) at once.
- `render_status(task_id)`: "queued", then "rendering 50%", ..., and only on a later call
  "done: <link>"; a render needs `--polls` status calls (default 3).
- `preview_frame(task_id)`: one frame of the render, as text plus an image (MCP image content).

An unknown script or task id is an MCP tool error (`isError`), with a message that names the known
ids. The state (scripts, renders and how often each was polled) lives in `state.json` in the folder
given by `--state-dir` or `VIDEO_STUDIO_STATE` (default: a `video_studio` folder in the system's
temporary folder), not in memory: a client that opens a new session for every call (what
`custom_react.integrations.mcp` does) still sees the render move on.

Run it the way an MCP client does:  python demos/servers/video_studio.py --state-dir runs/studio
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

from mcp.server.fastmcp import FastMCP, Image

server = FastMCP("video-studio", log_level="WARNING")  # stdout is the protocol: no chatter
STATE = {
    "dir": Path(os.environ.get("VIDEO_STUDIO_STATE", Path(tempfile.gettempdir()) / "video_studio"))
}
POLLS = {"needed": 3}
LINK = "https://videos.example.com/{task_id}.mp4"
# A 1x1 orange PNG: the "frame" of a render.
FRAME = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4v4ABAAQkAZHyLD2VAAAAAElFTkSuQmCC"
)


def load_state() -> dict[str, Any]:
    path = STATE["dir"] / "state.json"
    if not path.is_file():
        return {"scripts": {}, "renders": {}}
    return json.loads(path.read_text(encoding="utf-8"))


def save_state(state: dict[str, Any]) -> None:
    STATE["dir"].mkdir(parents=True, exist_ok=True)
    path = STATE["dir"] / "state.json"
    path.write_text(json.dumps(state, indent=2, ensure_ascii=False), encoding="utf-8")


def clean_id(text: str) -> str:
    """`render-1` out of what a small model writes: `"render-1"`, `task id render-1`, `Render-1.`."""
    found = re.search(r"(script|render)-\d+", text.lower())
    return found.group(0) if found else text.strip().strip("\"'`.")


@server.tool()
def search_materials(product: str) -> str:
    """Find stock video clips, images and a slogan for a product's ad. Input: the product, e.g. sunscreen."""
    name = product.strip() or "the product"
    return (
        f"Materials for {name}: clip beach_sunrise.mp4, clip applying_{name.replace(' ', '_')}.mp4, "
        f'image {name.replace(" ", "_")}_bottle.png, slogan "All-day sun, zero worries." '
        "Next: write the script with write_script."
    )


@server.tool()
def write_script(product: str, seconds: int = 30) -> str:
    """Write a scene-by-scene video ad script for a product and save it. Returns the script id."""
    state = load_state()
    script_id = f"script-{len(state['scripts']) + 1}"
    third = max(1, seconds // 3)
    scenes = [
        f"0-{third} s: beach_sunrise.mp4, text '{product}: made for the sun'",
        f"{third}-{2 * third} s: applying the {product}, voice-over 'light, non-greasy, SPF 50'",
        f"{2 * third}-{seconds} s: the bottle on white, slogan 'All-day sun, zero worries.', buy now",
    ]
    state["scripts"][script_id] = {"product": product, "seconds": seconds, "scenes": scenes}
    save_state(state)
    return (
        f"Script {script_id} is written: {seconds} s, {len(scenes)} scenes. "
        f"Next: start the render with start_render and script_id {script_id}."
    )


@server.tool()
def start_render(script_id: str) -> str:
    """Start rendering the video of a script. Returns a task id at once; the video is not ready yet."""
    state = load_state()
    script = clean_id(script_id)
    if script not in state["scripts"]:
        known = ", ".join(state["scripts"]) or "none yet (use write_script first)"
        raise ValueError(f"There is no script {script_id!r}. Known scripts: {known}.")
    task_id = f"render-{len(state['renders']) + 1}"
    state["renders"][task_id] = {"script_id": script, "polls": 0}
    save_state(state)
    return (
        f"Render started: task id {task_id}. It takes a while: "
        f"check it with render_status and task_id {task_id} until it says done."
    )


@server.tool(meta={"repeatable": True})
def render_status(task_id: str) -> str:
    """Check a render task: queued, rendering with its progress, or done with the video link."""
    state = load_state()
    task = clean_id(task_id)
    if task not in state["renders"]:
        known = ", ".join(state["renders"]) or "none yet (use start_render first)"
        raise ValueError(f"There is no render task {task_id!r}. Known tasks: {known}.")
    render = state["renders"][task]
    render["polls"] += 1
    save_state(state)
    needed = POLLS["needed"]
    if render["polls"] >= needed:
        return f"done: {LINK.format(task_id=task)}"
    if render["polls"] == 1:
        return f"queued. Not done yet: call render_status again with task_id {task}."
    percent = round(100 * (render["polls"] - 1) / (needed - 1))
    return f"rendering {percent}%. Not done yet: call render_status again with task_id {task}."


@server.tool(structured_output=False)  # text and an image, no JSON schema
def preview_frame(task_id: str) -> list[Any]:
    """Show one frame of a render task, as an image."""
    task = clean_id(task_id)
    if task not in load_state()["renders"]:
        raise ValueError(f"There is no render task {task_id!r}.")
    return [f"Frame 1 of {task}:", Image(data=FRAME, format="png")]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--state-dir", type=Path, default=STATE["dir"])
    parser.add_argument(
        "--polls", type=int, default=POLLS["needed"], help="status calls a render needs"
    )
    options = parser.parse_args(argv)
    STATE["dir"], POLLS["needed"] = options.state_dir, max(1, options.polls)
    server.run("stdio")


if __name__ == "__main__":
    main()
