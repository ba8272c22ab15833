"""Exactly-once resume: a paused call runs at most once, whoever resumes it, however often.

In one process: the same state resumed twice (both stores, approve and edit), threads resuming
one pause at once, a resume by id while another is in flight, a stale state after the run went
on, crashes simulated between the claim, the tool and its recorded step, and `add_step` on a
taken position. In real processes (`resumer.py`, SQLite): two resumers released together at a
barrier, ten rounds; and `kill -9` at each point between the claim and the end of the run, then
a resume in a new process. The side effect counted is a line per call in a file.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from custom_react import CustomReActAgent
from custom_react.pausing.checkpoints import SQLiteStore
from custom_react.pausing.store import MemoryStore, ResumeRefused
from custom_react.testing import Script
from tests.security.common import file_tool, lines

ROOT = Path(__file__).resolve().parents[2]
RESUMER = Path(__file__).with_name("resumer.py")
ASK = "Thought: ship it\nAction: deploy\nAction Input: prod"
STORES = {"memory": lambda path: MemoryStore(), "sqlite": lambda path: SQLiteStore(path / "r.db")}


def paused(store: Any, log: Path, target: str = "prod") -> dict[str, Any]:
    """A run paused before `deploy(target)`, its state as JSON (as a web app keeps it)."""
    model = Script(f"Thought: ship it\nAction: deploy\nAction Input: {target}")
    agent = CustomReActAgent(model.model, [file_tool(log)], checkpoint=store, approval="interrupt")
    result = agent.invoke(f"Deploy to {target}.")
    assert result["stop_reason"] == "needs_approval" and lines(log) == []
    return json.loads(json.dumps(result["state"]))


def resumer(store: Any, log: Path, *replies: str, **options: Any) -> CustomReActAgent:
    model = Script(*(replies or ("Final Answer: deployed",)))
    return CustomReActAgent(
        model.model, [file_tool(log)], checkpoint=store, approval="interrupt", **options
    )


DECISIONS = [{"approve": True}, {"edit": "staging"}, "approve"]


@pytest.mark.parametrize("decision", DECISIONS, ids=["approve", "edit", "word approve"])
@pytest.mark.parametrize("kind", STORES)
def test_the_same_state_resumed_twice_runs_the_call_once(tmp_path, kind, decision):
    store = STORES[kind](tmp_path)
    log = tmp_path / "calls.log"
    state = paused(store, log)
    first = resumer(store, log).invoke({"resume": state, "decision": decision})
    assert first["stop_reason"] == "final_answer"
    with pytest.raises(ResumeRefused):
        resumer(store, log).invoke({"resume": state, "decision": decision})
    with pytest.raises(ValueError, match="already ended"):
        resumer(store, log).invoke({"resume": state["run_id"], "decision": decision})
    assert len(lines(log)) == 1


@pytest.mark.parametrize("by", ["state", "id"])
@pytest.mark.parametrize("kind", STORES)
def test_eight_threads_resuming_one_pause_run_the_call_once(tmp_path, kind, by):
    store = STORES[kind](tmp_path)
    log = tmp_path / "calls.log"
    state = paused(store, log)
    saved = state if by == "state" else state["run_id"]
    barrier = threading.Barrier(8)
    outcomes: list[str] = []

    def one() -> None:
        agent = resumer(store, log)
        barrier.wait()
        try:
            outcomes.append(
                agent.invoke({"resume": saved, "decision": {"approve": True}})["stop_reason"]
            )
        except ValueError as error:  # ResumeRefused, or "already ended" after the winner
            outcomes.append(type(error).__name__)

    threads = [threading.Thread(target=one) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(lines(log)) == 1 and len(outcomes) == 8
    assert outcomes.count("final_answer") >= 1


@pytest.mark.parametrize("kind", STORES)
def test_a_resume_by_id_while_the_first_is_in_flight_is_refused(tmp_path, kind):
    store = STORES[kind](tmp_path)
    log = tmp_path / "calls.log"
    state = paused(store, log)
    started, release = threading.Event(), threading.Event()
    from langchain_core.tools import tool

    @tool
    def deploy(target: str) -> str:
        """Deploy the build to a target."""
        with log.open("a") as out:
            out.write(target + "\n")
        started.set()
        release.wait(10)
        return "deployed"

    deploy.metadata = {"requires_approval": True}
    slow = CustomReActAgent(
        Script("Final Answer: deployed").model, [deploy], checkpoint=store, approval="interrupt"
    )
    results: list[Any] = []
    worker = threading.Thread(
        target=lambda: results.append(
            slow.invoke({"resume": state["run_id"], "decision": {"approve": True}})
        )
    )
    worker.start()
    assert started.wait(10)
    try:
        for saved in (state["run_id"], state):
            with pytest.raises(ResumeRefused):
                resumer(store, log, "Final Answer: x").invoke(
                    {"resume": saved, "decision": {"approve": True}}
                )
    finally:
        release.set()
        worker.join(10)
    assert results[0]["stop_reason"] == "final_answer" and lines(log) == ["prod"]


@pytest.mark.parametrize("kind", STORES)
def test_a_stale_state_is_refused_after_the_run_went_on_and_paused_again(tmp_path, kind):
    store = STORES[kind](tmp_path)
    log = tmp_path / "calls.log"
    first = paused(store, log)
    again = resumer(store, log, "Thought: and staging\nAction: deploy\nAction Input: staging")
    second = again.invoke({"resume": first, "decision": {"approve": True}})
    assert second["stop_reason"] == "needs_approval"
    for decision in ({"approve": True}, {"edit": "qa"}, {"reject": "no"}):
        with pytest.raises(ResumeRefused):
            resumer(store, log, "Final Answer: x").invoke({"resume": first, "decision": decision})
    assert lines(log) == ["prod"]
    last = resumer(store, log).invoke({"resume": second["state"], "decision": {"approve": True}})
    assert last["stop_reason"] == "final_answer" and lines(log) == ["prod", "staging"]


@pytest.mark.parametrize("kind", STORES)
def test_a_state_paused_without_store_resumed_twice_against_one_store(tmp_path, kind):
    log = tmp_path / "calls.log"
    state = paused(None, log)
    store = STORES[kind](tmp_path)
    resumer(store, log).invoke({"resume": state, "decision": {"approve": True}})
    with pytest.raises(ResumeRefused):
        resumer(store, log, "Final Answer: x").invoke(
            {"resume": state, "decision": {"approve": True}}
        )
    assert len(lines(log)) == 1


@pytest.mark.parametrize("decision", [{"approve": True}, {"edit": "qa"}])
@pytest.mark.parametrize("kind", STORES)
def test_a_call_claimed_by_a_dead_resume_is_not_run_again(tmp_path, kind, decision):
    """The claim was taken (the process died before recording): at most once, unless rejected."""
    store = STORES[kind](tmp_path)
    log = tmp_path / "calls.log"
    state = paused(store, log)
    assert store.claim(state["run_id"], state["pending"]["tool_call_id"]) == "claimed"
    for saved in (state, state["run_id"]):
        with pytest.raises(ResumeRefused, match="claimed"):
            resumer(store, log, "Final Answer: x").invoke({"resume": saved, "decision": decision})
    result = resumer(store, log, "Final Answer: not deployed").invoke(
        {"resume": state["run_id"], "decision": {"reject": "it may have run"}}
    )
    assert result["stop_reason"] == "final_answer" and lines(log) == []
    assert "it may have run" in result["intermediate_steps"][0][1]


class Boom(BaseException):
    """A crash the loop cannot catch (stands for the process dying)."""


@pytest.mark.parametrize("by", ["id", "id with a decision", "state"])
@pytest.mark.parametrize("kind", STORES)
def test_a_crash_after_the_step_was_recorded_goes_on_without_rerunning(tmp_path, kind, by):
    store = STORES[kind](tmp_path)
    log = tmp_path / "calls.log"
    state = paused(store, log)
    write = store.add_step

    def dies_after_the_tool_step(run_id: str, index: int, step: dict[str, Any]) -> None:
        write(run_id, index, step)
        if step["kind"] == "tool_step":
            raise Boom("the process died after the step was recorded")

    store.add_step = dies_after_the_tool_step  # this instance only
    with pytest.raises(Boom):
        resumer(store, log, "Final Answer: x").invoke(
            {"resume": state["run_id"], "decision": {"approve": True}}
        )
    del store.add_step
    assert lines(log) == ["prod"]
    given: dict[str, Any] = {"resume": state["run_id"]}
    if by == "id with a decision":
        given["decision"] = {"approve": True}
    if by == "state":  # the old JSON: it is stale now (the store has the recorded step)
        with pytest.raises(ResumeRefused):
            resumer(store, log, "Final Answer: x").invoke(
                {"resume": state, "decision": {"approve": True}}
            )
    result = resumer(store, log).invoke(given)
    assert result["stop_reason"] == "final_answer" and lines(log) == ["prod"]
    assert result["intermediate_steps"][0][1] == "deployed to prod"


@pytest.mark.parametrize("kind", STORES)
def test_a_stored_position_is_never_overwritten(tmp_path, kind):
    store = STORES[kind](tmp_path)
    log = tmp_path / "calls.log"
    state = paused(store, log)
    resumer(store, log).invoke({"resume": state, "decision": {"approve": True}})
    before = store.load(state["run_id"])["steps"]
    for index in range(len(before)):
        with pytest.raises(ResumeRefused, match="already has step"):
            store.add_step(state["run_id"], index, {**before[index], "observation": "forged"})
    assert store.load(state["run_id"])["steps"] == before


# -- Real processes ------------------------------------------------------------------------------


def test_two_resumer_processes_at_a_barrier_run_the_call_once_in_every_round(tmp_path):
    rounds = 10
    db, log = tmp_path / "runs.db", tmp_path / "calls.log"
    runs = [paused(SQLiteStore(db), tmp_path / "unused.log", f"prod-{i}") for i in range(rounds)]
    env = {**os.environ, "TOOL_SLEEP": "0.05"}
    children = [
        subprocess.Popen(
            [
                sys.executable,
                str(RESUMER),
                "race",
                str(db),
                str(log),
                str(tmp_path),
                str(rounds),
                who,
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        for who in ("a", "b")
    ]
    try:
        for i, state in enumerate(runs):
            deadline = time.monotonic() + 30
            while not all((tmp_path / f"ready-{i}-{who}").exists() for who in "ab"):
                assert time.monotonic() < deadline and all(c.poll() is None for c in children)
                time.sleep(0.002)
            spec = {"resume": state if i % 2 else state["run_id"]}  # by state, by id in turn
            (tmp_path / "go.tmp").write_text(json.dumps(spec))
            os.replace(tmp_path / "go.tmp", tmp_path / f"go-{i}")
        outputs = [child.communicate(timeout=60)[0] for child in children]
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
    outcomes = [json.loads(line) for output in outputs for line in output.splitlines()]
    assert len(outcomes) == 2 * rounds
    for i in range(rounds):
        ran = [line for line in lines(log) if line.split()[0] == f"prod-{i}"]
        assert len(ran) == 1, (i, ran)
        pair = sorted(o["outcome"] for o in outcomes if o["round"] == i)
        assert "final_answer" in pair, pair
        assert set(pair) <= {"final_answer", "refused", "ended"}, pair


def run_resumer(db: Path, log: Path, run_id: str, decision: Any, crash_at: str = "") -> Any:
    args = [sys.executable, str(RESUMER), "once", str(db), str(log), run_id]
    if decision is not None:
        args.append(json.dumps(decision))
    env = {**os.environ, "CRASH_AT": crash_at}
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    if crash_at:
        assert done.returncode == -signal.SIGKILL, done.stderr
        return None
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.parametrize(
    ("crash_at", "ran_before", "then"),
    [
        ("before_claim", 0, "final_answer"),
        ("after_claim", 0, "refused"),
        ("after_tool", 1, "refused"),
        ("after_record", 1, "final_answer"),
    ],
)
def test_kill_9_between_claim_and_finish_then_resume_in_a_new_process(
    tmp_path, crash_at, ran_before, then
):
    db, log = tmp_path / "runs.db", tmp_path / "calls.log"
    state = paused(SQLiteStore(db), log)
    run_id = state["run_id"]
    run_resumer(db, log, run_id, {"approve": True}, crash_at=crash_at)
    assert len(lines(log)) == ran_before
    outcome = run_resumer(db, log, run_id, {"approve": True})
    assert outcome["outcome"] == then, outcome
    expected = 1 if then == "final_answer" else ran_before  # the call ran at most once
    assert len(lines(log)) == expected
    if then == "refused":
        assert (
            "claimed" in outcome["message"]
            and state["pending"]["tool_call_id"] in outcome["message"]
        )
        store = SQLiteStore(db)
        result = resumer(store, log, "Final Answer: checked by hand").invoke(
            {"resume": run_id, "decision": {"reject": "the deploy may have run"}}
        )
        assert result["stop_reason"] == "final_answer"
        assert result["intermediate_steps"][0][0].tool == "deploy"
        assert "may have run" in result["intermediate_steps"][0][1]
    assert len(lines(log)) == expected
    with pytest.raises(ValueError, match="already ended"):
        resumer(SQLiteStore(db), log, "Final Answer: x").invoke(
            {"resume": run_id, "decision": {"approve": True}}
        )
    assert len(lines(log)) == expected
