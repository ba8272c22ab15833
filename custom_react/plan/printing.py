"""The live transcript of a Plan-and-Execute run: the ReAct printer, taught the plan events.

`PlanConsolePrinter` renders `PlanMade`, `Replanned`, `PlanRepaired` (the new plan, then what the
repair inserted, replaced or removed), `StepStarted`, `StepResult`, `FinalResponse`,
`PlanParseFailure` and `StepLimitReached` with the words of `plan/labels.py`, and hands every other
event (the executor's ReAct steps) to `ConsolePrinter`.
"""

from __future__ import annotations

from typing import Any

from custom_react.console.printing import ConsolePrinter
from custom_react.events import RunFinished
from custom_react.plan import events as pe
from custom_react.plan.labels import PLAN

PLAN_COLORS = {"plan": "35", "step": "1;34"}


class PlanConsolePrinter(ConsolePrinter):
    """A `ConsolePrinter` that also prints plans, plan steps and their results."""

    @property
    def plan_labels(self) -> dict[str, str]:
        """The plan words in the printer's language."""
        return PLAN[self.language]

    def render(self, event: Any) -> list[str]:
        """The lines for a plan event, or what `ConsolePrinter` writes for a ReAct event."""
        if isinstance(event, pe.PlanEvent):
            return self._plan_lines(event)
        if isinstance(event, RunFinished) and _ended_at_the_step_limit(event):
            # It answers with what it has: shown as its answer (no event showed one).
            return [self._line("final", self.labels["final_answer"], event.result.output)]
        return super().render(event)

    def _plan_lines(self, event: pe.PlanEvent) -> list[str]:
        """The lines for a plan-and-execute event (the executor's own events render as above)."""
        label = self.plan_labels
        match event:
            case pe.PlanMade(steps=steps) | pe.Replanned(steps=steps):
                name = label["plan"] if isinstance(event, pe.PlanMade) else label["replan"]
                name = label["repaired"] if isinstance(event, pe.PlanRepaired) else name
                head = name + self.separator.rstrip()
                head = f"\x1b[{PLAN_COLORS['plan']}m{head}\x1b[0m" if self.color else head
                lines = [head, *(f"  {n}. {step}" for n, step in enumerate(steps, 1))]
                notes = plan_changes(event) if isinstance(event, pe.Replanned) else []
                return lines + [f"  ({label[key]}{self.separator}{text})" for key, text in notes]
            case pe.StepStarted(number=number, step=step):
                return [self._line("step", label["step"].format(n=number), step)]
            case pe.StepResult(number=number, result=result, status=status):
                kind = "step" if status == "ok" else "error"
                return [self._line(kind, label["step_result"].format(n=number), result)]
            case pe.FinalResponse(output=output):
                return [self._line("final", label["response"], output)]
            case pe.PlanParseFailure(stage=stage, text=text, error=error):
                error_label = self.labels["parse_failure"]
                return [
                    self._line("error", label[stage], text),
                    self._line("error", error_label, error),
                ]
            case pe.StepLimitReached(steps=steps):
                return [
                    self._line("error", self.labels["limit"], label["step_limit"].format(n=steps))
                ]
        return []

    def _line(self, kind: str, label: str, text: str) -> str:
        """One `Label: text` line, with the plan colours too."""
        if self.color and kind in PLAN_COLORS:
            return f"\x1b[{PLAN_COLORS[kind]}m{label}{self.separator}\x1b[0m{text}"
        return super()._line(kind, label, text)


def _ended_at_the_step_limit(event: RunFinished) -> bool:
    """Whether a plan run stopped at `max_steps`, without an error (its output is its answer)."""
    result = event.result
    return result.stop_reason == "max_iterations" and not result.error


def plan_changes(event: pe.Replanned) -> list[tuple[str, str]]:
    """What a new plan changed, as `(label key, text)`: a repair's changes, the dropped repeats."""
    changes: list[tuple[str, str]] = []
    if isinstance(event, pe.PlanRepaired):
        changes += [("inserted", "; ".join(event.inserted))] if event.inserted else []
        kind = ("replaced" if event.inserted else "dropped") if event.replaced else "retried"
        changes.append((kind, event.failed_step))
        changes += [("removed", "; ".join(event.removed))] if event.removed else []
    return changes + ([("repeated", "; ".join(event.repeated))] if event.repeated else [])
