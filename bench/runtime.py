"""Time per ReAct step on the bundled local model, for one llama.cpp build and thread count.

Each start runs `LocalModelServer` (`--threads`) and asks `CustomReActAgent` with `default_tools()`
"What is 12.5% of N?", as `custom-react ask` does: time to first answer = server start + that run.
Each repeat then probes `/v1/completions` (a fresh ~300-token prompt, 1 new token: prompt tokens/s;
the same prompt, now cached, 32 new tokens: generation tokens/s) and asks again with a new N, cold
since the probe evicted the cached prompt. ReAct step = run wall time / model calls. Median, range.

Run from the repository root, one local-model job at a time on a shared machine:

    flock /tmp/custom-react-model.lock python bench/runtime.py --threads 2 --label native \
        --starts 2 --repeats 3 --json bench/results/runtime.json
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import xllamacpp
from langchain_core.callbacks import BaseCallbackHandler

from custom_react import CustomReActAgent
from tools import default_tools

try:  # custom_react/serving/ since the package was reorganised; custom_react/local*.py before
    from custom_react.serving.server import LocalModelServer
    from custom_react.serving.weights import ensure_model_file
except ModuleNotFoundError:
    from custom_react.local import LocalModelServer, ensure_model_file  # type: ignore[no-redef]

BASE_NUMBER, STEP_NUMBER = 2480, 40  # run i asks for 12.5% of BASE + i * STEP: never cached
NEW_TOKENS = 32  # generated tokens in the generation probe


class CallTimer(BaseCallbackHandler):
    """Records the wall time and token usage of every chat model call of a run."""

    def __init__(self) -> None:
        self.started: dict[Any, float] = {}
        self.calls: list[dict[str, Any]] = []

    def on_chat_model_start(self, serialized: Any, messages: Any, *, run_id: Any, **_: Any) -> None:
        self.started[run_id] = time.perf_counter()

    def on_llm_end(self, response: Any, *, run_id: Any, **_: Any) -> None:
        seconds = time.perf_counter() - self.started.pop(run_id)
        usage = getattr(response.generations[0][0].message, "usage_metadata", None) or {}
        self.calls.append({"seconds": seconds, **usage})


def react_run(llm: Any, index: int) -> dict[str, Any]:
    """Answer "What is 12.5% of N?" once; return wall time, calls and whether it was right."""
    number = BASE_NUMBER + index * STEP_NUMBER
    agent = CustomReActAgent(llm, default_tools(), examples=True, max_iterations=6)
    timer, question = CallTimer(), f"What is 12.5% of {number}?"
    started = time.perf_counter()
    result = agent.invoke(question, config={"callbacks": [timer]})
    seconds = time.perf_counter() - started
    found = [float(n) for n in re.findall(r"\d+(?:\.\d+)?", result["output"].replace(",", ""))]
    calls = result["iterations"]
    return {
        **{"seconds": seconds, "iterations": calls, "step_seconds": seconds / max(1, calls)},
        "correct": any(abs(n - number * 0.125) < 0.01 for n in found),
        "load_average_1m_after": os.getloadavg()[0],
        **{"question": question, "output": result["output"], "stop": result["stop_reason"]},
        "calls": timer.calls,
    }


def probe(url: str, index: int) -> dict[str, Any]:
    """Prompt-processing and generation tokens/s from two raw completions of a fresh prompt."""
    start = 1000 * (index + 1)  # a prompt the server has not seen: no cached prefix
    prompt = "Count on: " + ", ".join(str(n) for n in range(start, start + 48)) + ","
    seconds, usage = [], []
    with httpx.Client(trust_env=False, timeout=600.0) as client:
        for tokens in (1, NEW_TOKENS):  # the second time, the prompt is cached
            body = {"prompt": prompt, "max_tokens": tokens, "temperature": 0.0}
            started = time.perf_counter()
            response = client.post(f"{url}/completions", json=body).raise_for_status()
            seconds.append(time.perf_counter() - started)
            usage.append(response.json()["usage"])
    prompt_tokens, new_tokens = usage[0]["prompt_tokens"], usage[1]["completion_tokens"]
    return {
        "prompt_tokens": prompt_tokens,
        "prompt_tokens_per_s": prompt_tokens / seconds[0],
        "generated_tokens": new_tokens,
        "generation_tokens_per_s": new_tokens / seconds[1],
    }


def one_start(model: Path, server_kwargs: dict[str, Any], repeats: int, *, offset: int) -> dict:
    """Start a server, answer once cold, then `repeats` (probe, ReAct run) pairs; stop it."""
    load, when = os.getloadavg()[0], time.strftime("%Y-%m-%dT%H:%M:%S%z")
    started = time.perf_counter()
    with LocalModelServer(model, **server_kwargs) as server:
        start_seconds = time.perf_counter() - started
        llm = server.chat_model()
        first = react_run(llm, offset)
        runs, probes = [], []
        for repeat in range(1, repeats + 1):
            probes.append(probe(server.base_url, offset + repeat))
            runs.append(react_run(llm, offset + repeat))
    return {
        **{"started_at": when, "load_average_1m": load},
        "server_start_seconds": start_seconds,
        "first_answer_seconds": start_seconds + first["seconds"],
        "first_run": first,
        "runs": runs,
        "probes": probes,
    }


def spread(values: list[float]) -> dict[str, float]:
    """Median, min and max of `values`."""
    found = {"median": statistics.median(values), "min": min(values), "max": max(values)}
    return {name: round(value, 3) for name, value in found.items()}


def summarize(starts: list[dict[str, Any]]) -> dict[str, Any]:
    """The reported numbers over every start, run, call and probe of one configuration."""
    runs = [run for start in starts for run in start["runs"]]
    calls = [call for run in runs for call in run["calls"]]
    probes = [p for start in starts for p in start["probes"]]
    return {
        "server_start_s": spread([s["server_start_seconds"] for s in starts]),
        "time_to_first_answer_s": spread([s["first_answer_seconds"] for s in starts]),
        "run_s": spread([run["seconds"] for run in runs]),
        "react_step_s": spread([run["step_seconds"] for run in runs]),
        "model_call_s": spread([call["seconds"] for call in calls]),
        "call_output_tokens_per_s": spread([c["output_tokens"] / c["seconds"] for c in calls]),
        "generation_tokens_per_s": spread([p["generation_tokens_per_s"] for p in probes]),
        "prompt_tokens_per_s": spread([p["prompt_tokens_per_s"] for p in probes]),
        "model_calls_per_run": spread([run["iterations"] for run in runs]),
        "correct_runs": f"{sum(run['correct'] for run in runs)}/{len(runs)}",
    }


def server_options(threads: int | None, threads_batch: int | None) -> dict[str, Any]:
    """Keyword arguments for `LocalModelServer`; `n_threads_batch` only where it is accepted."""
    options: dict[str, Any] = {"n_threads": threads}
    if "n_threads_batch" in inspect.signature(LocalModelServer).parameters:
        options["n_threads_batch"] = threads_batch or threads
    return options


def runtime_info() -> dict[str, Any]:
    """The runtime's version, its module file and the CPU features it was built with."""
    info = xllamacpp.get_system_info().strip()
    return {"version": xllamacpp.__version__, "module": xllamacpp.__file__, "system_info": info}


