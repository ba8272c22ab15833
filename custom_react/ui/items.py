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
    AnswerRejected,
    FinalAnswerEvent,
    LimitReached,
    ObservationEvent,
    ParseFailure,
    RunFinished,
    SubAgentEvent,
)
from custom_react.running.prompt_log import ModelCall


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
    item: dict[str, Any] = {"type": event.type, "depth": depth}
    match event:
        case ActionEvent():
            item |= {
                "thought": event.thought,
                "tool": event.tool,
                "tool_input": event.tool_input,
                "call": event.iteration,
            }
        case ObservationEvent(step=step):
            item |= {
                "observation": step.observation,
                "status": step.status,
                "log": step.log,
                "call": step.iteration,
            }
        case ParseFailure():
            item |= {"text": event.text, "error": event.error, "call": event.iteration}
        case AnswerRejected():
            item |= {"output": event.output, "why": event.message, "call": event.iteration}
        case FinalAnswerEvent():
            item |= {
                "output": event.output,
                "thought": event.thought,
                "log": event.log,
                "call": event.iteration,
                "returned_by": event.returned_by,
            }
        case LimitReached():
            item |= {"reason": event.reason, "iterations": event.iterations}
        case SubAgentEvent(agent=agent, event=inner):
            return {**event_item(inner, depth + 1), "agent": agent}
        case RunFinished(result=result):
            item |= {
                "output": result.output,
                "stop_reason": result.stop_reason,
                "iterations": result.iterations,
                "usage": dict(result.usage or {}),
            }
    return item
