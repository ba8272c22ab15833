"""Parse a reply in the XML ReAct format.

A step is `<thought>...</thought>` then `<action>tool(args)</action>` or
`<final_answer>...</final_answer>`.

`parse_xml_response` returns the same `Action` / `FinalAnswer` and raises the same `ParseError` as the
text parser (`custom_react.parser`). It forgives what models write: tag case and spacing, a missing
closing tag (the next tag, or the end, closes it), `<think>` blocks, text before the first tag (the
thought), a separate `<action_input>`, LangChain's XML agent tags (`<tool>`, `<tool_input>`,
`<final_answer>`; its stop sequence leaves `<tool_input>` unclosed), XML entities (`&lt;`), a JSON
tool call (`<tool_call>{"name": ...}</tool_call>`, its arguments left out or not; LM Studio's
`[TOOL_REQUEST]` block), and a made-up `<observation>` (it and all after
it are cut). The action is read by `parsing.action.read_action`, the reader every format shares (a call
to `final_answer` is the answer). Only the ReAct tag names are tags, so HTML inside an action's
arguments is just text. A reply with no tags falls back to the text parser. Linear time.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence

from langchain_core.tools import BaseTool

from custom_react.formats import ReActFormat, text_step
from custom_react.parser import Action, FinalAnswer, ParseError, parse_llm_response, step_from_call
from custom_react.parsing.action import read_action
from custom_react.parsing.thinking import strip_think
from custom_react.parsing.tool_name import names_no_tool
from custom_react.prompt import argument_lines
from custom_react.prompts import message
from custom_react.tool_schemas import argument_schemas, by_example, input_example

_TAG = re.compile(
    r"<(?P<close>/?+)[ \t]*+(?P<name>question|thoughts?+|action[ _-]?+input|action|tool_call"
    r"|tool[ _-]?+input|tool|observation|final[ _-]?+answer|answer)[ \t]*+>",
    re.IGNORECASE,
)
_KINDS = {"thoughts": "thought", "toolcall": "action", "answer": "final_answer", "tool": "action"}
_KINDS |= {"toolinput": "action_input"}
_STEPS = ("action", "final_answer")

Section = tuple[str, str]  # (kind, text inside the tag)


def parse_xml_response(text: str, language: str = "en") -> Action | FinalAnswer:
    """Parse one reply in the XML ReAct format.

    Args:
        text: The raw model reply (it may already be cut at a stop sequence).
        language: The language of a `ParseError`'s message (the run's).

    Returns:
        The first step in the reply: an `Action` or a `FinalAnswer`, its log rewritten with clean
        tags. Anything after that step (another step, a made-up observation) is dropped.

    Raises:
        ParseError: The reply has tags but neither an action nor a final answer, an empty action,
            or an empty final answer.
    """
    body = strip_think(text)
    preamble, sections = split_sections(body)
    if not sections and not _TAG.search(body):
        return parse_llm_response(text)  # no tags at all: text markers, or a direct answer
    steps = [i for i, (kind, _) in enumerate(sections) if kind in _STEPS]
    # An `<action>` naming no tool (`None`) is no step when a step follows it.
    index = next((i for i in steps if _is_step(*sections[i])), steps[0] if steps else None)
    if index is None:
        made_up = any(tag.group("name").lower() == "observation" for tag in _TAG.finditer(body))
        thought_only = not made_up and all(kind == "thought" for kind, _ in sections)
        return _without_step(text, language, thought_only)
    kind, content = sections[index]
    rest = sections[index + 1 :]
    thought = "\n".join(v for k, v in sections[:index] if k == "thought" and v)
    if not thought and preamble:  # text before the first tag is the thought
        thought = preamble
        sections = [("thought", preamble), *sections]
    log = "\n".join(f"<{k}>{v}</{k}>" for k, v in sections if k != "question")
    empty_answer = _message("xml_empty_answer", language)
    if kind == "final_answer":
        if not content:
            raise ParseError(empty_answer, text)
        return FinalAnswer(output=content, thought=thought, log=log)
    call = read_action(content, rest[0][1] if rest else None)
    no_tool = _message("xml_no_tool", language)
    return step_from_call(
        call, thought=thought, log=log, text=text, no_tool=no_tool, empty_answer=empty_answer
    )


def split_sections(body: str) -> tuple[str, list[Section]]:
    """The text before the first tag, and (kind, text) for each tag up to the first step.

    A section ends at its closing tag, at the next opening tag, or at the end of the reply. The
    scan stops at an `<observation>` (made up) and at any tag after the first step except the
    `<action_input>` of its action.
    """
    sections: list[Section] = []
    kind = ""
    start = 0
    preamble_end = len(body)
    for tag in _TAG.finditer(body):
        name = _kind(tag.group("name"))
        if tag.group("close"):
            if name == kind:  # the open section ends here; stray closing tags are ignored
                sections.append((kind, _content(body, start, tag.start())))
                kind = ""
            continue
        preamble_end = min(preamble_end, tag.start())
        if kind:  # a missing closing tag: the next tag closes the open section
            sections.append((kind, _content(body, start, tag.start())))
        last = sections[-1][0] if sections else ""
        stepped = any(_is_step(k, v) for k, v in sections[-2:])
        if name == "observation" or (stepped and (name, last) != ("action_input", "action")):
            return body[:preamble_end].strip(), sections
        kind = name
        start = tag.end()
    if kind:
        sections.append((kind, _content(body, start, len(body))))
    return body[:preamble_end].strip(), sections


def _is_step(kind: str, content: str) -> bool:
    """An answer, or an action that names a tool (`<action>None</action>` names none)."""
    return kind == "final_answer" or (kind == "action" and not names_no_tool(content))


def _content(body: str, start: int, end: int) -> str:
    """The text inside a tag, XML entities (`&lt;`, `&amp;`) decoded."""
    return html.unescape(body[start:end].strip())


def _kind(name: str) -> str:
    word = re.sub(r"[ _-]", "", name.lower())
    word = {"actioninput": "action_input", "finalanswer": "final_answer"}.get(word, word)
    return _KINDS.get(word, word)


def _without_step(text: str, language: str, thought_only: bool) -> Action | FinalAnswer:
    """Tags but no step: accept a step the text markers spell, else explain the format."""
    step = text_step(_TAG.sub("", text))
    if step is not None:
        return step
    raise ParseError(_message("xml_no_step", language), text, thought_only=thought_only)


def _message(key: str, language: str) -> str:
    return message(key, language, what_to_write=message("xml_what_to_write", language))


# -- The format, as the loop uses it (`custom_react.formats.get_format("xml")`) ----------------
def render_tool_signatures(tools: Sequence[BaseTool]) -> str:
    """One line per tool as a call signature: `- search(query: string): Look up...`.

    A tool with several arguments is shown as a call with keywords and values of the right
    types, `- area(base=0, height=0.0)` (a signature `area(base: integer)` is copied as
    `area(base: 10)`, which reads as no keyword), then one line per argument
    (`prompt.argument_lines`: its type, required or not, default, enum values, description).
    """
    lines = []
    for tool in tools:
        several = by_example(tool)
        call = example_call(tool) if several else _signature(tool)
        lines.append(f"- {tool.name}({call}): {tool.description.strip()}")
        if several:
            lines.append(argument_lines(tool))
    return "\n".join(lines)


def example_call(tool: BaseTool) -> str:
    """The required arguments as keywords with placeholders: `base=0, unit="cm"`."""
    example = input_example(tool)
    return ", ".join(f"{name}={json.dumps(value)}" for name, value in example.items())


def _signature(tool: BaseTool) -> str:
    arguments = argument_schemas(tool)
    return ", ".join(
        f"{name}: {schema.get('type', 'string')}" for name, schema in arguments.items()
    )


def _xml_observation(observation: str) -> str:
    return f"<observation>{observation}</observation>"


FORMAT = ReActFormat(
    name="xml",
    template="react_xml",
    examples="examples_xml",
    parse=parse_xml_response,
    stop=("<observation>",),
    render_observation=_xml_observation,
    render_tools=render_tool_signatures,
    question="<question>{input}</question>",
    cue="",
    final_answer_nudge="xml_nudge",
    final_answer="<final_answer>{json}</final_answer>",
)
