"""Approval, whole: which tools wait for a person, who may let them run, now or after a pause.

A tool waits for a person when it is marked `requires_approval` or named in `interrupt_before`
(`requires_approval`, `waits_for_approval`). Two ways, chosen by the agent's `approval` option. With "callback" (the default) the `approve`
callback answers at once: `denial` is the Observation when it says no or is not set, and only a
call it approved gets `APPROVAL_CONFIG_KEY` set in its `configurable` (`acting.run_tool` sets it
for every call), so a tool can check that itself. With "interrupt" the run ends before such a tool with
`stop_reason="needs_approval"` (the loop yields `ApprovalRequested`; its `state` holds the
waiting `ToolStep`), and resuming it with a `Decision` continues it (`decided`): approve
runs the call as asked, edit runs it with another input, reject does not run it and the reason is
the Observation (status `denied`). The pause itself is `ApprovalPause` (with `waiting_call`, the
call a paused sub-agent waits on); the guards call this module in order (`acting.py`), and
running the tool is `acting.py`'s job.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from langchain_core.tools import BaseTool

from custom_react.arguments import bind_arguments
from custom_react.parsing.action_input import MAX_INPUT_DEPTH, ActionInput, input_depth
from custom_react.prompts import message
from custom_react.steps import ToolStep

Approve = Callable[[str, dict[str, Any]], bool]
"""Asked before a tool with `metadata={"requires_approval": True}` runs: (name, args) -> yes?"""
APPROVAL_CONFIG_KEY = "custom_react_approved"
"""Set in the tool's `configurable` only for a call a person approved; tools may check it too."""


@dataclass(frozen=True)
class Decision:
    """What the person decided about a paused `ToolStep`.

    `Decision("approve")`, `Decision("edit", new_input)` (the new Action Input: text or a JSON
    object) or `Decision("reject", reason)`. `Decision.read` also takes the JSON forms
    `{"approve": true}`, `{"edit": ...}` and `{"reject": "reason"}`. Bound to the call the
    person saw with its `digest` (`{"approve": true, "digest": state["pending"]["digest"]}`): a
    resume whose waiting call has another digest is refused before anything runs.
    """

    kind: Literal["approve", "edit", "reject"]
    value: ActionInput = ""
    digest: str = ""
    """The digest of the call the person decided about (`pausing.state.call_digest`), if given."""

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
        if isinstance(decision, dict) and isinstance(decision.get("digest", ""), str):
            digest = decision.get("digest", "")
            rest = {key: value for key, value in decision.items() if key != "digest"}
            ((kind, value),) = rest.items() if len(rest) == 1 else (("", None),)
            if kind == "approve" and value is True:
                return cls("approve", digest=digest)
            if kind == "edit" and isinstance(value, str | dict):
                if (depth := input_depth(value)) > MAX_INPUT_DEPTH:
                    raise ValueError(
                        f"The edited input is nested {depth} levels deep; at most "
                        f"{MAX_INPUT_DEPTH} are read. Nothing ran."
                    )
                return cls("edit", value, digest)
            if kind == "reject" and isinstance(value, str):
                return cls("reject", value, digest)
        raise ValueError(
            f"Unknown decision {decision!r:.200}: use {{'approve': True}}, {{'edit': <new input>}} "
            "or {'reject': '<reason>'}, with the call's 'digest' if you have it."
        )


def requires_approval(tool: BaseTool) -> bool:
    """Whether the tool may run only with a person's approval (`metadata={"requires_approval": True}`)."""
    return bool((tool.metadata or {}).get("requires_approval"))


def waits_for_approval(tool: BaseTool, approval: str, interrupt_before: Sequence[str]) -> bool:
    """Whether the run pauses before `tool`: named in `interrupt_before`, or approval by pause."""
    pauses = requires_approval(tool) and approval == "interrupt"
    return pauses or tool.name in interrupt_before


class ApprovalPause(Exception):
    """The call waits for a person's decision: the run pauses, resumable with a `Decision`."""

    def __init__(self, call: ToolStep, state: dict[str, Any] | None = None) -> None:
        super().__init__(f"{call.tool} waits for a person's approval")
        self.pending = call if state is None else replace(call, inner_state=state)
        """The run's waiting call (for a sub-agent, with the sub-agent's paused run)."""
        self.call = call if state is None else waiting_call(state)
        """The call the person decides about (the sub-agent's, however deep)."""


def waiting_call(state: dict[str, Any]) -> ToolStep:
    """The call a paused run waits on, inside every paused sub-agent."""
    pending = {k: v for k, v in state["pending"].items() if k not in ("digest", "kind")}
    inner = pending.pop("inner_state", None)
    return waiting_call(inner) if inner else ToolStep(**pending)


def denial(
    tool: BaseTool, args: dict[str, Any], approve: Approve | None, language: str = "en"
) -> str | None:
    """The Observation when `tool` may not run now (no callback, or it said no); else None.

    Only `True` lets it run: any other answer (a string, a coroutine from an async callback that
    slipped past the checks) is a no.
    """
    if approve is None:
        return not_run("approval_missing", language, tool=tool.name)
    answer = approve(tool.name, args)
    if inspect.iscoroutine(answer):
        answer.close()  # never awaited: closed, so no warning is left behind
    if answer is not True:
        return not_run("approval_refused", language, tool=tool.name)
    return None


def decided(
    call: ToolStep, decision: Decision, tool: BaseTool | None, language: str = "en"
) -> tuple[ToolStep, str | None]:
    """The waiting call as the person decided it, and why it does not run (None: it runs).

    An edit binds the new input to the tool's arguments; a reject gives its reason; a call whose
    tool the resumed agent lacks cannot run.
    """
    if tool is None:
        return call, not_run("not_a_tool", language, tool=call.tool)
    if decision.kind == "reject":
        return call, not_run("approval_rejected", language, tool=tool.name, reason=decision.value)
    if decision.kind == "edit":
        args, tool_input = bind_arguments(tool, decision.value)
        call = replace(call, tool_input=tool_input, args=args)
    return call, None


def not_run(key: str, language: str, **values: Any) -> str:
    """The Observation `key` for a tool that did not run, ending with what the model may do."""
    return message(key, language, not_run=message("not_run", language), **values)
