"""An agent as a tool of another agent: `agent.as_tool(name=..., description=...)`.

`SubAgentTool` is a LangChain tool, so any agent can call it (`CustomReActAgent`, `create_agent`,
`AgentExecutor`): its input is a question, its output the sub-agent's answer text. Run through
`BaseTool.invoke`, the sub-agent's run nests under the tool's run in callbacks (LangSmith shows
it inside the outer step). It also returns, as the tool's artifact, a `SubAgentRun`: the
sub-agent's events and result, which a `CustomReActAgent` calling it yields as `SubAgentEvent`s
(the console and the exports show them indented under the outer step).

A sub-agent that pauses for a person's approval (`approval="interrupt"`) returns its pause: the
outer run pauses too (`acting.ApprovalPause`), and resuming the outer run with a decision
resumes the sub-agent with it (`RESUME_KEY` in the tool's config carries its state and the
decision), so one decision finishes both and every tool runs once. A caller that cannot pause
(`create_agent`, `AgentExecutor`) gets `SubAgentCannotPause` instead. The sub-agent never shares
the outer run's thread: its questions are not the conversation's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from langchain_core.callbacks import AsyncCallbackManagerForToolRun, CallbackManagerForToolRun
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.config import patch_config
from langchain_core.tools import BaseTool
from pydantic import BaseModel, Field

from custom_react.events import AgentEvent, RunFinished

if TYPE_CHECKING:
    from custom_react.memory import AgentResult

RESUME_KEY = "custom_react_resume"
"""The tool's `configurable` key for resuming a paused sub-agent: `{"resume": state, "decision": ...}`."""


class SubAgentInput(BaseModel):
    """What a sub-agent is asked."""

    input: str = Field(description="The question or task for this agent, in full.")


@dataclass(frozen=True)
class SubAgentRun:
    """The artifact of a sub-agent's call: its events (without the last) and its result."""

    events: Sequence[AgentEvent]
    result: AgentResult

    @property
    def paused(self) -> bool:
        """Whether the sub-agent waits for a person's decision."""
        return self.result.stop_reason == "needs_approval"


class SubAgentTool(BaseTool):
    """An agent used as a tool: a question in, its answer text out (see the module docstring)."""

    agent: Any
    """The `CustomReActAgent` (or any `StepRunnable`) that answers."""
    args_schema: type[BaseModel] = SubAgentInput
    response_format: Literal["content", "content_and_artifact"] = "content_and_artifact"

    def _run(
        self, input: str, config: RunnableConfig, run_manager: CallbackManagerForToolRun
    ) -> tuple[str, SubAgentRun]:
        events = list(self.agent.stream(*ask(input, config, run_manager)))
        return answer_of(events, can_pause(config), self.name)

    async def _arun(
        self, input: str, config: RunnableConfig, run_manager: AsyncCallbackManagerForToolRun
    ) -> tuple[str, SubAgentRun]:
        events = [event async for event in self.agent.astream(*ask(input, config, run_manager))]
        return answer_of(events, can_pause(config), self.name)


def ask(
    question: str,
    config: RunnableConfig,
    run_manager: CallbackManagerForToolRun | AsyncCallbackManagerForToolRun,
) -> tuple[Any, RunnableConfig]:
    """The sub-agent's input (the question, or its paused run with the decision) and its config.

    The config's callbacks are the tool run's children, so the sub-agent's run nests under it.
    """
    resume = config.get("configurable", {}).get(RESUME_KEY)
    child = patch_config(
        config,
        callbacks=run_manager.get_child(),
        configurable={RESUME_KEY: None, "thread_id": None},
    )
    return (resume or question), child


def can_pause(config: RunnableConfig) -> bool:
    """Whether the caller can pause with a paused sub-agent: a `CustomReActAgent` step can."""
    return RESUME_KEY in config.get("configurable", {})


def answer_of(
    events: list[Any], pausable: bool = True, name: str = "the sub-agent"
) -> tuple[str, SubAgentRun]:
    """The tool's output for a sub-agent's events: its answer text, and the run as the artifact.

    Raises:
        SubAgentCannotPause: The sub-agent paused for a person, and its caller cannot pause
            (`create_agent`, `AgentExecutor`): failing loudly, never an Observation to talk past.
    """
    last = events[-1]
    if not isinstance(last, RunFinished):
        raise RuntimeError("The sub-agent's stream ended without a RunFinished event.")
    if last.result.stop_reason == "needs_approval" and not pausable:
        raise SubAgentCannotPause(
            f"{name} paused for a person's approval ({last.result.output}), but its caller "
            "cannot pause and resume it. Give the sub-agent approval='callback' with an approve "
            "function, or call it from a CustomReActAgent, which pauses with it."
        )
    return last.result.output, SubAgentRun(events[:-1], last.result)


class SubAgentCannotPause(RuntimeError):
    """A sub-agent paused for a person under a caller that cannot pause (nothing ran)."""


def agent_tool(agent: Runnable[Any, Any], name: str, description: str) -> SubAgentTool:
    """`agent` as a tool called `name`, described to the calling model by `description`."""
    return SubAgentTool(name=name, description=description, agent=agent)
