"""Facts about tools: which one the model meant, its arguments, how to call it, what it returned.

`Toolbox` holds the agent's tools and the options that apply to all of them; `request` turns a
parsed `Action` into the `ActionRequest` the loop announces and runs (`action_key` is the call
as one string, for the repeated-action guard). Underneath, `resolve_tool`
forgives how models write tool names (case, markdown, escapes, trailing punctuation, a unique
prefix), and `bind_arguments` maps an Action Input (a call's positional arguments included) onto
the tool's argument schema. A tool's `metadata` says what the
loop's guards read: `requires_approval`, `repeatable`, `max_calls`, `poll_interval`. What a tool
returns becomes text (`observation_text`), cut with a visible marker (`truncate`). Deciding
whether a tool runs, and the messages when it does not, is `acting.py`'s job.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from langchain_core.tools import BaseTool

from custom_react.parser import Action, ActionInput
from custom_react.parsing.action import clean_tool_name
from custom_react.parsing.action_input import POSITIONAL_ARGS
from custom_react.prompts import load_messages

if TYPE_CHECKING:
    from custom_react.settings import AgentSettings

TRUNCATED = "\n…[truncated {count} characters]"
"""The marker at the end of cut text (`truncate`)."""
MIN_TRUNCATED = 40
"""The smallest `max_chars` that `truncate` accepts: room for the marker and some text."""
REPEATABLE_MAX_CALLS = 10
"""Calls of a `repeatable` tool in one run when neither it nor the agent sets a budget."""

_SEPARATORS = re.compile(r"[\s-]+")
_MIN_PREFIX = 3


@dataclass(frozen=True)
class ActionRequest:
    """The Action the model asked for, bound to its tool: what runs, or what a paused run awaits."""

    thought: str
    """The reasoning the model wrote before the action."""
    tool: str
    """The tool that runs (its real name), or the name as written when no tool has it."""
    tool_input: ActionInput
    """The Action Input as parsed (positional call arguments shown by name)."""
    args: dict[str, Any]
    """The arguments the tool is called with."""
    tool_call_id: str
    """Joins the step to its AIMessage / ToolMessage pair."""
    iteration: int
    """Which model call produced the action (1-based)."""
    log: str
    """The reply rewritten with plain markers (what the model sees of its step later)."""
    inner_state: dict[str, Any] | None = field(default=None, kw_only=True)
    """When the tool is a sub-agent that waits for a person: its paused run, to resume it."""


class Toolbox:
    """The agent's tools, and the agent's options for them (`settings`: budgets, approval)."""

    def __init__(self, tools: Sequence[BaseTool], settings: AgentSettings) -> None:
        self.tools = list(tools)
        self.settings = settings
        self.marker = load_messages(settings.language)["truncated"]
        self._by_name = {tool.name: tool for tool in self.tools}

    def resolve(self, name: str) -> BaseTool | None:
        """The tool called `name` (as the model wrote it, see `resolve_tool`), or None."""
        return self._by_name.get(name) or resolve_tool(name, self.tools)

    def request(self, action: Action, iteration: int) -> ActionRequest:
        """The `action` bound to the tool it names: real name, arguments, a fresh call id."""
        tool = self.resolve(action.tool)
        args, tool_input = bind_arguments(tool, action.tool_input)
        name = tool.name if tool else action.tool
        call_id = f"call_{uuid.uuid4().hex[:12]}"
        return ActionRequest(action.thought, name, tool_input, args, call_id, iteration, action.log)

    def waits_for_approval(self, name: str) -> bool:
        """Whether the run pauses before the tool called `name` (it needs approval, and waits)."""
        tool = self._by_name.get(name)
        return (
            tool is not None and requires_approval(tool) and self.settings.approval == "interrupt"
        )

    def returns_directly(self, name: str) -> bool:
        """Whether the output of the tool called `name` is the run's answer (`return_direct`)."""
        tool = self._by_name.get(name)
        return tool is not None and bool(tool.return_direct)

    def shorten(self, observation: str) -> str:
        """The observation as the model reads it: cut to the agent's `max_observation_chars`."""
        return truncate(observation, self.settings.max_observation_chars, self.marker)

    def call_budget(self, tool: BaseTool) -> int | None:
        """How often `tool` may run in one run (None: no limit).

        Its `metadata["max_calls"]`, else the agent's `max_tool_calls`, else `REPEATABLE_MAX_CALLS`
        for a `repeatable` tool, so polling a job cannot go on forever.
        """
        budget = metadata(tool).get("max_calls", self.settings.max_tool_calls)
        if budget is None and metadata(tool).get("repeatable"):
            return REPEATABLE_MAX_CALLS
        return None if budget is None else int(budget)


