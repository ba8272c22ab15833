"""What a Final Answer must be before the run returns it: the schema, then the checks.

`AnswerRules` is built from the agent's `response_format`, `final_answer_checks` and
`max_answer_retries` (`AgentSettings.answer_rules`: None when neither is set, and every answer is
taken as written). `review` gives the `Verdict` on one answer: the output to return (the answer's
JSON written cleanly with a schema), the `structured_response`, the checks it still fails, or the
record that sends it back to the model instead: a `ParseFailure` when it is not the JSON the schema
asks for (counted like any format error), an `AnswerRejected` while the checks may still send it
back. The record's message is the model's next Observation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from custom_react.answering.checks import Check, RunSteps, review
from custom_react.answering.schema import AnswerInvalid, AnswerSchema
from custom_react.events import AnswerRejected, ParseFailure
from custom_react.parser import FinalAnswer

if TYPE_CHECKING:
    from custom_react.memory import RunMemory


@dataclass(frozen=True)
class Verdict:
    """The review of one Final Answer."""

    output: str
    """The answer to return: as written, or its JSON written cleanly when there is a schema."""
    structured: Any = None
    """The validated answer (`result["structured_response"]`), with a schema."""
    problems: list[str] = field(default_factory=list)
    """The failed checks' messages, each with the check's name (kept when retries ran out)."""
    sent_back: ParseFailure | AnswerRejected | None = None
    """The record that sends the answer back to the model; None when the run ends with it."""


class AnswerRules:
    """The agent's schema for the Final Answer (if any), its checks and how often they retry."""

    def __init__(
        self, schema: AnswerSchema | None, checks: Sequence[Check], max_retries: int
    ) -> None:
        self.schema = schema
        self.checks = list(checks)
        self.max_retries = max_retries

    def review(self, answer: FinalAnswer, reply: str, run: RunMemory, language: str) -> Verdict:
        """The verdict on `answer` (the reply's step), counting in `run` what it sends back."""
        output = answer.output
        structured = None
        if self.schema is not None:
            try:
                structured, output = self.schema.read(answer.output, language)
            except AnswerInvalid as error:
                run.failures += 1
                # The step read fine; the model reads it again rewritten, as it does an Action.
                failure = ParseFailure(
                    answer.log or reply, str(error), run.failures, run.iterations
                )
                return Verdict(answer.output, sent_back=failure)
        run.failures = 0
        steps = RunSteps(run.steps, run.question, language)
        problems = review(self.checks, output, steps)
        if problems and run.rejections < self.max_retries:
            run.rejections += 1
            rejected = AnswerRejected(output, problems, run.iterations, answer.log)
            return Verdict(output, structured, problems, sent_back=rejected)
        return Verdict(output, structured, problems)
