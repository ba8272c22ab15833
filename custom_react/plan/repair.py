"""The repair replanner of `replan="on_failure"`: what it reads, and what its new plan changed.

Pure functions. With `replan="on_failure"` the plan runs on while its steps work; when one fails
(its status is `stopped` or `error`) the repair replanner (`custom_react/prompts/repair_<language>.txt`)
reads the question, the steps done with their results, the failed step with what went wrong, and
the steps still planned after it, and answers or writes the steps still to do. `repair_variables`
fills those in; `plan_repaired` compares its plan with the old one for the `PlanRepaired` event.
Asking the model and reading its reply are the loop's and `parser.py`'s jobs.
"""

from __future__ import annotations

from collections.abc import Sequence

from custom_react.plan.events import PlanRepaired
from custom_react.plan.prompt import render_past_steps, render_plan
from custom_react.plan.schema import Plan, step_key


def repair_variables(
    past_steps: Sequence[tuple[str, str]], planned: Sequence[str], language: str = "en"
) -> dict[str, str]:
    """The repair template's variables; the last past step is the one that failed.

    Args:
        past_steps: Every executed step with its result, the failed one last.
        planned: The steps that were still planned after the failed one.
        language: "en" or "zh", for the numbered lists.
    """
    failed_step, error = past_steps[-1]
    return {
        "past_steps": render_past_steps(past_steps[:-1], language),
        "failed_step": failed_step,
        "error": " ".join(error.split()),
        "plan": render_plan(planned, language),
    }


def finished_steps(past_steps: Sequence[tuple[str, str]]) -> list[str]:
    """The steps a repaired plan must not repeat: every past step but the failed (last) one."""
    failed_step = step_key(past_steps[-1][0])
    return [step for step, _ in past_steps if step_key(step) != failed_step]


def plan_repaired(failed_step: str, planned: Sequence[str], plan: Plan) -> PlanRepaired:
    """The event for a repaired plan: the new steps, and what they insert, replace and remove.

    Args:
        failed_step: The step that failed.
        planned: The steps that were still planned after it.
        plan: The repair replanner's plan.
    """
    new = {step_key(step) for step in plan.steps}
    old = {step_key(failed_step), *(step_key(step) for step in planned)}
    return PlanRepaired(
        plan.steps,
        plan.thought,
        plan.repeated,
        failed_step=failed_step,
        inserted=tuple(step for step in plan.steps if step_key(step) not in old),
        replaced=step_key(failed_step) not in new,
        removed=tuple(step for step in planned if step_key(step) not in new),
    )
