"""The call a paused run waits on, as JSON data with its digest, and read back checked.

`pending_to_dict` / `pending_from_dict` write and read the waiting call (a `steps.ToolStep` not
yet run) with its `digest`: a hash of its id, tool and exact arguments (`call_digest`) that a
person's decision is bound to. Reading checks each field against the record's type hints
(`ToolStep.from_dict`, strict), so a malformed or tampered call is refused, naming the field,
before any tool runs; a call whose digest no longer matches is refused as changed.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

from custom_react.pausing.store import ResumeRefused
from custom_react.steps import ToolStep


def call_digest(call: ToolStep) -> str:
    """The hash a decision is bound to: the call's id, its tool and its exact arguments."""
    data = {"id": call.tool_call_id, "tool": call.tool, "args": call.args}
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def pending_to_dict(call: ToolStep) -> dict[str, Any]:
    """The waiting call as JSON data, with the `digest` a decision is bound to."""
    return {**call.to_dict(), "digest": call_digest(call)}


def pending_from_dict(data: Any) -> ToolStep:
    """The waiting call `pending_to_dict` wrote; its digest must still match it.

    Raises:
        ResumeRefused: The call was changed after the pause (its digest does not match).
        ValueError: A field is missing or wrong, or the call already has an Observation.
    """
    if not isinstance(data, dict):
        raise ValueError("The state's 'pending' must be the waiting tool step as JSON.")
    digest = data.get("digest")
    call = ToolStep.from_dict({k: v for k, v in data.items() if k != "digest"}, "pending")
    if call.observation or call.status != "pending":
        raise ValueError("The state's 'pending' call already has an Observation: it ran.")
    if not isinstance(digest, str) or not hmac.compare_digest(digest, call_digest(call)):
        raise ResumeRefused(
            f"The waiting call ({call.tool}) was changed after the run paused: its tool or "
            "arguments no longer match its digest. Nothing ran; resume with the state as the "
            "paused run returned it."
        )
    return call