def main() -> None:
    """Parse the arguments, measure one configuration, print its summary, optionally save it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=None, help="n_threads (default: project's)")
    parser.add_argument("--threads-batch", type=int, default=None, help="if the server takes it")
    parser.add_argument("--repeats", type=int, default=3, help="probe + ReAct runs per start")
    parser.add_argument("--starts", type=int, default=1, help="server starts")
    parser.add_argument("--label", default="runtime", help="build name, e.g. portable or native")
    parser.add_argument("--json", type=Path, default=None, help="combined results file to update")
    args = parser.parse_args()

    options, model = server_options(args.threads, args.threads_batch), ensure_model_file()
    threads = LocalModelServer(model, **options).n_threads
    batch = options.get("n_threads_batch", threads)
    key = f"{args.label} threads={threads}" + (f" batch={batch}" if batch != threads else "")
    path: Path | None = args.json  # one file for every configuration; a rerun adds its starts
    data = json.loads(path.read_text("utf-8")) if path and path.is_file() else {"configs": {}}
    earlier = data["configs"].get(key, {})
    starts = earlier.get("starts", [])
    for _ in range(args.starts):  # new question numbers for every start, also across reruns
        starts.append(one_start(model, options, args.repeats, offset=100 * len(starts)))
    data["configs"][key] = result = {
        **{"label": args.label, "n_threads": threads, "n_threads_batch": batch},
        "commands": [*earlier.get("commands", []), " ".join(["python", *sys.argv])],
        "runtime": runtime_info(),
        "summary": summarize(starts),
        "starts": starts,
    }
    print(f"{key}: {result['runtime']['system_info']}")
    for name, value in result["summary"].items():
        print(f"  {name:<24} {value}")
    if path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
