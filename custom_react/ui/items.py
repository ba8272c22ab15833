"""What the page is sent: each model call and each step event as one JSON-ready dict.

A model call becomes `{"type": "call", ...}` twice: when it starts (its exact messages, each
split where it stops repeating the call before) and when it is answered (the raw reply, time,
tokens, and whether the model, the learner or a replay wrote it). A step event becomes a dict of
its fields in the library's own words (`thought`, `tool`, `tool_input`, `observation`, ...),
with `log`, the reply as the parser rewrote it, so the page can show a repair. Pure functions.
"""

from __future__ import annotations

from typing import Any

from custom_react.events import (
    ActionEvent,
    AgentEvent,
    LimitReached,
    ObservationEvent,
    RunFinished,
    SubAgentEvent,
)
from custom_react.running.prompt_log import ModelCall
from custom_react.steps import AnswerRejected, FinalAnswerEvent, ParseFailure


def call_item(call: ModelCall, **extra: Any) -> dict[str, Any]:
    """A model call for the page: started (`reply` None) or answered."""
    if call.reply is None:
        parts = [{"role": r, "same": same, "new": new} for r, same, new in call.parts()]
        return {
            "type": "call",
            "call": call.call,
            "previous_call": call.previous_call,
            "messages": parts,
            **extra,
        }
    return {
        "type": "call",
        "call": call.call,
        "reply": call.reply,
        "seconds": call.seconds,
        "tokens": call.tokens,
        **extra,
    }


def event_item(event: AgentEvent, depth: int = 0) -> dict[str, Any]:
    """A step event for the page; a sub-agent's event with its `depth`."""
    if isinstance(event, SubAgentEvent):
        return {**event_item(event.event, depth + 1), "agent": event.agent}
    return {"type": event.type, "depth": depth, **_fields(event)}


def _fields(event: AgentEvent) -> dict[str, Any]:
    """An event's fields the page shows, by their names in `custom_react.events`."""
    match event:
        case ActionEvent(step=step):
            asked = {"thought": step.thought, "tool": step.tool, "tool_input": step.tool_input}
            return asked | {"call": step.iteration}
        case ObservationEvent(step=step):
            shown = {"observation": step.observation, "status": step.status}
            return shown | {"log": step.log, "call": step.iteration}
        case ParseFailure(text=text, error=error, iteration=call):
            return {"text": text, "error": error, "call": call}
        case AnswerRejected(output=output, message=why, iteration=call):
            return {"output": output, "why": why, "call": call}
        case FinalAnswerEvent(output=output, thought=thought, log=log, iteration=call):
            return {"output": output, "thought": thought, "log": log, "call": call}
        case LimitReached(reason=reason, iterations=iterations):
            return {"reason": reason, "iterations": iterations}
        case RunFinished(result=result):
            ended = {"output": result.output, "stop_reason": result.stop_reason}
            return ended | {"iterations": result.iterations, "usage": dict(result.usage or {})}
    return {}
