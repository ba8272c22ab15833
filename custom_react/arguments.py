"""The Action Input bound to a tool's arguments, and the checks on it before the tool runs.

`bind_arguments` maps what the model wrote (text, a JSON object, a call's positional arguments)
onto the tool's argument schema (`tool_arguments`) and makes the unambiguous coercions to the
schema's types (`coerce_arguments`: `"10"` to 10 for an integer, `"true"` to true, one value to
`[value]` for an array); `unknown_arguments` names the arguments the tool does not have,
`argument_problem` says what else breaks the schema (a wrong type, a value outside the enum, a
missing required argument), and `placeholder_input` tells an input copied from the tool list.
The schema is the tool's JSON schema, given as a dict or made from its pydantic model; the check
is the `jsonschema` library's. The loop's guards (`acting.py`) turn each into an Observation;
nothing here runs a tool.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError, UnknownType, ValidationError, best_match
from langchain_core.tools import BaseTool

from custom_react.parsing.action_input import POSITIONAL_ARGS, ActionInput
from custom_react.parsing.json_repair import read_json_object
from custom_react.prompts import message


def tool_arguments(tool: BaseTool, tool_input: ActionInput) -> dict[str, Any]:
    """Map an Action Input onto the tool's arguments.

    A string fills a one-argument tool; a JSON object is used as given, except that a one-key
    object whose key does not exist is renamed to the tool's only argument. Positional arguments
    of a call (`write_file("a.txt", "hi")`, kept under `POSITIONAL_ARGS`) fill the arguments not
    given by keyword, in schema order; extra ones are joined into the last. Tools without
    arguments ignore the input. Words around the tool's arguments as a JSON object (`a JSON
    object such as {"a": 1}`, the tool list's own words copied) leave the object
    (`object_in_words`).
    """
    names = list(tool_schema(tool).args)
    if not names:
        return {}
    if isinstance(tool_input, str):
        return object_in_words(tool, tool_input) or {names[0]: tool_input}
    if POSITIONAL_ARGS in tool_input:
        return _bind_positional(names, tool_input)
    if len(names) == 1 and len(tool_input) == 1:
        ((key, value),) = tool_input.items()
        if key not in (names[0], *tool_schema(tool).hidden):  # an injected name is refused later
            return {names[0]: value}
    return dict(tool_input)


def object_in_words(tool: BaseTool, text: str) -> dict[str, Any] | None:
    """The tool's arguments written as a JSON object inside other words, or None.

    Only for a tool the text cannot be the input of as it is (several arguments, or one that is
    not a string), and only when the first object in the text names nothing but its arguments:
    `a JSON object such as {"city": "Paris", "days": 3}` or `{"city": "Paris"} to get the weather`.
    """
    arguments = tool_schema(tool).args
    if len(arguments) == 1 and next(iter(arguments.values())).get("type", "string") == "string":
        return None
    start = text.find("{")
    value = read_json_object(text, start) if start >= 0 else None
    if isinstance(value, dict) and value and set(value) <= set(arguments):
        return value
    return None


def _bind_positional(names: list[str], tool_input: dict[str, Any]) -> dict[str, Any]:
    keywords = {key: value for key, value in tool_input.items() if key != POSITIONAL_ARGS}
    values = list(tool_input[POSITIONAL_ARGS])
    free = [name for name in names if name not in keywords] or names[-1:]
    if len(values) > len(free):  # `search("rose", "price")` -> query="rose, price"
        rest = values[len(free) - 1 :]
        values[len(free) - 1 :] = [", ".join(v if isinstance(v, str) else str(v) for v in rest)]
    return {**dict(zip(free, values, strict=False)), **keywords}


def bind_arguments(
    tool: BaseTool | None, tool_input: ActionInput
) -> tuple[dict[str, Any], ActionInput]:
    """`(args, tool_input)` for one action.

    The arguments to call the tool with (`{"input": ...}` for an unknown tool), and the input to
    show and record: as parsed, except that positional call arguments (`write_file("a.txt",
    "hi")`) are shown mapped onto their names.
    """
    if tool is None:
        return {"input": tool_input}, tool_input
    args = coerce_arguments(tool, tool_arguments(tool, tool_input))
    positional = isinstance(tool_input, dict) and POSITIONAL_ARGS in tool_input
    return args, args if positional else tool_input


@dataclass(frozen=True)
class ToolSchema:
    """What the checks read of one tool, made once: building a schema costs more than a step.

    `args`: each argument's JSON schema, by name; `validator`: the check of what the model writes.
    """

    args: dict[str, Any]
    validator: Draft202012Validator | None
    hidden: frozenset[str] = frozenset()
    """Parameters the loop fills and the model may not name (a `ToolRuntime`, injected ones)."""


_SCHEMAS: dict[int, tuple[BaseTool, ToolSchema]] = {}
_MAX_SCHEMAS = 1024


def tool_schema(tool: BaseTool) -> ToolSchema:
    """The tool's `ToolSchema`, made the first time it is asked for and kept with the tool."""
    known = _SCHEMAS.get(id(tool))
    if known is not None and known[0] is tool:
        return known[1]
    schema = input_schema(tool)
    try:
        validator = None if not schema else Draft202012Validator(schema)
    except SchemaError:  # a schema the checker cannot read is not held against the model
        validator = None
    fields = getattr(tool.args_schema, "model_fields", None) or {}
    made = ToolSchema(dict(tool.args), validator, frozenset(fields) - set(tool.args))
    if len(_SCHEMAS) >= _MAX_SCHEMAS:
        _SCHEMAS.clear()
    _SCHEMAS[id(tool)] = (tool, made)
    return made


def input_schema(tool: BaseTool) -> dict[str, Any] | None:
    """The JSON schema of the arguments the model writes (injected ones left out), if any."""
    if tool.args_schema is None:
        return None
    schema = tool.tool_call_schema
    if isinstance(schema, dict):
        return schema
    if schema is not None and hasattr(schema, "model_json_schema"):
        return schema.model_json_schema()  # type: ignore[no-any-return]
    return None


def coerce_arguments(tool: BaseTool, args: dict[str, Any]) -> dict[str, Any]:
    """`args` with each value the schema types differently turned into its type, when unambiguous.

    A text that reads as the number, boolean, array or object the argument takes becomes it, a
    number given for a text argument becomes its text, and one value given for an array becomes
    a one-item array (its items coerced too). Anything else is left for `argument_problem`. The
    step keeps the input as written (`ActionRequest.tool_input`) next to these arguments.
    """
    properties = tool_schema(tool).args
    return {name: coerce(value, properties.get(name, {})) for name, value in args.items()}


_INTEGER = re.compile(r"[+-]?\d+")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def coerce(value: Any, schema: dict[str, Any]) -> Any:
    """One value coerced to the one type its schema allows (see `coerce_arguments`)."""
    kinds = _types(schema)
    if len(kinds) != 1 or _has_type(value, kinds[0]):
        return value
    (kind,) = kinds
    if kind == "integer" and isinstance(value, float) and value.is_integer():
        return int(value)  # 5.0 for an integer
    if isinstance(value, str):
        value = _from_text(value, kind)
    if kind == "string" and isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    if kind == "array" and not isinstance(value, list):
        value = [value]
    if kind == "array" and isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [coerce(item, schema["items"]) for item in value]
    return value


def _from_text(value: str, kind: str) -> Any:
    """A text read as the number, boolean, array or object it spells; else the text."""
    text = value.strip()
    if kind in ("integer", "number") and _NUMBER.fullmatch(text):
        number = float(text)
        if kind == "integer":
            return int(number) if number.is_integer() else value
        return int(text) if _INTEGER.fullmatch(text) else number
    if kind == "boolean" and text.lower() in ("true", "false"):
        return text.lower() == "true"
    if kind in ("array", "object") and text[:1] in "[{":
        return _json(text, value)
    return value


def _types(schema: dict[str, Any]) -> list[str]:
    """The JSON types a schema allows, besides null (`anyOf` members too)."""
    kinds = schema.get("type", [])
    found = [kinds] if isinstance(kinds, str) else list(kinds)
    for member in schema.get("anyOf", []) or schema.get("oneOf", []):
        found += _types(member) if isinstance(member, dict) else []
    return [kind for kind in dict.fromkeys(found) if kind != "null"]


_PYTHON_TYPES: dict[str, Any] = {
    "string": str,
    "integer": int,
    "number": int | float,
    "boolean": bool,
    "array": list,
    "object": dict,
}


def _has_type(value: Any, kind: str) -> bool:
    if isinstance(value, bool) and kind in ("integer", "number"):
        return False
    return isinstance(value, _PYTHON_TYPES.get(kind, object))


def _json(text: str, default: Any) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return default


def argument_problem(tool: BaseTool, args: dict[str, Any], language: str = "en") -> str | None:
    """The Observation for arguments that break the tool's schema, or None when they fit.

    Arguments the tool does not have are named first, with the real ones. Otherwise it names the
    argument, the type it takes and, for an enum, the values it allows; a missing
    required argument is named with its type. A schema the checker cannot read is not held
    against the model (None).
    """
    if unknown := unknown_arguments(tool, args):
        return unknown_arguments_message(tool, unknown, language)
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
        missing = [name for name in error.validator_value if name not in error.instance]
        name = missing[0] if missing else "?"
        kind = "/".join(_types(schema.get("properties", {}).get(name, {}))) or "any"
        return message("argument_missing", language, tool=tool.name, argument=name, kind=kind)
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


def unknown_arguments(tool: BaseTool, args: dict[str, Any]) -> list[str]:
    """The argument names in `args` that the tool's schema does not have.

    None for a tool that takes any (no schema, or extra arguments allowed).
    """
    known = tool_schema(tool).args
    if not known or _takes_any(tool):
        return []
    return [name for name in args if name not in known]


def unknown_arguments_message(tool: BaseTool, unknown: list[str], language: str = "en") -> str:
    """The observation for an input with arguments the tool does not have: nothing ran."""
    valid = ", ".join(tool_schema(tool).args) or "(none)"
    return message(
        "unknown_arguments", language, tool=tool.name, unknown=", ".join(unknown), valid=valid
    )


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


def placeholder_input(tool: BaseTool, args: dict[str, Any]) -> bool:
    """Whether the model wrote the description of an input instead of one.

    Small models copy the tool list's input line (`expression (string) as plain text`, `the
    query itself`) or the argument's name as the input. Caught for tools with one text argument,
    where such an input can only be a copy.
    """
    if len(args) != 1:
        return False
    ((name, value),) = args.items()
    if not isinstance(value, str):
        return False
    written = value.strip().strip("'\"`.").strip().lower()
    pattern = _PLACEHOLDER.format(name=re.escape(name.lower().replace("_", " ")))
    copied = re.fullmatch(pattern, written.replace("_", " ")) is not None
    return copied and len(tool_schema(tool).args) == 1
