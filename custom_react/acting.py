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

from functools import partial
from typing import Any

from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import patch_config
from langchain_core.tools import BaseTool

from custom_react.events import ObservationStatus
from custom_react.memory import RunMemory
from custom_react.pausing.approval import (
    APPROVAL_CONFIG_KEY,
    NOT_RUN,
    Approve,
    Decision,
    decided,
    denial,
)
from custom_react.running.calls import Call, Loop, invoking, run_coroutine, sleeping
from custom_react.toolbox import (
    ActionRequest,
    Toolbox,
    metadata,
    observation_text,
    placeholder_input,
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
    tool = toolbox.resolve(request.tool)
    if tool is None:
        return unknown_tool_message(request.tool, toolbox.tools), "unknown_tool"
    if placeholder_input(tool, request.args):
        return placeholder_input_message(tool), "placeholder_input"
    earlier = memory.previous_observation(tool.name, request.args)
    repeatable = metadata(tool).get("repeatable")
    if earlier is not None and not repeatable and toolbox.settings.repeated_action != "allow":
        return repeated_action_message(tool.name, earlier), "repeated"
    budget = toolbox.call_budget(tool)
    if budget is not None and memory.calls_of(tool.name) >= budget:
        return over_budget_message(tool.name, budget), "over_budget"
    if earlier is not None and metadata(tool).get("poll_interval"):
        yield sleeping(float(metadata(tool)["poll_interval"]))  # a job being polled: give it time
    return (yield from run_tool(tool, request.args, config, toolbox.settings.approve))


def run_tool(
    tool: BaseTool, args: dict[str, Any], config: RunnableConfig, approve: Approve | None
) -> Loop[Observed]:
    """Run one tool, asking for approval first when it requires it; never raises for its failure.

    The status is "ok", "error" (the tool raised) or "denied" (it needs approval and did not get
    it: it never ran).
    """
    needs_approval = bool(metadata(tool).get("requires_approval"))
    if needs_approval and (refused := denial(tool, args, approve)) is not None:
        return refused, "denied"
    # Only a call a person approved carries the approval key; one smuggled in is overwritten.
    config = patch_config(config, configurable={APPROVAL_CONFIG_KEY: needs_approval})
    try:
        # Only the tool call is guarded: its failure is an observation the model can act on.
        result = yield tool_call(tool, args, config)
    except Exception as error:  # any tool error becomes an observation
        return f"Error: {tool.name} failed: {type(error).__name__}: {error}", "error"
    return observation_text(result), "ok"


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
    not run it, and the reason is the observation (`denied`).
    """
    tool = toolbox.resolve(call.tool)
    call, refused = decided(call, decision, tool)
    if tool is None or refused is not None:
        status: ObservationStatus = "unknown_tool" if tool is None else "denied"
        return call, refused or "", status
    observation, status = yield from run_tool(tool, call.args, config, lambda name, args: True)
    return call, observation, status


def unknown_tool_message(name: str, tools: list[BaseTool]) -> str:
    """The observation for a tool name that matches nothing."""
    valid = ", ".join(tool.name for tool in tools)
    return f"{name!r} is not a valid tool. Use one of: {valid}."


def placeholder_input_message(tool: BaseTool) -> str:
    """The observation for an input copied from the tool list: write a real one."""
    (name,) = tool.args
    return (
        f"{tool.name} was not run: the Action Input describes the {name} instead of giving one. "
        f'Write the actual {name} after "Action Input:"; {tool.name}: {tool.description.strip()}'
    )


def repeated_action_message(name: str, earlier: str) -> str:
    """The observation for a (tool, input) pair that already ran: its old result, not a rerun."""
    return (
        f"You already ran {name} with this input; its observation was: {earlier}\n"
        "Do not repeat it: use that result, try a different input, or write the Final Answer."
    )


def over_budget_message(name: str, budget: int) -> str:
    """The observation for a tool that already ran as often as it may in one run."""
    return f"{name} already ran {budget} times in this run, as often as it may; {NOT_RUN}"
