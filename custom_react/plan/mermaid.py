"""Draw a plan-and-execute run as a Mermaid `sequenceDiagram` with Planner / Executor / Replanner lanes.

`plan_to_mermaid` is a pure function of the question and the run's events (`custom_react.plan.events`
plus the executor's ReAct events in between). Lanes: User, Planner, Executor (the ReAct agent) and
Replanner. The question goes to the planner, each plan step is a note over whoever wrote it, each
step is an arrow to the executor (its tool calls are arrows to itself, observations notes over it),
each step result an arrow to the replanner (a cross when the step failed), and the answer an arrow
back to the user. With `replan="on_failure"` a step that worked hands its result back to whoever
wrote the plan, a repair's changes are notes over the replanner, and when the plan runs out the
last result goes from the executor to the user. Every text goes through `mermaid_text`, so each statement stays one safe line.
Nothing here runs an agent or writes files; the ReAct-only diagram is in `export_mermaid.py`.
"""

from __future__ import annotations

from collections.abc import Sequence

from custom_react.events import ActionEvent, LimitReached, ObservationEvent, RunFinished
from custom_react.export.blocks import labels_for
from custom_react.export.mermaid import message, note
from custom_react.parsing.action_input import input_text
from custom_react.plan import events as pe
from custom_react.plan.labels import PLAN, PLAN_MERMAID
from custom_react.plan.printing import plan_changes
from custom_react.steps import ParseFailure, ToolStep

PLAN_LANES = ("User", "Planner", "Executor", "Replanner")


def plan_to_mermaid(question: str, events: Sequence[pe.PlanRunEvent], language: str = "en") -> str:
    """Draw the run as a Mermaid `sequenceDiagram` (lanes: User, Planner, Executor, Replanner).

    Raises:
        ValueError: The language is not "en" or "zh".
    """
    label = labels_for(language) | PLAN[language] | PLAN_MERMAID[language]
    names = [label[lane.lower()] for lane in PLAN_LANES]
    lines = ["sequenceDiagram"]
    lines += [
        f"    participant {lane} as {name}" for lane, name in zip(PLAN_LANES, names, strict=True)
    ]
    lines.append(message("User", "->>", "Planner", f"{label['question']}{label['sep']}{question}"))
    planner = "Planner"  # who wrote the current plan: the planner, then the replanner
    replanner_reads = _read_by_the_replanner(events)
    for index, event in enumerate(events):
        reader = "Replanner" if index in replanner_reads else planner
        lines += _event_lines(event, planner, reader, label)
        if isinstance(event, pe.Replanned):
            planner = "Replanner"
    return "\n".join(lines) + "\n"


def _read_by_the_replanner(events: Sequence[pe.PlanRunEvent]) -> set[int]:
    """Where the step results are that the replanner reads next (with `replan="always"`, all)."""
    read: set[int] = set()
    waiting = -1
    for index, event in enumerate(events):
        if isinstance(event, pe.StepResult):
            waiting = index
        elif waiting >= 0 and isinstance(event, pe.PlanEvent):
            answered = isinstance(event, pe.FinalResponse) and event.source == "replanner"
            if answered or isinstance(event, pe.Replanned | pe.PlanParseFailure):
                read.add(waiting)
            waiting = -1
    return read


def _event_lines(
    event: pe.PlanRunEvent, planner: str, reader: str, label: dict[str, str]
) -> list[str]:
    """The statements for one event; `reader` is who reads a step result."""
    sep = label["sep"]
    match event:
        case pe.PlanMade(steps=steps) | pe.Replanned(steps=steps):
            made = isinstance(event, pe.PlanMade)
            name, lane = (label["plan"], "Planner") if made else (label["replan"], "Replanner")
            name = label["repaired"] if isinstance(event, pe.PlanRepaired) else name
            notes = [note(f"{name}{sep}{n}. {step}", lane) for n, step in enumerate(steps, 1)]
            changes = plan_changes(event) if isinstance(event, pe.Replanned) else []
            return notes + [note(f"{label[key]}{sep}{text}", lane) for key, text in changes]
        case pe.StepStarted(number=number, step=step):
            return [
                message(planner, "->>", "Executor", f"{label['step'].format(n=number)}{sep}{step}")
            ]
        case pe.StepResult(number=number, result=result, status=status):
            arrow = "-->>" if status == "ok" else "--x"
            head = label["step_result"].format(n=number)
            return [message("Executor", arrow, reader, f"{head}{sep}{result}")]
        case pe.FinalResponse(output=output, source=source):
            lane = "Replanner" if source == "replanner" else "Executor"
            return [message(lane, "-->>", "User", f"{label['response']}{sep}{output}")]
        case pe.PlanParseFailure(stage=stage, error=error, consecutive=consecutive):
            lane = "Planner" if stage == "planner" else "Replanner"
            return [note(f"{label['parse_failure']} ({consecutive}){sep}{error}", lane)]
        case pe.StepLimitReached(steps=steps):
            return [note(f"{label['limit']}{sep}{label['step_limit'].format(n=steps)}", planner)]
        case RunFinished(result=result) if result.stop_reason != "final_answer":
            lane = planner if result.stop_reason == "max_iterations" else "Replanner"
            return [message(lane, "-->>", "User", result.output)]
    return _executor_lines(event, label)


def _executor_lines(event: pe.PlanRunEvent, label: dict[str, str]) -> list[str]:
    """The executor's own ReAct events: tool calls as arrows to itself, the rest as notes."""
    sep = label["sep"]
    match event:
        case ActionEvent(step=ToolStep(tool=tool, tool_input=tool_input)):
            return [message("Executor", "->>", "Executor", f"{tool}({input_text(tool_input)})")]
        case ObservationEvent(step=ToolStep(observation=observation, status=status)):
            state = "" if status == "ok" else f" ({status})"
            return [note(f"{label['observation']}{state}{sep}{observation}", "Executor")]
        case ParseFailure(error=error, consecutive=consecutive):
            return [note(f"{label['parse_failure']} ({consecutive}){sep}{error}", "Executor")]
        case LimitReached(reason=reason):
            return [note(f"{label['limit']}{sep}{label['stop_reason']}{sep}{reason}", "Executor")]
    return []  # the executor's Final Answer is drawn as the step result
