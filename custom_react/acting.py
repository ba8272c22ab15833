"""Acting: the Observation for one Action, the loop's guards first, every message with its guard.

`act` returns `Observed(observation, status, artifact)` and never raises for a tool's failure. A
tool is not run, and the Observation says why, when:

- no tool has the name the model wrote (`unknown_tool`: the message lists the tools);
- the input names arguments the tool does not have (`invalid_input`: it lists the real ones),
  or breaks the tool's schema otherwise: a type, an enum, a missing argument (`invalid_input`);
- the input is copied from the tool list (`placeholder_input`): a one-argument tool's description
  of its input, or the example's placeholder values (`argument_checks.copied_input`), unless the
  model writes a call refused so again (`insists`: after reading why, it means it);
- the same (tool, input) already ran and worked (`repeated`: the earlier observation again; a
  tool marked `metadata={"repeatable": True}` is let through, as is every tool with
  `repeated_action="allow"`; a call that failed may be tried again);
- the tool used up its calls in this run (`over_budget`, `Toolbox.over_budget`);
- it needs a person's approval and does not get it (`denied`, `pausing/approval.py`); with
  `approval="interrupt"` the run pauses instead (`ApprovalPause`), after every other guard.

The tool comes resolved with the step (`Toolbox.request`); memory answers the earlier result and
the call count in one call (`RunMemory.ran_before`). A sub-agent tool's events and pause are
`running/sub_agents.py`'s.

Otherwise the tool runs (`run_tool`; a repeatable tool asked again first waits its
`metadata["poll_interval"]`): called with a ToolCall built here from the arguments that were
shown and approved, within its time limit (`Toolbox.timeout`), as a `running.calls.Call` that
`invoke` makes and `ainvoke` awaits. Whatever it raises becomes an "Error:" observation (after
`tool_retries` more tries; a call that timed out may still be running, so it is not tried
again), whatever it returns becomes text. What a callback handler with `raise_error=True`
raises, and LangGraph's interrupt, are not the tool's failure: they go up to the caller.
`act_on_decision` is the same for a paused call resumed with a person's decision.
"""

from __future__ import annotations

from copy import deepcopy
from dataclasses import replace
from functools import partial
from typing import Any, NamedTuple

from langchain_core.messages import ToolCall
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool

from custom_react.argument_checks import argument_problem, copied_input
from custom_react.memory import RunMemory
from custom_react.parsing.action_input import input_text
from custom_react.pausing.approval import (
    APPROVAL_CONFIG_KEY,
    ApprovalPause,
    Approve,
    Decision,
    decided,
    denial,
    requires_approval,
    waits_for_approval,
)
from custom_react.pausing.store import ResumeRefused
from custom_react.prompts import message
from custom_react.running.calls import (
    Call,
    Loop,
    TimedOut,
    invoking,
    raised_by_a_callback,
    run_coroutine,
    sleeping,
    within,
)
from custom_react.running.context import runtime_parameter, tool_runtime
from custom_react.running.sub_agents import SubAgentTool, run_sub_agent
from custom_react.running.tool_output import observation_text
from custom_react.steps import ObservationStatus, ToolStep
from custom_react.toolbox import Toolbox, async_only, metadata


class Observed(NamedTuple):
    """What acting gives the step: the Observation's text, its status, and the tool's artifact."""

    observation: str
    status: ObservationStatus
    artifact: Any = None
    """What a `response_format="content_and_artifact"` tool returned beside its content."""


