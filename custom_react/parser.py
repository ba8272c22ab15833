"""Turn one model reply into the next ReAct step: an `Action` to run or a `FinalAnswer`.

`parse_llm_response` is a pure function: text in, `Action | FinalAnswer` out, or a `ParseError` whose
message is written for the model (the loop feeds it back as the next Observation). It reads the
ReAct dialects models write in the wild: the markers in any case, language and markdown
(`markers.split_sections`), an echoed Observation before the step, the JSON tool calls of every
convention, in call tags or LM Studio's `[TOOL_REQUEST]`, and the forms chat templates ask for
(`parsing.action`), `tool(args)`, the paper's `Finish[answer]`, and prose with no markers (a
direct answer). The first step wins; what the model made up after it is dropped. Linear time.
`parse_step` adds what every step format shares: a reply cut at the model's token limit counts
only when its step ended before the cut, and an input nested too deep is refused.

It does not know the tools: names are reported as the model meant them (markdown and glosses
removed by `parsing.tool_name.clean_tool_name`); `toolbox.resolve_tool` matches them to real tools.
The helpers that read the sections, the call and its input are in `parsing/`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from custom_react.parsing.action import WrittenCall, final_answer_call, find_call, read_action
from custom_react.parsing.action_input import MAX_INPUT_DEPTH, ActionInput, input_depth
from custom_react.parsing.call_wrappers import unreadable_call
from custom_react.parsing.markers import MARKERS, STEPS, Section, split_sections
from custom_react.parsing.thinking import strip_think
from custom_react.prompts import LANGUAGES, message
from custom_react.steps import ToolStep

__all__ = ["Action", "ActionInput", "FinalAnswer", "ParseError", "parse_llm_response"]


Action = ToolStep
"""The model chose a tool: the parser returns the run's one tool-step type (`steps.ToolStep`)
with `tool` (the name the model meant: markdown, escapes and a trailing gloss removed),
`tool_input` (a JSON object becomes a dict, anything else a stripped string), `thought` and
`log` (the step rewritten with plain markers, without thinking or a made-up rest). The loop binds
it to its tool and adds its Observation later; the parser knows neither."""


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
    thought_only: bool = False
    """The reply is a Thought and nothing after it: the loop lets the model go on with its step."""

    def __str__(self) -> str:
        return self.message


_LABELS = {**MARKERS, "weak_answer": MARKERS["final_answer"]}
# Where a call written without a step marker is looked for: a weak answer (`Answer:`) too, as it
# counts only when the reply has no step, and a call is one.
_MAY_HOLD_CALL = ("preamble", "thought", "observation", "weak_answer")
_ECHOES = ("observation", "question")  # copied from the prompt: an Observation, the question
_CHAT_PREFIX = re.compile(r"(?:AI|Assistant)[ \t]*+[:：][ \t]*+", re.IGNORECASE)


def parse_llm_response(text: str, language: str = "en") -> Action | FinalAnswer:
    """Parse one ReAct reply.

    Args:
        text: The raw model reply (it may already be cut at a stop sequence).
        language: The language of a `ParseError`'s message ("en" or "zh"; the run's).

    Returns:
        The first step in the reply: an `Action` or a `FinalAnswer`. An Observation echoed before
        it is skipped; anything after it (another step, a made-up Observation) is dropped; an
        `Action: None` (no tool) with a step after it is not the step. With
        no step marker, a JSON tool call in the text is the step, then a weak answer marker
        (`Answer:`, `AI:`), and prose with no markers at all is a direct answer (the answer a
        bare `finish(answer="...")` holds, when that is all the reply says).

    Raises:
        ParseError: The reply is empty or only echoes an Observation, has a `Thought:` but no
            step, names no tool after `Action:`, has an empty final answer, or has call tags
            (`<tool_call>`, `[TOOL_REQUEST]`) around an object that is no call.
    """
    preamble, found = split_sections(strip_think(text))
    sections = [section for section in found if section.kind not in _ECHOES]
    errors = text_errors(language)
    index = next((i for i, section in enumerate(sections) if section.kind in STEPS), None)
    if index is not None:
        return _step(text, preamble, sections, index, errors)
    if (json_step := _json_call_step(text, preamble, found, errors)) is not None:
        return json_step
    if unreadable_call("\n".join([preamble, *(s.text for s in sections)])):  # tags, no call
        raise ParseError(errors.message("text_call_unreadable"), text)
    weak = next((i for i, section in enumerate(sections) if section.kind == "weak_answer"), None)
    if weak is not None:
        return _step(text, preamble, sections, weak, errors)
    if preamble and not sections:  # prose with no markers: a direct answer
        return _direct_answer(text, preamble, errors)
    what = "text_after_thought" if sections else "text_echo" if found else "text_empty_reply"
    thought_only = bool(sections) and {s.kind for s in found} <= {"thought", "question"}
    raise ParseError(errors.message(what), text, thought_only=thought_only)


def parse_step(
    text: str,
    parse: Callable[[str, str], Action | FinalAnswer],
    language: str = "en",
    *,
    cut_off: bool = False,
) -> Action | FinalAnswer:
    """The step a reply holds, read by a step format's `parse`, with the checks every format shares.

    A reply `cut_off` at the model's token limit counts when its step ended before the cut: the
    model wrote the step, then went on (into its next steps, say) until the limit, and the step's
    text is in the reply with more after it. A step that runs to the cut (an input or an answer
    that may be cut short), or a cut reply with no step, is a format error asking for a shorter
    step. So is an Action Input nesting deeper than `MAX_INPUT_DEPTH` (`not_too_deep`).
    """
    try:
        step = parse(text, language)
    except ParseError:
        if cut_off:  # no step in the cut reply: the cut, not the format, is what to fix
            raise ParseError(message("cut_off", language), text) from None
        raise
    if cut_off and not _written_on_after(step.log, text):
        raise ParseError(message("cut_off", language), text)
    return not_too_deep(step, text, language)


def _written_on_after(log: str, text: str) -> bool:
    """Whether the step's text `log` is in `text` as written, with more written after it."""
    at = text.rfind(log) if log else -1  # a log rewritten from what the model wrote is not found
    return at >= 0 and bool(text[at + len(log) :].strip())


