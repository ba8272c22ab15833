"""The one place the library prints: a live Thought / Action / Observation transcript.

`ConsolePrinter` is a callable that takes step events (`custom_react.events`) and writes a readable
transcript with English or Chinese labels (`labels.REACT`), in colour when writing to a terminal.
The sink is injected (`write=`), so tests capture exactly what a learner sees. With
`stream_tokens` (the default) the model's reply is shown as it is written, from its `ReplyToken`
events (`live_reply.LiveReply`: dimmed and then replaced by the step on a terminal, completed in
a pipe). `show_live` adds a spinner while the model thinks. Add-ons extend the printer by
subclassing it (Plan-and-Execute: `custom_react.plan.printing`); saving transcripts to files is
`custom_react.export`'s job.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import nullcontext
from typing import Any, TypeVar

from rich.console import Console

from custom_react.console.labels import PROMPTS, REACT, SEPARATOR
from custom_react.console.live_reply import LiveReply
from custom_react.console.model_calls import call_lines
from custom_react.events import (
    ActionEvent,
    AgentEvent,
    ApprovalDecided,
    ApprovalRequested,
    LimitReached,
    ObservationEvent,
    ReplyToken,
    RunFinished,
    SubAgentEvent,
)
from custom_react.parsing.action_input import input_text
from custom_react.pausing.approval import Decision
from custom_react.prompts import check_language
from custom_react.running.prompt_log import ModelCall
from custom_react.steps import AnswerRejected, FinalAnswerEvent, ParseFailure, ToolStep

COLORS = {"thought": "36", "action": "33", "observation": "32", "error": "31", "final": "1;32"}
COLORS |= {"rule": "1;35", "same": "2"}
_CONTROL = re.compile(
    r"\x1b\[[0-?]*+[ -/]*+[@-~]"  # a CSI sequence: colours, cursor moves, erasing
    r"|\x1b\][^\x07\x1b]*+(?:\x07|\x1b\\)?"  # an OSC sequence: window titles, links
    r"|\x1b.?|[\x00-\x08\x0b-\x1f\x7f-\x9f]"  # any other escape or control character
)


Shown = TypeVar("Shown", bound=AgentEvent | ModelCall)
"""What `show_live` passes through: the run's events, and model calls when prompts are shown."""
INDENT = "    "
"""How far a sub-agent's steps are indented, per level."""


