"""The scratchpad: the earlier steps written as the plain ReAct transcript the model continues.

`render_scratchpad(steps)` turns the run's step records into the text that follows the question in
the user turn (`...Observation: 310\\nThought: `): each step's reply (its markers rewritten plainly),
then its observation as the format writes one, and at the end the format's cue, so the model's
next words are its next Thought. A text-ReAct model is never sent provider tool calls (OpenAI-
compatible servers reject a `tool` message without one), and small models keep the format best
when they continue one transcript (measured: README, "What the model sees"). `<think>` blocks
never come back: the model reads its steps without its old private reasoning. A pure function.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from custom_react.events import FinalAnswerEvent, ParseFailure, Step, ToolStep
from custom_react.markers import strip_think

OBSERVATION_PREFIX = "Observation: "
TEXT_CUE = "Thought: "  # with the space, as the legacy prompt ends: measured fewer repeated steps

RenderObservation = Callable[[str], str]


def render_observation(observation: str) -> str:
    """The text format's observation line: `Observation: ...`."""
    return OBSERVATION_PREFIX + observation


def render_scratchpad(
    steps: Sequence[Step],
    observe: RenderObservation = render_observation,
    cue: str = TEXT_CUE,
    note: str = "",
) -> str:
    """Write the steps as the transcript the model continues after the question.

    Args:
        steps: The run's step records, in order.
        observe: How the format shows an observation (or a format error) to the model.
        cue: What the transcript ends with ("Thought: " for text; "" when a step is one object).
        note: A last line before the cue (the nudge for a final answer on a limit).

    Returns:
        "" when there is nothing to show, else a newline, then one line (or block) per entry.
    """
    lines: list[str] = []
    for step in steps:
        if isinstance(step, ToolStep):
            lines += [_reply(step.log, cue), observe(step.observation)]
        elif isinstance(step, ParseFailure):
            lines += [_reply(strip_think(step.text).strip(), cue), observe(step.error)]
        elif isinstance(step, FinalAnswerEvent):
            lines.append(_reply(step.log, cue))
    lines += [note] if note else []
    lines += [cue] if cue else []
    return "\n" + "\n".join(lines) if lines else ""


def _reply(text: str, cue: str) -> str:
    """A reply as the model reads it again: with the cue's label put back when it continued it."""
    label = cue.rstrip()
    if not label:
        return text
    text = text.lstrip()
    return text if text.startswith(label) else f"{label} {text}"
