"""The Action Input bound to a tool's arguments, and the checks on it before the tool runs.

`bind_arguments` maps what the model wrote (text, a JSON object, a call's positional arguments)
onto the tool's argument schema (`tool_arguments`); `unknown_arguments` names the arguments the
tool does not have, and `placeholder_input` tells an input copied from the tool list. The loop's
guards (`acting.py`) turn each into an Observation; nothing here runs a tool.
"""

from __future__ import annotations

import re
from typing import Any

from langchain_core.tools import BaseTool

from custom_react.parsing.action_input import POSITIONAL_ARGS, ActionInput


def tool_arguments(tool: BaseTool, tool_input: ActionInput) -> dict[str, Any]:
    """Map an Action Input onto the tool's arguments.

    A string fills a one-argument tool; a JSON object is used as given, except that a one-key
    object whose key does not exist is renamed to the tool's only argument. Positional arguments
    of a call (`write_file("a.txt", "hi")`, kept under `POSITIONAL_ARGS`) fill the arguments not
    given by keyword, in schema order; extra ones are joined into the last. Tools without
    arguments ignore the input.
    """
    names = list(tool.args)
    if not names:
        return {}
    if isinstance(tool_input, str):
        return {names[0]: tool_input}
    if POSITIONAL_ARGS in tool_input:
        return _bind_positional(names, tool_input)
    if len(names) == 1 and len(tool_input) == 1 and names[0] not in tool_input:
        return {names[0]: next(iter(tool_input.values()))}
    return dict(tool_input)


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
    args = tool_arguments(tool, tool_input)
    positional = isinstance(tool_input, dict) and POSITIONAL_ARGS in tool_input
    return args, args if positional else tool_input


def unknown_arguments(tool: BaseTool, args: dict[str, Any]) -> list[str]:
    """The argument names in `args` that the tool's schema does not have.

    None for a tool that takes any (no schema, or extra arguments allowed).
    """
    known = tool.args
    if not known or _takes_any(tool):
        return []
    return [name for name in args if name not in known]


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
    return copied and len(tool.args) == 1  # `tool.args` builds the schema: asked last