class ConsolePrinter:
    """Render step events as a transcript.

    Args:
        write: Where text goes (default: standard output). It receives whole lines.
        language: "en" or "zh" labels.
        color: ANSI colour; None means "when `write` is the terminal and NO_COLOR is unset".
            With colour, a reply shown as it is written is dimmed, then erased for its step.
        stream_tokens: Show the model's reply as it is written (its `ReplyToken` events).
        write_token: Where that text goes, in pieces (default: standard output, flushed).
        show_prompts: Print each `ModelCall` it is given (`prompt_log.PromptLog`): the exact
            prompt as the call starts (after the first, only its new part), the raw reply after.
    """

    def __init__(
        self,
        write: Callable[[str], object] | None = None,
        *,
        language: str = "en",
        color: bool | None = None,
        stream_tokens: bool = True,
        write_token: Callable[[str], object] | None = None,
        show_prompts: bool = False,
    ) -> None:
        to_terminal = write is None and sys.stdout.isatty() and "NO_COLOR" not in os.environ
        self.write = write or print
        self.language = check_language(language)
        self.labels = REACT[language]
        self.prompt_labels = PROMPTS[language]
        self.show_prompts = show_prompts
        self.separator = SEPARATOR[language]
        self.color = to_terminal if color is None else color
        self.stream_tokens = stream_tokens
        self.write_token = write_token or write_to_stdout
        self.draft = LiveReply(self._plain_line, erase=self.color)

    def __call__(self, event: Any) -> None:
        """Write the lines for one event (a `ReplyToken`: its text, when `stream_tokens`)."""
        if isinstance(event, ReplyToken):
            if event.restart:  # the call is made again: end the draft of the failed reply
                text = self.draft.finish([])[0]
            else:
                text = self.draft.add(printable(event.text)) if self.stream_tokens else ""
            if text:
                self.write_token(text)
            return
        rendered = self.render(event)
        if not rendered:
            return  # nothing to show (a model call whose prompt is not shown): the draft goes on
        text, lines = self.draft.finish(rendered)
        if text:
            self.write_token(text)
        for line in lines:
            self.write(line)

    def _plain_line(self, kind: str, text: str) -> str:
        """One `Label: text` line without colour (a section of the reply being written)."""
        return self.labels[kind] + self.separator + text

    def render(self, event: Any) -> list[str]:
        """The transcript lines for one event (pure; no output); [] for an event it does not know."""
        label = self.labels
        match event:
            case ActionEvent(step=ToolStep(thought=thought, tool=tool, tool_input=tool_input)):
                lines = [self._line("thought", label["thought"], thought)] if thought else []
                return [
                    *lines,
                    self._line("action", label["action"], tool),
                    self._line("action", label["action_input"], input_text(tool_input)),
                ]
            case ObservationEvent(step=ToolStep(observation=observation, status=status)):
                kind = "observation" if status == "ok" else "error"
                denied = label["denied"] if status == "denied" else None
                name = label["observation"] + _aside(label, denied)
                return [self._line(kind, name, observation)]
            case ParseFailure(text=text, error=error):
                return [
                    self._line("error", label["reply"], text),
                    self._line("error", label["parse_failure"], error),
                ]
            case AnswerRejected(output=output, message=message):
                return [
                    self._line("error", label["rejected"], output),
                    self._line("error", label["why"], message),
                ]
            case FinalAnswerEvent(output=output, thought=thought, returned_by=returned_by):
                lines = [self._line("thought", label["thought"], thought)] if thought else []
                by = label["returned_by"].format(tool=returned_by) if returned_by else None
                return [
                    *lines,
                    self._line("final", label["final_answer"] + _aside(label, by), output),
                ]
            case SubAgentEvent(event=inner) if not isinstance(inner, RunFinished):
                # A sub-agent's step, shown under the outer step that called it.
                return [INDENT + line for line in self.render(inner)]
            case LimitReached() | RunFinished():
                return self._end_lines(event)
        return self._pause_lines(event) or self._call_lines(event)

    def _end_lines(self, event: LimitReached | RunFinished) -> list[str]:
        """How the run ended: why it stopped, or its answer, unless an event printed it."""
        label = self.labels
        if isinstance(event, LimitReached):  # the answer it made the model give follows
            reason = f"{label['stop_reason']}: {event.reason}"
            return [self._line("error", label["limit"], reason)] if event.answer_generated else []
        if event.result.error:  # no answer (a limit, the model's failure): the message says why
            return [self._line("error", label["limit"], event.result.output)]
        return []  # the answer's event, or the pause's, showed how the run ended

    def _pause_lines(self, event: Any) -> list[str]:
        """The lines of a pause for approval and of its decision ([] for any other event)."""
        label = self.labels
        match event:
            case ApprovalRequested(call=call, run_id=run_id):
                waits = label["waits"].format(tool=call.tool, run_id=run_id)
                return [self._line("error", label["paused"], waits)]
            case ApprovalDecided(decision=decision):
                return [self._line("action", label["decision"], decision_text(decision, label))]
        return []

    def _call_lines(self, event: Any) -> list[str]:
        """A model call's prompt or raw reply, when prompts are shown ([] for anything else)."""
        if not isinstance(event, ModelCall) or not self.show_prompts:
            return []
        parts = call_lines(event, {**self.labels, **self.prompt_labels})
        return [self._paint(kind, text) for kind, text in parts]

    def _paint(self, kind: str, text: str) -> str:
        """A line of a model call: its rules and repeated-part notes coloured; the text as sent."""
        if kind == "text" or not self.color:
            return printable(text)
        return f"\x1b[{COLORS[kind]}m{printable(text)}\x1b[0m"

    def _line(self, kind: str, label: str, text: str) -> str:
        """One `Label: text` line, the label coloured by `kind` when colour is on."""
        head = label + self.separator
        if self.color:
            head = f"\x1b[{COLORS[kind]}m{head}\x1b[0m"
        return head + printable(text)


def printable(text: str) -> str:
    """`text` without terminal escape sequences or control characters (newlines and tabs stay).

    A tool's output or a model's reply must not move the cursor, recolour or retitle the
    learner's terminal, or hide lines: what was printed is what happened.
    """
    return _CONTROL.sub("", text)


def decision_text(decision: Decision, label: dict[str, str]) -> str:
    """A person's decision about a paused call, in words (`{kind}_decision` labels)."""
    value = input_text(decision.value)
    return label[f"{decision.kind}_decision"].format(value=value)


def show_live(
    events: Iterable[Shown], printer: ConsolePrinter, *, spinner: bool | None = None
) -> Iterator[Shown]:
    """Print each event as it arrives, with a spinner while the next step is being worked on.

    Yields the events unchanged, so a caller can print and collect in one pass. The spinner shows
    only on a terminal (or when `spinner=True`).
    """
    console = Console(stderr=True)
    show_spinner = console.is_terminal if spinner is None else spinner
    label = printer.labels["thinking"]
    iterator = iter(events)
    writing = False  # the reply is being shown as it is written: no spinner over it
    while True:
        status = console.status(label) if show_spinner and not writing else nullcontext()
        with status:
            event = next(iterator, None)
        if event is None:
            return
        printer(event)
        writing = printer.stream_tokens and isinstance(event, ReplyToken)
        yield event


def write_to_stdout(text: str) -> None:
    """Write `text` to standard output at once, without a newline."""
    sys.stdout.write(text)
    sys.stdout.flush()


def _aside(label: dict[str, str], text: str | None) -> str:
    """A note after a label in the run's language, " (text)" or "（text）"; "" without one."""
    return label["aside"].format(text=text) if text else ""
