"""A run as JSON, and reading it back to resume it: from a paused run's state, or a store by id.

`run_state` writes a run (question and the message it came in, earlier conversation, every step
record, the waiting call)
as plain JSON data with `STATE_VERSION`; `read_state` reads it back as a `RunStart`, checking
every field first (`read_record`): a malformed state is refused before any tool runs. The waiting
call carries its `digest` (a hash of its id, tool and arguments): a resume whose call does not
match it, or a `Decision` that names another digest, is refused. With the agent's `state_key`
the whole state is also signed (`sign_state`), and a state that was changed, or not signed, is
refused.

With a store (`store.py`), a state given as JSON is checked against the stored run, so a stale
state (one already resumed) is refused. `resume_run` reads the agent's `{"resume": state_or_run_id, "decision": ...}` input. A new
question never comes here (`memory.open_run`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from langchain_core.messages import (
    BaseMessage,
    HumanMessage,
    message_to_dict,
    messages_from_dict,
    messages_to_dict,
)
from langchain_core.messages.ai import UsageMetadata
from pydantic import ValidationError

from custom_react.pausing.approval import Decision, waiting_call
from custom_react.pausing.records import call_digest, pending_from_dict, pending_to_dict
from custom_react.pausing.store import ResumeRefused, RunStore
from custom_react.pausing.typed_json import adapter
from custom_react.steps import FinalAnswerEvent, Step, ToolStep, step_from_dict

STATE_VERSION = 6
"""Bumped whenever the JSON shape of a run changes; a state of a format not in `READS_VERSIONS`
is refused, not misread."""
READS_VERSIONS = (3, 4, 5, STATE_VERSION)
"""The versions a state may have. What a later format added reads as its default in an older
state: the records' fields of format 4 (a tool's artifact, what a reply carried; `typed_json`),
the question's message (`asked`, format 5) as None, the messages after it (`handed`, 6) as none."""
_STATE_FIELDS: dict[str, Any] = {
    "version": int,
    "run_id": str,
    "thread_id": str | None,
    "question": str,
    "asked": dict[str, Any] | None,
    "handed": list[dict[str, Any]] | None,
    "chat_history": list[dict[str, Any]],
    "steps": list[dict[str, Any]],
    "pending": dict[str, Any] | None,
    "usage": UsageMetadata | None,
}


@dataclass(frozen=True)
class RunStart:
    """Where a run begins: its question, history and steps so far, and a pending call, if any."""

    question: str
    chat_history: list[BaseMessage]
    run_id: str
    steps: list[Step] = field(default_factory=list)
    pending: ToolStep | None = None
    decision: Decision | None = None
    thread_id: str | None = None
    usage: UsageMetadata | None = None
    """The tokens the run's model calls used before it stopped (a state without them: None)."""
    asked: HumanMessage | None = None
    """The question as the message it came in (its id, its name), when it came as one."""
    handed: list[BaseMessage] = field(default_factory=list)
    """The messages after the question that the run was given (`inputs.RunInput.handed`)."""

    @property
    def iterations(self) -> int:
        """Model calls the run made before it stopped (the pending call's included)."""
        done = [step.iteration for step in self.steps]
        return max([*done, self.pending.iteration if self.pending else 0])


# -- A run as JSON -------------------------------------------------------------------------------


def run_state(
    question: str,
    chat_history: Sequence[BaseMessage],
    steps: Sequence[Step],
    run_id: str,
    pending: ToolStep | None = None,
    thread_id: str | None = None,
    key: str | bytes | None = None,
    usage: UsageMetadata | None = None,
    asked: HumanMessage | None = None,
    handed: Sequence[BaseMessage] = (),
) -> dict[str, Any]:
    """The run as JSON data: enough to resume it in another process, later (signed with `key`).

    With the tokens used so far (`usage`), so a resumed run's total and `max_tokens_per_run` go
    on from them, and the question's message (`asked`) and the messages after it (`handed`), so
    the resumed run shows and gives them back as they came (a LangGraph graph that merges
    messages by id keeps them once).
    """
    state = {
        "version": STATE_VERSION,
        "run_id": run_id,
        "thread_id": thread_id,
        "question": question,
        "asked": message_to_dict(asked) if asked is not None else None,
        "handed": messages_to_dict(list(handed)),
        "chat_history": messages_to_dict(list(chat_history)),
        "steps": [step.to_dict() for step in steps],
        "pending": pending_to_dict(pending) if pending else None,
        "usage": dict(usage) if usage else None,
    }
    return sign_state(state, key) if key is not None else state


def sign_state(state: dict[str, Any], key: str | bytes) -> dict[str, Any]:
    """The state with its `signature`: an HMAC-SHA256 of its JSON with the application's `key`."""
    unsigned = {name: value for name, value in state.items() if name != "signature"}
    return {**unsigned, "signature": _signature(unsigned, key)}


