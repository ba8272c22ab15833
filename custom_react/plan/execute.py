"""Carry out one plan step with the executor: its ReAct events in, one `StepResult` out.

`execute_step` runs the `CustomReActAgent` on the plan's next step inside the plan-and-execute
loop. Its task (`next_task`, written by `prompt.step_task`) holds the results so far, or only
those of the steps it depends on (`Plan.depends_on`). It passes the executor's step events on,
turns its end into a `StepResult` (`step_outcome`: a final answer is `ok`, a limit is `stopped`,
a raised exception is `error`) and records the step in the run's memory. The executor is this
loop's tool, so its failure is a result, never the run's end. What comes after the step is the
loop's business.
"""

from __future__ import annotations

import textwrap
from collections.abc import Generator
from typing import Any

from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import patch_config

from custom_react.agent import CustomReActAgent
from custom_react.events import (
    AgentResult,
    RunFinished,
)
from custom_react.plan.events import PlanRunEvent, StepResult, StepStarted, StepStatus
from custom_react.plan.memory import PlanRun
from custom_react.plan.prompt import step_input, step_task
from custom_react.plan.schema import Plan
from custom_react.prompts import message
from custom_react.running.calls import Call, next_event


def execute_step(
    executor: CustomReActAgent,
    plan: Plan,
    done: int,
    run: PlanRun,
    language: str,
    config: RunnableConfig,
    stream_tokens: bool = False,
    resume: dict[str, Any] | None = None,
) -> Generator[PlanRunEvent | Call[Any], Any, StepStatus]:
    """Run the executor on `plan.steps[done]`: `StepStarted`, the executor's events, `StepResult`.

    `done` steps of the plan are done; the step is added to `run`'s past steps. With
    `stream_tokens` the executor's replies come as `ReplyToken`s too. When the executor pauses
    for a person's approval, the step is not done: its paused run is kept in `run.waiting`, and
    `resume` (`{"resume": state, "decision": ...}`) carries the step on with the decision.

    Returns:
        The step's status: `ok`, `stopped`, `error` or `paused`.
    """
    step = plan.steps[done]
    number = len(run.past_steps) + 1
    task = next_task(plan, done, run, language)
    yield StepStarted(number, step, task)
    result: AgentResult | None = None
    status: StepStatus = "ok"
    # The executor's events, one at a time: `stream` under `invoke`, `astream` under `ainvoke`.
    asked: Any = resume or step_input(task, run.chat_history)  # a paused step: from its state
    # A step is the executor's own run, not a turn of the user's conversation (the thread).
    config = patch_config(config, configurable={"thread_id": None})
    events = executor.stream(asked, config, stream_tokens=stream_tokens)
    aevents = executor.astream(asked, config, stream_tokens=stream_tokens)
    step_events = next_event(events, aevents)
    try:
        while (event := (yield step_events)) is not None:
            if isinstance(event, RunFinished):
                result = event.result  # the step's end, not the run's: it becomes StepResult
            else:
                yield event
    except Exception as error:  # the executor is this loop's tool: its failure is a result
        text = message("step_failed", language, error=f"{type(error).__name__}: {error}")
        status = "error"
    else:
        if result is not None and result.stop_reason == "needs_approval":
            run.waiting = result  # the step waits for a person: the plan run pauses with it
            return "paused"
        text, status = step_outcome(result, language)
    run.add_step(step, text, result)
    yield StepResult(number, step, text, status)
    return status


def next_task(plan: Plan, done: int, run: PlanRun, language: str) -> str:
    """The executor's task for `plan.steps[done]`: every result so far, or the ones it needs."""
    # Dependencies are numbered in the step's plan, whose first step is the run's step `first`.
    first = len(run.past_steps) + 1 - done
    needs = [first + dependency - 1 for dependency in plan.depends_on[done]]
    return step_task(plan.steps[done], run.question, run.past_steps, language, needs)


def step_outcome(result: AgentResult | None, language: str = "en") -> tuple[str, StepStatus]:
    """The text the replanner reads for one executor run, and whether the step finished."""
    if result is None:
        raise RuntimeError("The executor's stream ended without a RunFinished event.")
    if result.stop_reason == "final_answer":
        return result.output, "ok"
    text = message("step_stopped", language, output=result.output, stop_reason=result.stop_reason)
    if result.intermediate_steps:
        last = textwrap.shorten(result.intermediate_steps[-1][1], 500)
        text += message("step_last_observation", language, observation=last)
    return text, "stopped"
