"""Read the tool call a reply spells, however it is written: the one reader every format shares.

`read_action` reads an action as written after `Action:` (text format) or inside `<action>` (XML):
a JSON call, `tool("args")` or the paper's `tool[args]` (via `call_syntax`), `tool, "input"`, or a
name with its input. `find_call` finds a call in prose: JSON (bare, fenced, in `<tool_call>` tags
or LM Studio's `[TOOL_REQUEST]`: `parsing.call_wrappers`), in tags (`<function=search>`,
`parsing.function_tags`), with a model's tool-call tokens (`[TOOL_CALLS]search[ARGS]{...}`,
`parsing.token_calls`) or in a list of Python calls (`[search(query="rose")]`, `call_syntax`),
`final_answer_call` reads a reply that is only a call of the answer (`finish(answer="...")`), and
`step_fields` / `call_in_object` read a decoded object (also the JSON format's steps) in any of
the key conventions models were trained on: `action`/`name`/`tool`/`function` for the tool,
`action_input`/`arguments`/`parameters`/`tool_input`/`args`/`input` for its input (string-encoded
arguments included; a `name` alone is a call only where a call goes: in call tags, after
`Action:`). A call to `final_answer` (`Final Answer`, the paper's `Finish`) is the answer,
not a tool. The name as written becomes the name meant in `parsing/tool_name.py`. A
`WrittenCall` is the call as the reply spells it (not a provider's `tool_calls` entry). It builds
no `Action` (`parser.step_from_call` does) and knows no tools: case-insensitive and prefix
matching are `toolbox.resolve_tool`'s job.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from custom_react.parsing.action_input import (
    POSITIONAL_ARGS,
    ActionInput,
    json_input,
    parse_action_input,
)
from custom_react.parsing.call_syntax import find_call_list, parse_tool_call
from custom_react.parsing.call_wrappers import Wrapped, opened_at, read_wrapped, unreadable_call
from custom_react.parsing.function_tags import find_function_tags
from custom_react.parsing.json_repair import read_json_object
from custom_react.parsing.token_calls import find_token_call
from custom_react.parsing.tool_name import (
    clean_tool_name,
    is_escaped,
    is_final_answer_name,
    squeezed,
    unescaped,
)

_ARGUMENT_WORDS = ("input", "arguments", "args", "parameters", "params")
"""`tool_arguments`, `function_args`, ...: a tool's or function's arguments, however spelled."""
_ROLE_KEYS = {
    "thought": ("thought", "thoughts", "reasoning"),
    "action": ("action", "tool", "toolname", "name", "function", "functionname"),
    "input": (  # `action_variables`: Semantic Kernel's stepwise planner
        *("actioninput", "input", "toolinput", "arguments", "args", "parameters", "params"),
        *(f"{who}{what}" for who in ("tool", "function") for what in _ARGUMENT_WORDS),
        "actionvariables",
    ),
    "final_answer": ("finalanswer", "answer"),
    "observation": ("observation",),
}
_ROLES = {key: role for role, keys in _ROLE_KEYS.items() for key in keys}
# `{"name": "Alice", "age": 3}` is data: a name under these keys is a call only with arguments.
_DATA_NAME_KEYS = frozenset({"name"})
# Where a JSON call (or a list of calls) may open: at a line start, after a space, a colon, a fence
# (```json{...}``` too), <tool_call> or LM Studio's [TOOL_REQUEST] (`call_wrappers`). Only the
# first few such places are tried, so the reading stays linear.
_CALL_START = re.compile(r"(?:^|(?<=[\s:：>`\]])|(?<=```json))(?=(?:\[\s*+)?+\{)", re.MULTILINE)
_CALL_TRIES = 3
_WRAPPED_OBJECT = re.compile(r"[A-Za-z_][\w.]*+[ \t]*+\([ \t]*+\{")  # `SearchTool({...})`
# `Action: Final Answer: 726 元`: a name, a colon and text on the Action line (the answer, when
# the name is the final answer's).
_NAME_THEN_TEXT = re.compile(r"(?P<name>[^:：\n]++)[:：][ \t]*+(?P<text>\S.*)", re.DOTALL)
_CALL_OPENERS: tuple[str, ...] = ("{", "```", "<tool_call", "<function", "<invoke", "<action>")
_CALL_OPENERS += ("<tool_name>", "[", "<|", "<｜")
_MARKDOWN = " \t*`"
_CALL_NAME = re.compile(r"[A-Za-z_]\w*+(?=[(\[])")  # `finish(`, `Finish[`: no space before it
_FENCED_NAME = re.compile(r"\s*+```[ \t]*+\n\s*+(?P<name>[^\s`]++)\s*+```\s*+")
# An input's own label on the line below the name, in other words than `Action Input:`.
_INPUT_LABEL = re.compile(
    r"\A\s*+(?:input|inputs|arguments|args|parameters|params)[ \t]*+[:：][ \t]*+", re.IGNORECASE
)
_COMMA_FORM = re.compile(r"(?P<name>[^\s,(\[]++)[ \t]*+,[ \t]*+(?P<input>.*)")  # `tool, 'input'`
# `tool: input` (a name that opens with a letter; not a URL's `https://`)
_COLON_FORM = re.compile(r"(?P<name>\w[^\s:：,(\[{]*+)[ \t]*+[:：](?!//)[ \t]*+(?P<input>\S.*)")


@dataclass(frozen=True)
class WrittenCall:
    """A tool call read from a reply: the name the model meant and the input it gave."""

    name: str
    tool_input: ActionInput

    @property
    def is_final_answer(self) -> bool:
        """A call to `final_answer` / `Final Answer` / `Finish`: the model is answering."""
        return is_final_answer_name(self.name)

    @property
    def answer(self) -> str:
        """The answer text of a final-answer call: its one argument (or `answer`), not JSON."""
        value: Any = self.tool_input
        if isinstance(value, dict):
            rest = {k: v for k, v in value.items() if k != POSITIONAL_ARGS} or value
            value = rest.get("answer", next(iter(rest.values())) if len(rest) == 1 else rest)
        return value.strip() if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def final_answer_call(text: str) -> WrittenCall | None:
    """The call, when `text` is nothing but a call of the final answer written like code.

    That is `finish(answer="...")`, `Finish[...]` or `final_answer("...")`, the way a prompt spelled
    the action, with nothing after it. A name the call does not follow at once (`Finish (the race)
    ...`) is prose, and so is a call of any other name: the parser does not know the tools.
    """
    stripped = text.strip()
    head = _CALL_NAME.match(stripped)
    if head is None or not is_final_answer_name(head.group()) or stripped[-1] not in ")]":
        return None
    call = parse_tool_call(stripped)
    return None if call is None else WrittenCall(call[0], call[1])


def step_fields(step: dict[str, Any], *, name_calls: bool = False) -> dict[str, Any]:
    """The roles of a step object's keys, in order: `thought`, `action`, `input`, `final_answer`.

    Keys are matched in any case and spelling (`Action Input`, `actionInput`, `tool_input`); the
    first key of each role wins; a made-up `observation` key and all after it are dropped. A name
    under the `name` key counts as an action only when the object also has an input, or when
    `name_calls` (the object stands where a call goes: in call tags, after `Action:`).
    """
    fields: dict[str, Any] = {}
    for key, value in step.items():
        normal = squeezed(str(key))
        role = _ROLES.get(normal)
        if role == "observation":
            break
        if role == "action" and normal in _DATA_NAME_KEYS:
            role = "data_name"
        if role is not None and role not in fields:
            fields[role] = value
    if "data_name" in fields:  # a call only with arguments (and no other name); kept in its place
        called = ("input" in fields or name_calls) and "action" not in fields
        renamed = {}
        for role, value in fields.items():
            if role != "data_name":
                renamed[role] = value
            elif called:
                renamed["action"] = value
        fields = renamed
    return fields


def call_in_object(step: dict[str, Any], *, needs_input: bool) -> WrittenCall | None:
    """The call a decoded object spells, or None.

    With `needs_input` (an object met in prose) it must have both a name and an input key;
    otherwise a name is enough (`{"action": "x"}`, `{"name": "x"}`).
    """
    fields = step_fields(step, name_calls=not needs_input)
    action = fields.get("action")
    if isinstance(action, dict):  # {"function": {"name": "search", "arguments": "..."}}
        return call_in_object(action, needs_input=needs_input)
    if not isinstance(action, str) or (needs_input and "input" not in fields):
        return None
    return read_call(action, fields.get("input"))


def read_action(written: str, action_input: str | None = None) -> WrittenCall:
    """The call an action spells (what follows `Action:`, or what `<action>` holds).

    Args:
        written: The action as written: a JSON call (LangChain's blob, maybe fenced), a call
            (`search("rose")`, the paper's `search[rose]`), `tool, "input"`, `tool: input`, or a
            name alone on its line (or in a fence) with the input (if any) on the lines below,
            maybe labelled (`Input:`). `Final Answer: text` with no input is the answer written
            where the name goes: a call of the final answer.
        action_input: The separate Action Input, when the reply has one. When the name escapes
            its underscores as markdown does (`web\\_search`), the input's escapes go too.
    """
    if (fenced := _FENCED_NAME.fullmatch(written)) is not None:  # ```\nsearch\n```
        written = fenced["name"]
    first, _, rest = written.partition("\n")
    rest = _INPUT_LABEL.sub("", rest, count=1)  # `Input: rose` on the line below the name
    if not (action_input or "").strip() and (answer := _answer_as_name(written)):
        return answer
    if action_input is not None:
        if is_escaped(first):  # the model escaped the whole step, not just the name
            action_input = unescaped(action_input)
        name = clean_tool_name(first)
        return WrittenCall(name, _unwrap_call(name, parse_action_input(action_input)))
    if written.startswith(_CALL_OPENERS) and (found := find_call(written, needs_input=False)):
        return found[1]
    if unreadable_call(written) or (written.startswith("{") and read_json_object(written) is None):
        return WrittenCall("", written)  # a call's JSON that cannot be read: no name
    if _may_be_call(written) and (call := parse_tool_call(written.strip(_MARKDOWN))):  # `Finish[x]`
        return WrittenCall(clean_tool_name(call[0]), call[1])
    for form in (_COLON_FORM, _COMMA_FORM):  # `tool: input`, `tool, "input"`: the input follows
        if written_with := form.fullmatch(first.strip(_MARKDOWN)):
            name = clean_tool_name(written_with["name"])
            return WrittenCall(name, parse_action_input(written_with["input"]))
    return WrittenCall(clean_tool_name(first), parse_action_input(rest))


def _answer_as_name(written: str) -> WrittenCall | None:
    """The final answer's call, when the answer is written where the name goes (`Final Answer: x`)."""
    line = _NAME_THEN_TEXT.fullmatch(written)
    name = clean_tool_name(line["name"]) if line else ""
    return WrittenCall(name, line["text"].strip()) if line and is_final_answer_name(name) else None


def _may_be_call(written: str) -> bool:
    """Whether `written` can be a call (`tool(...)`, `tool[...]`): most actions are a bare name."""
    return "(" in written or "[" in written


def _unwrap_call(name: str, tool_input: ActionInput) -> ActionInput:
    """The arguments of an input written as a call of the tool, else the input.

    That is `SearchTool({"query": "x"})` (any name, one object) or `search(query="x")` (keywords,
    only under the tool's own name: `f(x=1)` may be code).
    """
    if not isinstance(tool_input, str) or not _may_be_call(tool_input):
        return tool_input
    if (call := parse_tool_call(tool_input)) is None:
        return tool_input
    value = call[1]
    if not isinstance(value, dict) or POSITIONAL_ARGS in value:
        return tool_input
    one_object = _WRAPPED_OBJECT.match(tool_input) is not None
    own_name = bool(name) and call[0].lower().startswith(name.lower())
    return value if one_object or own_name else tool_input


def read_call(written: str, raw_input: Any) -> WrittenCall:
    """A call from a name as written and its raw JSON input (None: absent).

    A name written as a call (`"action": "search(\\"rose\\")"`) with no input is read with
    `call_syntax`.
    """
    if raw_input is None and (call := parse_tool_call(written)) is not None:
        return WrittenCall(clean_tool_name(call[0]), call[1])
    return WrittenCall(clean_tool_name(written), json_input(raw_input))


def find_call(text: str, *, needs_input: bool = True) -> tuple[int, WrittenCall] | None:
    """The first call in `text`, and where it starts, in any of the forms above: the earliest wins.

    The start includes the code fence or `<tool_call>` tag that opened it. None when there is
    none: of JSON, only the first few objects are tried, and a data object is not a call; of a
    list of calls, the first is the call.
    """
    found = [_json_call(text, needs_input), *(_call(text, find) for find in _WRITTEN_CALLS)]
    calls = [call for call in found if call is not None]
    return min(calls, key=lambda call: call[0]) if calls else None


def _json_call(text: str, needs_input: bool) -> tuple[int, WrittenCall] | None:
    tries = 0
    read_to = 0
    for start in _CALL_START.finditer(text):
        if start.end() < read_to:  # inside a value already read
            continue
        if tries == _CALL_TRIES:
            break
        tries += 1
        wrapped = read_wrapped(text, start.end())
        read_to = wrapped.end
        if (call := _wrapped_call(wrapped, needs_input)) is not None:
            return wrapped.start, call
    return None


def _wrapped_call(wrapped: Wrapped, needs_input: bool) -> WrittenCall | None:
    """The call a JSON value spells, as its wrapper says (`call_wrappers`).

    In a call tag a name alone is a call; after LM Studio's `[get_weather]` the object, unless it
    is a whole call (a name and arguments), is that tool's arguments.
    """
    value = wrapped.value
    if isinstance(value, list) and value:
        value = value[0]
    if not isinstance(value, dict):
        return None
    whole = (needs_input and not wrapped.named_by_tag) or bool(wrapped.tool)
    if (call := call_in_object(value, needs_input=whole)) is not None or not wrapped.tool:
        return call
    return WrittenCall(clean_tool_name(wrapped.tool), json_input(value))


_WRITTEN_CALLS = (find_function_tags, find_token_call, find_call_list)


def _call(
    text: str, find: Callable[[str], tuple[int, str, Any] | None]
) -> tuple[int, WrittenCall] | None:
    if (written := find(text)) is None:
        return None
    start, name, tool_input = written
    return opened_at(text, start), WrittenCall(clean_tool_name(name), tool_input or "")
