"""Measure how often the coding demo (`demos/coding_agent.py`) builds a working page.

Runs the demo `--runs` times on the configured model (by default the bundled local model, one
server for all runs), each in a fresh workspace under `runs/coding_bench/`, refusing every terminal
command as a user answering "n" would. A run succeeds when the three files exist and the page loads
in headless Chromium without a script error and keeps running (`bench/page_check.py`): a game
that ends at once, with an `alert()` and a reload forever, is not a working page. Prints one line
per run and the rate, and saves every run to `bench/results/coding_demo.json`.

Run from the repository root (the lock keeps one local-model run at a time on a shared machine):

    flock /tmp/custom-react-model.lock python bench/coding_demo.py --runs 5
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from page_check import CHROMIUM, load_page  # bench/page_check.py, beside this script

from custom_react.serving.models import ModelSettings, describe, open_chat_model

ROOT = Path(__file__).resolve().parents[1]


def load_demo() -> ModuleType:
    """Import `demos/coding_agent.py` (demos are scripts, not a package)."""
    spec = importlib.util.spec_from_file_location("coding_agent", ROOT / "demos/coding_agent.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check(demo: ModuleType, workspace: Path, wait: float = 30.0) -> dict[str, Any]:
    """What one run left behind: the files, and when Chromium exists, the page's script errors and
    whether it kept the browser busy past `wait` seconds (`page_stopped`: it alerts and reloads)."""
    files = {
        name: (workspace / name).stat().st_size
        for name in demo.FILES
        if (workspace / name).is_file()
    }
    row: dict[str, Any] = {"files": files, "page_errors": None, "page_stopped": None}
    complete = len(files) == len(demo.FILES)
    if complete and CHROMIUM is not None:
        load = load_page(workspace / "index.html", workspace.parent / "profile", wait)
        row["page_errors"], row["page_stopped"] = load.errors, load.stopped
    row["success"] = complete and row["page_errors"] == [] and row["page_stopped"] is False
    return row


def main() -> None:
    """Run the demo several times, print each run and the success rate, save the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--format", choices=["xml", "json", "text"], default="xml")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "coding_demo.json")
    args = parser.parse_args()
    demo, folder = load_demo(), ROOT / "runs" / "coding_bench"
    shutil.rmtree(folder, ignore_errors=True)
    settings, rows = ModelSettings.from_env(), []
    with open_chat_model(settings, max_tokens=1500) as llm:
        for number in range(1, args.runs + 1):
            workspace, started = folder / f"run{number}", time.perf_counter()
            result = demo.run(
                llm,
                workspace,
                format=args.format,
                approve=lambda name, _: False,
                write=lambda _: None,
            )
            row = {"run": number, "wall_time": round(time.perf_counter() - started, 1)}
            row |= {"model_calls": result.iterations, "stop_reason": result.stop_reason}
            row |= check(demo, workspace)
            rows.append(row)
            print(json.dumps(row), flush=True)
    successes = sum(row["success"] for row in rows)
    print(
        f"\n{successes}/{len(rows)} runs wrote the three files, and the page loaded without a"
        " script error and kept running"
    )
    summary = {"model": describe(settings), "format": args.format, "chromium": CHROMIUM is not None}
    summary |= {
        "successes": successes,
        "runs": rows,
        "command": "flock /tmp/custom-react-model.lock python bench/coding_demo.py",
    }
    args.out.write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
