"""The memory of one plan-and-execute run: its past steps, its messages and its token usage.

`PlanRun` records what the planner, replanner and executor said, in order, as LangChain messages
(planner and replanner replies as `AIMessage`s named after their stage, each step's executor run as
the executor's own messages), keeps the past steps as `(step, result)` pairs -- the `past_steps` of
the plan-and-execute literature -- and closes the run as a `PlanResult`. It decides nothing: the
loop in `plan_execute.py` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

from langchain_core.agents import AgentAction
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.messages.ai import UsageMetadata, add_usage

from custom_react.events import StopReason
from custom_react.memory import AgentResult, BaseRun
from custom_react.plan.events import PlanResult


@dataclass
class PlanRun(BaseRun):
    """Messages, past steps and usage of one run, in order."""

    messages: list[BaseMessage] = field(default_factory=list)
    intermediate_steps: list[tuple[AgentAction, str]] = field(default_factory=list)
    past_steps: list[tuple[str, str]] = field(default_factory=list)

    def add_reply(self, stage: str, reply: BaseMessage) -> None:
        """Record a planner or replanner reply (named after its stage) and its token usage."""
        self.messages.append(AIMessage(content=reply.text, name=stage))
        self.count_usage(reply)

    def add_parse_failure(self, error: str) -> None:
        """Record the format error the planner or replanner will read."""
        self.messages.append(HumanMessage(content=error))

    def add_step(self, step: str, text: str, result: AgentResult | None) -> None:
        """Record an executed step: its result text and, when it ran to the end, its executor run."""
        self.past_steps.append((step, text))
        if result is None:  # the executor raised: only the error is known
            self.messages.append(AIMessage(content=text, name="executor"))
            return
        self.messages += result.messages
        self.intermediate_steps += result.intermediate_steps
        if result.usage:
            self.usage = add_usage(self.usage, cast(UsageMetadata, result.usage))

    def result(self, output: str, stop_reason: StopReason, plan: Sequence[str]) -> PlanResult:
        """Close the run: the answer, why it ended, the steps still planned and the totals."""
        return PlanResult(
            input=self.question,
            output=output,
            messages=[HumanMessage(content=self.question), *self.messages],
            intermediate_steps=list(self.intermediate_steps),
            iterations=len(self.past_steps),
            stop_reason=stop_reason,
            usage=dict(self.usage or {}),
            plan=list(plan),
            past_steps=list(self.past_steps),
        )
