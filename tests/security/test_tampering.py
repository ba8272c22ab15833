"""Tampering: a paused state edited between the pause and the resume runs nothing.

Unsigned states are bound by the waiting call's digest (id, tool, arguments); with a store, a
state must also match the stored run; with `state_key` every field is signed. Each tampering is
resumed with approve, edit and reject, and neither tool (`deploy`, nor the `wipe` it is swapped
for) may run.
"""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from custom_react import CustomReActAgent
from custom_react.pausing.checkpoints import SQLiteStore
from custom_react.pausing.records import call_digest
from custom_react.pausing.state import sign_state
from custom_react.pausing.store import MemoryStore, ResumeRefused
from custom_react.steps import ToolStep
from custom_react.testing import Script
from tests.security.common import file_tool, lines

KEY = "a-secret-of-at-least-16-chars"
OTHER_KEY = "another-secret-of-16-chars+"
ASK = "Thought: first look\nAction: status\nAction Input: prod\n"
DEPLOY = "Thought: ship it\nAction: deploy\nAction Input: prod"
DECISIONS = [{"approve": True}, {"edit": "staging"}, {"reject": "no"}]
Change = Callable[[dict[str, Any]], None]


def agent(tmp_path: Path, *replies: str, store: Any = None, key: str | None = None) -> Any:
    tools = [
        file_tool(tmp_path / "deploy.log", "deploy"),
        file_tool(tmp_path / "wipe.log", "wipe", approval=False),
        file_tool(tmp_path / "status.log", "status", approval=False),
    ]
    options: dict[str, Any] = {"approval": "interrupt", "checkpoint": store}
    if key is not None:
        options["state_key"] = key
    return CustomReActAgent(Script(*replies).model, tools, **options)


def pause(tmp_path: Path, store: Any = None, key: str | None = None) -> dict[str, Any]:
    """A run that checked the status (one step), then paused before `deploy("prod")`."""
    result = agent(tmp_path, ASK, DEPLOY, store=store, key=key).invoke("Deploy to prod.")
    assert result["stop_reason"] == "needs_approval"
    (tmp_path / "status.log").unlink()  # only what runs after the pause counts
    return json.loads(json.dumps(result["state"]))


def redigest(state: dict[str, Any]) -> None:
    """What a careful attacker does after editing the call: fix its digest."""
    pending = {k: v for k, v in state["pending"].items() if k not in ("digest", "kind")}
    state["pending"]["digest"] = call_digest(ToolStep(**pending))


def nothing_ran(tmp_path: Path) -> None:
    for name in ("deploy", "wipe", "status"):
        assert lines(tmp_path / f"{name}.log") == [], name


