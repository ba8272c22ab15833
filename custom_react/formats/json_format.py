"""Parse a reply in the JSON ReAct format: one object per step.

A step is one object such as `{"thought": "...", "action": "search", "action_input": "rose"}` or
`{"final_answer": "..."}`.

`parse_json_response` returns the same `Action` / `FinalAnswer` and raises the same `ParseError` as
the text parser (`custom_react.parser`). It reads the first JSON object of the reply with
`parsing.json_repair` (code fences, single quotes, trailing commas, raw newlines, comments, a stop sequence
cutting the object off) and its keys with `parsing.action`, the reader every format shares: any key
spelling (`Final Answer`, `finalAnswer`, `tool`/`arguments` and `name`/`parameters` as in provider
tool calls; a `name` with no arguments is data, not a call, unless call tags such as `<tool_call>`
or LM Studio's `[TOOL_REQUEST]` hold it: `parsing.call_wrappers`), an action written as a call
(`"action": "search(\"rose\")"`), list inputs (positional arguments), and a call to `final_answer`
as the answer. Keys from a made-up `observation` on are dropped. A reply with no object falls back
to the text parser (text markers, or prose as a direct answer). Linear time.
"""

from __future__ import annotations

import json
import re
from functools import partial
from typing import Any

from custom_react.formats import ReActFormat, text_step
from custom_react.parser import Action, FinalAnswer, ParseError, parse_llm_response
from custom_react.parsing.action import read_call, step_fields
from custom_react.parsing.call_wrappers import read_wrapped
from custom_react.parsing.thinking import strip_think
from custom_react.parsing.tool_name import names_no_tool
from custom_react.prompt import TEXT_QUESTION, InputStyle, render_tools
from custom_react.prompts import message

JSON_INPUT = InputStyle('"action_input": ', '""', '"{name} ({kind})"', "{example}")
"""How the tool list says to write a tool's input in a JSON step."""


def parse_json_response(text: str, language: str = "en") -> Action | FinalAnswer:
    """Parse one reply in the JSON ReAct format.

    Args:
        text: The raw model reply (it may already be cut at a stop sequence).
        language: The language of a `ParseError`'s message (the run's).

    Returns:
        The step the first JSON object describes: an `Action` (its log the step as canonical JSON)
        or a `FinalAnswer`. Text before the object is the thought when the object has none.

    Raises:
        ParseError: The object cannot be read, names neither an action nor a final answer, names
            an empty tool, or has an empty final answer.
    """
    body = strip_think(text)
    start = body.find("{")
    if start < 0:
        return parse_llm_response(text)  # text markers, or prose: a direct answer
    wrapped = read_wrapped(body, start)  # read within its call tags, if any
    if not isinstance(wrapped.value, dict):
        raise ParseError(_message("json_unreadable", language), text)
    preamble = body[: wrapped.start].strip()
    return read_step(wrapped.value, preamble, text, language, in_call_tags=wrapped.named_by_tag)


def read_step(
    step: dict[str, Any],
    preamble: str,
    text: str,
    language: str = "en",
    *,
    in_call_tags: bool = False,
) -> Action | FinalAnswer:
    """Turn one decoded step object into an `Action` or `FinalAnswer` (see `parse_json_response`).

    `in_call_tags`: the object was written in call tags (`<tool_call>`, `[TOOL_REQUEST]`), so a
    `name` alone names the tool to call.
    """
    fields = step_fields(step, name_calls=in_call_tags)  # a made-up "observation" on is dropped
    thought = _text(fields.get("thought")) or preamble
    kind = next((role for role in fields if role in ("action", "final_answer")), None)
    if kind == "action" and "final_answer" in fields and names_no_tool(fields["action"]):
        kind = "final_answer"  # {"action": "None", "final_answer": "42"}: no tool, an answer
    if kind == "final_answer":
        return _final_answer(_text(fields["final_answer"]), thought, text, language)
    if kind is None:
        if (fallback := text_step(text)) is not None:
            return fallback
        raise ParseError(_message("json_no_step", language), text)
    action = fields["action"]
    if isinstance(action, dict):  # {"action": {"name": "search", "arguments": {...}}}
        return read_step(action, thought, text, language)
    return _action(_text(action), fields.get("input"), thought, text, language)


def _action(
    written: str, raw_input: Any, thought: str, text: str, language: str
) -> Action | FinalAnswer:
    call = read_call(written, raw_input)  # also "action": "write_file(\"a.txt\", \"hi\")"
    if call.is_final_answer:  # LangChain's "Final Answer" action, a final_answer(...) call
        return _final_answer(call.answer, thought, text, language)
    if not call.name:
        raise ParseError(_message("json_no_tool", language), text)
    log = _log({"thought": thought, "action": written, "action_input": raw_input})
    return Action(tool=call.name, tool_input=call.tool_input, thought=thought, log=log)


def _final_answer(output: str, thought: str, text: str, language: str) -> FinalAnswer:
    if not output:
        raise ParseError(_message("json_empty_answer", language), text)
    log = _log({"thought": thought, "final_answer": output})
    return FinalAnswer(output=output, thought=thought, log=log)


def _message(key: str, language: str) -> str:
    return message(key, language, what_to_write=message("json_what_to_write", language))


def _text(value: Any) -> str:
    if value is None:
        return ""
    return value.strip() if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _log(step: dict[str, Any]) -> str:
    """The step as the model should have written it: canonical JSON, without empty keys."""
    return json.dumps({k: v for k, v in step.items() if v not in ("", None)}, ensure_ascii=False)


_ANSWER_OPENS = re.compile(
    r'"(?:final[ _]?answer|answer)"\s*+:\s*+"'
    r'|"action"\s*+:\s*+"final[ _]?answer"\s*+,\s*+"action[ _]?input"\s*+:\s*+"',
    re.IGNORECASE,
)
_STRING_END = re.compile(r'(?<!\\)(?:\\\\)*+"')


def json_answer_so_far(reply: str) -> str:
    """The Final Answer's text in a JSON step still being written: its string, decoded so far.

    `{"thought": "...", "final_answer": "Par` gives `Par`; a step whose action is a tool gives "".
    An escape the model has not finished (`\\`, `\\u00`) waits for its next piece.
    """
    opened = _ANSWER_OPENS.search(reply)
    if opened is None or re.search(r'"action"\s*+:\s*+"(?!final)', reply[: opened.start()], re.I):
        return ""
    rest = reply[opened.end() :]
    end = _STRING_END.search(rest)
    written = rest[: end.start()] if end else rest
    for cut in range(len(written), max(len(written) - 6, -1), -1):  # an escape cut in two
        try:
            return str(json.loads(f'"{written[:cut]}"'))
        except json.JSONDecodeError:
            continue
    return ""


# -- The format, as the loop uses it (`custom_react.formats.get_format("json")`) ---------------
def _json_observation(observation: str) -> str:
    return json.dumps({"observation": observation}, ensure_ascii=False)


FORMAT = ReActFormat(
    name="json",
    template="react_json",
    examples="examples_json",
    parse=parse_json_response,
    stop=('"observation"',),
    render_observation=_json_observation,
    render_tools=partial(render_tools, style=JSON_INPUT),
    question=TEXT_QUESTION,
    cue="",
    final_answer_nudge="json_nudge",
    final_answer='{"final_answer": {json}}',
    answer_so_far=json_answer_so_far,
)
