"""Acting: the Observation for one Action, the loop's guards first, every message with its guard.

`act` returns `(observation, status)` and never raises for a tool's failure. A tool is not run,
and the Observation says why, when:

- no tool has the name the model wrote (`unknown_tool`: the message lists the tools);
- the input is the tool list's description of one (`placeholder_input`);
- the same (tool, input) already ran in this run (`repeated`: the earlier observation is given
  again; a tool marked `metadata={"repeatable": True}`, such as a job's status check, is let
  through, and so is every tool with `repeated_action="allow"`);
- the tool used up its calls in this run (`over_budget`, `Toolbox.call_budget`);
- it needs a person's approval and does not get it (`denied`, `pausing/approval.py`).

A repeatable tool asked the same thing again first waits its `metadata["poll_interval"]`
seconds. Otherwise the tool runs (`run_tool`, its call a `running.calls.Call`, so `invoke` makes
it and `ainvoke` awaits it; a tool with only async code, such as an MCP tool, runs its coroutine
under `invoke` too): whatever it raises becomes an "Error:" observation,
whatever it returns becomes text (the loop cuts it to `max_observation_chars` when it records
the step: `Toolbox.shorten`).
`act_on_decision` is the same for a paused call resumed with a person's decision.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any

from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import patch_config
from langchain_core.tools import BaseTool

from custom_react.events import ObservationStatus, ReplyToken, SubAgentEvent
from custom_react.memory import RunMemory
from custom_react.pausing.approval import (
    APPROVAL_CONFIG_KEY,
    Approve,
    Decision,
    decided,
    denial,
    not_run,
)
from custom_react.prompts import message
from custom_react.running.calls import Call, Loop, invoking, run_coroutine, sleeping
from custom_react.running.sub_agents import RESUME_KEY, SubAgentRun, SubAgentTool
from custom_react.toolbox import (
    ActionRequest,
    Toolbox,
    metadata,
    observation_text,
    placeholder_input,
    requires_approval,
)

Observed = tuple[str, ObservationStatus]


def act(
    request: ActionRequest, toolbox: Toolbox, memory: RunMemory, config: RunnableConfig
) -> Loop[Observed]:
    """The Observation for `request`, as `(observation, status)`; use with `yield from`.

    Args:
        request: The Action bound to its tool (`Toolbox.request`).
        toolbox: The agent's tools and options (`repeated_action`, budgets, `approve`).
        memory: The run so far (for the repeated-action guard and the call budget).
        config: The run's config, with its callbacks.
    """
    language = toolbox.settings.language
    tool = toolbox.resolve(request.tool)
    if tool is None:
        return unknown_tool_message(request.tool, toolbox.tools, language), "unknown_tool"
    if placeholder_input(tool, request.args):
        return placeholder_input_message(tool, language), "placeholder_input"
    earlier = memory.previous_observation(tool.name, request.args)
    repeatable = metadata(tool).get("repeatable")
    if earlier is not None and not repeatable and toolbox.settings.repeated_action != "allow":
        return repeated_action_message(tool.name, earlier, language), "repeated"
    budget = toolbox.call_budget(tool)
    if budget is not None and memory.calls_of(tool.name) >= budget:
        return over_budget_message(tool.name, budget, language), "over_budget"
    if earlier is not None and metadata(tool).get("poll_interval"):
        yield sleeping(float(metadata(tool)["poll_interval"]))  # a job being polled: give it time
    return (yield from run_tool(tool, request, config, toolbox.settings.approve, language=language))


class SubAgentPaused(Exception):
    """A sub-agent the tool call ran waits for a person's decision: the outer run pauses too."""

    def __init__(self, state: dict[str, Any], call: ActionRequest) -> None:
        super().__init__(f"{call.tool} waits for a person's approval")
        self.state = state
        """The sub-agent's paused run, resumed with the decision."""
        self.call = call
        """The call the person decides about (the sub-agent's, however deep)."""


def run_tool(
    tool: BaseTool,
    request: ActionRequest,
    config: RunnableConfig,
    approve: Approve | None,
    resume: dict[str, Any] | None = None,
    language: str = "en",
) -> Loop[Observed]:
    """Run one tool, asking for approval first when it requires it; never raises for its failure.

    The status is "ok", "error" (the tool raised) or "denied" (it needs approval and did not get
    it: it never ran). A sub-agent's events come as `SubAgentEvent`s first; if it pauses for a
    person, `SubAgentPaused` is raised (`resume` continues such a sub-agent with a decision).

    Raises:
        SubAgentPaused: The tool is a sub-agent that waits for a person's decision.
    """
    args = request.args
    needs_approval = requires_approval(tool)
    if needs_approval and (refused := denial(tool, args, approve, language)) is not None:
        return refused, "denied"
    # Only a call a person approved carries the approval key; one smuggled in is overwritten.
    config = patch_config(config, configurable={APPROVAL_CONFIG_KEY: needs_approval})
    if isinstance(tool, SubAgentTool):
        sub_config = patch_config(config, configurable={RESUME_KEY: resume})
        return (yield from run_sub_agent(tool, request, sub_config, language))
    try:
        # Only the tool call is guarded: its failure is an observation the model can act on.
        result = yield tool_call(tool, args, config)
    except Exception as error:  # any tool error becomes an observation
        return tool_failed(tool, error, language), "error"
    return observation_text(result), "ok"


