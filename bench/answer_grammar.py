"""Does constraining only the Final Answer to the schema help the small models? Measured, not assumed.

`response_format=` states the schema in the prompt and validates the answer (an invalid one goes
back to the model). The bundled server can also constrain decoding with a grammar. Here the
grammar leaves the Thought and the Action free and forces a Final Answer to be JSON that fits the
schema (`{"answer": number}`): `llguidance` syntax, with the schema compiled by the server itself.
Every numeric question of the solve-rate tune split is asked twice per model, without and with
the grammar, by our agent with `response_format` (same tools, limit and temperature 0).

    flock /tmp/custom-react-model.lock python bench/answer_grammar.py
    flock /tmp/custom-react-model.lock python bench/answer_grammar.py --only-language zh

The second re-runs only the Chinese questions and keeps the saved English runs: after a change to
the Chinese prompt, what `scripts/make_docs_assets.py --check` names. Writes
`bench/results/answer_grammar.json` and `.md`: solved (the structured answer within 2% of the
expected number), runs ending with an answer, format errors and model calls per setting.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from custom_react import CustomReActAgent, ParseFailure, RunFinished
from custom_react.compare.runners.fingerprint import agent_fingerprints, fingerprint_with
from custom_react.serving.server import LocalModelServer
from custom_react.serving.weights import ensure_model_file
from tools import default_tools

ROOT = Path(__file__).resolve().parents[1]
MODELS = ("qwen2.5-coder-1.5b", "qwen2.5-coder-0.5b")
KINDS = ("lookup-compute", "two-lookups", "arithmetic")


class Answer(BaseModel):
    """The answer to a question whose answer is a number."""

    answer: float


def grammar(schema: dict[str, Any]) -> str:
    """A Thought line, then an Action with its input, or a Final Answer that is `schema`'s JSON."""
    return "\n".join(
        [
            "%llguidance {}",
            'start: thought "\\n" (action | final)',
            "thought: /[^\\n]+/",
            'action: "Action: " /[^\\n]+/ "\\nAction Input: " /(.|\\n)*/',
            f'final: "Final Answer: " %json {json.dumps(schema)}',
        ]
    )


def questions() -> list[dict[str, Any]]:
    """The tune split's questions with a numeric answer, of the kinds that compute."""
    path = ROOT / "questions" / "solve_rate.jsonl"
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    items = [json.loads(line) for line in lines if not line.startswith("#")]
    return [
        item
        for item in items
        if item["split"] == "tune"
        and item["kind"] in KINDS
        and isinstance(item["expected"], int | float)
    ]


def run(server: LocalModelServer, item: dict[str, Any], constrained: bool) -> dict[str, Any]:
    """One question, one setting: what the run ended with."""
    extra = {"extra_body": {"grammar": grammar(Answer.model_json_schema())}} if constrained else {}
    language = item_language(item)
    agent = CustomReActAgent(
        server.chat_model(**extra),
        default_tools(),
        response_format=Answer,
        max_iterations=8,
        language=language,
    )
    events = list(agent.stream(item["question"]))
    last = events[-1]
    assert isinstance(last, RunFinished)
    value = last.result.structured_response
    expected = float(item["expected"])
    solved = value is not None and abs(value.answer - expected) <= abs(expected) * 0.02 + 1e-9
    return {
        "id": item["id"],
        "grammar": constrained,
        "solved": solved,
        "answered": value is not None,
        "format_errors": sum(isinstance(event, ParseFailure) for event in events),
        "model_calls": last.result.iterations,
        "output": last.result.output,
    }


def item_language(item: dict[str, Any]) -> str:
    """The prompt a question is asked with: Chinese for the `zh-` questions, else English."""
    return "zh" if item["id"].startswith("zh-") else "en"


def saved_runs(path: Path) -> dict[tuple[str, str, bool], dict[str, Any]]:
    """The saved report's runs by model, question and grammar setting."""
    records = json.loads(path.read_text(encoding="utf-8"))["records"]
    return {(r["model"], r["id"], r["grammar"]): r for r in records}


def table(records: list[dict[str, Any]]) -> str:
    lines = [
        "| model | grammar | solved | answered | format errors | model calls |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for model in dict.fromkeys(r["model"] for r in records):
        for constrained in (False, True):
            rows = [r for r in records if r["model"] == model and r["grammar"] == constrained]
            total = len(rows)
            solved = sum(r["solved"] for r in rows)
            answered = sum(r["answered"] for r in rows)
            errors = sum(r["format_errors"] for r in rows)
            calls = sum(r["model_calls"] for r in rows)
            shown = "on" if constrained else "off"
            lines.append(
                f"| {model} | {shown} | {solved}/{total} | {answered}/{total} | {errors} | {calls} |"
            )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "answer_grammar")
    parser.add_argument(
        "--only-language",
        choices=("en", "zh"),
        help="run only this language's questions again and keep the saved report's other runs "
        "(after a change to one language's prompt: `make_docs_assets.py --check` names it)",
    )
    args = parser.parse_args()
    kept = saved_runs(args.out.with_suffix(".json")) if args.only_language else {}
    records: list[dict[str, Any]] = []
    for model in args.models.split(","):
        with LocalModelServer(ensure_model_file(model)) as server:
            for item in questions():
                for constrained in (False, True):
                    if args.only_language and item_language(item) != args.only_language:
                        records.append(kept[(model, item["id"], constrained)])
                        continue
                    record = {"model": model, **run(server, item, constrained)}
                    print(json.dumps(record, ensure_ascii=False), file=sys.stderr, flush=True)
                    records.append(record)
    settings = {
        "command": "flock /tmp/custom-react-model.lock python bench/answer_grammar.py "
        + " ".join(sys.argv[1:]),
        "prompt_fingerprints": agent_fingerprints(
            [("custom", item_language(item)) for item in questions()],
            fingerprint_with(default_tools()),
        ),
        "grammar": grammar(Answer.model_json_schema()),
    }
    data = {"settings": settings, "records": records}
    args.out.with_suffix(".json").write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    text = f"# Final-answer grammar on the bundled models\n\n{table(records)}"
    args.out.with_suffix(".md").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
