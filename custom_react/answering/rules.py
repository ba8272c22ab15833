"""What a Final Answer must be before the run returns it: the schema, then the checks.

`AnswerRules` is built from the agent's `response_format`, `final_answer_checks` and
`max_answer_retries` (`AgentSettings.answer_rules`; with neither set, every answer is taken as
written, unless it only repeats a message the loop wrote to the model: `echo.py`). `review` gives
the `Verdict` on one answer: the output to return (the answer's JSON written cleanly with a
schema), the `structured_response`, the checks it still fails, or why it goes back to the model
instead: `invalid` when it repeats the loop's message or is not the JSON the schema asks for (the
loop records a `ParseFailure`, counted like any format error), `sent_back` while the checks may still
send it back (the loop records an `AnswerRejected`). `last_answer` is the verdict on the answer
asked for at a limit, which nothing can send back. It decides; the loop records and counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import BaseMessage

from custom_react.answering.checks import Check, RunSteps, review
from custom_react.answering.echo import loop_messages, repeats_loop_message
from custom_react.answering.schema import AnswerInvalid, AnswerSchema
from custom_react.parser import FinalAnswer
from custom_react.prompts import load_messages
from custom_react.steps import Step, ToolStep


@dataclass(frozen=True)
class Verdict:
    """The review of one Final Answer: returned, or sent back to the model and why."""

    output: str
    """The answer to return: as written, or its JSON written cleanly when there is a schema."""
    structured: Any = None
    """The validated answer (`result["structured_response"]`), with a schema."""
    problems: list[str] = field(default_factory=list)
    """The failed checks' messages, each with the check's name (kept when retries ran out)."""
    invalid: str | None = None
    """Why the answer is not what the schema asks for: sent back as a format error."""
    sent_back: bool = False
    """The checks send the answer back (their `problems` are the model's next Observation)."""


class AnswerRules:
    """The agent's schema for the Final Answer (if any), its checks and how often they retry."""

    def __init__(
        self,
        schema: AnswerSchema | None,
        checks: Sequence[Check],
        max_retries: int,
        language: str = "en",
        instructions: str = "",
    ) -> None:
        self.schema = schema
        self.checks = list(checks)
        self.max_retries = max_retries
        self.language = language
        self.instructions = instructions
        """The agent's own system prompt: shown to the model before the question, as history is."""

    @property
    def as_written(self) -> bool:
        """No schema and no checks: an answer goes back only if it repeats the loop's message."""
        return self.schema is None and not self.checks

    def review(
        self,
        answer: FinalAnswer,
        run_steps: Sequence[Step],
        question: str,
        rejections: int,
        history: Sequence[BaseMessage] = (),
    ) -> Verdict:
        """The verdict on `answer`, given the run so far and the answers already sent back.

        An answer that repeats the loop's own message to the model goes back as a format error
        (`echo.py`). The checks also read the conversation before the question (`history`). It
        decides only: the loop records what it sends back and counts it.
        """
        output = answer.output
        # An answer that only repeats the loop's message to the model: the user would read it.
        if repeats_loop_message(output, loop_messages(run_steps)):
            return Verdict(output, invalid=load_messages(self.language)["answer_echo"])
        structured = None
        if self.schema is not None:
            try:
                structured, output = self.schema.read(answer.output, self.language)
            except AnswerInvalid as error:
                return Verdict(answer.output, invalid=str(error))
        earlier = [self.instructions, *(message.text for message in history)]
        steps = RunSteps(run_steps, question, self.language, earlier)
        problems = review(self.checks, output, steps)
        sent_back = bool(problems) and rejections < self.max_retries
        return Verdict(output, structured, problems, sent_back=sent_back)

    def last_answer(
        self,
        step: ToolStep | FinalAnswer,
        run_steps: Sequence[Step],
        question: str,
        history: Sequence[BaseMessage] = (),
    ) -> Verdict | None:
        """The verdict on the answer asked for at a limit (`early_stopping_method="generate"`).

        None when `step` is not a Final Answer, or not the JSON the schema asks for: the run then
        ends with the limit's message. The checks cannot send it back (no step is left for a
        retry): what they still find is returned with it, as when retries run out.
        """
        if not isinstance(step, FinalAnswer):
            return None
        verdict = self.review(step, run_steps, question, self.max_retries, history)
        return None if verdict.invalid is not None else verdict
