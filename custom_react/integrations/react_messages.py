"""`create_agent`'s messages as ReAct steps, and a step as its messages (`TextReActMiddleware`).

A step that calls a tool is the reply with one `tool_calls` entry (`with_call`); a reply that
broke the format is kept as written with a user turn holding the error, both marked
`scratchpad.FORMAT_ERROR` (`format_error`, `failures_in_a_row`), and the run that had too many of them
ends with a message marked `STOPPED` (`stopped`); a reply that stopped after its Thought and
the model's going on are one step (`gone_on`). Read back, the last human turn is the question
(`last_human`), the turns before it the conversation (read as the agent reads its history:
`scratchpad.readable_history`), and the steps after it the transcript's exchanges
(`step_exchanges`). Pure functions.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.messages.ai import add_usage
from langchain_core.messages.tool import ToolCall

from custom_react.parsing.thinking import strip_think
from custom_react.running.model_call import continued
from custom_react.scratchpad import is_format_error, message_exchanges, sent_back
from custom_react.steps import Exchange

STOPPED = "react_stop_reason"
"""The `response_metadata` key of the message that ends a run at a limit (`stopped`): not an
answer, as LangChain's model-call limit ends a run with a message of its own."""


def gone_on(reply: BaseMessage, more: BaseMessage) -> AIMessage:
    """A reply that stopped after its Thought and the model's going on: one step, usage summed."""
    first = reply if isinstance(reply, AIMessage) else AIMessage(content=reply.text)
    rest = more if isinstance(more, AIMessage) else AIMessage(content=more.text)
    usage = add_usage(first.usage_metadata, rest.usage_metadata)
    return continued(first.text, rest).model_copy(update={"usage_metadata": usage})


def format_error(
    reply: AIMessage, error: str, refused: dict[str, Any] | None = None
) -> list[BaseMessage]:
    """A reply that broke the format, as written (no tool call), and a user turn with the error.

    A call refused as copied from the tool list is kept with the error (`REFUSED_CALL`): written
    again, it runs (`text_calls.tool_call`).
    """
    kept = reply.model_copy(update={"content": strip_think(reply.text).strip(), "tool_calls": []})
    marks = {REFUSED_CALL: refused} if refused else {}
    return [sent_back(kept), sent_back(HumanMessage(content=error, response_metadata=marks))]


REFUSED_CALL = "react_refused_call"
"""The `response_metadata` key of a refusal's user turn: the copied call, `{"tool", "args"}`."""


def said_to_model(messages: Sequence[BaseMessage]) -> list[str]:
    """What the run wrote to the model so far: why each reply it sent back broke the format."""
    return [m.text for m in messages if isinstance(m, HumanMessage) and is_format_error(m)]


def step_exchanges(messages: Sequence[BaseMessage]) -> list[Exchange]:
    """The steps as (reply, observation) pairs, a format error as its reply's observation.

    `scratchpad.message_exchanges` reads tool results; a format error is a user turn, so it is
    read here as the result of the reply before it.
    """
    as_results = [
        ToolMessage(content=m.text, tool_call_id="")
        if isinstance(m, HumanMessage) and is_format_error(m)
        else m
        for m in messages
    ]
    return message_exchanges(as_results)


def last_human(messages: Sequence[BaseMessage]) -> int | None:
    """Index of the last human turn (the question being answered), if any."""
    found = [
        i
        for i, message in enumerate(messages)
        if isinstance(message, HumanMessage) and not is_format_error(message)
    ]
    return found[-1] if found else None


def with_call(message: AIMessage, content: str, name: str, args: dict[str, Any]) -> AIMessage:
    """`message` as one tool call (a fresh id) with `content` as its text."""
    call = ToolCall(name=name, args=args, id=f"call_{uuid.uuid4().hex[:12]}", type="tool_call")
    return message.model_copy(update={"content": content, "tool_calls": [call]})


def failures_in_a_row(messages: Sequence[BaseMessage]) -> int:
    """How many replies in a row, at the end of `messages`, broke the format."""
    count = 0
    for message in reversed(messages):
        if not is_format_error(message):
            break
        count += isinstance(message, AIMessage)
    return count


def stopped(text: str, reason: str) -> AIMessage:
    """The run's last message when it stops at a limit: why, in words, marked as no answer."""
    return AIMessage(content=text, response_metadata={STOPPED: reason})
