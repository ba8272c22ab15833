"""Turn one model reply into the next ReAct step: an `Action` to run or a `FinalAnswer`.

`parse_llm_response` is a pure function: text in, `Action | FinalAnswer` out, or a `ParseError` whose
message is written for the model (the loop feeds it back as the next Observation). It forgives what
real models emit -- marker case, full-width colons, markdown, numbered and Chinese markers, `<think>`
blocks, fenced or JSON inputs, LangChain's JSON action blobs, made-up Observations, leaked stop
words -- and it runs in linear time: it scans the reply line by line with anchored patterns whose
quantifiers never give back what they matched (possessive `*+`), so no match can backtrack.

It does not know the tools: names are reported as written (`toolbox.resolve_tool` resolves them).
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from typing import Any

ActionInput = str | dict[str, Any]


@dataclass(frozen=True)
class Action:
    """The model chose a tool.

    Attributes:
        tool: The tool name exactly as the model wrote it (markdown stripped later by the loop).
        tool_input: The Action Input: a JSON object becomes a dict, anything else a stripped string.
        thought: The reasoning written before the action ("" when there was none).
        log: The step rewritten with plain markers, without thinking or a made-up rest.
    """

    tool: str
    tool_input: ActionInput
    thought: str = ""
    log: str = ""


@dataclass(frozen=True)
class FinalAnswer:
    """The model answered the question.

    Attributes:
        output: The answer text.
        thought: The reasoning written before the answer ("" when there was none).
        log: The step rewritten with plain markers, without thinking or a made-up rest.
    """

    output: str
    thought: str = ""
    log: str = ""


@dataclass
class ParseError(ValueError):
    """The reply broke the format. `str(error)` is the message to show the model."""

    message: str
    text: str = field(default="", repr=False)

    def __str__(self) -> str:
        return self.message


# Each marker: its plain label and its words, English in any case (`Action Input` may be written
# `action_input`, `Action-Input`, `Action 2 Input`) and Chinese. Action Input is tried before Action.
_MARKERS = {
    "thought": ("Thought", r"thoughts?|思考|想法"),
    "action_input": ("Action Input", r"action[\s\d_-]*+input|行动输入|动作输入|操作输入"),
    "action": ("Action", r"action|行动|动作|操作"),
    "observation": ("Observation", r"observation|观察"),
    "final_answer": ("Final Answer", r"final[\s_-]*+answer|最终答案|最终回答"),
}
# A marker line: list/heading/quote/markdown noise, the marker word, a step number, closing markdown,
# an ASCII or full-width colon, markdown closing after the colon (`**Action:**`) but not opening a
# value (`Action: **search**`). The value is the rest of the line after `match.end()`. Every
# quantifier is possessive (`*+`, `?+`): it never gives characters back, so no backtracking.
_MARKER_LINE = re.compile(
    r"\s*+(?:[-#>*_`]\s*+)*+(?:\d++[.)]\s*+)?+"
    + "(?:" + "|".join(f"(?P<{key}>{words})" for key, (_, words) in _MARKERS.items()) + ")"
    + r"\s*+(?:\d++\s*+)?+(?:[*_`]++\s*+)?+[:：](?:[*_`]++(?=\s|$))?+\s*+",
    re.IGNORECASE,
)  # fmt: skip
_THINK_TAG = re.compile(r"<(/?)think>", re.IGNORECASE)
_TOOL_CALL_FORM = re.compile(r"(?P<name>[\w.-]++)[ \t]*+[\[(](?P<input>.*)[\])]", re.DOTALL)
_FENCE = re.compile(r"```(?:[\w-]*+[ \t]*+\n)?+(?P<body>.*)```", re.DOTALL)
_MAX_LITERAL_CHARS = 10_000
_WHAT_TO_WRITE = "Write 'Thought:', then either 'Action:' and 'Action Input:', or 'Final Answer:'."
_EMPTY_ANSWER = "'Final Answer:' was empty. Write the answer after it."
_AFTER_THOUGHT = "after 'Thought:' write either 'Action:' with 'Action Input:' or 'Final Answer:'."


def parse_llm_response(text: str) -> Action | FinalAnswer:
    """Parse one ReAct reply.

    Args:
        text: The raw model reply (it may already be cut at a stop sequence).

    Returns:
        The first step in the reply: an `Action` or a `FinalAnswer`. Anything after it (another
        step, a made-up `Observation:` and what follows) is dropped. A reply with no markers is
        a direct answer, or the step it spells in LangChain's JSON (`{"action": ...}`).

    Raises:
        ParseError: The reply is empty, has a `Thought:` but neither an `Action:` nor a
            `Final Answer:`, names no tool after `Action:`, or has an empty `Final Answer:`.
    """
    preamble, sections = _split_sections(_strip_think(text))
    steps = (i for i, (marker, _) in enumerate(sections) if marker in ("action", "final_answer"))
    index = next(steps, None)
    if index is None:
        if preamble and not sections:  # prose with no markers: a direct answer (or a JSON blob)
            return _json_blob(preamble) or FinalAnswer(output=preamble, log=preamble)
        what = _AFTER_THOUGHT if sections else f"the reply was empty. {_WHAT_TO_WRITE}"
        raise ParseError(f"Invalid format: {what}", text)
    (marker, body), after = sections[index], sections[index + 1 :]
    thoughts = [value for key, value in sections[:index] if key == "thought" and value]
    thought = "\n".join(thoughts) or preamble
    labelled = [f"{_MARKERS[key][0]}: {value}" for key, value in sections]
    log = "\n".join([preamble, *labelled] if preamble else labelled)
    if marker == "final_answer":
        if not body:
            raise ParseError(f"Invalid format: {_EMPTY_ANSWER}", text)
        return FinalAnswer(output=body, thought=thought, log=log)
    tool, rest = _tool_and_input(body, after[0][1] if after else None)
    if not tool.strip("*`_ "):
        raise ParseError(f"Invalid format: 'Action:' needs a tool name. {_WHAT_TO_WRITE}", text)
    return Action(tool=tool, tool_input=parse_action_input(rest), thought=thought, log=log)


def _tool_and_input(body: str, action_input: str | None) -> tuple[str, str]:
    # The tool name is the first non-empty line (models sometimes write it under `Action:`).
    tool, _, rest = body.partition("\n")
    if action_input is None and (call := _TOOL_CALL_FORM.fullmatch(tool.strip())):
        # The ReAct paper's own form: `Action: search[rose price]`, or `search("rose price")`.
        return call.group("name"), call.group("input")
    # With no Action Input the input is "" (a tool without arguments) or the lines under the name.
    return tool.strip(), rest if action_input is None else action_input


def _json_blob(text: str) -> Action | FinalAnswer | None:
    """LangChain's JSON agent format, maybe fenced: `{"action": "search", "action_input": "..."}`."""
    blob = parse_action_input(text)
    tool = blob.get("action") if isinstance(blob, dict) else None
    if not isinstance(blob, dict) or not isinstance(tool, str) or not tool.strip():
        return None
    value = blob.get("action_input", "")
    value = value if isinstance(value, str | dict) else json.dumps(value, ensure_ascii=False)
    if tool.strip().lower() != "final answer":
        return Action(tool=tool.strip(), tool_input=value, log=text)
    output = (value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)).strip()
    return FinalAnswer(output=output, log=text) if output else None


