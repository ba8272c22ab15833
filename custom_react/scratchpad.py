"""The scratchpad: the earlier steps written as the plain ReAct transcript the model continues.

`render_scratchpad(steps)` turns the run's step records into the text that follows the question in
the user turn (`...Observation: 310\\nThought: `): each step's reply (its markers rewritten plainly),
then its observation as the format writes one, and at the end the format's cue, so the model's
next words are its next Thought (or, after a reply that stopped after its Thought, that reply, so
the model goes on with its step). A text-ReAct model is never sent provider tool calls (OpenAI-
compatible servers reject a `tool` message without one), and small models keep the format best
when they continue one transcript (measured: docs/measurements.md, "Why not 90%"). `<think>` blocks
never come back: the model reads its steps without its old private reasoning.

This is the project's one transcript renderer: each record gives its part (`exchange`), and
`render_transcript` writes any list of such parts, so the `create_agent` middleware and the
comparison reports render `create_agent`'s messages the same way (`message_exchanges`). Pure
functions.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, SystemMessage, ToolMessage

from custom_react.parsing.markers import MARKERS
from custom_react.parsing.thinking import strip_think
from custom_react.steps import REACT_LOG, Exchange, Observe, Step

FORMAT_ERROR = "react_format_error"
"""The `response_metadata` key marking a reply the run sent back (it broke the format, or a check
refused its answer) and the user turn that said why: steps, not the conversation."""
OBSERVATION_PREFIX = MARKERS["observation"] + ": "
TEXT_CUE = MARKERS["thought"] + ": "
"""Where the transcript ends: with the space, as the legacy prompt ends."""


def render_observation(observation: str) -> str:
    """The text format's observation line: `Observation: ...`."""
    return OBSERVATION_PREFIX + observation


def render_scratchpad(
    steps: Sequence[Step],
    observe: Observe = render_observation,
    cue: str = TEXT_CUE,
    note: str = "",
    unfinished: str = "",
    handed: Sequence[BaseMessage] = (),
) -> str:
    """Write the steps as the transcript the model continues after the question.

    Args:
        steps: The run's step records, in order.
        observe: How the format shows an observation (or a format error) to the model.
        cue: What the transcript ends with ("Thought: " for text; "" when a step is one object).
        note: A last line before the cue (the nudge for a final answer on a limit).
        unfinished: A reply that stopped after its Thought: it ends the transcript in place of the
            cue, so the model goes on with that step.
        handed: The messages the input had after the question (`handed_exchanges`): first.

    Returns:
        "" when there is nothing to show, else a newline, then one line (or block) per entry.
    """
    exchanges = [*handed_exchanges(handed), *(step.exchange() for step in steps)]
    return render_transcript(exchanges, observe, cue, note, unfinished)


def handed_exchanges(messages: Sequence[BaseMessage]) -> list[Exchange]:
    """Messages given after the question (what was done on it before the run) as exchanges.

    A reply's tool calls are written after its words as the JSON call every step format reads
    (`written_call`), each with the result that answers it; a result no call here asked for, or a
    reply with no call (another node's words), is a step of its own. System messages are not
    steps (`inputs.from_messages` puts them in the system turn).
    """
    results = {m.tool_call_id: m.text for m in messages if isinstance(m, ToolMessage)}
    asked = {call["id"] for m in messages if isinstance(m, AIMessage) for call in m.tool_calls}
    exchanges: list[Exchange] = []
    for message in messages:
        calls = message.tool_calls if isinstance(message, AIMessage) else []
        if log := message.response_metadata.get(REACT_LOG):  # a text-ReAct step: as written
            exchanges.append((log, results.get(calls[0]["id"] or "") if calls else None))
            continue
        text = strip_think(message.text).strip()
        if isinstance(message, ToolMessage) and message.tool_call_id not in asked:
            exchanges.append(("", message.text))
        elif not isinstance(message, ToolMessage | SystemMessage) and not calls:
            exchanges.append((text, None))
        for number, call in enumerate(calls):
            written = written_call(call["name"], call["args"])
            reply = f"{text}\n{written}".strip() if number == 0 else written
            exchanges.append((reply, results.get(call["id"] or "")))
    return exchanges


