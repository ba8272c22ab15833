"""Why Thought matters: the same loop and questions, with Thought and with Action first.

Both conditions are our `CustomReActAgent` with the same tools, step limit and loop; only the
prompt differs. "Action first" uses `custom_react/prompts/react_action_first_<language>.txt`: the
format without its Thought line, an example without Thought, and no `Thought: ` cue, so every
reply should start with `Action:` or `Final Answer:`. Writes
`bench/results/experiments/thought_ablation.{json,md,svg}`.

    flock /tmp/custom-react-model.lock python bench/experiments/thought_ablation.py
"""

from pathlib import Path

from custom_react.experiments import Experiment, action_first_runner, react_runner
from custom_react.experiments.main import main

ROOT = Path(__file__).resolve().parents[2]
EXPERIMENT = Experiment(
    name="thought_ablation",
    title="Why Thought matters: ReAct with Thought and with Action first",
    questions=ROOT / "questions" / "experiments" / "lookup_compute.jsonl",
    conditions={
        "ReAct (Thought, Action)": react_runner(),
        "Action first (no Thought)": action_first_runner(),
    },
    descriptions={
        "ReAct (Thought, Action)": "our agent as it ships: each step is Thought, Action, Action Input.",
        "Action first (no Thought)": "the same loop; the prompt, its example and its cue leave Thought out.",
    },
)

if __name__ == "__main__":
    main(EXPERIMENT)
