"""A Final Answer that only repeats what the agent itself wrote to the model.

Between its replies the loop writes to the model: why a call did not run ("search was not run: ...
write the Action again ..."), why a reply broke the format, why an answer went back. Small models
sometimes copy that message as their Final Answer, so the user would read instructions meant for
the model. `repeats_loop_message` finds such an answer; the loop sends it back like a format error
(`AnswerRules.review`; `TextReActMiddleware` too, for its format errors), and the answer stream
holds its text once such a message was written (`running/answer_stream.py`). A tool's own result is never such a message: an answer that repeats
what a tool returned is an answer.
"""

from __future__ import annotations

from collections.abc import Iterable

from custom_react.steps import AnswerRejected, ParseFailure, ToolStep

_RAN = ("ok", "error", "timed_out", "pending")
"""The statuses of a step whose Observation is the tool's own (or not there yet)."""
_SHORTEST = 20
"""An answer shorter than this (a number, a name) is never taken for a copy."""


def loop_message(record: object) -> str | None:
    """The text the loop wrote to the model in `record`, if it is such a record.

    A step whose tool did not run (refused, unknown, over budget, not approved) holds the loop's
    reason as its Observation; a format error and an answer sent back hold theirs.
    """
    if isinstance(record, ToolStep):
        return None if record.status in _RAN else record.observation
    if isinstance(record, ParseFailure):
        return record.error
    if isinstance(record, AnswerRejected):
        return record.message
    return None


def loop_messages(records: Iterable[object]) -> list[str]:
    """Every message the loop wrote to the model in these records, in order."""
    return [message for record in records if (message := loop_message(record)) is not None]


def repeats_loop_message(answer: str, messages: Iterable[str]) -> bool:
    """Whether `answer` holds one of `messages` whole, or is most of one (a copy cut short)."""
    written = _plain(answer)
    if len(written) < _SHORTEST:
        return False
    for message in messages:
        said = _plain(message)
        if said in written or (written in said and 3 * len(written) >= 2 * len(said)):
            return True
    return False


def _plain(text: str) -> str:
    """`text` with its whitespace collapsed and its case folded."""
    return " ".join(text.split()).casefold()
