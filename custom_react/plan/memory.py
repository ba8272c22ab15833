"""The memory of one plan-and-execute run: its past steps, its messages and its token usage.

`PlanRun` records what the planner, replanner and executor said, in order, as LangChain messages
(planner and replanner replies as `AIMessage`s named after their stage, each step's executor run as
the executor's own messages), keeps the past steps as `(step, result)` pairs -- the `past_steps` of
the plan-and-execute literature -- and closes the run as a `PlanResult`. A run whose step waits
for a person's approval is written as JSON (`paused_state`) and read back to resume it
(`read_paused`). Every message it records has an id, kept in the paused state, so a resumed run
gives back each earlier message with the id it had (a LangGraph graph merging by id holds it
once). It decides nothing: the loop in `agent.py` does.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, cast

from langchain_core.agents import AgentAction
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    messages_to_dict,
)
from langchain_core.messages.ai import UsageMetadata, add_usage
from pydantic import ValidationError

from custom_react.events import AgentResult, StopReason
from custom_react.memory import BaseRun, with_ids
from custom_react.pausing.state import check_signature, read_messages, sign_state
from custom_react.pausing.typed_json import adapter
from custom_react.plan.events import FinalResponse, PlanResult
from custom_react.plan.schema import Plan
from custom_react.steps import REACT_LOG


@dataclass
class PlanRun(BaseRun):
    """Messages, past steps and usage of one run, in order."""

    messages: list[BaseMessage] = field(default_factory=list)
    intermediate_steps: list[tuple[AgentAction, str]] = field(default_factory=list)
    past_steps: list[tuple[str, str]] = field(default_factory=list)
    waiting: AgentResult | None = None
    """The executor's run of a step that waits for a person's approval, if any."""
    asked: HumanMessage | None = None
    """The question as the message it came in (its id, its name), when it came as one."""

    def add_reply(self, stage: str, reply: BaseMessage) -> None:
        """Record a planner or replanner reply (named after its stage) and its token usage."""
        self.messages.append(AIMessage(content=reply.text, name=stage, id=reply.id or new_id()))
        self.count_usage(reply)

    def answered(self, response: FinalResponse) -> FinalResponse:
        """The replanner's reply that gave `response` becomes the answer's message, as a ReAct run's.

        Its text is the answer (`result["messages"][-1]`, what a graph's next turn reads); the
        reply as written is kept under `react_log`.
        """
        reply = self.messages[-1]
        metadata = {**reply.response_metadata, REACT_LOG: reply.text}
        self.messages[-1] = AIMessage(
            response.output, name=reply.name, id=reply.id, response_metadata=metadata
        )
        return response

    def add_parse_failure(self, error: str) -> None:
        """Record the format error the planner or replanner will read."""
        self.messages.append(HumanMessage(content=error, id=new_id()))

    def add_step(self, step: str, text: str, result: AgentResult | None) -> None:
        """Record an executed step: its result text and, when it ran to the end, its executor run."""
        self.past_steps.append((step, text))
        if result is None:  # the executor raised: only the error is known
            self.messages.append(AIMessage(content=text, name="executor", id=new_id()))
            return
        # The input's system messages the executor read are not the step's; the run keeps its own.
        made = with_ids(result.messages, result.run_id or new_id())
        self.messages += [m for m in made if not isinstance(m, SystemMessage)]
        self.intermediate_steps += result.intermediate_steps
        if result.usage:
            self.usage = add_usage(self.usage, cast(UsageMetadata, result.usage))

    def result(
        self,
        output: str,
        stop_reason: StopReason,
        plan: Sequence[str],
        state: dict[str, Any] | None = None,
    ) -> PlanResult:
        """Close the run: the answer, why it ended, the steps still planned and the totals."""
        return PlanResult(
            input=self.question,
            output=output,
            messages=[
                *self.chat_history,  # as `create_agent` returns them: the input's messages first
                self.asked or HumanMessage(content=self.question),  # its id kept: merged once
                *self.messages,
            ],
            intermediate_steps=list(self.intermediate_steps),
            iterations=len(self.past_steps),
            stop_reason=stop_reason,
            usage=dict(self.usage or {}),
            plan=list(plan),
            past_steps=list(self.past_steps),
            state=state,
        )

    def paused(self, plan: Plan, done: int, key: str | bytes | None = None) -> PlanResult:
        """Close a run whose step `plan.steps[done]` waits for a person: its state to resume.

        With the executor's `state_key` the whole state is signed, not only the executor's part.
        """
        assert self.waiting is not None
        state = paused_state(self, plan, done)
        state = state if key is None else sign_state(state, key)
        result = self.result(self.waiting.output, "needs_approval", plan.steps[done:], state)
        # The waiting step's messages (up to the call to approve) and tokens are the run's too;
        # its own paused run keeps them for the resume, which returns them with the same ids.
        waiting = [m for m in self.waiting.messages if not isinstance(m, SystemMessage)]
        spent = add_usage(self.usage, cast(UsageMetadata, self.waiting.usage or None))
        return replace(result, messages=[*result.messages, *waiting], usage=dict(spent or {}))


def new_id() -> str:
    """An id for a message the run makes itself (kept in its state from then on)."""
    return str(uuid.uuid4())


PLAN_STATE = "plan_and_execute"
"""The `kind` of a paused plan-and-execute run's state."""


def paused_state(run: PlanRun, plan: Plan, done: int) -> dict[str, Any]:
    """The paused run as JSON data: the question, past steps, the plan and the waiting step's run."""
    assert run.waiting is not None and run.waiting.state is not None
    return {
        "kind": PLAN_STATE,
        "question": run.question,
        "chat_history": messages_to_dict(run.chat_history),
        "asked": messages_to_dict([run.asked] if run.asked else []),  # the question's message
        "messages": messages_to_dict(run.messages),
        "past_steps": [list(pair) for pair in run.past_steps],
        "intermediate_steps": [
            [action.tool, action.tool_input, action.log, observation]
            for action, observation in run.intermediate_steps
        ],
        "usage": dict(run.usage or {}),
        "plan": list(plan.steps),
        "depends_on": [list(needs) for needs in plan.depends_on],
        "done": done,
        "executor": run.waiting.state,
    }


_STATE_FIELDS: dict[str, Any] = {
    "question": str,
    "chat_history": list[dict[str, Any]],
    "messages": list[dict[str, Any]],
    "past_steps": list[tuple[str, str]],
    "intermediate_steps": list[tuple[str, str | dict[str, Any], str, str]],
    "usage": dict[str, Any],
    "plan": list[str],
    "depends_on": list[list[int]],
    "done": int,
    "executor": dict[str, Any],
}
"""The fields of a paused plan state, with the shape each must have (`asked` is read apart: older
states lack it)."""


def read_paused(
    state: Any, key: str | bytes | None = None
) -> tuple[PlanRun, Plan, int, dict[str, Any]]:
    """The run, its plan, the steps of it done and the executor's paused state, checked first.

    Raises:
        ValueError: Not a paused plan-and-execute state, or a field is wrong (named).
        ResumeRefused: With a `key`, the state is unsigned or changed since it was signed.
    """
    if not isinstance(state, dict) or state.get("kind") != PLAN_STATE:
        raise ValueError("Not a paused plan-and-execute run: resume with the `state` it returned.")
    if key is not None:
        check_signature(state, key)
    for name, shape in _STATE_FIELDS.items():
        try:
            adapter(shape).validate_python(state.get(name), strict=False)
        except ValidationError:
            raise ValueError(f"The plan state's {name!r} must be a {shape}.") from None
    if not 0 <= state["done"] < len(state["plan"]) or len(state["depends_on"]) != len(
        state["plan"]
    ):
        raise ValueError("The plan state's 'done' and 'depends_on' do not fit its 'plan'.")
    run = PlanRun(state["question"], read_messages(state.get("chat_history") or [], "chat_history"))
    # None in a state paused before the question's message was kept.
    asked = read_messages(state.get("asked") or [], "asked")
    run.asked = asked[0] if asked and isinstance(asked[0], HumanMessage) else None
    run.messages = read_messages(state.get("messages") or [], "messages")
    run.past_steps = [(step, text) for step, text in state["past_steps"]]
    run.intermediate_steps = [
        (AgentAction(tool, tool_input, log), observation)
        for tool, tool_input, log, observation in state["intermediate_steps"]
    ]
    run.usage = cast(UsageMetadata, state["usage"]) or None
    needs = tuple(tuple(step) for step in state["depends_on"])
    plan = Plan(tuple(state["plan"]), depends_on=needs)
    return run, plan, state["done"], state["executor"]