def not_too_deep(
    step: Action | FinalAnswer, text: str, language: str = "en"
) -> Action | FinalAnswer:
    """The step, unless its Action Input nests deeper than `MAX_INPUT_DEPTH` (any format).

    Raises:
        ParseError: The input is too deep to keep, record or show.
    """
    if isinstance(step, Action) and (depth := input_depth(step.tool_input)) > MAX_INPUT_DEPTH:
        problem = message("input_too_deep", language, depth=depth, limit=MAX_INPUT_DEPTH)
        raise ParseError(problem, text)
    return step


def text_errors(language: str) -> TextErrors:
    """The text format's messages in `language` (filled once, when the module is imported)."""
    return _ERRORS[language]


class TextErrors:
    """The text format's messages about a reply that broke it, in the run's language."""

    def __init__(self, language: str = "en") -> None:
        self.language = language
        self.what_to_write = message("text_what_to_write", language)
        self.no_tool = self.message("text_no_tool")
        self.empty_answer = self.message("text_empty_answer")

    def message(self, key: str) -> str:
        """The message `key` (`prompts/messages_*.toml`), saying what to write."""
        return message(key, self.language, what_to_write=self.what_to_write)


def _json_call_step(
    text: str, preamble: str, found: list[Section], errors: TextErrors
) -> Action | FinalAnswer | None:
    """A tool call written without a step marker (in any form `find_call` reads), or None.

    The call may be in the prose, in a thought, or after an echoed Observation.
    """
    for number, place in enumerate([Section("preamble", preamble), *found]):
        if place.kind not in _MAY_HOLD_CALL or not place.text:
            continue
        if (json_call := find_call(place.text)) is None:
            continue
        start, call = json_call
        kept = [s for s in found[: max(number - 1, 0)] if s.kind not in _ECHOES]
        thoughts = [s.text for s in kept if s.kind == "thought" and s.text]
        if place.kind == "observation":  # the echo is not the model's; its call after it is
            thought = "\n".join(thoughts) or preamble
            log = place.text[start:]
        elif number:  # in a thought: the log is the sections up to that one
            thought = "\n".join([*thoughts, place.text[:start].strip()]).strip() or preamble
            log = _log(preamble, [*kept, place], -1)
        else:
            thought = place.text[:start].strip()
            log = preamble
        return _from_call(call, thought, log, text, errors)
    return None