def action_key(tool: str, args: dict[str, Any]) -> str:
    """One string per (tool, arguments) pair, whitespace around string values ignored."""
    normalized = {
        key: value.strip() if isinstance(value, str) else value for key, value in args.items()
    }
    return tool + "\x00" + json.dumps(normalized, sort_keys=True, ensure_ascii=False, default=str)


def metadata(tool: BaseTool) -> dict[str, Any]:
    """The tool's metadata (`{}` when it has none)."""
    return tool.metadata or {}


def requires_approval(tool: BaseTool) -> bool:
    """Whether the tool may run only with a person's approval (`metadata={"requires_approval": True}`)."""
    return bool(metadata(tool).get("requires_approval"))


def resolve_tool(name: str, tools: Sequence[BaseTool]) -> BaseTool | None:
    """Find the tool the model meant.

    Tries, in order: the exact name; the name in any case; the name the model meant
    (`parsing.action.clean_tool_name`: markdown, quotes, escapes, a gloss and trailing punctuation
    removed; spaces and hyphens read as underscores); a unique prefix either way (`calc` ->
    `calculator`, `calculator_tool` -> `calculator`), only for a name of one word: a name that runs
    on into more text (`search Action Input: x`) is not taken for `search` with its input lost.
    Returns None when nothing or more than one tool fits.
    """
    by_name = {tool.name: tool for tool in tools}
    if name in by_name:
        return by_name[name]
    lowered = {tool.name.lower(): tool for tool in tools}
    meant = clean_tool_name(name)
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


def observation_text(result: Any) -> str:
    """A tool's result as the text the model reads.

    A string as it is; a message's content; a list of content blocks (what MCP tools return) as
    their text, one per line, with a placeholder for an image, audio or file; other values as
    JSON when they can be written so.
    """
    content = getattr(result, "content", result)
    if isinstance(content, str):
        return content
    if isinstance(content, list) and all(isinstance(block, str | dict) for block in content):
        return "\n".join(_block_text(block) for block in content)
    try:
        return json.dumps(content, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(content)


def _block_text(block: str | dict[str, Any]) -> str:
    if isinstance(block, str):
        return block
    kind = block.get("type")
    if kind == "text":
        return str(block.get("text", ""))
    if kind in ("image", "image_url", "audio", "file"):
        mime = block.get("mime_type") or block.get("mimeType") or kind
        return f"[{kind}: {mime}, not shown]"
    return json.dumps(block, ensure_ascii=False, default=str)


def truncate(text: str, max_chars: int | None, marker: str = TRUNCATED) -> str:
    """Cut `text` to at most `max_chars` characters, ending with a marker saying how many went.

    The one truncation of the project: the agent's `max_observation_chars` and the bundled
    tools' output limits both use it, so the model learns one marker (`marker`, with `{count}`:
    the run's language's, for the agent).

    Raises:
        ValueError: `max_chars` is below `MIN_TRUNCATED`, too short to hold the marker.
    """
    if max_chars is None or len(text) <= max_chars:
        return text
    if max_chars < MIN_TRUNCATED:
        raise ValueError(f"max_chars must be at least {MIN_TRUNCATED}, got {max_chars}")
    room = max_chars - len(marker.format(count=len(text)))
    kept = text[:room].rstrip()
    return kept + marker.format(count=len(text) - len(kept))


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
