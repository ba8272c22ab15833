"""What the Final Answer must be: a schema (`response_format=`) and checks (`final_answer_checks=`).

`schema.py` turns a Pydantic model, a `TypedDict` or a JSON schema into the prompt's instructions
and reads the answer into a validated object; `checks.py` holds the check protocol and the
built-in `grounded_numbers`; `rules.py` gives the loop one verdict per answer, or the record
that sends it back to the model. All of it works on
models with no native tool calls and no JSON mode: the answer is text the parser already read.
"""

from custom_react.answering.checks import Check, RunSteps, grounded_numbers
from custom_react.answering.rules import AnswerRules, Verdict
from custom_react.answering.schema import AnswerInvalid, AnswerSchema

__all__ = [
    "AnswerInvalid",
    "AnswerRules",
    "AnswerSchema",
    "Check",
    "RunSteps",
    "Verdict",
    "grounded_numbers",
]