def _step(
    text: str, preamble: str, sections: list[Section], index: int, errors: TextErrors
) -> Action | FinalAnswer:
    step = sections[index]
    after = sections[index + 1 :]
    thoughts = [s.text for s in sections[:index] if s.kind == "thought" and s.text]
    thought = "\n".join(thoughts) or preamble
    if step.kind != "action":  # after a (weak) answer marker, the rest is dropped from the log too
        log = _log(preamble, sections[: index + 1], index)
        return _final_answer(step.text, thought, log, text, errors.empty_answer)
    log = _log(preamble, sections, index)  # after an action, only its Action Input can follow
    call = read_action(step.text, after[0].text if after else None)
    later = next((i for i, section in enumerate(after) if section.kind in STEPS), None)
    if not call.name and not call.is_final_answer and later is not None:
        # `Action: None` (no tool), then a Final Answer (or an Action): that is the step.
        return _step(text, preamble, sections, index + 1 + later, errors)
    return _from_call(call, thought, log, text, errors)


def _from_call(
    call: WrittenCall, thought: str, log: str, text: str, errors: TextErrors
) -> Action | FinalAnswer:
    """`step_from_call` with the text format's messages."""
    no_tool = errors.no_tool
    return step_from_call(
        call, thought=thought, log=log, text=text, no_tool=no_tool, empty_answer=errors.empty_answer
    )


def step_from_call(
    call: WrittenCall,
    *,
    thought: str = "",
    log: str = "",
    text: str = "",
    no_tool: str = "",
    empty_answer: str = "",
) -> Action | FinalAnswer:
    """The step a tool call stands for.

    A call to `final_answer` / `Final Answer` / `Finish` is a `FinalAnswer` (its answer argument);
    any other call is an `Action`.

    Raises:
        ParseError: The call names no tool (`no_tool`) or its answer is empty (`empty_answer`):
            the messages default to the text format's in English; formats pass their own.
    """
    if call.is_final_answer:
        return _final_answer(
            call.answer, thought, log, text, empty_answer or text_errors("en").empty_answer
        )
    if not call.name:
        raise ParseError(no_tool or text_errors("en").no_tool, text)
    return Action(tool=call.name, tool_input=call.tool_input, thought=thought, log=log)


def _direct_answer(text: str, preamble: str, errors: TextErrors) -> FinalAnswer:
    """Prose with no markers: the answer.

    A reply that is only a call of the answer written like code (`finish(answer="...")`, the way a
    prompt spelled the action) is the answer it holds.
    """
    if (call := final_answer_call(preamble)) is not None:
        return _final_answer(call.answer, "", preamble, text, errors.empty_answer)
    return FinalAnswer(output=preamble, log=preamble)


def _final_answer(output: str, thought: str, log: str, text: str, empty: str) -> FinalAnswer:
    if prefix := _CHAT_PREFIX.match(output):  # a conversational `Final Answer: AI: ...`
        output = output[prefix.end() :].strip()
    if not output:
        raise ParseError(empty, text)
    return FinalAnswer(output=output, thought=thought, log=log)


def _log(preamble: str, sections: list[Section], index: int) -> str:
    """The sections with plain markers; a weak marker that is not the step keeps its spelling."""
    lines = [preamble] if preamble else []
    for number, section in enumerate(sections):
        if section.kind == "weak_answer" and number != index:
            lines.append(f"{section.written} {section.text}")
        else:
            lines.append(f"{_LABELS[section.kind]}: {section.text}")
    return "\n".join(lines)


_ERRORS = {language: TextErrors(language) for language in LANGUAGES}
