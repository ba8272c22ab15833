"""Which chat format gives `create_agent` native tool calls on the bundled model? Measured.

Starts the local server once per chat format and runs LangChain 1.x `create_agent` (the harness's
runner, no probe) on the same questions with the same tools and step limit:

- `model template`: llama-cpp-python's default, the GGUF's own Jinja template (how the server
  ran before): the model writes its calls as text;
- `chatml-function-calling`: llama-cpp-python's tool-calling format for ChatML models, as it comes;
- `custom-react-tools`: the same format with its three gaps closed
  (`custom_react.serving.chat_format`), what the local server now starts with.

Writes `bench/results/tool_calling_formats.md` and `.json` (every run with its transcript).

    flock /tmp/custom-react-model.lock python bench/tool_calling_formats.py
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict
from pathlib import Path

from custom_react.compare import RunRecord, load_questions, run_comparison
from custom_react.serving.chat_format import TOOL_CHAT_FORMAT
from custom_react.serving.server import LocalModelServer
from custom_react.serving.weights import ensure_model_file
from tools import default_tools

ROOT = Path(__file__).resolve().parents[1]
FORMATS = {"model template": None, "chatml-function-calling": "chatml-function-calling"}
FORMATS[TOOL_CHAT_FORMAT] = TOOL_CHAT_FORMAT


def main() -> None:
    """Run `create_agent` under each chat format; print and save the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", default=str(ROOT / "questions" / "default.jsonl"))
    parser.add_argument("--max-iterations", type=int, default=8)
    parser.add_argument("--out", default=str(ROOT / "bench" / "results"))
    parser.add_argument("--render", action="store_true", help="only rewrite the .md from the .json")
    args = parser.parse_args()
    questions = load_questions(args.questions)
    out = Path(args.out)
    if args.render:
        saved = json.loads((out / "tool_calling_formats.json").read_text(encoding="utf-8"))
        runs = {label: [RunRecord(**run) for run in records] for label, records in saved.items()}
        (out / "tool_calling_formats.md").write_text(render(runs, len(questions)), encoding="utf-8")
        return
    results: dict[str, list[RunRecord]] = {}
    for label, chat_format in FORMATS.items():
        with LocalModelServer(ensure_model_file(), chat_format=chat_format) as server:
            report = run_comparison(
                questions,
                server.chat_model(),
                default_tools,
                agents=("create_agent",),
                max_iterations=args.max_iterations,
                probe_tool_calling=False,
                on_record=lambda record, label=label: print(label, one_line(record), flush=True),
            )
        results[label] = report.records
    table = render(results, len(questions))
    print(table)
    (out / "tool_calling_formats.md").write_text(table, encoding="utf-8")
    runs = {label: [asdict(record) for record in records] for label, records in results.items()}
    (out / "tool_calling_formats.json").write_text(
        json.dumps(runs, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )


def one_line(record: RunRecord) -> str:
    """A progress line for one run."""
    answer = " ".join(record.answer.split())[:60]
    return (
        f"{record.question_id:<18} correct={record.correct} calls={record.model_calls} {answer!r}"
    )


def render(results: dict[str, list[RunRecord]], asked: int) -> str:
    """The Markdown report: one row per chat format."""
    rows = [
        "| chat format | solved | answered (not empty) | runs with a tool call | model calls | "
        "tool calls | crashed | time |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for label, records in results.items():
        solved = sum(bool(record.correct) for record in records)
        answered = sum(bool(record.answer.strip()) for record in records)
        with_call = sum(record.tool_calls > 0 for record in records)
        calls = sum(record.model_calls for record in records)
        tool_calls = sum(record.tool_calls for record in records)
        seconds = sum(record.wall_time for record in records)
        crashed = sorted({(record.error or "").split(":")[0] for record in records} - {""})
        crashes = sum(record.error is not None for record in records)
        rows.append(
            f"| `{label}` | {solved}/{asked} | {answered}/{asked} | {with_call}/{asked} | "
            f"{calls} | {tool_calls} | {crashes} {' '.join(crashed)} | {seconds:.0f} s |"
        )
    date = time.strftime("%Y-%m-%d")
    return (
        "# Native tool calls from the bundled model: which chat format\n\n"
        f"LangChain 1.x `create_agent` on `questions/default.jsonl`, qwen2.5-coder-1.5b, {date}, "
        "temperature 0, `max_iterations` 8.\n"
        "Command: `flock /tmp/custom-react-model.lock python bench/tool_calling_formats.py`\n\n"
        + "\n".join(rows)
        + "\n\n"
        + ROWS_EXPLAINED
    )


ROWS_EXPLAINED = """What each row is:

- `model template`: llama-cpp-python's default, the GGUF's own Jinja template (how the local
  server ran before). The model writes its call as text (a JSON block), the server returns it as
  the message, so `create_agent` takes it for the answer: one model call, no tool run.
- `chatml-function-calling`: llama-cpp-python's tool-calling format as it comes. It reads the
  tools only when the request names `tool_choice`, which LangChain's `bind_tools` (like OpenAI's
  default, "auto") does not send, so the model never sees them and answers from memory.
- `custom-react-tools`: the same format with its gaps closed (`custom_react/serving/chat_format.py`):
  `tool_choice` "auto" by default, tool results shown to the model, the answer written without
  the call grammar. Only this row gets real `tool_calls`: it is what the local server starts with.

The runs, with transcripts, are in `tool_calling_formats.json`. The first two rows' "solved" are
answers from the model's memory or head (the arithmetic), not from a tool. A `GraphRecursionError`
in the crashed column came from the harness, not the format: its recursion limit (2 graph steps
a model call) was too tight for `create_agent` with a model-call limit (4 steps a call); it now
allows 5 (`custom_react/compare/runners/create_agent.py`), and `custom-react compare` ran after that.
"""


if __name__ == "__main__":
    main()
