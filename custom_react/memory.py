"""The run's memory: each step as LangChain 1.0 messages, plus the legacy `intermediate_steps`.

`Scratchpad` records each tool step as an `AIMessage` carrying the parsed tool call followed by the
`ToolMessage` with the observation -- the same shape `create_agent` produces -- and each format error
as the reply followed by a user turn with the error. It also sums token usage and remembers which
(tool, input) pairs already ran, so the loop can refuse to repeat one. It does not decide anything.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from langchain_core.agents import AgentAction
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.messages.ai import UsageMetadata, add_usage

from custom_react.events import AgentResult, StopReason
from custom_react.parser import ActionInput
from custom_react.prompt import (
    TEXT_CUE,
    RenderObservation,
    join_transcript,
    render_observation,
    render_step,
)

PARSE_ERROR_TOOL = "_Exception"  # the name AgentExecutor gives a format error in intermediate_steps


@dataclass
class Scratchpad:
    """Messages and steps of one run, in order."""

    question: str
    chat_history: list[BaseMessage] = field(default_factory=list)
    messages: list[BaseMessage] = field(default_factory=list)
    intermediate_steps: list[tuple[AgentAction, str]] = field(default_factory=list)
    usage: UsageMetadata | None = None
    observe: RenderObservation = render_observation
    """How the format shows an observation to the model (here: a format error's message)."""
    cue: str = TEXT_CUE
    """What the transcript shown to the model ends with (`prompt.render_scratchpad`)."""
    _seen: dict[str, str] = field(default_factory=dict)
    _shown: list[str] = field(default_factory=list)  # the messages rendered so far

    def count_usage(self, reply: BaseMessage) -> None:
        """Add a model reply's token usage to the run total."""
        if isinstance(reply, AIMessage) and reply.usage_metadata:
            self.usage = add_usage(self.usage, reply.usage_metadata)

    def add_step(
        self,
        *,
        log: str,
        tool: str,
        tool_input: ActionInput,
        args: dict[str, Any],
        call_id: str,
        observation: str,
        is_error: bool,
    ) -> None:
        """Record one Action and its Observation as an AIMessage / ToolMessage pair."""
        call = {"name": tool, "args": args, "id": call_id, "type": "tool_call"}
        self.messages.append(AIMessage(content=log, tool_calls=[call]))
        status = "error" if is_error else "success"
        self.messages.append(
            ToolMessage(content=observation, tool_call_id=call_id, name=tool, status=status)
        )
        action = AgentAction(tool=tool, tool_input=tool_input, log=log)
        self.intermediate_steps.append((action, observation))
        if not is_error:
            self._seen[_action_key(tool, args)] = observation

    def add_parse_failure(self, reply_text: str, error: str) -> None:
        """Record a reply that broke the format, and the error the model will read."""
        self.messages.append(AIMessage(content=reply_text))
        self.messages.append(HumanMessage(content=self.observe(error)))
        action = AgentAction(tool=PARSE_ERROR_TOOL, tool_input=reply_text, log=reply_text)
        self.intermediate_steps.append((action, error))

    def add_final_answer(self, log: str) -> None:
        """Record the reply that holds the final answer."""
        self.messages.append(AIMessage(content=log))

    def render(self, *extra: BaseMessage) -> str:
        """The steps so far (then `extra`) as the transcript the model continues, as
        `prompt.render_scratchpad` writes it; each recorded message is rendered only once."""
        new = self.messages[len(self._shown) :]
        self._shown += [render_step(message, self.observe, self.cue) for message in new]
        shown_extra = [render_step(message, self.observe, self.cue) for message in extra]
        return join_transcript([*self._shown, *shown_extra], self.cue)

    def previous_observation(self, tool: str, args: dict[str, Any]) -> str | None:
        """The observation of an earlier successful run of the same tool with the same input."""
        return self._seen.get(_action_key(tool, args))

    def result(self, output: str, stop_reason: StopReason, iterations: int) -> AgentResult:
        """Close the run: the question, every step, the final answer and the totals."""
        messages: list[BaseMessage] = [HumanMessage(content=self.question), *self.messages]
        return AgentResult(
            input=self.question,
            output=output,
            messages=messages,
            intermediate_steps=list(self.intermediate_steps),
            iterations=iterations,
            stop_reason=stop_reason,
            usage=dict(self.usage or {}),
        )


def _action_key(tool: str, args: dict[str, Any]) -> str:
    normalized = {
        key: value.strip() if isinstance(value, str) else value for key, value in args.items()
    }
    return tool + "\x00" + json.dumps(normalized, sort_keys=True, ensure_ascii=False, default=str)
