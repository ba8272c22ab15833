"""Parse a reply in the JSON ReAct format: one object per step, such as
`{"thought": "...", "action": "search", "action_input": "rose"}` or `{"final_answer": "..."}`.

`parse_json_response` returns the same `Action` / `FinalAnswer` and raises the same `ParseError` as
the text parser (`custom_react.parser`). It reads the first JSON object of the reply with
`json_repair` (code fences, single quotes, trailing commas, raw newlines, a stop sequence cutting
the object off) and forgives the key names (`Final Answer`, `finalAnswer`, `tool`/`arguments` as in
provider tool calls), an action written as a call (`"action": "search(\"rose\")"`) and list inputs
(positional arguments). Keys from a made-up `observation` on are dropped. A reply with no object
falls back to the text parser (text markers, or prose as a direct answer). Linear time.
"""

from __future__ import annotations

import json
import re
from typing import Any

from custom_react.call_syntax import POSITIONAL_ARGS, parse_tool_call
from custom_react.json_repair import read_json_object
from custom_react.parser import (
    Action,
    ActionInput,
    FinalAnswer,
    ParseError,
    _strip_think,
    parse_action_input,
    parse_llm_response,
)

WHAT_TO_WRITE = (
    'Reply with one JSON object: {"thought": "...", "action": "tool_name", "action_input": ...} '
    'or {"thought": "...", "final_answer": "..."}.'
)
_KEYS = {
    "thought": "thought", "thoughts": "thought", "reasoning": "thought",
    "action": "action", "tool": "action", "toolname": "action", "name": "action",
    "function": "action",
    "actioninput": "input", "input": "input", "toolinput": "input", "arguments": "input",
    "args": "input", "parameters": "input",
    "finalanswer": "final_answer", "answer": "final_answer",
    "observation": "observation",
}  # fmt: skip
_NOT_KEY_CHARS = re.compile(r"[^a-z]++")
_FINAL_ACTION = frozenset({"finalanswer"})
_OPENER = re.compile(r"(?:```[\w-]*+|<tool_call>)\s*+$")  # a fence or tag opened before the object


def parse_json_response(text: str) -> Action | FinalAnswer:
    """Parse one reply in the JSON ReAct format.

    Args:
        text: The raw model reply (it may already be cut at a stop sequence).

    Returns:
        The step the first JSON object describes: an `Action` (its log the step as canonical JSON)
        or a `FinalAnswer`. Text before the object is the thought when the object has none.

    Raises:
        ParseError: The object cannot be read, names neither an action nor a final answer, names
            an empty tool, or has an empty final answer.
    """
    body = _strip_think(text)
    start = body.find("{")
    if start < 0:
        return parse_llm_response(text)  # text markers, or prose: a direct answer
    step = read_json_object(body, start)
    if not isinstance(step, dict):
        raise ParseError(
            f"Invalid format: the JSON object could not be read. {WHAT_TO_WRITE}", text
        )
    preamble = _OPENER.sub("", body[:start]).strip()
    return read_step(step, preamble, text)


def read_step(step: dict[str, Any], preamble: str, text: str) -> Action | FinalAnswer:
    """Turn one decoded step object into an `Action` or `FinalAnswer` (see `parse_json_response`)."""
    fields: dict[str, Any] = {}
    for key, value in step.items():
        role = _KEYS.get(_NOT_KEY_CHARS.sub("", str(key).lower()))
        if role == "observation":  # made up by the model: it and everything after it is dropped
            break
        if role is not None and role not in fields:
            fields[role] = value
    thought = _text(fields.get("thought")) or preamble
    kind = next((role for role in fields if role in ("action", "final_answer")), None)
    if kind == "final_answer":
        return _final_answer(_text(fields["final_answer"]), thought, text)
    if kind is None:
        if (fallback := _text_step(text)) is not None:
            return fallback
        raise ParseError(f"Invalid format: no action and no final answer. {WHAT_TO_WRITE}", text)
    action = fields["action"]
    if isinstance(action, dict):  # {"action": {"name": "search", "arguments": {...}}}
        return read_step(action, thought, text)
    return _action(_text(action), fields.get("input"), thought, text)


def _action(written: str, raw_input: Any, thought: str, text: str) -> Action | FinalAnswer:
    tool, tool_input = written, _action_input(raw_input)
    if raw_input is None and (call := parse_tool_call(written)) is not None:
        tool, tool_input = call  # "action": "write_file(\"a.txt\", \"hi\")"
    if _NOT_KEY_CHARS.sub("", tool.lower()) in _FINAL_ACTION:  # LangChain's "Final Answer" action
        output = tool_input if isinstance(tool_input, str) else json.dumps(tool_input)
        return _final_answer(output.strip(), thought, text)
    if not tool.strip("*`_ "):
        raise ParseError(f"Invalid format: the action needs a tool name. {WHAT_TO_WRITE}", text)
    log = _log({"thought": thought, "action": written, "action_input": raw_input})
    return Action(tool=tool, tool_input=tool_input, thought=thought, log=log)


def _action_input(value: Any) -> ActionInput:
    """A JSON value as an Action Input: text and objects as the text parser reads them, a list as
    positional arguments, anything else as its JSON text."""
    if value is None:
        return ""
    if isinstance(value, str):
        return parse_action_input(value)
    if isinstance(value, dict):
        return value
    if isinstance(value, list) and len(value) > 1:
        return {POSITIONAL_ARGS: value}
    if isinstance(value, list):
        return _action_input(value[0]) if value else ""
    return json.dumps(value, ensure_ascii=False)


def _final_answer(output: str, thought: str, text: str) -> FinalAnswer:
    if not output:
        raise ParseError("Invalid format: the final answer was empty. Write the answer.", text)
    log = _log({"thought": thought, "final_answer": output})
    return FinalAnswer(output=output, thought=thought, log=log)


def _text_step(text: str) -> Action | FinalAnswer | None:
    """A reply in the text format whose Action Input happens to be JSON, or None."""
    try:
        step = parse_llm_response(text)
    except ParseError:
        return None
    return step if isinstance(step, Action) or "Final Answer:" in step.log else None


def _text(value: Any) -> str:
    if value is None:
        return ""
    return value.strip() if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _log(step: dict[str, Any]) -> str:
    """The step as the model should have written it: canonical JSON, without empty keys."""
    return json.dumps({k: v for k, v in step.items() if v not in ("", None)}, ensure_ascii=False)