def written_call(name: str, args: dict[str, Any]) -> str:
    """A provider tool call as text: the JSON call every step format reads (`name`, `arguments`)."""
    return json.dumps({"name": name, "arguments": args}, ensure_ascii=False)


def render_transcript(
    exchanges: Sequence[Exchange], observe: Observe, cue: str, note: str = "", unfinished: str = ""
) -> str:
    """Write (reply, observation) pairs as the transcript the model continues (see above)."""
    entries = transcript_entries(exchanges, observe, cue)
    if note:
        entries.append(note)
    if unfinished:  # a reply that stopped after its Thought: the model goes on from it
        entries.append(with_cue(strip_think(unfinished).strip(), cue) + "\n")
    elif cue:
        entries.append(cue)
    return "\n" + "\n".join(entries) if entries else ""


def transcript_entries(exchanges: Sequence[Exchange], observe: Observe, cue: str) -> list[str]:
    """The transcript's entries, one per reply and one per observation (each maybe multi-line)."""
    entries: list[str] = []
    for reply, observation in exchanges:
        entries.append(with_cue(reply, cue))
        if observation is not None:
            entries.append(observe(observation))
    return entries


def readable_history(history: Sequence[BaseMessage]) -> list[BaseMessage]:
    """The chat history as a text-ReAct model reads it: its turns, without provider tool calls.

    An earlier run's tool steps (an `AIMessage` with tool calls, the `ToolMessage`s answering
    them) and what it sent back (`FORMAT_ERROR`) stay out, as a thread's earlier runs keep theirs:
    the model reads the questions and the answers. A tool result that ends a turn is that turn's
    answer (`return_direct`). So `{"messages": result["messages"] + [follow_up]}` goes on. A
    system message is no turn: it joins the prompt's system turn (`inputs.with_input_system`).
    """
    readable: list[BaseMessage] = []
    for number, message in enumerate(history):
        after = history[number + 1] if number + 1 < len(history) else None
        if isinstance(message, ToolMessage) and not isinstance(after, AIMessage | ToolMessage):
            readable.append(AIMessage(content=message.text))  # a tool's answer ended the turn
        elif not (
            isinstance(message, ToolMessage | SystemMessage)  # the input's: in the system turn
            or (isinstance(message, AIMessage) and message.tool_calls)
            or is_format_error(message)
        ):
            readable.append(message)
    return readable


def is_format_error(message: BaseMessage) -> bool:
    """A reply the run sent back, or the turn that said why (`sent_back`)."""
    return bool(message.response_metadata.get(FORMAT_ERROR))


def sent_back(message: BaseMessage) -> BaseMessage:
    """`message` marked `FORMAT_ERROR`: a reply the run sent back, or the turn that said why."""
    marked = {**message.response_metadata, FORMAT_ERROR: True}
    return message.model_copy(update={"response_metadata": marked})


def message_exchanges(messages: Sequence[BaseMessage]) -> list[Exchange]:
    """`create_agent`'s step messages as exchanges: each reply, and the tool result after it.

    A reply whose content became its answer keeps the step it was in `response_metadata`
    (`REACT_LOG`, set by the text-ReAct middleware); that step is what the model wrote.
    """
    exchanges: list[Exchange] = []
    for message in messages:
        if isinstance(message, AIMessage):
            exchanges.append((message.response_metadata.get(REACT_LOG) or message.text, None))
        elif isinstance(message, ToolMessage) and exchanges:
            exchanges[-1] = (exchanges[-1][0], message.text)
    return exchanges


def with_cue(reply: str, cue: str) -> str:
    """A reply as the model reads it again: with the cue's label put back when it continued it."""
    label = cue.rstrip()
    text = reply.strip()
    return text if not label or text.startswith(label) else f"{label} {text}"
