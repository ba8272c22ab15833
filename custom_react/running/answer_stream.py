"""Only the Final Answer, as it is written: for apps that show the answer and not the steps.

`final_answer_tokens(events)` takes a run's events with its `ReplyToken`s (`agent.stream(input,
stream_tokens=True)`) and yields the text after `Final Answer:` (`最终答案：` in Chinese, any
spelling the parser reads) as it arrives, the marker found however the chunks split it; steps
before the answer yield nothing. At the end it yields whatever the streamed text lacks of the
run's output (an answer written without a marker, say), so the pieces always join to it.
`afinal_answer_tokens` is the same over `astream`. What counts as the answer is the step format's
reading of a reply so far (`ReActFormat.answer_so_far`: the text markers' and XML tags' by
default, `parsing.markers.answer_so_far`; the JSON format's own). An agent whose answers are checked (`response_format`,
`final_answer_checks`) may send an answer back: then nothing streams until an answer is accepted
(its `FinalAnswerEvent`), so a rejected answer never reaches the stream (`live=False`). So it is
once the loop wrote to the model (a call refused, a format error): the next answer may only repeat
that message, and go back (`answering/echo.py`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from typing import Any

from custom_react.answering.echo import loop_message
from custom_react.events import ObservationEvent, ReplyToken, RunFinished
from custom_react.parsing.markers import answer_so_far
from custom_react.steps import FinalAnswerEvent


class AnswerText:
    """The Final Answer of one run so far, fed event by event; `feed` returns the new text."""

    def __init__(self, live: bool = True, written: Callable[[str], str] = answer_so_far) -> None:
        self.live = live
        """Give out the answer as the reply is written (else only once it is accepted)."""
        self.written = written
        """The answer in a reply so far, as the step format writes it (text markers by default)."""
        self.reply = ""
        """The text of the reply being written."""
        self.answer = ""
        """The answer text given out so far."""

    def feed(self, event: Any) -> str:
        """The answer text `event` adds: a piece of the reply, or the run's remaining output."""
        if isinstance(event, ReplyToken):
            self.reply = "" if event.restart else self.reply + event.text
            return self._extend(self.written(self.reply)) if self.live else ""
        self.reply = ""  # a step ended: the next reply starts afresh
        record = event.step if isinstance(event, ObservationEvent) else event
        if loop_message(record) is not None:
            self.live = False  # an answer that repeats the loop's message goes back: wait for it
        if isinstance(event, FinalAnswerEvent) and not self.live:
            return self._extend(event.output)  # the accepted answer, whole
        if isinstance(event, RunFinished) and event.result.answered:
            return self._extend(event.result.output)
        return ""

    def _extend(self, text: str) -> str:
        """What `text` adds to the answer given so far ("" when it does not continue it)."""
        if not text.startswith(self.answer):
            return ""
        new, self.answer = text[len(self.answer) :], text
        return new


def final_answer_tokens(
    events: Iterable[Any], live: bool = True, written: Callable[[str], str] = answer_so_far
) -> Iterator[str]:
    """The Final Answer's text, piece by piece, from a run's events (see the module docstring)."""
    answer = AnswerText(live, written)
    for event in events:
        if text := answer.feed(event):
            yield text


async def afinal_answer_tokens(
    events: AsyncIterator[Any], live: bool = True, written: Callable[[str], str] = answer_so_far
) -> AsyncIterator[str]:
    """`final_answer_tokens` over an async stream of events."""
    answer = AnswerText(live, written)
    async for event in events:
        if text := answer.feed(event):
            yield text