def act(
    request: ToolStep,
    tool: BaseTool | None,
    toolbox: Toolbox,
    memory: RunMemory,
    config: RunnableConfig,
    *,
    approved: bool = False,
) -> Loop[Observed]:
    """The Observation for `request`, as `Observed`; use with `yield from`.

    Every guard applies first, in this order, whether approval is asked by callback or by a
    pause; then a tool that waits for a person pauses the run (`ApprovalPause`); then it runs.

    Args:
        request: The Action bound to its tool (`Toolbox.request`).
        tool: That tool, resolved when it was bound (None: no tool has the name).
        toolbox: The agent's tools and options (`repeated_action`, budgets, `approve`).
        memory: The run so far (for the repeated-action guard and the call budget).
        config: The run's config, with its callbacks.
        approved: A person already approved this very call (a resumed pause): run it.

    Raises:
        ApprovalPause: The tool needs a person's approval and the agent pauses for it, or the
            tool is a sub-agent that paused for one.
    """
    language = toolbox.options.language
    if tool is None:
        return Observed(unknown_tool_message(request.tool, toolbox.tools, language), "unknown_tool")
    if problem := argument_problem(tool, request.args, language):  # names, types, values
        return Observed(problem, "invalid_input")
    if not approved and (copied := copied_input(tool, request, memory, language)):
        return Observed(copied, "placeholder_input")  # the tool list's text, not an input
    earlier, calls = memory.ran_before(request)
    repeatable = metadata(tool).get("repeatable")
    if earlier is not None and not repeatable and toolbox.options.repeated_action != "allow":
        return Observed(repeated_action_message(tool.name, earlier, language), "repeated")
    if (over_budget := toolbox.over_budget(tool, calls)) is not None:
        return Observed(over_budget, "over_budget")
    options = toolbox.options
    if not approved and waits_for_approval(tool, options.approval, options.interrupt_before):
        raise ApprovalPause(request)  # every guard passed: now a person decides
    if earlier is not None and metadata(tool).get("poll_interval"):
        yield sleeping(float(metadata(tool)["poll_interval"]))  # a job being polled: give it time
    # A call a person approved (a resumed pause) is not asked about again.
    approve: Approve | None = _already_approved if approved else toolbox.options.approve
    timeout = toolbox.timeout(tool, memory.elapsed)
    retries = toolbox.options.tool_retries
    for attempt in range(retries + 1):  # a tool that raised may be tried again (`tool_retries`)
        observed = yield from run_tool(
            tool, request, config, approve, language=language, timeout=timeout
        )
        if observed.status != "error" or attempt == retries:
            return observed
        approve = _already_approved  # it ran, so it was approved: a retry is not asked again
        yield sleeping(toolbox.options.tool_retry_delay * 2**attempt)  # then 2x, 4x, ...
    return observed


def _already_approved(name: str, args: dict[str, Any]) -> bool:
    """The answer for a call already approved: yes."""
    return True


def run_tool(
    tool: BaseTool,
    request: ToolStep,
    config: RunnableConfig,
    approve: Approve | None,
    resume: dict[str, Any] | None = None,
    language: str = "en",
    timeout: float | None = None,
) -> Loop[Observed]:
    """Run one tool, asking for approval first when it requires it; never raises for its failure.

    The tool is called with a ToolCall this function builds from `request.args`, the arguments
    that were shown, approved and recorded, so no input can choose other ones. The status is
    "ok", "error" (the tool raised or returned an error message), "timed_out" or "denied" (it needs
    approval and did not get it: it never ran); a tool that worked gives its artifact too (None
    unless its `response_format` is "content_and_artifact"). A sub-agent's events come as
    `SubAgentEvent`s first; if it pauses for a person, `ApprovalPause` is raised (`resume`
    continues such a sub-agent with a decision).

    Raises:
        ApprovalPause: The tool is a sub-agent that waits for a person's decision.
    """
    args = request.args
    needs_approval = requires_approval(tool)
    if needs_approval and (refused := denial(tool, args, approve, language)) is not None:
        return Observed(refused, "denied")
    # Only a call a person approved carries the approval key; one smuggled in is overwritten.
    configurable = {**config.get("configurable", {}), APPROVAL_CONFIG_KEY: needs_approval}
    config = {**config, "configurable": configurable}  # the tool's `invoke` completes the rest
    try:
        # Only the tool call is guarded: its failure is an observation the model can act on.
        if isinstance(tool, SubAgentTool):  # it runs live inside this step (`sub_agents.py`)
            return Observed(*(yield from run_sub_agent(tool, request, config, resume, timeout)))
        result = yield tool_call(tool, request, config, timeout)
    except (ApprovalPause, ResumeRefused):
        raise  # a sub-agent waits for a person (so does this run), or its resume was refused
    except TimedOut as error:
        timed_out = message("tool_timed_out", language, tool=tool.name, seconds=error.seconds)
        return Observed(timed_out, "timed_out")  # it may still be running: never tried again
    except Exception as error:  # any tool error becomes an observation
        if is_graph_signal(error) or raised_by_a_callback(error):
            raise  # LangGraph's interrupt inside a tool, or a handler stopping the run, goes up
        return Observed(tool_failed(tool, error, language), "error")
    text = observation_text(result, language)  # the content: the model never sees the artifact
    if getattr(result, "status", "success") == "error":  # handle_tool_error's message
        return Observed(message("tool_failed", language, tool=tool.name, error=text), "error")
    return Observed(text, "ok", getattr(result, "artifact", None))