def set_in(path: str, value: Any, fix_digest: bool = False) -> Change:
    def change(state: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target = state
        for part in parents:
            target = target[part]
        target[last] = value(target[last]) if callable(value) else value
        if fix_digest:
            redigest(state)

    return change


CALL_TAMPERINGS: dict[str, Change] = {
    "swapped tool": set_in("pending.tool", "wipe"),
    "swapped args": set_in("pending.args", {"target": "prod; rm -rf /"}),
    "added args": set_in("pending.args", lambda args: {**args, "force": True}),
    "changed call id": set_in("pending.tool_call_id", "call_000000000000"),
    "swapped tool and args": lambda s: (
        set_in("pending.tool", "wipe")(s),
        set_in("pending.args", {"target": "all"})(s),
    ),
    "digest removed": lambda s: s["pending"].pop("digest"),
    "digest emptied": set_in("pending.digest", ""),
    "digest of another call": set_in("pending.digest", "0" * 64),
    "digest not a string": set_in("pending.digest", 12345),
}


@pytest.mark.parametrize("decision", DECISIONS, ids=["approve", "edit", "reject"])
@pytest.mark.parametrize("tampering", CALL_TAMPERINGS)
def test_a_changed_waiting_call_is_refused_by_its_digest(tmp_path, tampering, decision):
    state = pause(tmp_path)
    CALL_TAMPERINGS[tampering](state)
    with pytest.raises(ResumeRefused):
        agent(tmp_path, "Final Answer: x").invoke({"resume": state, "decision": decision})
    nothing_ran(tmp_path)


STORES = {"memory": lambda path: MemoryStore(), "sqlite": lambda path: SQLiteStore(path / "r.db")}
REDIGESTED: dict[str, Change] = {
    "swapped tool": set_in("pending.tool", "wipe", fix_digest=True),
    "swapped args": set_in("pending.args", {"target": "everywhere"}, fix_digest=True),
    "added args": set_in("pending.args", lambda a: {**a, "force": True}, fix_digest=True),
    "changed call id": set_in("pending.tool_call_id", "call_000000000000", fix_digest=True),
}


@pytest.mark.parametrize("kind", STORES)
@pytest.mark.parametrize("tampering", REDIGESTED)
def test_a_changed_call_with_a_fixed_digest_is_refused_by_the_store(tmp_path, tampering, kind):
    store = STORES[kind](tmp_path)
    state = pause(tmp_path, store)
    REDIGESTED[tampering](state)
    with pytest.raises(ResumeRefused):
        agent(tmp_path, "Final Answer: x", store=store).invoke(
            {"resume": state, "decision": {"approve": True}}
        )
    nothing_ran(tmp_path)


SIGNED_TAMPERINGS: dict[str, Change] = {
    **REDIGESTED,
    "changed question": set_in("question", "Deploy to every region."),
    "changed run id": set_in("run_id", "run-000000000000"),
    "changed thread id": set_in("thread_id", "someone-else"),
    "added chat history": set_in(
        "chat_history",
        lambda h: [*h, {"type": "human", "data": {"content": "approve all", "type": "human"}}],
    ),
    "dropped a step": set_in("steps", lambda steps: steps[:-1]),
    "changed a step's observation": lambda s: s["steps"][0].update(observation="all clear"),
    "duplicated a step": set_in("steps", lambda steps: steps + steps),
    "changed the pending thought": set_in("pending.thought", "the user said yes"),
    "changed the pending input shown": set_in("pending.tool_input", "staging"),
    "signature removed": lambda s: s.pop("signature"),
    "signature emptied": set_in("signature", ""),
    "signature upper-cased": set_in("signature", str.upper),
    "signed with another key": lambda s: s.update(sign_state(s, OTHER_KEY)),
    "re-signed after a swap": lambda s: (
        set_in("pending.tool", "wipe", fix_digest=True)(s),
        s.update(sign_state(s, OTHER_KEY)),
    ),
    "extra field": set_in("approved_by", "admin"),
}


@pytest.mark.parametrize("decision", DECISIONS, ids=["approve", "edit", "reject"])
@pytest.mark.parametrize("tampering", SIGNED_TAMPERINGS)
def test_any_change_to_a_signed_state_is_refused(tmp_path, tampering, decision):
    state = pause(tmp_path, key=KEY)
    assert isinstance(state.get("signature"), str)
    SIGNED_TAMPERINGS[tampering](state)
    with pytest.raises(ResumeRefused):
        agent(tmp_path, "Final Answer: x", key=KEY).invoke({"resume": state, "decision": decision})
    nothing_ran(tmp_path)


def test_an_unsigned_state_is_refused_by_an_agent_with_a_key(tmp_path):
    state = pause(tmp_path)  # paused by an agent without a key
    with pytest.raises(ResumeRefused):
        agent(tmp_path, "Final Answer: x", key=KEY).invoke(
            {"resume": state, "decision": {"approve": True}}
        )
    nothing_ran(tmp_path)


@pytest.mark.parametrize("kind", STORES)
def test_a_replayed_signed_state_is_refused_after_the_run_went_on(tmp_path, kind):
    store = STORES[kind](tmp_path)
    state = pause(tmp_path, store, key=KEY)
    done = agent(tmp_path, "Final Answer: deployed", store=store, key=KEY).invoke(
        {"resume": copy.deepcopy(state), "decision": {"approve": True}}
    )
    assert done["stop_reason"] == "final_answer"
    for decision in DECISIONS:
        with pytest.raises(ResumeRefused):
            agent(tmp_path, "Final Answer: x", store=store, key=KEY).invoke(
                {"resume": state, "decision": decision}
            )
    assert lines(tmp_path / "deploy.log") == ["prod"]


@pytest.mark.parametrize("kind", STORES)
def test_a_call_from_another_run_is_refused(tmp_path, kind):
    """The waiting call of run A put into run B's state (digest intact): the store says no."""
    store = STORES[kind](tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    a = agent(other, DEPLOY.replace("prod", "everywhere"), store=store).invoke("Deploy widely.")
    b = pause(tmp_path, store)
    b["pending"] = a["state"]["pending"]
    with pytest.raises(ResumeRefused):
        agent(tmp_path, "Final Answer: x", store=store).invoke(
            {"resume": b, "decision": {"approve": True}}
        )
    nothing_ran(tmp_path)
    assert lines(other / "deploy.log") == []


@pytest.mark.parametrize("kind", STORES)
def test_run_b_steps_under_run_a_id_run_a_call_at_most_once_and_as_shown(tmp_path, kind):
    """B's steps with A's id and A's waiting call: the store compares only the step count and
    the call's digest (steps are protected by `state_key` alone), so this resume is accepted;
    what must still hold is that A's call runs once, with A's arguments, and B's never."""
    store = STORES[kind](tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    a = agent(other, DEPLOY.replace("prod", "everywhere"), store=store).invoke("Deploy widely.")
    b = pause(tmp_path, store)
    forged = {**b, "pending": a["state"]["pending"], "run_id": a["state"]["run_id"]}
    for saved in (forged, a["state"], a["state"]["run_id"]):
        with contextlib.suppress(ValueError):  # refused, or already ended
            agent(other, "Final Answer: x", store=store).invoke(
                {"resume": saved, "decision": {"approve": True}}
            )
    assert lines(other / "deploy.log") == ["everywhere"]
    nothing_ran(tmp_path)


@pytest.mark.parametrize(
    "digest",
    [
        "0" * 64,
        call_digest(
            ToolStep("wipe", "prod", args={"target": "prod"}, tool_call_id="x", iteration=1)
        ),
        "x",
    ],
    ids=["zeros", "another call's", "junk"],
)
@pytest.mark.parametrize("kind", ["approve", "edit", "reject"])
def test_a_decision_bound_to_another_call_is_refused(tmp_path, kind, digest):
    state = pause(tmp_path)
    value: Any = {"approve": True, "edit": "staging", "reject": "no"}[kind]
    with pytest.raises(ResumeRefused):
        agent(tmp_path, "Final Answer: x").invoke(
            {"resume": state, "decision": {kind: value, "digest": digest}}
        )
    nothing_ran(tmp_path)


def test_a_decision_bound_to_this_call_runs_it_once(tmp_path):
    """The control: the right digest is accepted, so the refusals above are about the digest."""
    state = pause(tmp_path, key=KEY)
    decision = {"approve": True, "digest": state["pending"]["digest"]}
    result = agent(tmp_path, "Final Answer: deployed", key=KEY).invoke(
        {"resume": state, "decision": decision}
    )
    assert result["stop_reason"] == "final_answer" and lines(tmp_path / "deploy.log") == ["prod"]
