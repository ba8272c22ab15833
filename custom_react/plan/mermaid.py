"""Draw a plan-and-execute run as a Mermaid `sequenceDiagram` with Planner / Executor / Replanner lanes.

`plan_to_mermaid` is a pure function of the question and the run's events (`custom_react.plan.events`
plus the executor's ReAct events in between). Lanes: User, Planner, Executor (the ReAct agent) and
Replanner. The question goes to the planner, each plan step is a note over whoever wrote it, each
step is an arrow to the executor (its tool calls are arrows to itself, observations notes over it),
each step result an arrow to the replanner (a cross when the step failed), and the answer an arrow
back to the user. Every text goes through `mermaid_text`, so each statement stays one safe line.
Nothing here runs an agent or writes files; the ReAct-only diagram is in `export_mermaid.py`.
"""

from __future__ import annotations

from collections.abc import Sequence

from custom_react import events as ev
from custom_react.export.blocks import input_text, labels_for
from custom_react.export.mermaid import mermaid_text
from custom_react.labels import PLAN, PLAN_MERMAID
from custom_react.plan import events as pe

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
    lines.append(_message("User", "->>", "Planner", f"{label['question']}{label['sep']}{question}"))
    planner = "Planner"  # who wrote the current plan: the planner, then the replanner
    for event in events:
        lines += _event_lines(event, planner, label)
        if isinstance(event, pe.Replanned):
            planner = "Replanner"
    return "\n".join(lines) + "\n"


def _event_lines(event: pe.PlanRunEvent, planner: str, label: dict[str, str]) -> list[str]:
    """The statements for one event."""
    sep = label["sep"]
    match event:
        case pe.PlanMade(steps=steps) | pe.Replanned(steps=steps):
            made = isinstance(event, pe.PlanMade)
            name, lane = (label["plan"], "Planner") if made else (label["replan"], "Replanner")
            notes = [_note(lane, f"{name}{sep}{n}. {step}") for n, step in enumerate(steps, 1)]
            repeated = event.repeated if isinstance(event, pe.Replanned) else ()
            return notes + [_note(lane, f"{label['repeated']}{sep}{step}") for step in repeated]
        case pe.StepStarted(number=number, step=step):
            return [
                _message(planner, "->>", "Executor", f"{label['step'].format(n=number)}{sep}{step}")
            ]
        case pe.StepResult(number=number, result=result, status=status):
            arrow = "-->>" if status == "ok" else "--x"
            head = label["step_result"].format(n=number)
            return [_message("Executor", arrow, "Replanner", f"{head}{sep}{result}")]
        case pe.FinalResponse(output=output):
            return [_message("Replanner", "-->>", "User", f"{label['response']}{sep}{output}")]
        case pe.PlanParseFailure(stage=stage, error=error, consecutive=consecutive):
            lane = "Planner" if stage == "planner" else "Replanner"
            return [_note(lane, f"{label['parse_failure']} ({consecutive}){sep}{error}")]
        case pe.StepLimitReached(steps=steps):
            return [
                _note("Replanner", f"{label['limit']}{sep}{label['step_limit'].format(n=steps)}")
            ]
        case ev.RunFinished(result=result) if result.stop_reason != "final_answer":
            return [_message("Replanner", "-->>", "User", result.output)]
    return _executor_lines(event, label)


def _executor_lines(event: pe.PlanRunEvent, label: dict[str, str]) -> list[str]:
    """The executor's own ReAct events: tool calls as arrows to itself, the rest as notes."""
    sep = label["sep"]
    match event:
        case ev.ActionEvent(tool=tool, tool_input=tool_input):
            return [_message("Executor", "->>", "Executor", f"{tool}({input_text(tool_input)})")]
        case ev.ObservationEvent(observation=observation, status=status):
            state = "" if status == "ok" else f" ({status})"
            return [_note("Executor", f"{label['observation']}{state}{sep}{observation}")]
        case ev.ParseFailure(error=error, consecutive=consecutive):
            return [_note("Executor", f"{label['parse_failure']} ({consecutive}){sep}{error}")]
        case ev.LimitReached(reason=reason):
            return [_note("Executor", f"{label['limit']}{sep}{label['stop_reason']}{sep}{reason}")]
    return []  # the executor's Final Answer is drawn as the step result


def _message(source: str, arrow: str, target: str, text: str) -> str:
    return f"    {source}{arrow}{target}: {mermaid_text(text)}"


def _note(lane: str, text: str) -> str:
    return f"    Note over {lane}: {mermaid_text(text)}"
