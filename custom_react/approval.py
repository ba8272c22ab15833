"""Human approval that can wait: the paused call, the person's decision, and their events.

With `approval="interrupt"`, a tool marked `requires_approval` does not run when the model asks
for it: the run ends with `stop_reason="needs_approval"`, its `state` (JSON) holds the
`ActionRequest`, and `ApprovalRequested` is yielded. Resuming the run with that state and a
`Decision` continues it: approve (run the call as asked), edit (run it with another input) or
reject (with a reason, which becomes the observation; status `"denied"`). `ApprovalDecided` is
yielded before the call's observation. With the default `approval="callback"`, the `approve`
callback answers at once and nothing here is used.
"""

from __future__ import annotations

import uuid
from dataclasses import asdict, dataclass
from typing import Any, Literal

from custom_react.parser import Action, ActionInput

DecisionKind = Literal["approve", "edit", "reject"]
PAUSED = "Paused: {tool} needs a person's approval. Resume the run with a decision."
"""The `output` of a run that waits for approval."""


@dataclass(frozen=True)
class ActionRequest:
    """The Action the model asked for, bound to its tool: what a paused run waits on."""

    thought: str
    tool: str
    tool_input: ActionInput
    args: dict[str, Any]
    tool_call_id: str
    iteration: int
    log: str

    @classmethod
    def of(
        cls,
        action: Action,
        tool: str,
        tool_input: ActionInput,
        args: dict[str, Any],
        iteration: int,
    ) -> ActionRequest:
        """The request for `action`, with the resolved tool name and its bound arguments."""
        call_id = f"call_{uuid.uuid4().hex[:12]}"
        return cls(action.thought, tool, tool_input, args, call_id, iteration, action.log)

    def to_dict(self) -> dict[str, Any]:
        """The call as JSON-ready data."""
        return asdict(self)


@dataclass(frozen=True)
class Decision:
    """What the person decided about a `ActionRequest`.

    `Decision("approve")`, `Decision("edit", new_input)` (the new Action Input: text or a JSON
    object) or `Decision("reject", reason)`. `Decision.read` also takes the JSON forms
    `{"approve": true}`, `{"edit": ...}` and `{"reject": "reason"}`.
    """

    kind: DecisionKind
    value: ActionInput = ""

    @classmethod
    def read(cls, decision: Decision | dict[str, Any] | str) -> Decision:
        """A `Decision` from itself, its JSON form, or the word "approve".

        Raises:
            ValueError: Anything else, with the forms that work.
        """
        if isinstance(decision, Decision):
            return decision
        if decision == "approve":
            return cls("approve")
        if isinstance(decision, dict) and len(decision) == 1:
            ((kind, value),) = decision.items()
            if kind == "approve" and value is True:
                return cls("approve")
            if kind == "edit" and isinstance(value, str | dict):
                return cls("edit", value)
            if kind == "reject" and isinstance(value, str):
                return cls("reject", value)
        raise ValueError(
            f"Unknown decision {decision!r}: use {{'approve': True}}, {{'edit': <new input>}} "
            "or {'reject': '<reason>'}."
        )


@dataclass(frozen=True)
class ApprovalRequested:
    """The run paused before a tool that needs approval; resume it with a `Decision`."""

    call: ActionRequest
    run_id: str
    type: Literal["approval_requested"] = "approval_requested"


@dataclass(frozen=True)
class ApprovalDecided:
    """A paused run was resumed with the person's decision about its pending call."""

    call: ActionRequest
    decision: Decision
    type: Literal["approval_decided"] = "approval_decided"
