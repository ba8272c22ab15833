"""Acting: from the tool the model chose to its Observation, the loop's guards first.

`act` returns `(observation, status)` and never raises for a tool's failure. A tool is not run,
and the observation says why, when it is unknown, when its input is the tool list's description of
one (`placeholder_input`), when the same (tool, input) already ran
(`repeated`; a tool marked `metadata={"repeatable": True}`, such as a job's status check, is let
through), when it used up its calls in this run (`over_budget`: `metadata["max_calls"]`, else
the agent's `max_tool_calls`, else `REPEATABLE_MAX_CALLS` for a repeatable tool), or when it needs approval and does not get it (`denied`). A
repeatable tool asked the same thing again first waits its `metadata["poll_interval"]` seconds.

The call itself is a `calls.Call`: awaited under `ainvoke`, made plainly under `invoke`, where a
tool with only async code (an MCP tool) runs its coroutine. Whatever the tool raises becomes an
"Error:" observation; whatever it returns becomes text (`observation_text`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import patch_config
from langchain_core.tools import BaseTool

from custom_react import toolbox
from custom_react.approval import ActionRequest, Decision
from custom_react.calls import Call, Steps, invoking, run_coroutine, sleeping
from custom_react.events import ObservationStatus
from custom_react.memory import RunMemory
from custom_react.settings import AgentSettings

Observed = tuple[str, ObservationStatus]
REPEATABLE_MAX_CALLS = 10
"""Calls of a `repeatable` tool in one run when neither it nor the agent sets a budget."""
_NOT_RUN = "nothing was run. Try another way or give the Final Answer."


def act(
    tool: BaseTool | None,
    written: str,
    args: dict[str, Any],
    memory: RunMemory,
    tools: Sequence[BaseTool],
    settings: AgentSettings,
    config: RunnableConfig,
) -> Steps[Observed]:
    """Return the Observation for one Action, as `(observation, status)`; use with `yield from`.

    Args:
        tool: The tool the model meant, or None when its name (`written`) matches none.
        written: The tool name as the model wrote it.
        args: The arguments bound onto the tool's schema.
        memory: The run so far (for the repeated-action guard and the call budget).
        tools: All the agent's tools (named in an unknown tool's observation).
        settings: The agent's options (`repeated_action`, `max_tool_calls`, `approve`).
        config: The run's config, with its callbacks.
    """
    if tool is None:
        return toolbox.unknown_tool_message(written, tools), "unknown_tool"
    if toolbox.placeholder_input(tool, args):
        return toolbox.placeholder_input_message(tool), "placeholder_input"
    metadata = tool.metadata or {}
    earlier = memory.previous_observation(tool.name, args)
    repeatable = metadata.get("repeatable") or settings.repeated_action == "allow"
    if earlier is not None and not repeatable:
        return toolbox.repeated_action_message(tool.name, earlier), "repeated"
    budget = metadata.get("max_calls", settings.max_tool_calls)
    if budget is None and metadata.get("repeatable"):
        budget = REPEATABLE_MAX_CALLS
    if budget is not None and memory.calls_of(tool.name) >= budget:
        return over_budget_message(tool.name, budget), "over_budget"
    if earlier is not None and metadata.get("poll_interval"):
        yield sleeping(float(metadata["poll_interval"]))  # a job being polled: give it time
    return (yield from run_tool(tool, args, config, settings.approve))


def run_tool(
    tool: BaseTool, args: dict[str, Any], config: RunnableConfig, approve: toolbox.Approve | None
) -> Steps[Observed]:
    """Run one tool, asking for approval first when it requires it; never raises for its failure.

    The status is "ok", "error" (the tool raised) or "denied" (it needs approval and did not get
    it: it never ran).
    """
    # Only this function grants approval: a key smuggled in through the caller's config is dropped.
    if toolbox.APPROVAL_CONFIG_KEY in config.get("configurable", {}):
        config = patch_config(config, configurable={toolbox.APPROVAL_CONFIG_KEY: False})
    if (tool.metadata or {}).get("requires_approval"):
        if approve is None:
            reason = f"{tool.name} needs the user's approval and no approval callback is set"
            return f"{reason}; {_NOT_RUN}", "denied"
        if not approve(tool.name, args):
            return f"The user did not approve running {tool.name}; {_NOT_RUN}", "denied"
        config = patch_config(config, configurable={toolbox.APPROVAL_CONFIG_KEY: True})
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


def observation_text(result: Any) -> str:
    """A tool's result as the text the model reads.

    A string as it is; a message's content; a list of content blocks (what MCP tools return) as
    their text, one per line, with a placeholder for an image, audio or file; other values as
    JSON when they can be written so.
    """
    content = getattr(result, "content", result)
    if isinstance(content, str):
        return content
    if isinstance(content, list) and all(isinstance(block, str | dict) for block in content):
        return "\n".join(_block_text(block) for block in content)
    try:
        return json.dumps(content, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(content)


def _block_text(block: str | dict[str, Any]) -> str:
    if isinstance(block, str):
        return block
    kind = block.get("type")
    if kind == "text":
        return str(block.get("text", ""))
    if kind in ("image", "image_url", "audio", "file"):
        mime = block.get("mime_type") or block.get("mimeType") or kind
        return f"[{kind}: {mime}, not shown]"
    return json.dumps(block, ensure_ascii=False, default=str)


def pauses(tool: BaseTool | None, settings: AgentSettings) -> bool:
    """Whether the run pauses for a person's decision before `tool` (`approval="interrupt"`)."""
    needs = tool is not None and (tool.metadata or {}).get("requires_approval")
    return bool(needs) and settings.approval == "interrupt"


def decide(
    call: ActionRequest, decision: Decision, tool: BaseTool | None, config: RunnableConfig
) -> Steps[tuple[str, ObservationStatus, ActionRequest]]:
    """The Observation of a paused call, with the person's decision; and the call as it ran.

    Approve runs the call as the model wrote it; edit runs it with the new input; reject does
    not run it, and the reason is the observation (`denied`).
    """
    if tool is None:  # the agent that resumed has no such tool
        return f"{call.tool} is not a tool of this agent; {_NOT_RUN}", "unknown_tool", call
    if decision.kind == "reject":
        reason = f"The user rejected running {tool.name}: {decision.value}"
        return f"{reason}; {_NOT_RUN}", "denied", call
    if decision.kind == "edit":
        args, tool_input = toolbox.bind_arguments(tool, decision.value)
        call = replace(call, tool_input=tool_input, args=args)
    observation, status = yield from run_tool(tool, call.args, config, lambda name, args: True)
    return observation, status, call


def over_budget_message(name: str, budget: int) -> str:
    """The observation for a tool that already ran as often as it may in one run."""
    return f"{name} already ran {budget} times in this run, as often as it may; {_NOT_RUN}"
