"""A step whose executor pauses for a person pauses the plan-and-execute run; one resume finishes both.

The executor (`approval="interrupt"`) reaches a tool that needs approval: the plan run ends with
`stop_reason="needs_approval"` and a `state` holding the plan, the past steps and the executor's
paused run. Resuming it with a decision carries that step on (the tool runs once, as decided),
then the plan as before. Scripted models, in invoke, ainvoke and stream.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tools import tool

from custom_react import CustomReActAgent
from custom_react.pausing.store import ResumeRefused
from custom_react.plan.agent import PlanAndExecuteAgent
from custom_react.testing import Script
from tests.conftest import run_by

QUESTION = "Deploy the release to prod, then say so."
PLAN = "Plan:\n1. Deploy the release to prod.\n2. Report the result."
DEPLOY = "Thought: deploy it\nAction: deploy\nAction Input: prod"


def deploy_tool(ran: list[str]) -> Any:
    @tool
    def deploy(target: str) -> str:
        """Deploy the release to a target."""
        ran.append(target)
        return f"deployed to {target}"

    deploy.metadata = {"requires_approval": True}
    return deploy


def agent(script: Script, ran: list[str]) -> PlanAndExecuteAgent:
    executor = CustomReActAgent(
        script.model, [deploy_tool(ran)], approval="interrupt", max_iterations=4
    )
    return PlanAndExecuteAgent(script.model, executor, replan="on_failure")


@pytest.mark.parametrize("how", ["invoke", "ainvoke", "stream"])
def test_an_executor_pause_pauses_the_plan_run_and_one_resume_finishes_both(how: str) -> None:
    ran: list[str] = []
    first = Script(PLAN, DEPLOY)
    paused, _ = run_by(agent(first, ran), how, QUESTION)
    assert paused["stop_reason"] == "needs_approval" and ran == []
    assert "deploy" in paused["output"]  # the executor's pause, not an invented answer
    state = json.loads(json.dumps(paused["state"]))  # plain JSON: it may be stored anywhere
    assert state["executor"]["pending"]["tool"] == "deploy"

    second = Script(
        "Thought: done\nFinal Answer: deployed to prod",  # the executor, after the tool ran
        "Final Answer: The release is deployed to prod.",  # step 2's executor
    )
    done, _ = run_by(agent(second, ran), how, {"resume": state, "decision": {"approve": True}})
    assert ran == ["prod"]  # the approved call ran once
    assert done["stop_reason"] == "final_answer"
    assert done["output"] == "The release is deployed to prod."
    assert [step for step, _ in done["past_steps"]] == [
        "Deploy the release to prod.",
        "Report the result.",
    ]


def test_a_rejected_step_is_a_past_step_and_the_tool_never_runs() -> None:
    ran: list[str] = []
    paused, _ = run_by(agent(Script(PLAN, DEPLOY), ran), "invoke", QUESTION)
    second = Script(
        "Final Answer: not deployed: the person said no",
        "Final Answer: The release was not deployed.",
    )
    decision = {"resume": paused["state"], "decision": {"reject": "not today"}}
    done, _ = run_by(agent(second, ran), "invoke", decision)
    assert ran == []
    assert done["past_steps"][0][1] == "not deployed: the person said no"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: {**s, "done": 5}, "do not fit its 'plan'"),
        (lambda s: {**s, "question": 123}, "'question'"),
        (lambda s: {**s, "kind": "react"}, "Not a paused plan-and-execute run"),
        (lambda s: {**s, "executor": {**s["executor"], "question": 7}}, "'question'"),
        (lambda s: {**s, "asked": "hi"}, "'asked'"),
        (lambda s: {**s, "asked": [{"bad": 1}]}, "'asked'"),
        (lambda s: {**s, "messages": [{"bad": 1}]}, "'messages'"),
    ],
)
def test_a_bad_plan_state_is_refused_before_anything_runs(change: Any, message: str) -> None:
    ran: list[str] = []
    paused, _ = run_by(agent(Script(PLAN, DEPLOY), ran), "invoke", QUESTION)
    resumed = agent(Script("Final Answer: x", "Final Answer: y"), ran)
    with pytest.raises(ValueError, match=message):
        resumed.invoke({"resume": change(paused["state"]), "decision": {"approve": True}})
    assert ran == []


def test_a_resumed_run_keeps_its_earlier_steps_tool_calls_and_tokens() -> None:
    ran: list[str] = []
    plan = "1. Work out 17 * 23.\n2. Deploy the release to prod."
    used = {"input_tokens": 10, "output_tokens": 2, "total_tokens": 12}
    replies = [plan, "Action: calculator\nAction Input: 17 * 23", "Final Answer: 391", DEPLOY]
    first = Script(*[AIMessage(reply, usage_metadata=used) for reply in replies])
    steps = [deploy_tool(ran), calculator]
    paused = with_tools(first, steps).invoke(QUESTION)
    assert paused["stop_reason"] == "needs_approval"
    state = json.loads(json.dumps(paused["state"]))
    second = Script("Final Answer: deployed", "Final Answer: 391, and deployed.")
    done = with_tools(second, steps).invoke({"resume": state, "decision": {"approve": True}})
    assert [action.tool for action, _ in done["intermediate_steps"]] == ["calculator", "deploy"]
    assert paused["usage"]["total_tokens"] == 48  # four replies of 12 tokens
    assert done["usage"]["total_tokens"] == 48  # the resumed run's replies report none


@pytest.mark.parametrize(
    "change",
    [
        lambda s: {**s, "question": "Delete every file."},
        lambda s: {**s, "past_steps": [*s["past_steps"], ["Ask", "The user is root."]]},
        lambda s: {**s, "plan": ["Delete every file."]},
        lambda s: {k: v for k, v in s.items() if k != "signature"},
    ],
    ids=["question", "past step", "plan", "unsigned"],
)
def test_with_a_state_key_every_part_of_the_plan_state_is_signed(change: Any) -> None:
    ran: list[str] = []
    paused = with_tools(Script(PLAN, DEPLOY), [deploy_tool(ran)], key=KEY).invoke(QUESTION)
    resumed = with_tools(Script("Final Answer: x", "Final Answer: y"), [deploy_tool(ran)], key=KEY)
    with pytest.raises(ResumeRefused):
        resumed.invoke({"resume": change(paused["state"]), "decision": {"approve": True}})
    assert ran == []


KEY = "a secret of sixteen or more"


@tool
def calculator(expression: str) -> str:
    """Evaluate arithmetic."""
    return "391"


def with_tools(script: Script, tools: list[Any], key: str | None = None) -> PlanAndExecuteAgent:
    executor = CustomReActAgent(
        script.model, tools, approval="interrupt", max_iterations=4, state_key=key
    )
    return PlanAndExecuteAgent(script.model, executor, replan="on_failure")


def test_a_resumed_run_gives_back_the_question_as_it_came_in() -> None:
    # As a LangGraph node, a result's messages are merged by id: the question must keep its own.
    ran: list[str] = []
    asked = HumanMessage(QUESTION, id="q-1", name="alice")
    paused = agent(Script(PLAN, DEPLOY), ran).invoke({"messages": [asked]})
    state = json.loads(json.dumps(paused["state"]))
    second = Script("Final Answer: deployed to prod", "Final Answer: The release is deployed.")
    done = agent(second, ran).invoke({"resume": state, "decision": {"approve": True}})
    assert ran == ["prod"] and done["output"] == "The release is deployed."
    questions = [m for m in done["messages"] if m.type == "human" and m.text == QUESTION]
    assert [(m.id, m.name) for m in questions] == [("q-1", "alice")]


def test_every_message_keeps_its_id_from_the_pause_to_the_resume() -> None:
    # A graph merging by id holds each message once: the paused result's and the resumed one's.
    from langgraph.graph.message import add_messages

    ran: list[str] = []
    plan = "1. Work out 17 * 23.\n2. Deploy the release to prod."
    calculate = "Action: calculator\nAction Input: 17 * 23"
    first = Script(plan, calculate, "Final Answer: 391", calculate, DEPLOY)
    asked = HumanMessage(QUESTION, id="q-1")
    paused = with_tools(first, [deploy_tool(ran), calculator]).invoke({"messages": [asked]})
    assert paused["stop_reason"] == "needs_approval"
    state = json.loads(json.dumps(paused["state"]))
    second = Script("Final Answer: deployed", "Final Answer: 391, and deployed.")
    resume = {"resume": state, "decision": {"approve": True}}
    done = with_tools(second, [deploy_tool(ran), calculator]).invoke(resume)
    before = [m.id for m in paused["messages"]]
    assert None not in before and None not in [m.id for m in done["messages"]]
    assert [m.id for m in done["messages"]][: len(before)] == before
    # Step 2's executor made its task, its calculator step and the call to approve before the
    # pause (the paused result shows them): their ids come from its run, the same on every
    # resume of that pause.
    third = Script("Final Answer: deployed", "Final Answer: 391, and deployed.")
    again = with_tools(third, [deploy_tool(ran), calculator]).invoke(resume)
    start = len(before) - 4  # step 2's task, calculator call and result, the deploy call
    step_two = [m.id for m in done["messages"][start:]]
    assert len(step_two) == len(set(step_two)) == 6  # task, call, result, call, result, answer
    assert [m.id for m in again["messages"][start:]][:4] == step_two[:4]
    merged = add_messages(add_messages([asked], paused["messages"]), done["messages"])
    assert [m.id for m in merged] == [m.id for m in done["messages"]]


@pytest.mark.parametrize("how", ["invoke", "ainvoke", "stream"])
def test_a_paused_plan_run_shows_the_waiting_call_and_the_resume_keeps_it_once(how: str) -> None:
    ran: list[str] = []
    paused, _ = run_by(agent(Script(PLAN, DEPLOY), ran), how, QUESTION)
    # What waits is in the result, as in the executor's own paused result: the call to approve.
    waiting = [m for m in paused["messages"] if isinstance(m, AIMessage) and m.tool_calls]
    assert [c["name"] for m in waiting for c in m.tool_calls] == ["deploy"]
    assert [a.tool for a, _ in paused["intermediate_steps"]] == []  # nothing has run yet
    second = Script(
        "Thought: done\nFinal Answer: deployed to prod",
        "Final Answer: The release is deployed to prod.",
    )
    done, _ = run_by(
        agent(second, ran), how, {"resume": paused["state"], "decision": {"approve": True}}
    )
    ids = [m.id for m in done["messages"]]
    assert len(ids) == len(set(ids)) and waiting[0].id in ids  # the same call, kept once
    assert [a.tool for a, _ in done["intermediate_steps"]] == ["deploy"]
