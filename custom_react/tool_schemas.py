"""What a tool's schema says: each argument's JSON schema and the input the model writes.

Read once per tool and kept with it (`tool_schema`): `argument_schemas` gives each argument's
schema by the name the model writes (a pydantic field's alias, `field_aliases`; a nested model's
or an enum's `$ref` resolved), `input_schema` the JSON schema of what the model writes (injected
arguments left out), which a `jsonschema` validator checks; `other_names` the other names the
tool reads an argument by, which binding turns into the one shown; `json_types` reads the types a
schema allows (a `$ref` resolved in the schema it points into); `input_example` is the input the
tool list shows a tool by (`by_example`), each value a placeholder of its type. The tool list
(`prompt.py`),
binding (`arguments.py`) and the checks (`argument_checks.py`) all read a tool's arguments here,
so they agree on every name.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from langchain_core.tools import BaseTool
from langchain_core.utils.json_schema import dereference_refs
from pydantic import AliasChoices


@dataclass(frozen=True)
class ToolSchema:
    """What the checks read of one tool, made once: building a schema costs more than a step.

    `args`: each argument's JSON schema, by name; `validator`: the check of what the model writes.
    """

    args: dict[str, Any]
    validator: Draft202012Validator | None
    hidden: frozenset[str] = frozenset()
    """Parameters the loop fills and the model may not name (a `ToolRuntime`, injected ones)."""
    also_named: dict[str, str] = field(default_factory=dict)
    """Other names the tool's model reads an argument by, each with the name shown (`other_names`)."""
    example: dict[str, Any] = field(default_factory=dict)
    """The input the tool list shows the tool by (`input_example`); {} when it shows none."""


_SCHEMAS: dict[int, tuple[BaseTool, Any, ToolSchema]] = {}
_MAX_SCHEMAS = 1024


def tool_schema(tool: BaseTool) -> ToolSchema:
    """The tool's `ToolSchema`, made the first time it is asked for and kept with the tool.

    A tool given another `args_schema` since gets its `ToolSchema` made again.
    """
    known = _SCHEMAS.get(id(tool))
    if known is not None and known[0] is tool and known[1] is tool.args_schema:
        return known[2]
    schema = input_schema(tool)
    try:
        validator = None if not schema else Draft202012Validator(schema)
    except SchemaError:  # a schema the checker cannot read is not held against the model
        validator = None
    fields = getattr(tool.args_schema, "model_fields", None) or {}
    hidden = frozenset(fields) - set(tool.args)
    example = input_example(tool) if by_example(tool) else {}
    made = ToolSchema(argument_schemas(tool), validator, hidden, other_names(tool), example)
    if len(_SCHEMAS) >= _MAX_SCHEMAS:
        _SCHEMAS.clear()
    _SCHEMAS[id(tool)] = (tool, tool.args_schema, made)
    return made


def argument_schemas(tool: BaseTool) -> dict[str, dict[str, Any]]:
    """Each argument's JSON schema, by name, as the tool list shows it and the checks hold it.

    A nested model or an enum is a `$ref` to the schema's `$defs`: it is resolved here, so the
    model reads `addr (object)` with its fields and `color (one of "red", "blue")`, not a text.
    """
    aliases = field_aliases(tool)
    arguments = {aliases.get(name, name): value for name, value in tool.args.items()}
    if "$ref" not in json.dumps(arguments):
        return arguments
    schema = tool.args_schema
    full = schema if isinstance(schema, dict) else getattr(schema, "model_json_schema", dict)()
    return {name: dereference_refs(value, full_schema=full) for name, value in arguments.items()}


def field_aliases(tool: BaseTool) -> dict[str, str]:
    """The arguments the tool's pydantic model reads by another name (`Field(alias="city")`).

    LangChain lists them by field name (`tool.args`), and the tool then refuses that name: the
    model is told, and writes, the alias the model validates (of `AliasChoices`, the first
    name). A model that validates by name only (`validate_by_alias=False`) has none.
    """
    schema = tool.args_schema
    if (getattr(schema, "model_config", None) or {}).get("validate_by_alias") is False:
        return {}
    fields = getattr(schema, "model_fields", None) or {}
    named = {
        name: _alias_name(field.validation_alias or field.alias) for name, field in fields.items()
    }
    return {name: alias for name, alias in named.items() if alias}