def _signature(state: dict[str, Any], key: str | bytes) -> str:
    secret = key.encode() if isinstance(key, str) else key
    text = json.dumps(state, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hmac.new(secret, text.encode(), hashlib.sha256).hexdigest()


def check_signature(state: dict[str, Any], key: str | bytes) -> None:
    """Refuse a state that is not signed with `key`, or was changed after it was signed.

    Raises:
        ResumeRefused: The signature is missing or does not match.
    """
    unsigned = {name: value for name, value in state.items() if name != "signature"}
    signature = state.get("signature")
    if not isinstance(signature, str) or not hmac.compare_digest(
        signature, _signature(unsigned, key)
    ):
        raise ResumeRefused(
            "This run state is not signed with the agent's state_key, or was changed after "
            "it was signed. Nothing ran; resume with the state as the paused run returned it."
        )


def read_state(state: Any, key: str | bytes | None = None) -> RunStart:
    """The run `run_state` wrote, every field checked before anything runs.

    Raises:
        ResumeRefused: With `key`, the state is not signed with it, or was changed since; or the
            waiting call was changed after the pause.
        ValueError: The state was written by another version of its format, or a field is
            missing or wrong (named).
    """
    if not isinstance(state, dict) or "steps" not in state:
        raise ValueError("Not a run state: resume with the `state` a paused run returned.")
    if state.get("version") not in READS_VERSIONS:
        raise ValueError(
            f"This run state has format version {state.get('version')!r}, but this version of "
            f"custom-react reads version {STATE_VERSION}: finish the run with the version "
            "that paused it, or start it again."
        )
    if key is not None:
        check_signature(state, key)
    if unknown := sorted(set(state) - set(_STATE_FIELDS) - {"signature"}):
        raise ValueError(f"The run state has unknown fields {unknown}; nothing ran.")
    for name, kind in _STATE_FIELDS.items():
        try:
            adapter(kind).validate_python(state.get(name), strict=True)
        except ValidationError:
            raise ValueError(
                f"The run state's {name!r} must be a {kind}, not {state.get(name)!r:.80}."
            ) from None
    history = read_messages(state["chat_history"], "chat_history")
    steps = [step_from_dict(step, f"step {i + 1}") for i, step in enumerate(state["steps"])]
    return RunStart(
        question=state["question"],
        chat_history=history,
        steps=steps,
        run_id=state["run_id"],
        pending=pending_from_dict(state["pending"]) if state["pending"] else None,
        thread_id=state["thread_id"],
        usage=state.get("usage"),
        asked=read_asked(state.get("asked")),
        handed=read_messages(state.get("handed") or [], "handed"),
    )


def read_messages(data: list[dict[str, Any]], name: str) -> list[BaseMessage]:
    """The messages a state keeps under `name`, as `messages_to_dict` wrote them.

    Raises:
        ValueError: They cannot be read (named).
    """
    try:
        return messages_from_dict(data)
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"The run state's {name!r} cannot be read: {error}.") from None


def read_asked(data: dict[str, Any] | None) -> HumanMessage | None:
    """The question's message a state keeps (format 5; None in an older state, or none given).

    Raises:
        ValueError: It cannot be read, or is not a human message.
    """
    if data is None:
        return None
    (message,) = read_messages([data], "asked")
    if not isinstance(message, HumanMessage):
        raise ValueError("The run state's 'asked' must be a human message.")
    return message


def resume_run(
    agent_input: dict[str, Any], store: RunStore | None, key: str | bytes | None = None
) -> RunStart:
    """Where a resumed run starts: its saved steps, and the person's decision on a waiting call.

    A state given as JSON is checked against the store's copy when the store knows the run: a
    state older than the stored run (it was resumed already) is refused. A waiting call whose
    result is already recorded (the process died after it ran) needs no decision: the run goes on
    from its recorded Observation.

    Raises:
        ResumeRefused: The state is stale, tampered with, or the decision names another call.
        ValueError: A resume by id without a store to find it in, a malformed state, a run that
            already ended with its final answer, or a paused run resumed without a decision.
    """
    saved = agent_input["resume"]
    if isinstance(saved, str):
        if store is None:
            raise ValueError("Resuming a run by id needs the checkpoint store it was saved in.")
        start = read_state(store.load(saved))  # the store is trusted: it is not signed
    else:
        start = read_state(saved, key)
        if store is not None:
            check_not_stale(start, store)
    if start.steps and isinstance(start.steps[-1], FinalAnswerEvent):
        raise ValueError(f"Run {start.run_id} already ended with its final answer.")
    if start.pending is None:
        return start
    if any(
        isinstance(step, ToolStep) and step.tool_call_id == start.pending.tool_call_id
        for step in start.steps
    ):
        return replace(start, pending=None)  # it ran, and its step was recorded: go on from it
    if agent_input.get("decision") is None:
        raise ValueError(
            f"The run waits for a decision about {start.pending.tool}: resume it with "
            "{'resume': ..., 'decision': {'approve': True} | {'edit': ...} | {'reject': ...}}."
        )
    decision = Decision.read(agent_input["decision"])
    if decision.digest and not any(
        hmac.compare_digest(decision.digest, digest) for digest in decided_digests(start.pending)
    ):
        raise ResumeRefused(
            f"The decision was made about another call than the one this run waits for "
            f"({start.pending.tool}): its digest does not match. Nothing ran."
        )
    return replace(start, decision=decision)


def decided_digests(call: ToolStep) -> list[str]:
    """The digests a decision about `call` may name (its own, and a paused sub-agent's call).

    Its own is `state["pending"]["digest"]`; for a paused sub-agent, the call inside it that the
    person was shown (`ApprovalRequested`, the graph's interrupt) is named by its digest too.
    """
    inner = [] if call.inner_state is None else [call_digest(waiting_call(call.inner_state))]
    return [call_digest(call), *inner]


def check_not_stale(start: RunStart, store: RunStore) -> None:
    """Refuse a state older than the store's copy of its run (it was resumed since).

    Raises:
        ResumeRefused: The store has more steps than the state, or another waiting call.
    """
    try:
        stored = store.load(start.run_id)
    except (KeyError, ValueError, LookupError):
        return  # the store does not know the run yet: this resume registers it
    stored_pending = stored.get("pending") or {}
    if len(stored["steps"]) > len(start.steps) or (
        start.pending is not None and stored_pending.get("digest") != call_digest(start.pending)
    ):
        raise ResumeRefused(
            f"This state of run {start.run_id} is older than the stored run "
            f"({len(start.steps)} steps here, {len(stored['steps'])} stored): it was resumed "
            "already. Nothing ran; resume it by id to continue from the stored steps."
        )
