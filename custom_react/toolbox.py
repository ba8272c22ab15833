"""Everything between "the model named a tool" and "here is the observation".

`resolve_tool` forgives how models write tool names (case, markdown, escapes, trailing punctuation,
a unique prefix). `tool_arguments` maps an Action Input (a call's positional arguments included)
onto the tool's argument schema; `bind_arguments` also gives the input to show. The messages a
tool that did not run gets, `truncate` (observations short, with a visible marker) and the approval
hook's types are here too. Running the tool, with the loop's guards, is `acting.py`'s job.
Nothing here calls the model or a tool.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.tools import BaseTool

from custom_react.call_syntax import POSITIONAL_ARGS
from custom_react.parser import ActionInput
from custom_react.tool_calls import clean_tool_name as meant_tool_name

Approve = Callable[[str, dict[str, Any]], bool]
"""Asked before a tool with `metadata={"requires_approval": True}` runs: (name, args) -> yes?"""

APPROVAL_CONFIG_KEY = "custom_react_approved"
"""Set in the tool's `configurable` only for a call the user approved; tools may check it too."""

TRUNCATED = "\n…[truncated {count} characters]"
"""The marker at the end of cut text (`truncate`)."""
MIN_TRUNCATED = 40
"""The smallest `max_chars` that `truncate` accepts: room for the marker and some text."""

_SEPARATORS = re.compile(r"[\s-]+")
_MIN_PREFIX = 3


def resolve_tool(name: str, tools: Sequence[BaseTool]) -> BaseTool | None:
    """Find the tool the model meant.

    Tries, in order: the exact name; the name in any case; the name the model meant
    (`tool_calls.clean_tool_name`: markdown, quotes, escapes, a gloss and trailing punctuation
    removed; spaces and hyphens read as underscores); a unique prefix either way (`calc` ->
    `calculator`, `calculator_tool` -> `calculator`), only for a name of one word: a name that runs
    on into more text (`search Action Input: x`) is not taken for `search` with its input lost.
    Returns None when nothing or more than one tool fits.
    """
    by_name = {tool.name: tool for tool in tools}
    if name in by_name:
        return by_name[name]
    lowered = {tool.name.lower(): tool for tool in tools}
    meant = meant_tool_name(name)
    cleaned = _SEPARATORS.sub("_", meant).lower()
    for candidate in (name.lower(), cleaned):
        if candidate in lowered:
            return lowered[candidate]
    if len(cleaned) < _MIN_PREFIX or len(meant.split()) != 1:
        return None
    matches = [
        tool
        for known, tool in lowered.items()
        if known.startswith(cleaned) or cleaned.startswith(known)
    ]
    return matches[0] if len(matches) == 1 else None


def tool_arguments(tool: BaseTool, tool_input: ActionInput) -> dict[str, Any]:
    """Map an Action Input onto the tool's arguments.

    A string fills a one-argument tool; a JSON object is used as given, except that a one-key
    object whose key does not exist is renamed to the tool's only argument. Positional arguments
    of a call (`write_file("a.txt", "hi")`, kept under `POSITIONAL_ARGS`) fill the arguments not
    given by keyword, in schema order; extra ones are joined into the last. Tools without
    arguments ignore the input.
    """
    fields = list(tool.args)
    if not fields:
        return {}
    if isinstance(tool_input, str):
        return {fields[0]: tool_input}
    if POSITIONAL_ARGS in tool_input:
        return _bind_positional(fields, tool_input)
    if len(fields) == 1 and len(tool_input) == 1 and fields[0] not in tool_input:
        return {fields[0]: next(iter(tool_input.values()))}
    return dict(tool_input)


def _bind_positional(fields: list[str], tool_input: dict[str, Any]) -> dict[str, Any]:
    keywords = {key: value for key, value in tool_input.items() if key != POSITIONAL_ARGS}
    values = list(tool_input[POSITIONAL_ARGS])
    free = [name for name in fields if name not in keywords] or fields[-1:]
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


def truncate(text: str, max_chars: int | None) -> str:
    """Cut `text` to at most `max_chars` characters, ending with a marker saying how many went.

    The one truncation of the project: the agent's `max_observation_chars` and the bundled
    tools' output limits both use it, so the model learns one marker.

    Raises:
        ValueError: `max_chars` is below `MIN_TRUNCATED`, too short to hold the marker.
    """
    if max_chars is None or len(text) <= max_chars:
        return text
    if max_chars < MIN_TRUNCATED:
        raise ValueError(f"max_chars must be at least {MIN_TRUNCATED}, got {max_chars}")
    room = max_chars - len(TRUNCATED.format(count=len(text)))
    kept = text[:room].rstrip()
    return kept + TRUNCATED.format(count=len(text) - len(kept))


def unknown_tool_message(name: str, tools: Sequence[BaseTool]) -> str:
    """The observation for a tool name that matches nothing."""
    valid = ", ".join(tool.name for tool in tools)
    return f"{name!r} is not a valid tool. Use one of: {valid}."


_PLACEHOLDER = (
    r"(?:the |a |an |one |your )?(?:{name}|input(?: for the tool)?)(?: itself)?"
    r"(?: \((?:string|text|integer|number|boolean)\))?(?:,? as (?:plain text|a string))?"
)


def placeholder_input(tool: BaseTool, args: dict[str, Any]) -> bool:
    """Whether the model wrote the description of an input instead of one.

    Small models copy the tool list's input line (`expression (string) as plain text`, `the
    query itself`) or the argument's name as the input. Caught for tools with one text argument,
    where such an input can only be a copy; the tool is not run.
    """
    if len(args) != 1 or len(tool.args) != 1:
        return False
    ((name, value),) = args.items()
    if not isinstance(value, str):
        return False
    written = value.strip().strip("'\"`.").strip().lower()
    pattern = _PLACEHOLDER.format(name=re.escape(name.lower().replace("_", " ")))
    return re.fullmatch(pattern, written.replace("_", " ")) is not None


def placeholder_input_message(tool: BaseTool) -> str:
    """The observation for an input copied from the tool list: write a real one."""
    (name,) = tool.args
    return (
        f"{tool.name} was not run: the Action Input describes the {name} instead of giving one. "
        f'Write the actual {name} after "Action Input:"; {tool.name}: {tool.description.strip()}'
    )


def repeated_action_message(name: str, earlier: str) -> str:
    """The observation for a (tool, input) pair that already ran: its old result, not a rerun."""
    return (
        f"You already ran {name} with this input; its observation was: {earlier}\n"
        "Do not repeat it: use that result, try a different input, or write the Final Answer."
    )