def run_sub_agent(
    tool: SubAgentTool, request: ActionRequest, config: RunnableConfig, language: str = "en"
) -> Loop[Observed]:
    """Run a sub-agent tool: its events, nested, then its answer as the Observation."""
    call = {
        "name": tool.name,
        "args": request.args,
        "id": request.tool_call_id,
        "type": "tool_call",
    }
    try:
        message = yield tool_call(tool, call, config)  # a ToolMessage: the run is its artifact
    except Exception as error:
        return tool_failed(tool, error, language), "error"
    run: SubAgentRun = message.artifact
    for event in run.events:
        if not isinstance(event, ReplyToken):
            yield SubAgentEvent(tool.name, event)
    if run.paused and run.result.state is not None:
        raise SubAgentPaused(run.result.state, waiting_call(run.result.state))
    return observation_text(message), "ok"


def waiting_call(state: dict[str, Any]) -> ActionRequest:
    """The call a paused run waits on, inside every paused sub-agent."""
    pending = dict(state["pending"])
    inner = pending.pop("inner_state", None)
    return waiting_call(inner) if inner else ActionRequest(**pending)


def tool_call(tool: BaseTool, args: dict[str, Any], config: RunnableConfig) -> Call[Any]:
    """The tool's `invoke`/`ainvoke`; a tool with only async code runs its coroutine under `invoke`."""
    call = invoking(tool, args, config)
    if getattr(tool, "func", True) is None and getattr(tool, "coroutine", None) is not None:
        return Call(partial(run_coroutine, call.arun), call.arun)
    return call


def act_on_decision(
    call: ActionRequest, decision: Decision, toolbox: Toolbox, config: RunnableConfig
) -> Loop[tuple[ActionRequest, str, ObservationStatus]]:
    """The Observation of a paused call with the person's decision, and the call as it ran.

    Approve runs the call as the model wrote it; edit runs it with the new input; reject does
    not run it, and the reason is the observation (`denied`). A paused sub-agent gets the
    decision itself: it resumes with it, and its answer is the observation.
    """
    language = toolbox.settings.language
    tool = toolbox.resolve(call.tool)
    if call.inner_state is not None and tool is not None:  # a paused sub-agent decides inside
        resume = {"resume": call.inner_state, "decision": decision}
        inner = replace(call, inner_state=None)
        approve = toolbox.settings.approve
        observation, status = yield from run_tool(tool, inner, config, approve, resume, language)
        return inner, observation, status
    call, refused = decided(call, decision, tool, language)
    if tool is None or refused is not None:
        return call, refused or "", "unknown_tool" if tool is None else "denied"
    observation, status = yield from run_tool(
        tool, call, config, lambda name, args: True, language=language
    )
    return call, observation, status


def tool_failed(tool: BaseTool, error: Exception, language: str = "en") -> str:
    """The observation for a tool that raised: its name and the error, for the model to act on."""
    return message(
        "tool_failed", language, tool=tool.name, error=f"{type(error).__name__}: {error}"
    )


def unknown_tool_message(name: str, tools: list[BaseTool], language: str = "en") -> str:
    """The observation for a tool name that matches nothing."""
    valid = ", ".join(tool.name for tool in tools)
    return message("unknown_tool", language, name=name, valid=valid)


def placeholder_input_message(tool: BaseTool, language: str = "en") -> str:
    """The observation for an input copied from the tool list: write a real one."""
    (argument,) = tool.args
    return message(
        "placeholder_input",
        language,
        tool=tool.name,
        argument=argument,
        description=tool.description.strip(),
    )


def repeated_action_message(name: str, earlier: str, language: str = "en") -> str:
    """The observation for a (tool, input) pair that already ran: its old result, not a rerun."""
    return message("repeated_action", language, tool=name, earlier=earlier)


def over_budget_message(name: str, budget: int, language: str = "en") -> str:
    """The observation for a tool that already ran as often as it may in one run."""
    return not_run("over_budget", language, tool=name, budget=budget)
