"""How long a new user waits for the first answer: the README's first command on a fresh clone.

Clones the repository (its committed HEAD) into a temporary folder, points every cache a new
machine would not have at empty temporary folders (`HOME`, `XDG_CACHE_HOME`, `PIP_CACHE_DIR`, and
no virtual environment or API key from this shell), reads the first command of the README's
"Start here" block out of the clone's README.md and runs it there with `bash`, as written. The wall
time runs from the command's start to its exit; the answer must be right (exit 0, a Final Answer
with 310, the answer to the README's question). Every output line is kept with its time, so the
report also says when the install ended and the question began (the `model:` line of `custom-react
ask`). Writes `bench/results/first_answer.md` and `.json`.

Run from the repository root, one local-model job at a time on a shared machine:

    flock /tmp/custom-react-model.lock python bench/first_answer.py
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]
BUDGET_SECONDS = 180.0
EXPECTED = "310"  # 12.5% of 2480, the README's question
ASK_STARTED = "model: "  # the first line `custom-react ask` writes, before the server starts


def readme_first_command(readme: Path) -> str:
    """The first command line of the first bash block under "## Start here"."""
    text = readme.read_text(encoding="utf-8")
    section = text.split("## Start here", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, re.DOTALL)
    if block is None:
        raise SystemExit("README.md has no ```bash block under '## Start here'")
    lines = [line.strip() for line in block.group(1).splitlines()]
    return next(line for line in lines if line and not line.startswith("#"))


def fresh_environment(scratch: Path) -> dict[str, str]:
    """This shell's environment as a new machine's: empty caches, no venv, no keys."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.endswith(("_API_KEY", "_BASE_URL"))
        and key not in {"VIRTUAL_ENV", "CUSTOM_REACT_CACHE", "CUSTOM_REACT_MODEL", "PYTHONPATH"}
    }
    venv_bin = str(Path(sys.prefix) / "bin") if sys.prefix != sys.base_prefix else None
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if p != venv_bin)
    for name, folder in (("HOME", "home"), ("XDG_CACHE_HOME", "cache"), ("PIP_CACHE_DIR", "pip")):
        (scratch / folder).mkdir()
        env[name] = str(scratch / folder)
    return env


def keep_lines(stream: IO[str], name: str, started: float, lines: list[dict[str, Any]]) -> None:
    """Append each line of ``stream`` to ``lines`` with its time since ``started``."""
    for line in stream:
        lines.append({"t": round(time.monotonic() - started, 2), "stream": name, "line": line})


def run_first_command(command: str, clone: Path, env: dict[str, str]) -> dict[str, Any]:
    """Run ``command`` in ``clone`` with ``bash``; return its exit code, time and timed lines."""
    lines: list[dict[str, Any]] = []
    started = time.monotonic()
    process = subprocess.Popen(
        ["bash", "-c", command],
        cwd=clone,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stderr is not None
    readers = [
        threading.Thread(target=keep_lines, args=(stream, name, started, lines))
        for stream, name in ((process.stdout, "stdout"), (process.stderr, "stderr"))
    ]
    for reader in readers:
        reader.start()
    code = process.wait()
    for reader in readers:
        reader.join()
    seconds = time.monotonic() - started
    lines.sort(key=lambda entry: entry["t"])
    return {"exit_code": code, "seconds": round(seconds, 1), "lines": lines}


def verdict(run: dict[str, Any]) -> dict[str, Any]:
    """Whether the run answered correctly, and when the question began."""
    stdout = "".join(entry["line"] for entry in run["lines"] if entry["stream"] == "stdout")
    answer = stdout.split("Final Answer:")[-1] if "Final Answer:" in stdout else ""
    ask = [entry["t"] for entry in run["lines"] if entry["line"].startswith(ASK_STARTED)]
    correct = run["exit_code"] == 0 and EXPECTED in answer.replace(",", "")
    return {
        "correct": correct,
        "answer": " ".join(answer.split())[:200],
        "install_seconds": ask[0] if ask else None,
        "ask_seconds": round(run["seconds"] - ask[0], 1) if ask else None,
        "within_budget": correct and run["seconds"] <= BUDGET_SECONDS,
    }


def machine() -> dict[str, Any]:
    """The CPU count and model, and the load when the run started."""
    cpu = next(
        (line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
         if line.startswith("model name")),
        platform.processor(),
    )  # fmt: skip
    return {"cpus": os.cpu_count(), "cpu": cpu, "load_average_1m": os.getloadavg()[0]}


def render(result: dict[str, Any]) -> str:
    """The Markdown report."""
    run, check = result["run"], result["verdict"]
    tail = "".join(entry["line"] for entry in run["lines"][-12:]).rstrip()
    return f"""# The first answer on a fresh machine

The README's first command, read from README.md and run as written in a fresh clone with empty
caches (`HOME`, `XDG_CACHE_HOME`, `PIP_CACHE_DIR` new and empty, no virtual environment, no API
key). Budget: {BUDGET_SECONDS:.0f} s to a correct answer.

| | |
| --- | --- |
| date | {result["date"]} |
| commit | `{result["commit"]}` |
| machine | {result["machine"]["cpus"]} CPUs ({result["machine"]["cpu"]}), 1-minute load {result["machine"]["load_average_1m"]:.2f} at the start |
| command | `{result["command"]}` |
| **wall time, start to exit** | **{run["seconds"]:.1f} s** (exit code {run["exit_code"]}) |
| install (to the `model:` line of `custom-react ask`) | {check["install_seconds"]} s |
| the question (model assembly, server start, the agent's run) | {check["ask_seconds"]} s |
| correct answer ({EXPECTED}) | {"yes" if check["correct"] else "no"}: {check["answer"]!r} |
| within {BUDGET_SECONDS:.0f} s | {"yes" if check["within_budget"] else "**no**"} |

Command: `flock /tmp/custom-react-model.lock python bench/first_answer.py` (every output line with
its time is in `first_answer.json`). The output's last lines:

```
{tail}
```
"""


def main() -> None:
    """Clone, run the README's first command with empty caches, check and save the result."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", default=str(ROOT), help="what to clone (default: this checkout)")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="custom-react-first-answer-"))
    try:
        clone = scratch / "custom-react"
        subprocess.run(["git", "clone", "--quiet", args.repo, str(clone)], check=True)
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=clone, capture_output=True, text=True
        ).stdout.strip()
        command = readme_first_command(clone / "README.md")
        env, started_at = fresh_environment(scratch), time.strftime("%Y-%m-%d %H:%M %z")
        info = machine()
        run = run_first_command(command, clone, env)
    finally:
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)
    result = {
        **{"date": started_at, "commit": commit, "machine": info, "command": command},
        **{"run": run, "verdict": verdict(run)},
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "first_answer.md").write_text(render(result), encoding="utf-8")
    (args.out / "first_answer.json").write_text(
        json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    print(render(result))
    if not result["verdict"]["within_budget"]:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
