"""The Action Input bound to a tool's arguments: what the tool would be called with.

`bind_arguments` maps what the model wrote (text, a JSON object, a call's positional arguments)
onto the tool's argument schema (`tool_arguments`) and makes the unambiguous coercions to the
schema's types (`coerce_arguments`: `"10"` to 10 for an integer, `"true"` to true, one value to
`[value]` for an array). The schema is the tool's JSON schema, given as a dict or made from its
pydantic model, read once per tool (`tool_schemas.tool_schema`, with its `jsonschema` validator).
Whether the bound arguments may run is `argument_checks.py`'s; nothing here runs a tool.
"""

from __future__ import annotations

import json
import math
import re
from decimal import Decimal
from typing import Any

from langchain_core.tools import BaseTool

from custom_react.parsing.action_input import POSITIONAL_ARGS, ActionInput
from custom_react.parsing.call_syntax import NAMED_ARGUMENT, read_value, split_arguments
from custom_react.parsing.json_repair import read_json_object
from custom_react.tool_schemas import json_types, tool_schema


def tool_arguments(tool: BaseTool, tool_input: ActionInput) -> dict[str, Any]:
    """Map an Action Input onto the tool's arguments.

    A string fills a one-argument tool; a JSON object is used as given, except that a one-key
    object whose key does not exist is renamed to the tool's only argument. Positional arguments
    of a call (`write_file("a.txt", "hi")`, kept under `POSITIONAL_ARGS`) fill the arguments not
    given by keyword, in schema order; extra ones are joined into the last. Tools without
    arguments ignore the input; an empty input gives no arguments (a tool without a schema, a
    legacy `Tool`, gets the empty text). Words around the tool's arguments as a JSON object (`a
    JSON object such as {"a": 1}`, the tool list's own words copied) leave the object
    (`object_in_words`); arguments named in plain text (`query="rose"`, `religion: "Buddhism"`)
    are read by their names (`named_in_text`).
    """
    names = list(tool_schema(tool).args)
    if not names:
        return {}
    if tool_input == "" and tool_schema(tool).validator is not None:
        return {}  # nothing written: a default applies, a required argument is named as missing
    if isinstance(tool_input, str):
        written = object_in_words(tool, tool_input) or named_in_text(tool, tool_input)
        return written or {names[0]: tool_input}
    if POSITIONAL_ARGS in tool_input:
        return _bind_positional(tool_schema(tool).args, tool_input)
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
    if _one_text_argument(arguments):
        return None
    start = text.find("{")
    value = read_json_object(text, start) if start >= 0 else None
    if isinstance(value, dict) and value and set(value) <= set(arguments):
        return value
    return None


def named_in_text(tool: BaseTool, text: str) -> dict[str, Any] | None:
    """The tool's arguments written as `name=value` or `name: value` in plain text, or None.

    For a tool of one argument, its name then the value (`religion: "Buddhism"`: "Buddhism"; the
    rest of the text, as written, unless quoted). For several, every comma-separated part names
    one of them (`base=10, height=5`). A name matches in any case (`Query: rose`). Values are read
    as in a call (`parsing/call_syntax.py`).
    """
    arguments = tool_schema(tool).args
    by_lower = {name.lower(): name for name in arguments}
    if len(arguments) == 1:
        (name,) = arguments
        named = NAMED_ARGUMENT.match(text)
        if named is None or named.group("name").lower() != name.lower():
            return None
        rest = text[named.end() :].strip()
        as_written = _one_text_argument(arguments) and rest[:1] not in ("'", '"')
        return {name: rest if as_written else read_value(rest)} if rest else None
    found: dict[str, Any] = {}
    for part in split_arguments(text):
        named = NAMED_ARGUMENT.match(part)
        if named is None or named.group("name").lower() not in by_lower:
            return None
        found[by_lower[named.group("name").lower()]] = read_value(part[named.end() :])
    return found or None


def _one_text_argument(arguments: dict[str, Any]) -> bool:
    """Whether a tool takes one argument, a text: whatever is written can be its input as is."""
    return len(arguments) == 1 and next(iter(arguments.values())).get("type", "string") == "string"


def _bind_positional(arguments: dict[str, Any], tool_input: dict[str, Any]) -> dict[str, Any]:
    """Positional values onto the arguments not named, in order; extra ones joined into the last.

    Several values for one array argument are its list (`"action_input": ["GET", "/a"]`).
    """
    names = list(arguments)
    keywords = {key: value for key, value in tool_input.items() if key != POSITIONAL_ARGS}
    values = list(tool_input[POSITIONAL_ARGS])
    free = [name for name in names if name not in keywords] or names[-1:]
    if len(free) == 1 and len(values) > 1 and "array" in json_types(arguments[free[0]]):
        return {free[0]: values, **keywords}
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
    args = coerce_arguments(tool, shown_names(tool, tool_arguments(tool, tool_input)))
    positional = isinstance(tool_input, dict) and POSITIONAL_ARGS in tool_input
    return args, args if positional else tool_input


def shown_names(tool: BaseTool, args: dict[str, Any]) -> dict[str, Any]:
    """`args` with each argument the tool also reads by another name under the name shown.

    `{"town": "Paris"}` for a field read as `AliasChoices("city", "town")` is `{"city": "Paris"}`,
    as the tool list shows it, the checks hold it and the step records it. A name given both ways
    is left as written (the checks name the one too many).
    """
    also_named = tool_schema(tool).also_named
    renamed = {also_named.get(name, name): value for name, value in args.items()}
    return renamed if len(renamed) == len(args) else args


def coerce_arguments(tool: BaseTool, args: dict[str, Any]) -> dict[str, Any]:
    """`args` with each value the schema types differently turned into its type, when unambiguous.

    A text that reads as the number, boolean, array or object the argument takes becomes it, a
    number given for a text argument becomes its text, and one value given for an array becomes
    a one-item array (its items coerced too). Anything else is left for the checks
    (`argument_checks.py`). The step keeps the input as written (`ToolStep.tool_input`) next to
    these arguments.
    """
    properties = tool_schema(tool).args
    return {name: coerce(value, properties.get(name, {})) for name, value in args.items()}


_INTEGER = re.compile(r"[+-]?\d+")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def coerce(value: Any, schema: dict[str, Any]) -> Any:
    """One value coerced to the one type its schema allows (see `coerce_arguments`)."""
    kinds = json_types(schema)
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
        if _INTEGER.fullmatch(text):
            return _whole_number(text, value)
        number = float(text)
        if kind == "number":
            return number
        # `5.0` and `1e3` are whole numbers; `1.0000000000000001` is not, though its float is
        exact = math.isfinite(number) and Decimal(text) == Decimal(number)
        return int(number) if exact and number.is_integer() else value
    if kind == "boolean" and text.lower() in ("true", "false"):
        return text.lower() == "true"
    if kind in ("array", "object") and text[:1] in "[{":
        return _json(text, value)
    return value


def _whole_number(text: str, value: str) -> Any:
    """The integer `text` spells, every digit kept (never through a float: 2**53 + 1 stays so).

    Python refuses to read an integer of thousands of digits (`sys.set_int_max_str_digits`):
    that one stays text, for the schema check to refuse.
    """
    try:
        return int(text)
    except ValueError:
        return value


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
