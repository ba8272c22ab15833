"""An agent as a tool of another agent: `agent.as_tool(name=..., description=...)`.

`SubAgentTool` is a LangChain tool, so any agent can call it (`CustomReActAgent`, `create_agent`,
`AgentExecutor`): its input is a question, its output the sub-agent's answer text. Run through
`BaseTool.invoke`, the sub-agent's run nests under the tool's run in callbacks (LangSmith shows
it inside the outer step). It also returns, as the tool's artifact, a `SubAgentRun`: the
sub-agent's events and result, which a `CustomReActAgent` calling it yields as `SubAgentEvent`s
(the console and the exports show them indented under the outer step).

A sub-agent that pauses for a person's approval (`approval="interrupt"`) returns its pause: the
outer run pauses too (`sub_agent_observation` raises `ApprovalPause`), and resuming the outer run
with a decision resumes the sub-agent with it (`RESUME_KEY` in the tool's config carries its state
and the decision), so one decision finishes both and every tool runs once. Under a LangGraph graph
with a checkpointer (`create_agent(..., checkpointer=...)`) the pause is LangGraph's `interrupt`:
the graph's result has `__interrupt__` with the waiting call, and `Command(resume={"approve":
True})` resumes it; the tool keeps the sub-agent's paused run by the graph's task, so when the
graph runs the tool call again it resumes the sub-agent instead of asking it anew. A caller that
cannot pause (no checkpointer, `AgentExecutor`) gets `SubAgentCannotPause`. The sub-agent never
shares the outer run's thread: its questions are not the conversation's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal

from langchain_core.callbacks import AsyncCallbackManagerForToolRun, CallbackManagerForToolRun
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.config import (
    get_async_callback_manager_for_config,
    get_callback_manager_for_config,
    patch_config,
)
from langchain_core.tools import BaseTool
from pydantic import BaseModel, Field, PrivateAttr

from custom_react.events import AgentEvent, AgentResult, ReplyToken, RunFinished, SubAgentEvent
from custom_react.pausing.approval import ApprovalPause
from custom_react.pausing.graph_pause import GraphPauses
from custom_react.running.calls import Call, Loop, nested
from custom_react.steps import ObservationStatus, ToolStep

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
    args_schema: type[SubAgentInput] = SubAgentInput
    response_format: Literal["content", "content_and_artifact"] = "content_and_artifact"

    _graph_pauses: GraphPauses = PrivateAttr(default_factory=lambda: GraphPauses("sub_agent"))
    """Under a LangGraph graph: the sub-agent's paused runs, by (thread, task), in order."""

    def _run(
        self, input: str, config: RunnableConfig, run_manager: CallbackManagerForToolRun
    ) -> tuple[str, SubAgentRun]:
        agent_input, child, task = self._start(input, config, run_manager)
        return self._answer(list(self.agent.stream(agent_input, child)), config, task)

    async def _arun(
        self, input: str, config: RunnableConfig, run_manager: AsyncCallbackManagerForToolRun
    ) -> tuple[str, SubAgentRun]:
        agent_input, child, task = self._start(input, config, run_manager)
        events = [event async for event in self.agent.astream(agent_input, child)]
        return self._answer(events, config, task)

    def _start(
        self,
        question: str,
        config: RunnableConfig,
        run_manager: CallbackManagerForToolRun | AsyncCallbackManagerForToolRun,
    ) -> tuple[Any, RunnableConfig, tuple[str, str] | None]:
        """The sub-agent's input and config, and the graph task it runs in (None: no graph).

        Under a LangGraph graph with a checkpointer, a task run again after a resume replays the
        decisions its earlier pauses got (`GraphPauses.start`).
        """
        agent_input, child = ask(question, config, run_manager)
        agent_input, task = self._graph_pauses.start(agent_input, config, self.name)
        return agent_input, child, task

    def _answer(
        self, events: list[Any], config: RunnableConfig, task: tuple[str, str] | None
    ) -> tuple[str, SubAgentRun]:
        """The tool's output; under a graph, a pause becomes LangGraph's `interrupt`."""
        last = events[-1] if events else None
        if isinstance(last, RunFinished):  # under a graph, a pause raises its interrupt
            result = last.result
            self._graph_pauses.finish(task, result.stop_reason, result.state, self.name)
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
    return (resume or question), under(run_manager, config)


