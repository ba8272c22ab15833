"""The events a plan-and-execute run yields around its executor's ReAct events, and its result.

A closed set of small frozen dataclasses, named with the Plan-and-Solve / LangChain plan-and-execute
words (plan, step, past steps, replan, response), each with a `type` literal. A run yields
`PlanMade`, then for each step `StepStarted`, the executor's own ReAct step events
(`custom_react.events`, without the executor's `RunFinished`) and `StepResult`, then `Replanned`
or `FinalResponse`; with `replan="on_failure"` the next `StepStarted` after a step that worked,
and `PlanRepaired` (a `Replanned` that says what changed) after one that failed;
`PlanParseFailure` and `StepLimitReached` when things go wrong. The last event is always the
usual `RunFinished`, whose result is a `PlanResult`: an `AgentResult` that also holds the last
plan and the past steps. Printing and exporting them is somebody else's job.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from custom_react.events import (
    AgentEvent,
    AgentResult,
)

PlanStage = Literal["planner", "replanner", "repair"]
StepStatus = Literal["ok", "stopped", "error", "paused"]


@dataclass(frozen=True)
class PlanMade:
    """The planner wrote the first plan."""

    steps: tuple[str, ...]
    """The steps, first step first."""
    thought: str = ""
    """What the planner wrote before the list."""
    type: Literal["plan"] = "plan"


@dataclass(frozen=True)
class StepStarted:
    """The executor starts on the first step of the current plan."""

    number: int
    """Which step of the run this is (1-based)."""
    step: str
    """The step as the plan wrote it."""
    task: str
    """What the executor is asked: the step; after the first, the results so far come first."""
    type: Literal["step_started"] = "step_started"


@dataclass(frozen=True)
class StepResult:
    """The executor finished a step (or failed it); the result goes to the replanner.

    With `replan="on_failure"` only a failed step's result goes to the (repair) replanner.
    """

    number: int
    """Which step of the run this is (1-based)."""
    step: str
    """The step as the plan wrote it."""
    result: str
    """The executor's final answer, or what stopped it."""
    status: StepStatus = "ok"
    """`ok`: a final answer; `stopped`: a limit ended the step; `error`: the executor raised."""
    type: Literal["step_result"] = "step_result"


@dataclass(frozen=True)
class Replanned:
    """The replanner wrote the steps still to do."""

    steps: tuple[str, ...]
    """The new plan, first step first."""
    thought: str = ""
    """What the replanner wrote before the list."""
    repeated: tuple[str, ...] = ()
    """Steps the replanner wrote that were already done; the loop dropped them."""
    type: Literal["replan"] = "replan"


@dataclass(frozen=True, kw_only=True)
class PlanRepaired(Replanned):
    """After a failed step, the repair replanner wrote the steps still to do (`replan="on_failure"`).

    A `Replanned` (its `type` is `replan` too), so whatever shows a new plan shows a repair.
    """

    failed_step: str
    """The step that failed; it stays in the past steps with its result."""
    inserted: tuple[str, ...] = ()
    """New steps: neither the failed step nor a step that was still planned."""
    replaced: bool = True
    """The failed step is not in the new plan (new steps replace it, or it is dropped); False
    when the new plan tries it again."""
    removed: tuple[str, ...] = ()
    """Steps that were still planned and are not in the new plan."""


@dataclass(frozen=True)
class FinalResponse:
    """The run's response: the replanner's answer, or the last step's result when the plan ran out."""

    output: str
    """The answer."""
    thought: str = ""
    """What the replanner wrote before it."""
    source: Literal["replanner", "last_step"] = "replanner"
    """`replanner` (or the repair replanner) answered; `last_step`: every planned step worked
    (`replan="on_failure"`), and the last one's result is the answer."""
    type: Literal["response"] = "response"


@dataclass(frozen=True)
class PlanParseFailure:
    """The planner's or replanner's reply held no plan (or answer); the error goes back to it."""

    stage: PlanStage
    """Who wrote the reply."""
    text: str
    """The reply that could not be read."""
    error: str
    """The message shown to the model."""
    consecutive: int
    """How many replies in a row failed at this stage."""
    type: Literal["plan_parse_failure"] = "plan_parse_failure"


@dataclass(frozen=True)
class StepLimitReached:
    """`max_steps` steps ran and the plan still had steps to do."""

    steps: int
    """Steps executed."""
    type: Literal["step_limit"] = "step_limit"


@dataclass(frozen=True)
class PlanResult(AgentResult):
    """What a plan-and-execute run returns; `to_dict()` (every field) is the `invoke` output.

    The `AgentResult` fields mean: `messages`, the whole run (question, every planner and
    replanner reply, each step's executor messages); `intermediate_steps`, every tool step of
    every executor run; `iterations`, the steps executed; `stop_reason`, `final_answer`,
    `max_iterations` (the step limit, `max_steps`) or `parse_failures`; `usage`, all model calls.
    """

    plan: list[str] = field(default_factory=list)
    """The last plan: the steps that were still to do."""
    past_steps: list[tuple[str, str]] = field(default_factory=list)
    """Each executed step and its result, in order."""


PlanEvent = (
    PlanMade
    | StepStarted
    | StepResult
    | Replanned
    | PlanRepaired
    | FinalResponse
    | PlanParseFailure
    | StepLimitReached
)
PlanRunEvent = PlanEvent | AgentEvent
