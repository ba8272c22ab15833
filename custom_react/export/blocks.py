"""A run's events as labelled transcript blocks: what every exporter renders.

`transcript_blocks` turns the step events into `Block`s (question, thought, action, observation,
format error, limit, final answer), each with the model call it came from; `summarize_run` reads
how the run ended; `labels_for` gives the words in English or Chinese (`custom_react.console.labels`).
Rendering the blocks is the job of `markdown`, `html` and `mermaid` beside this module.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Literal

from custom_react.console.labels import PROMPTS, REACT, SEPARATOR
from custom_react.console.printing import decision_text
from custom_react.events import (
    ActionEvent,
    AgentEvent,
    AgentResult,
    ApprovalDecided,
    ApprovalRequested,
    LimitReached,
    ObservationEvent,
    RunFinished,
    SubAgentEvent,
)
from custom_react.export.labels import EXPORT
from custom_react.parsing.action_input import input_text
from custom_react.prompts import check_language
from custom_react.running.prompt_log import ModelCall
from custom_react.steps import AnswerRejected, FinalAnswerEvent, ParseFailure, ToolStep

BlockKind = Literal[
    "question",
    "thought",
    "action",
    "observation",
    "parse_failure",
    "limit",
    "stopped",
    "final_answer",
    "paused",
    "decision",
    "rejected",
    "prompt",
    "reply",
]


@dataclass(frozen=True)
class Block:
    """One labelled piece of the transcript.

    Attributes:
        kind: What it is; renderers style each kind differently.
        text: The main text (the tool name for an action, the error for a format error).
        step: The model call that wrote it (1-based); 0 for the question.
        detail: The Action Input of an action, or the unreadable reply of a format error.
        status: An observation's status (`ok`, `error`, ...); `stopped` for a limit's fallback.
        depth: How many sub-agents deep (`agent.as_tool`) it happened; 0 in the run itself.
        call: The model call of a prompt or a raw reply (its messages, time and tokens).
    """

    kind: BlockKind
    text: str
    step: int = 0
    detail: str = ""
    status: str = "ok"
    depth: int = 0
    call: ModelCall | None = None


@dataclass(frozen=True)
class RunSummary:
    """How a run ended, for the footer: None fields when the events hold no `RunFinished`."""

    stop_reason: str | None
    iterations: int | None


def labels_for(language: str) -> dict[str, str]:
    """The export labels for "en" or "zh".

    Raises:
        ValueError: Any other language.
    """
    check_language(language)
    return {**REACT[language], **PROMPTS[language], **EXPORT[language], "sep": SEPARATOR[language]}


def transcript_blocks(
    question: str, events: Iterable[AgentEvent | ModelCall], language: str = "en"
) -> list[Block]:
    """Turn a run's events into the transcript's blocks, in order, starting with the question.

    A finished `ModelCall` among the events (`custom-react ask --show-prompts`, the `PromptLog`)
    adds its exact prompt and raw reply at the head of its step.
    """
    labels = REACT[check_language(language)]
    blocks = [Block("question", question)]
    step = 0  # the model call each block came from
    for event in events:
        if isinstance(event, ModelCall):
            if not event.started:  # answered or failed (a failed call is retried in the same step)
                blocks += _call_blocks(event, step + 1)
                step += 1 if event.reply is not None else 0
            continue
        depth = 0
        while isinstance(event, SubAgentEvent):  # a sub-agent's step, inside the outer step
            event = event.event
            depth += 1
        if depth and isinstance(event, RunFinished):
            continue  # the sub-agent's answer is the outer step's Observation
        if not depth and isinstance(event, ActionEvent):
            step = event.step.iteration
        elif not depth and isinstance(event, ApprovalDecided):  # a resumed run's waiting call
            step = event.call.iteration
        elif not depth and isinstance(event, RunFinished):
            step = max(step, event.result.iterations)  # a model that failed still made its call
        elif not depth and isinstance(event, ParseFailure | AnswerRejected | FinalAnswerEvent):
            step = event.iteration
        blocks += [replace(block, depth=depth) for block in event_blocks(event, step, labels)]
    return blocks


def event_blocks(event: AgentEvent, step: int, labels: dict[str, str]) -> list[Block]:
    """The blocks of one event of model call `step` ([] for one the transcript does not show)."""
    match event:
        case ActionEvent(step=ToolStep(thought=thought, tool=tool, tool_input=tool_input)):
            thinking = [Block("thought", thought, step)] if thought else []
            return [*thinking, Block("action", tool, step, detail=input_text(tool_input))]
        case ObservationEvent(step=ToolStep(observation=observation, status=status)):
            return [Block("observation", observation, step, status=status)]
        case ParseFailure(text=text, error=error):
            return [Block("parse_failure", error, step, detail=text, status="error")]
        case LimitReached(reason=reason, answer_generated=True):  # else the stop says why
            return [Block("limit", reason, step, status="error")]
        case AnswerRejected(output=output, message=message):
            return [Block("rejected", output, step, detail=message, status="error")]
        case FinalAnswerEvent(output=output, thought=thought, returned_by=returned_by):
            thinking = [Block("thought", thought, step)] if thought else []
            return [*thinking, Block("final_answer", output, step, detail=returned_by)]
        case ApprovalRequested(call=call, run_id=run_id):
            waits = labels["waits"].format(tool=call.tool, run_id=run_id)
            return [Block("paused", waits, step, status="error")]
        case ApprovalDecided(call=call, decision=decision):
            action = Block("action", call.tool, step, detail=input_text(call.tool_input))
            return [action, Block("decision", decision_text(decision, labels), step)]
        case RunFinished(result=result):
            return _end_blocks(result, step)
    return []


def _end_blocks(result: AgentResult, step: int) -> list[Block]:
    """How the run ended, unless an event showed it (the answer, the pause)."""
    if result.error:  # no answer (a limit, the model's failure): why the run stopped
        return [Block("stopped", result.output, step, status="error")]
    return []


def _call_blocks(call: ModelCall, step: int) -> list[Block]:
    """A model call's prompt, then its raw reply (or why it failed)."""
    reply = Block("reply", call.reply or call.error, step, call=call, status="ok")
    if call.reply is None:
        reply = replace(reply, status="error")
    return [Block("prompt", "", step, call=call), reply]


def status_note(status: str, label: dict[str, str]) -> str:
    """` (repeated)`: an Observation's status in the transcript's language ("" for `ok`)."""
    return "" if status == "ok" else f" ({label.get('status_' + status, status)})"


def summarize_run(events: Iterable[AgentEvent | ModelCall]) -> RunSummary:
    """The stop reason and model-call count from the run's `RunFinished` event."""
    for event in events:
        if isinstance(event, RunFinished):
            return RunSummary(event.result.stop_reason, event.result.iterations)
    return RunSummary(None, None)
