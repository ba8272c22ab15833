"""The one place the library prints: a live Thought / Action / Observation transcript.

`ConsolePrinter` is a callable that takes step events (`custom_react.events`, and the plan-and-
execute events of `custom_react.plan.events`) and writes a readable transcript with English or
Chinese labels, in colour when writing to a terminal. The sink is
injected (`write=`), so tests capture exactly what a learner sees. Spinners and saving to files
belong to the exporters; `show_live` adds a spinner while the model thinks.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import nullcontext

from rich.console import Console

from custom_react import events as ev
from custom_react.plan import events as pe

LABELS = {
    "en": {
        "thought": "Thought",
        "action": "Action",
        "action_input": "Action Input",
        "observation": "Observation",
        "final_answer": "Final Answer",
        "parse_failure": "Format error",
        "reply": "Model wrote",
        "limit": "Stopped",
        "stop_reason": "stop reason",
    },
    "zh": {
        "thought": "思考",
        "action": "行动",
        "action_input": "行动输入",
        "observation": "观察",
        "final_answer": "最终答案",
        "parse_failure": "格式错误",
        "reply": "模型输出",
        "limit": "已停止",
        "stop_reason": "停止原因",
    },
}
PLAN_LABELS = {
    "en": {
        "plan": "Plan",
        "replan": "New plan",
        "step": "Step {n}",
        "step_result": "Step {n} result",
        "response": "Answer",
        "planner": "Planner wrote",
        "replanner": "Replanner wrote",
        "step_limit": "step limit reached after {n} steps",
        "repeated": "already done, dropped",
    },
    "zh": {
        "plan": "计划",
        "replan": "新计划",
        "step": "第 {n} 步",
        "step_result": "第 {n} 步结果",
        "response": "答案",
        "planner": "规划器输出",
        "replanner": "重新规划器输出",
        "step_limit": "已执行 {n} 步，达到步数上限",
        "repeated": "已经做过，已去掉",
    },
}
_COLORS = {"thought": "36", "action": "33", "observation": "32", "error": "31", "final": "1;32"}
_COLORS |= {"plan": "35", "step": "1;34"}


class ConsolePrinter:
    """Render step events as a transcript.

    Args:
        write: Where text goes (default: standard output). It receives whole lines.
        language: "en" or "zh" labels.
        color: ANSI colour; None means "when `write` is the terminal and NO_COLOR is unset".
    """

    def __init__(
        self,
        write: Callable[[str], object] | None = None,
        *,
        language: str = "en",
        color: bool | None = None,
    ) -> None:
        if language not in LABELS:
            raise ValueError(f"Unsupported language {language!r}; choose one of {sorted(LABELS)}.")
        to_terminal = write is None and sys.stdout.isatty() and "NO_COLOR" not in os.environ
        self.write = write or print
        self.labels, self.plan_labels = LABELS[language], PLAN_LABELS[language]
        self.separator = "：" if language == "zh" else ": "
        self.color = to_terminal if color is None else color

    def __call__(self, event: ev.AgentEvent | pe.PlanEvent) -> None:
        """Write the lines for one event."""
        for line in self.render(event):
            self.write(line)

    def render(self, event: ev.AgentEvent | pe.PlanEvent) -> list[str]:
        """The transcript lines for one event (pure; no output)."""
        if isinstance(event, pe.PlanEvent):
            return self._plan_lines(event)
        label = self.labels
        match event:
            case ev.ActionEvent(thought=thought, tool=tool, tool_input=tool_input):
                lines = [self._line("thought", label["thought"], thought)] if thought else []
                text = (
                    tool_input
                    if isinstance(tool_input, str)
                    else json.dumps(tool_input, ensure_ascii=False)
                )
                return [
                    *lines,
                    self._line("action", label["action"], tool),
                    self._line("action", label["action_input"], text),
                ]
            case ev.ObservationEvent(observation=observation, status=status):
                return [
                    self._line(
                        "observation" if status == "ok" else "error",
                        label["observation"],
                        observation,
                    )
                ]
            case ev.ParseFailure(text=text, error=error):
                return [
                    self._line("error", label["reply"], text),
                    self._line("error", label["parse_failure"], error),
                ]
            case ev.LimitReached(reason=reason):
                return [self._line("error", label["limit"], f"{label['stop_reason']}: {reason}")]
            case ev.FinalAnswerEvent(output=output, thought=thought):
                lines = [self._line("thought", label["thought"], thought)] if thought else []
                return [*lines, self._line("final", label["final_answer"], output)]
            case ev.RunFinished(result=result) if result.stop_reason != "final_answer":
                return [self._line("final", label["final_answer"], result.output)]
        return []

    def _plan_lines(self, event: pe.PlanEvent) -> list[str]:
        """The lines for a plan-and-execute event (the executor's own events render as above)."""
        label = self.plan_labels
        match event:
            case pe.PlanMade(steps=steps) | pe.Replanned(steps=steps):
                name = label["plan"] if isinstance(event, pe.PlanMade) else label["replan"]
                head = name + self.separator.rstrip()
                head = f"\x1b[{_COLORS['plan']}m{head}\x1b[0m" if self.color else head
                lines = [head, *(f"  {n}. {step}" for n, step in enumerate(steps, 1))]
                if isinstance(event, pe.Replanned) and event.repeated:
                    dropped = "; ".join(event.repeated)
                    lines.append(f"  ({label['repeated']}{self.separator}{dropped})")
                return lines
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
        head = label + self.separator
        if self.color:
            head = f"\x1b[{_COLORS[kind]}m{head}\x1b[0m"
        return head + text


def show_live(
    events: Iterable[ev.AgentEvent], printer: ConsolePrinter, *, spinner: bool | None = None
) -> Iterator[ev.AgentEvent]:
    """Print each event as it arrives, with a spinner while the next step is being worked on.

    Yields the events unchanged, so a caller can print and collect in one pass. The spinner shows
    only on a terminal (or when `spinner=True`).
    """
    console = Console(stderr=True)
    show_spinner = console.is_terminal if spinner is None else spinner
    label = "思考中…" if printer.separator == "：" else "thinking…"
    iterator = iter(events)
    while True:
        status = console.status(label) if show_spinner else nullcontext()
        with status:
            event = next(iterator, None)
        if event is None:
            return
        printer(event)
        yield event
