"""Whether bound arguments may run: the checks on an Action Input before its tool is called.

Before a tool runs, the loop's guards (`acting.py`) ask here: `unknown_arguments` names the
arguments the tool does not have, `argument_problem` says what else breaks the schema (a wrong
type, a value outside the enum, a missing required argument; the check is the `jsonschema`
library's; its Observation is made here too), and `copied_input` tells an input copied from the
tool list (a one-argument tool's description of its input, `placeholder_input`, or the example's
placeholder values, `example_values`), unless the model `insists` on it. Binding the input to the
arguments is `arguments.py`'s; nothing here runs a tool.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Protocol

from jsonschema.exceptions import SchemaError, UnknownType, ValidationError, best_match
from langchain_core.tools import BaseTool

from custom_react.prompts import message
from custom_react.steps import Step, ToolStep
from custom_react.tool_schemas import json_types, tool_schema


def argument_problem(tool: BaseTool, args: dict[str, Any], language: str = "en") -> str | None:
    """The Observation for arguments that break the tool's schema, or None when they fit.

    Arguments the tool does not have are named first, with the real ones. Otherwise it names the
    argument (inside an object, by its path: `line.qty`), the type it takes and, for an enum, the
    values it allows; a missing required argument is named so too, with its type. A schema the
    checker cannot read is not held against the model (None).
    """
    if unknown := unknown_arguments(tool, args):
        return unknown_arguments_message(tool, args, unknown, language)
    validator = tool_schema(tool).validator
    if validator is None:
        return None
    try:
        error = best_match(validator.iter_errors(args))
    except (SchemaError, UnknownType):
        return None
    schema: dict[str, Any] = validator.schema  # type: ignore[assignment]
    return None if error is None else _problem_message(tool, schema, error, language)


def _problem_message(
    tool: BaseTool, schema: dict[str, Any], error: ValidationError, language: str
) -> str:
    if error.validator == "required":
        return _missing_message(tool, schema, error, language)
    argument = ".".join(str(part) for part in error.absolute_path) or "?"
    given = json.dumps(error.instance, ensure_ascii=False)[:80]
    values = {"tool": tool.name, "argument": argument, "given": given}
    if error.validator == "enum":
        allowed = ", ".join(json.dumps(v, ensure_ascii=False) for v in error.validator_value)
        return message("argument_not_allowed", language, allowed=allowed, **values)
    if error.validator == "type":
        kinds = error.validator_value
        kind = kinds if isinstance(kinds, str) else "/".join(kinds)
        return message("argument_wrong_type", language, kind=kind, **values)
    return message("argument_invalid", language, reason=error.message, **values)


def _missing_message(
    tool: BaseTool, schema: dict[str, Any], error: ValidationError, language: str
) -> str:
    """The Observation for a required argument left out, named by its path and with its type.

    A field missing inside an object is named where it belongs (`line.qty`, as a wrong type is):
    named alone, it reads as an argument of the tool, which the model then adds at the top. Its
    type is read in the object's own schema (`error.schema`), a `$ref` resolved in `schema`.
    """
    missing = [name for name in error.validator_value if name not in error.instance]
    name = missing[0] if missing else "?"
    fields = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
    kind = "/".join(json_types(fields.get(name, {}), schema)) or "any"
    argument = ".".join(str(part) for part in [*error.absolute_path, name])
    return message("argument_missing", language, tool=tool.name, argument=argument, kind=kind)


def unknown_arguments(tool: BaseTool, args: dict[str, Any]) -> list[str]:
    """The argument names in `args` that the tool's schema does not have.

    None for a tool that takes any (no schema, or extra arguments allowed), but one argument
    given twice, by the name shown and by another name the tool reads it by (`also_named`): the
    tool would run one of the two values, and a person approving the call cannot tell which.
    """
    schema = tool_schema(tool)
    if not schema.args or _takes_any(tool):
        return [name for name in args if schema.also_named.get(name) in args]
    return [name for name in args if name not in schema.args]


def unknown_arguments_message(
    tool: BaseTool, args: dict[str, Any], unknown: list[str], language: str = "en"
) -> str:
    """The observation for an input with arguments the tool does not have: nothing ran.

    When the input without them fits the schema, it is shown to be written next: a small model
    asked only to leave a name out tends to write the same input again, word for word.
    """
    valid = ", ".join(tool_schema(tool).args) or "(none)"
    names = {"tool": tool.name, "unknown": ", ".join(unknown), "valid": valid}
    kept = {name: value for name, value in args.items() if name not in unknown}
    if kept and argument_problem(tool, kept, language) is None:
        fixed = json.dumps(kept, ensure_ascii=False)
        return message("unknown_arguments_left_out", language, **names, fixed=fixed)
    return message("unknown_arguments", language, **names)


def _takes_any(tool: BaseTool) -> bool:
    schema = tool.args_schema
    if isinstance(schema, dict):
        return schema.get("additionalProperties") not in (False, None) or not schema.get(
            "properties"
        )
    config = getattr(schema, "model_config", {}) or {}
    return config.get("extra") == "allow"


_PLACEHOLDER = (
    r"(?:the |a |an |one |your )?(?:{name}|input(?: for the tool)?)(?: itself)?"
    r"(?: \((?:string|text|integer|number|boolean)\))?(?:,? as (?:plain text|a string))?"
)


_SCHEMA_TYPE = re.compile(
    r"""['"]type['"]\s*[:,]\s*['"](?:string|integer|number|boolean|array|object)['"]"""
)
"""A JSON schema's `"type": "string"` (or `('type', 'string')`, as Python prints one)."""


