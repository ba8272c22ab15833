"""ReAct vs Plan-and-Execute on questions that need two look-ups and a computation.

Three designs on the same model, tools and questions: our ReAct agent; Plan-and-Execute whose
replanner runs after every step (`replan="always"`, LangChain's plan-and-execute); and
Plan-and-Execute whose replanner runs only when a step fails (`replan="on_failure"`: a plan that
goes well costs no replanning calls; a failed step is repaired by inserting or replacing steps).
Each plan step is carried out by our ReAct agent. Writes
`bench/results/experiments/react_vs_plan.{json,md,svg}`.

    flock /tmp/custom-react-model.lock python bench/experiments/react_vs_plan.py
"""

from pathlib import Path

from custom_react.experiments import Experiment, plan_runner, react_runner
from custom_react.experiments.main import main

ROOT = Path(__file__).resolve().parents[2]
EXPERIMENT = Experiment(
    name="react_vs_plan",
    title="ReAct vs Plan-and-Execute, measured",
    questions=ROOT / "questions" / "experiments" / "multi_step.jsonl",
    conditions={
        "ReAct": react_runner(),
        "Plan-and-Execute, replan always": plan_runner("always"),
        "Plan-and-Execute, replan on failure": plan_runner("on_failure"),
    },
    descriptions={
        "ReAct": "our agent as it ships: one loop of Thought, Action, Observation.",
        "Plan-and-Execute, replan always": "a planner writes the steps; ReAct does each; the replanner reads every result.",
        "Plan-and-Execute, replan on failure": "the same, but the replanner is called only when a step fails.",
    },
    max_iterations=4,
)

if __name__ == "__main__":
    main(EXPERIMENT)
