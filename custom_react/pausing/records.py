"""Step records and the waiting call as JSON data, and read back with every field checked.

`step_to_dict` / `step_from_dict` write and read one step record (`events.Step`) with its kind;
`pending_to_dict` / `pending_from_dict` the call a paused run waits on, with its `digest` (a hash
of its id, tool and exact arguments, `call_digest`) that a person's decision is bound to. Reading
checks each field against the record's own type hints (`read_record`, strict: `"1"` is not an
int), so a malformed or tampered state is refused, naming the field, before any tool runs.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import typing
from dataclasses import fields
from functools import cache
from typing import Any, TypeVar, cast

from pydantic import TypeAdapter, ValidationError

from custom_react.events import AnswerRejected, FinalAnswerEvent, ParseFailure, Step, ToolStep
from custom_react.pausing.store import ResumeRefused
from custom_react.toolbox import ActionRequest

RecordT = TypeVar("RecordT")
_KINDS: dict[str, type[Any]] = {
    kind.type: kind for kind in (ToolStep, ParseFailure, AnswerRejected, FinalAnswerEvent)
}


def call_digest(call: ActionRequest) -> str:
    """The hash a decision is bound to: the call's id, its tool and its exact arguments."""
    data = {"id": call.tool_call_id, "tool": call.tool, "args": call.args}
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def record_to_dict(record: Any) -> dict[str, Any]:
    """A frozen record (a step, a call) as JSON data: its fields, values as they are."""
    return {item.name: getattr(record, item.name) for item in fields(record)}


@cache
def adapter(kind: Any) -> TypeAdapter[Any]:
    """The validator of one type, built once: building it costs far more than using it."""
    return TypeAdapter(kind)


@cache
def field_types(kind: Any) -> dict[str, Any]:
    """A record's field types, resolved once."""
    return typing.get_type_hints(kind)


def read_record(kind: type[RecordT], data: Any, where: str) -> RecordT:
    """The record `record_to_dict` wrote, every field checked against its type first.

    Raises:
        ValueError: A field is missing, unknown or of the wrong type, named with `where`.
    """
    if not isinstance(data, dict):
        raise ValueError(f"{where} must be a JSON object, not {type(data).__name__}.")
    hints = field_types(cast(Any, kind))  # a class is hashable; the TypeVar hides it
    known = {item.name for item in fields(kind)}  # type: ignore[arg-type]
    if unknown := sorted(set(data) - known):
        raise ValueError(f"{where} has unknown fields {unknown}; it takes {sorted(known)}.")
    for name, value in data.items():
        try:
            adapter(hints[name]).validate_python(value, strict=True)
        except ValidationError as error:
            expected = getattr(hints[name], "__name__", str(hints[name]))
            problem = error.errors()[0]["msg"]
            raise ValueError(f"{where}: field {name!r} is not a {expected} ({problem}).") from None
    try:
        return kind(**data)
    except TypeError as error:  # a required field is missing
        raise ValueError(f"{where}: {error}.") from None


def step_to_dict(step: Step) -> dict[str, Any]:
    """One step record as JSON data, with its kind."""
    return {"kind": step.type, **{k: v for k, v in record_to_dict(step).items() if k != "type"}}


def step_from_dict(data: Any, where: str = "step") -> Step:
    """The step record `step_to_dict` wrote, checked field by field.

    Raises:
        ValueError: Not a step of a known kind, or a field is wrong (named with `where`).
    """
    if not isinstance(data, dict) or data.get("kind") not in _KINDS:
        kind = data.get("kind") if isinstance(data, dict) else type(data).__name__
        raise ValueError(f"{where} is of unknown kind {kind!r}; the kinds are {sorted(_KINDS)}.")
    record = {key: value for key, value in data.items() if key != "kind"}
    step: Step = read_record(_KINDS[data["kind"]], record, f"{where} ({data['kind']})")
    return step


def pending_to_dict(call: ActionRequest) -> dict[str, Any]:
    """The waiting call as JSON data, with the `digest` a decision is bound to."""
    return {**record_to_dict(call), "digest": call_digest(call)}


def pending_from_dict(data: Any) -> ActionRequest:
    """The waiting call `pending_to_dict` wrote; its digest must still match it.

    Raises:
        ResumeRefused: The call was changed after the pause (its digest does not match).
        ValueError: A field is missing or wrong.
    """
    if not isinstance(data, dict):
        raise ValueError(f"The state's 'pending' must be a JSON object, not {type(data).__name__}.")
    digest = data.get("digest")
    call = read_record(ActionRequest, {k: v for k, v in data.items() if k != "digest"}, "pending")
    if not isinstance(digest, str) or not hmac.compare_digest(digest, call_digest(call)):
        raise ResumeRefused(
            f"The waiting call ({call.tool}) was changed after the run paused: its tool or "
            "arguments no longer match its digest. Nothing ran; resume with the state as the "
            "paused run returned it."
        )
    return call
