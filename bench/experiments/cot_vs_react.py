"""ReAct vs Chain-of-Thought: reasoning alone against reasoning that can look things up.

Chain-of-Thought is one model call with no tools: "think step by step, then write Final Answer:"
(`custom_react/prompts/cot_<language>.txt`). ReAct is our agent as it ships, with the search and
calculator tools. Every question needs one fact the model may or may not remember; "made-up
facts" counts wrong answers whose run never states the fact the search snapshot holds. Writes
`bench/results/experiments/cot_vs_react.{json,md,svg}`.

    flock /tmp/custom-react-model.lock python bench/experiments/cot_vs_react.py
"""

from pathlib import Path

from custom_react.experiments import Experiment, cot_runner, react_runner
from custom_react.experiments.main import main

ROOT = Path(__file__).resolve().parents[2]
EXPERIMENT = Experiment(
    name="cot_vs_react",
    title="ReAct vs Chain-of-Thought on look-up-and-compute questions",
    questions=ROOT / "questions" / "experiments" / "lookup_compute.jsonl",
    conditions={
        "Chain-of-Thought (no tools)": cot_runner,
        "ReAct (search, calculator)": react_runner(),
    },
    descriptions={
        "Chain-of-Thought (no tools)": "one call: think step by step, then Final Answer; no tools.",
        "ReAct (search, calculator)": "our agent as it ships, with the search and calculator tools.",
    },
)

if __name__ == "__main__":
    main(EXPERIMENT)