def under(run: Any, config: RunnableConfig) -> RunnableConfig:
    """`config` for the sub-agent's own run under `run`: no caller's pause, no caller's thread."""
    return patch_config(
        config, callbacks=run.get_child(), configurable={RESUME_KEY: None, "thread_id": None}
    )


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
            "cannot pause and resume it. Give create_agent a checkpointer (the graph then pauses "
            "with LangGraph's interrupt), call it from a CustomReActAgent (which pauses with it), "
            "or give the sub-agent approval='callback' with an approve function."
        )
    return last.result.output, SubAgentRun(events[:-1], last.result)


def run_sub_agent(
    tool: SubAgentTool,
    request: ToolStep,
    config: RunnableConfig,
    resume: Any = None,
    timeout: float | None = None,
) -> Loop[tuple[str, ObservationStatus]]:
    """A sub-agent run live within the calling step: its events nested as they happen.

    Its loop runs inside the caller's (`calls.nested`), so `stream`, `astream_events` and the
    console show each of its steps when it happens; in callbacks its run nests under the tool's
    run; within the tool's `timeout` (`TimedOut` past it). Its answer is the Observation, with
    the status "ok"; a run that stopped without one (a limit, a failed model) is an "error".

    Raises:
        ApprovalPause: The sub-agent paused for a person: the outer run pauses with it, its
            waiting call carrying the sub-agent's state (`resume` continues it with a decision).
    """
    question = tool.args_schema.model_validate(request.args).input  # as `tool.invoke` would
    agent_input = resume or question
    tool_run, agent_run = yield runs_started(tool, request, config, agent_input)
    child = under(agent_run, config)
    finished: list[RunFinished] = []

    def show(event: Any) -> Any:
        if isinstance(event, RunFinished):
            finished.append(event)  # its answer becomes the Observation
            return None
        return None if isinstance(event, ReplyToken) else SubAgentEvent(tool.name, event)

    try:
        yield from nested(tool.agent._loop(agent_input, child, False), show, timeout)
    except Exception as error:
        yield both(agent_run.on_chain_error, error)
        yield both(tool_run.on_tool_error, error)
        raise
    result = finished[-1].result
    yield both(agent_run.on_chain_end, result.to_dict())
    yield both(tool_run.on_tool_end, result.output)
    if result.stop_reason == "needs_approval" and result.state is not None:
        raise ApprovalPause(request, result.state)
    # Stopped short of its answer (a limit, a failed model): a failed call, which may be retried.
    return result.output, "ok" if result.stop_reason == "final_answer" else "error"


def runs_started(
    tool: SubAgentTool, request: ToolStep, config: RunnableConfig, agent_input: Any
) -> Call[tuple[Any, Any]]:
    """The tool's run and the sub-agent's run under it, started in the config's callbacks.

    Their managers come back (plain ones under `invoke`, awaitable ones under `ainvoke`), so the
    sub-agent's calls nest under them as under `tool.invoke`: each manager is made from a config,
    so a handler that LangChain adds from a context variable (`collect_runs`) sees both runs.
    """
    serialized = {"name": tool.name, "description": tool.description}
    text = str(request.tool_input)
    values: dict[str, Any] = {"inputs": request.args, "tool_call_id": request.tool_call_id}
    name = tool.agent.get_name()

    def run() -> tuple[Any, Any]:
        tool_run = get_callback_manager_for_config(config).on_tool_start(serialized, text, **values)
        manager = get_callback_manager_for_config(under(tool_run, config))
        return tool_run, manager.on_chain_start(None, agent_input, name=name)

    async def arun() -> tuple[Any, Any]:
        manager = get_async_callback_manager_for_config(config)
        tool_run = await manager.on_tool_start(serialized, text, **values)
        manager = get_async_callback_manager_for_config(under(tool_run, config))
        return tool_run, await manager.on_chain_start(None, agent_input, name=name)

    return Call(run, arun)


def both(method: Callable[..., Any], value: Any) -> Call[Any]:
    """`method(value)` as a call: a run manager's method, plain or awaitable as the manager is."""
    return Call(partial(method, value), partial(method, value))


class SubAgentCannotPause(RuntimeError):
    """A sub-agent paused for a person under a caller that cannot pause (nothing ran)."""


def agent_tool(agent: Runnable[Any, Any], name: str, description: str) -> SubAgentTool:
    """`agent` as a tool called `name`, described to the calling model by `description`."""
    return SubAgentTool(name=name, description=description, agent=agent)