def tool_call(
    tool: BaseTool, request: ToolStep, config: RunnableConfig, timeout: float | None = None
) -> Call[Any]:
    """The tool's `invoke`/`ainvoke` with the ToolCall of `request`, within `timeout` seconds.

    The arguments are a copy of the recorded ones, so a tool that changes its input changes no
    record; a tool with a `runtime: ToolRuntime` parameter also gets the run's context
    (`running/context.py`). A tool with only async code runs its coroutine under `invoke` too.
    """
    args = deepcopy(request.args)
    if (runtime := runtime_parameter(tool)) is not None:
        args[runtime] = tool_runtime(request.tool_call_id, config)
    call = ToolCall(name=tool.name, args=args, id=request.tool_call_id, type="tool_call")
    made = invoking(tool, call, config)
    if async_only(tool):  # `_arun` alone: `invoke` runs its coroutine
        made = Call(partial(run_coroutine, made.arun), made.arun)
    return within(made, timeout)


def act_on_decision(
    call: ToolStep,
    decision: Decision,
    toolbox: Toolbox,
    memory: RunMemory,
    config: RunnableConfig,
) -> Loop[tuple[ToolStep, Observed]]:
    """The Observation of a paused call with the person's decision, and the call as it ran.

    Approve runs the call as the model wrote it; edit runs it with the new input (the guards
    check it again); reject does not run it, and the reason is the observation (`denied`). A
    paused sub-agent gets the decision itself: it resumes with it, and its answer is the
    observation.
    """
    language = toolbox.options.language
    tool = toolbox.named(call.tool)
    if call.inner_state is not None and tool is not None:  # a paused sub-agent decides inside
        # The digest was checked against this call when the run resumed (`pausing/state.py`).
        resume = {"resume": call.inner_state, "decision": replace(decision, digest="")}
        inner = replace(call, inner_state=None)
        approve = toolbox.options.approve
        timeout = toolbox.timeout(tool, memory.elapsed)
        observed = yield from run_tool(tool, inner, config, approve, resume, language, timeout)
        return inner, observed
    call, refused = decided(call, decision, tool, language)
    if tool is None or refused is not None:
        return call, Observed(refused or "", "unknown_tool" if tool is None else "denied")
    observed = yield from act(call, tool, toolbox, memory, config, approved=True)
    if decision.kind == "edit":  # the model reads its own call: it is told what ran instead
        edited = input_text(call.tool_input)
        text = message(
            "approval_edited",
            language,
            tool=tool.name,
            input=edited,
            observation=observed.observation,
        )
        observed = observed._replace(observation=text)
    return call, observed


def is_graph_signal(error: Exception) -> bool:
    """Whether `error` is LangGraph's `GraphBubbleUp` (an interrupt), which its ToolNode lets pass."""
    if "langgraph" not in type(error).__module__:
        return False  # not LangGraph's: nothing to load
    from langgraph.errors import GraphBubbleUp

    return isinstance(error, GraphBubbleUp)


def tool_failed(tool: BaseTool, error: Exception, language: str = "en") -> str:
    """The observation for a tool that raised: its name and the error, for the model to act on.

    The error's kind is its first public class (`ToolException`, not a library's private
    `_MCPToolExecutionError`).
    """
    kind = next(k.__name__ for k in type(error).__mro__ if not k.__name__.startswith("_"))
    return message("tool_failed", language, tool=tool.name, error=f"{kind}: {error}")


def unknown_tool_message(name: str, tools: list[BaseTool], language: str = "en") -> str:
    """The observation for a tool name that matches nothing."""
    valid = ", ".join(tool.name for tool in tools)
    return message("unknown_tool", language, name=name, valid=valid)


def repeated_action_message(name: str, earlier: str, language: str = "en") -> str:
    """The observation for a (tool, input) pair that already ran: its old result, not a rerun."""
    return message("repeated_action", language, tool=name, earlier=earlier)
