"""The three defences against an endless loop, each switched off in turn, measured.

Our agent has a step limit (`max_iterations`, also the cost limit: each step is one model call),
a final-answer check (the parser ends the run when a reply holds a Final Answer) and a
repeated-action guard (`repeated_action="warn"`: the same tool with the same input is answered
with the earlier observation instead of being run again). Each condition turns one off: no step
limit (capped at 12 calls so the experiment ends), a loop that never accepts a Final Answer (a
reply without an action is a format error), and repeated actions run again. Writes
`bench/results/experiments/loop_defences.{json,md,svg}`.

    flock /tmp/custom-react-model.lock python bench/experiments/loop_defences.py
"""

from pathlib import Path

from custom_react.experiments import Experiment, react_runner
from custom_react.experiments.conditions import no_final_answer_check_runner, step_limit_runner
from custom_react.experiments.main import main

ROOT = Path(__file__).resolve().parents[2]
SAFETY_CAP = 12
"""The experiment's own ceiling for the run without a step limit."""
EXPERIMENT = Experiment(
    name="loop_defences",
    title="The loop defences: what each one prevents and what it costs",
    questions=ROOT / "questions" / "experiments" / "loop_defences.jsonl",
    conditions={
        "all three defences": react_runner(),
        "no step limit": step_limit_runner(SAFETY_CAP),
        "no final-answer check": no_final_answer_check_runner(),
        "no repeated-action guard": react_runner(repeated_action="allow"),
    },
    descriptions={
        "all three defences": "our agent as it ships (step limit 5, final-answer check, repeated-action guard).",
        "no step limit": f"max_iterations off (the experiment still stops a run at {SAFETY_CAP} calls).",
        "no final-answer check": "a Final Answer is not taken as the end: the reply gets a format error.",
        "no repeated-action guard": 'repeated_action="allow": a repeated call is run again.',
    },
    max_iterations=5,
)

if __name__ == "__main__":
    main(EXPERIMENT)