def other_names(tool: BaseTool) -> dict[str, str]:
    """The names besides the one shown that the tool's pydantic model reads an argument by.

    Each maps to the name shown (`field_aliases`): the later names of `AliasChoices`, and the
    field's own name when the model validates by name too (`populate_by_name`,
    `validate_by_name`). A model that writes one of them means that argument.
    """
    schema = tool.args_schema
    config = getattr(schema, "model_config", None) or {}
    by_name = config.get("populate_by_name") or config.get("validate_by_name")
    fields = getattr(schema, "model_fields", None) or {}
    shown = field_aliases(tool)
    found: dict[str, str] = {}
    for name, alias in shown.items():
        if name not in tool.args:
            continue  # a parameter the loop fills (`hidden`): never the model's to name
        choices = getattr(fields[name].validation_alias, "choices", [])
        found |= {choice: alias for choice in choices if isinstance(choice, str)}
        if by_name:
            found[name] = alias
    return {other: alias for other, alias in found.items() if other != alias}


def _alias_name(alias: Any) -> str:
    """An alias as the name the model writes: a text, or the first text of `AliasChoices`."""
    choices = alias.choices if isinstance(alias, AliasChoices) else [alias]
    return next((choice for choice in choices if isinstance(choice, str)), "")


def input_schema(tool: BaseTool) -> dict[str, Any] | None:
    """The JSON schema of the arguments the model writes (injected ones left out), if any."""
    if tool.args_schema is None:
        return None
    schema = tool.tool_call_schema
    if isinstance(schema, dict):
        return schema
    made: dict[str, Any] | None = getattr(schema, "model_json_schema", lambda: None)()
    if made is None:
        return None
    if aliases := field_aliases(tool):  # named as the tool validates them
        made = {
            **made,
            "properties": {aliases.get(k, k): v for k, v in made.get("properties", {}).items()},
            "required": [aliases.get(name, name) for name in made.get("required", [])],
        }
    return made


def json_types(schema: dict[str, Any], root: dict[str, Any] | None = None) -> list[str]:
    """The JSON types a schema allows, besides null (`anyOf` members too).

    A `$ref` (a nested model, an enum) is read in `root`, the whole schema it points into (the
    tool's input schema); without `root`, or pointing nowhere, it names no type.
    """
    if "$ref" in schema and root is not None:
        try:
            schema = dereference_refs(schema, full_schema=root)
        except (LookupError, ValueError):  # a `$ref` to nothing: no type to name
            return []
    kinds = schema.get("type", [])
    found = [kinds] if isinstance(kinds, str) else list(kinds)
    for member in schema.get("anyOf", []) or schema.get("oneOf", []):
        found += json_types(member, root) if isinstance(member, dict) else []
    return [kind for kind in dict.fromkeys(found) if kind != "null"]


PLACEHOLDERS: dict[str, Any] = {
    "string": "...",
    "integer": 0,
    "number": 0.0,
    "boolean": False,
    "array": [],
    "object": {},
}
"""The example value of each JSON type: what the model copies has the right type."""


def by_example(tool: BaseTool) -> bool:
    """Whether the tool list shows the tool's input by an example (`input_example`).

    It does for several arguments, and for one that is an object (the example shows its fields)
    or takes one of set values; one plain argument is shown by its name and type, or not at all.
    """
    arguments = argument_schemas(tool)
    one = next(iter(arguments.values()), {})
    return len(arguments) > 1 or "enum" in one or json_kind(one) == "object"


def input_example(tool: BaseTool) -> dict[str, Any]:
    """The required arguments (else the first) with a placeholder of the right type each."""
    arguments = argument_schemas(tool)
    required = [name for name in required_arguments(tool) if name in arguments] or list(arguments)[
        :1
    ]
    return {name: placeholder(arguments[name]) for name in required}


def placeholder(schema: dict[str, Any]) -> Any:
    """An argument's example value: its default, else its first enum value, else by its type."""
    if "default" in schema and schema["default"] is not None:
        return schema["default"]
    if schema.get("enum"):
        return schema["enum"][0]
    if json_kind(schema) == "object" and schema.get("properties"):  # a nested model: its fields
        needed = schema.get("required") or list(schema["properties"])
        return {name: placeholder(schema["properties"][name]) for name in needed}
    return PLACEHOLDERS.get(json_kind(schema), "...")


def json_kind(schema: dict[str, Any]) -> str:
    """An argument's JSON type as the tool list names it (`Optional[int]`: integer)."""
    kind = schema.get("type")
    if kind is None:  # Optional[int] and the like: the first type that is not null
        kinds = [
            member.get("type") for member in schema.get("anyOf", []) if isinstance(member, dict)
        ]
        kind = next((k for k in kinds if k not in (None, "null")), "string")
    return kind if isinstance(kind, str) else "/".join(kind)


def required_arguments(tool: BaseTool) -> list[str]:
    """The names of the arguments the tool requires (every one, for a tool with no schema)."""
    schema = tool.args_schema
    if isinstance(schema, dict):
        return list(schema.get("required", []))
    if schema is not None and hasattr(schema, "model_json_schema"):
        return list(schema.model_json_schema().get("required", []))
    return list(tool.args)