def _strip_think(text: str) -> str:
    """Drop `<think>...</think>` blocks, the text before a `</think>` that comes first (the chat
    template opened the block), and all after an unclosed `<think>` -- unless that leaves nothing
    and no block was closed: then the reply was all thinking, cut off, and its text is kept."""
    tags = list(_THINK_TAG.finditer(text))
    inside = bool(tags) and tags[0].group(1) == "/"
    kept: list[str] = []
    position = 0
    for tag in tags:
        if not inside:
            kept.append(text[position : tag.start()])
        inside, position = tag.group(1) == "", tag.end()
    result = "".join(kept) + ("" if inside else text[position:])
    closed = any(tag.group(1) for tag in tags)
    return result if result.strip() or closed else _THINK_TAG.sub("", text)


def _split_sections(text: str) -> tuple[str, list[tuple[str, str]]]:
    """Split the reply into the text before any marker and (marker, text) sections. The scan stops
    at an `Observation:` (made up) and at any marker after the first step but its Action Input."""
    preamble: list[str] = []
    sections: list[tuple[str, list[str]]] = []
    step_seen = False
    lines = text.rstrip().splitlines()
    leaked = lines[-1].strip().lower() if len(lines) > 1 else ""
    if len(leaked) >= 3 and "observation:".startswith(leaked):
        lines.pop()  # a partial stop word the server let through, such as `Observ`
    for line in lines:
        match = _MARKER_LINE.match(line)
        if match is None:
            (sections[-1][1] if sections else preamble).append(line)
            continue
        marker, last = match.lastgroup or "", sections[-1][0] if sections else ""
        # After a step only the Action Input of its Action may follow; anything else is made up.
        if marker == "observation" or (step_seen and (marker, last) != ("action_input", "action")):
            break
        step_seen = step_seen or marker in ("action", "final_answer")
        sections.append((marker, [line[match.end() :]]))
    return "\n".join(preamble).strip(), [(key, "\n".join(body).strip()) for key, body in sections]


def parse_action_input(raw: str) -> ActionInput:
    """Normalise an Action Input: unwrap code fences and quotes; a JSON object, or a short
    Python-style dict (read by `ast.literal_eval`, which never runs code), becomes a dict."""
    text = raw.strip()
    if len(text) >= 6 and (fence := _FENCE.fullmatch(text)):
        text = fence.group("body").strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "`\"'":
        text = text[1:-1].strip()
    if not (text.startswith("{") and text.endswith("}")):
        return text
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        try:  # a Python-style dict; a long one stays text (`ast` is the slow path)
            value = ast.literal_eval(text) if len(text) <= _MAX_LITERAL_CHARS else None
        except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
            value = None
    return value if isinstance(value, dict) else text