class RunSoFar(Protocol):
    """What the copy check reads of a run (`memory.RunMemory` has both)."""

    @property
    def question(self) -> str:
        """The question, where a value the call keeps may be given."""

    @property
    def steps(self) -> Sequence[Step]:
        """The steps so far: their Observations may give it too, and a refusal shows insisting."""


def copied_input(tool: BaseTool, call: ToolStep, run: RunSoFar, language: str = "en") -> str | None:
    """The Observation for a call whose input is copied from the tool list, or None to go on.

    Two kinds: the description of a one-argument tool's input (`placeholder_input`), and the
    placeholder values of the example a tool with several arguments is shown by
    (`example_values`), where neither the question nor a result gives them. A call refused so
    that the model writes again goes on (`insists`).
    """
    args = call.args
    if insists(call, run.steps):
        return None
    if placeholder_input(tool, args):
        (argument,) = tool.args
        description = tool.description.strip()
        values = {"tool": tool.name, "argument": argument, "description": description}
        return message("placeholder_input", language, **values)
    if kept := example_values(tool, args, run.question, run.steps):
        written = ", ".join(f"{name}={json.dumps(args[name], ensure_ascii=False)}" for name in kept)
        return message("example_values", language, tool=tool.name, values=written)
    return None


def example_values(
    tool: BaseTool, args: dict[str, Any], question: str, steps: Sequence[Step]
) -> list[str]:
    """The arguments left at the tool list's example value, which nothing so far gives.

    A tool with several arguments is shown by an example whose values are placeholders of their
    types (`{"amount": 0.0, "to": "..."}`, `tool_schemas.input_example`). Asked what no tool
    does, a small model copies them and calls a tool anyway (`convert_currency(amount=0.0)`, on
    BFCL's irrelevance cases); a tool run so answers nothing. A default or an enum's value in the
    example is a real value, and a zero the question or an Observation writes is meant.
    """
    kept = [
        name
        for name, example in tool_schema(tool).example.items()  # {}: the tool shows no example
        if name in args and _placeholder_kept(args[name], example)
    ]
    if kept and any(_numbers_only(args[name]) for name in kept):
        shown = [question, *(step.observation for step in steps if isinstance(step, ToolStep))]
        if any(_ZERO.search(text) for text in shown):  # a zero given: the zeros are meant
            kept = [name for name in kept if not _numbers_only(args[name])]
    return kept


_ZERO = re.compile(r"(?<![\d.,])0+(?:[.,]0+)?(?![\d]|[.,]\d)")
"""A zero written as a number (`0`, `0.0`), not a digit of another (`10`, `0.5`)."""


def _placeholder_kept(value: Any, example: Any) -> bool:
    """Whether `value` is `example` as the tool list shows it, a placeholder of its type."""
    if isinstance(value, bool) or isinstance(example, bool):
        return False  # `false` is as often meant as not
    if isinstance(example, dict) and example:  # a nested object: every field left so
        return (
            isinstance(value, dict)
            and value.keys() == example.keys()
            and all(_placeholder_kept(value[key], example[key]) for key in example)
        )
    if isinstance(example, (int, float)):
        return example == 0 and isinstance(value, (int, float)) and value == 0
    if example == "...":
        return isinstance(value, str) and value.strip() in ("...", "…")
    return example in ([], {}) and value == example


def _numbers_only(value: Any) -> bool:
    """Whether a kept placeholder is a zero, or an object of zeros (which a zero given means)."""
    if isinstance(value, dict):
        return bool(value) and all(_numbers_only(field) for field in value.values())
    return isinstance(value, (int, float))


def placeholder_input(tool: BaseTool, args: dict[str, Any]) -> bool:
    """Whether the model wrote the description of an input instead of one.

    Small models copy the tool list's input line (`expression (string) as plain text`, `the
    query itself`), the argument's name, or the argument's schema (`{'query': {'title': 'Query',
    'type': 'string'}}`, in any notation) as the input. Caught for tools with one text argument,
    where such an input can only be a copy.
    """
    if len(args) != 1 or len(tool_schema(tool).args) != 1:
        return False
    ((name, value),) = args.items()
    if not isinstance(value, str):
        return False
    written = value.strip().strip("'\"`.").strip().lower()
    if _described(name).fullmatch(written.replace("_", " ")) is not None:
        return True  # the description of the input
    if _SCHEMA_TYPE.search(value) is None:
        return False
    quoted_name = rf"""['"]{re.escape(name)}['"]"""
    return re.search(quoted_name, value, re.IGNORECASE) is not None  # the schema, by its name


@lru_cache(maxsize=256)
def _described(name: str) -> re.Pattern[str]:
    """`_PLACEHOLDER` for the argument `name`, compiled once per name."""
    return re.compile(_PLACEHOLDER.format(name=re.escape(name.lower().replace("_", " "))))


def insists(call: ToolStep, steps: Sequence[Step]) -> bool:
    """Whether the run already refused this very call as copied: written again, it runs.

    An input can equal the argument's name and still be meant (`define(word)`, asked what "word"
    means). The model read why it was refused and wrote the same call again (the same tool and
    arguments, `action_key`): it means it. Then the other guards apply as to any call.
    """
    return any(
        isinstance(step, ToolStep)
        and step.status == "placeholder_input"
        and step.action_key == call.action_key  # made once per step, when first compared
        for step in steps
    )
