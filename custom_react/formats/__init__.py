"""The ways to write a ReAct step, and what the loop needs to know about each.

A `ReActFormat` bundles what differs between step formats: the prompt templates in
`custom_react/prompts/`, how tools and the question are shown, the parse function, the default stop
sequences, how an observation is shown to the model, and the nudge for a last answer. `TEXT`, the
classic `Thought:` / `Action:` / `Action Input:` / `Observation:` markers, is defined here beside
the core parser and prompt; the XML tags (`xml_format`) and one JSON object per step
(`json_format`) are add-ons that `get_format(name)` imports only when asked for; both fall back
to `text_step` when a reply spells the text markers instead. Every parser
returns the same `Action` / `FinalAnswer` or raises the same `ParseError`, so the loop, its events
and its history do not depend on the format.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from importlib import import_module
from pathlib import Path
from typing import Literal, get_args

from langchain_core.prompts import ChatPromptTemplate
from langchain_core.tools import BaseTool

from custom_react.answering import AnswerSchema
from custom_react.environment import environment_option
from custom_react.parser import Action, FinalAnswer, ParseError, parse_llm_response
from custom_react.parsing.action import WrittenCall
from custom_react.parsing.answer_calls import call_in_answer_tag
from custom_react.parsing.markers import MARKERS, answer_so_far
from custom_react.parsing.placeholder_action import tool_from_input
from custom_react.parsing.prose_calls import ToolArguments, call_in_prose
from custom_react.parsing.tool_name import is_final_answer_name
from custom_react.prompt import TEXT_QUESTION, RenderTools, build_react_prompt, render_tools
from custom_react.prompts import load_template, message
from custom_react.scratchpad import TEXT_CUE, render_observation
from custom_react.steps import Observe
from custom_react.tool_schemas import tool_schema

FormatName = Literal["text", "xml", "json"]
EnvironmentOption = bool | str | Path
"""False (no environment facts), True (the current folder) or the path of a working folder."""


@dataclass(frozen=True)
class ReActFormat:
    """Everything format-specific the loop uses."""

    name: FormatName
    """"text", "xml" or "json"."""
    template: str
    """Name of the system template in `custom_react/prompts/` (`{template}_{language}.txt`)."""
    examples: str
    """Name of the bundled few-shot example in `custom_react/prompts/`."""
    parse: Callable[[str, str], Action | FinalAnswer]
    """(reply text, language) -> `Action` | `FinalAnswer`, or `ParseError` in that language."""
    stop: tuple[str, ...]
    """Default stop sequences: the model halts before it invents an observation."""
    render_observation: Observe
    """How an observation (or a format error) is shown to the model."""
    render_tools: RenderTools
    """How the tools are described in the prompt."""
    question: str
    """The human turn with the question; holds `{input}`."""
    cue: str
    """Ends the transcript the model continues ("Thought: "; "" when a step is one object)."""
    final_answer_nudge: str
    """The message (`prompts/messages_*.toml`) asked once on a limit with `early_stopping_method=
    "generate"`."""
    final_answer: str
    """How a step writes its Final Answer, `{json}` where the answer goes (for a schema)."""
    answer_so_far: Callable[[str], str] = answer_so_far
    """The Final Answer's text in a reply still being written (`stream_final_answer`)."""

    def nudge(self, language: str) -> str:
        """The last call for a Final Answer (`final_answer_nudge`), in `language`."""
        steps_left = message("no_steps_left", language)
        return message(self.final_answer_nudge, language, no_steps_left=steps_left)

    def reading_calls_of(self, tools: Sequence[BaseTool]) -> ReActFormat:
        """This format, whose parser also reads a call of one of `tools` written in prose.

        A reply with no marker is an answer, unless it ends with a call of one of the tools in
        Cline's and Roo Code's tags (`parsing.prose_calls`): then it is that call.
        """
        if not tools:
            return self
        arguments = {tool.name: tuple(tool_schema(tool).args) for tool in tools}
        return replace(self, parse=partial(parse_with_calls, self.parse, arguments))

    def build_prompt(
        self,
        tools: Sequence[BaseTool],
        *,
        language: str = "en",
        examples: str | bool | None = None,
        environment: EnvironmentOption = False,
        system_prompt: str = "",
        answer_schema: AnswerSchema | None = None,
    ) -> ChatPromptTemplate:
        """The chat prompt for this format (see `prompt.build_react_prompt`).

        `environment` adds the OS, the working folder and its files (`environment`);
        `system_prompt` opens the system turn; `answer_schema` (`response_format`) ends it.
        """
        answer = answer_schema.instructions(language, self.final_answer) if answer_schema else ""
        return build_react_prompt(
            tools,
            language=language,
            examples=examples,
            example_file=self.examples,
            template=load_template(self.template, language),
            environment=environment_option(environment, language=language),
            render=self.render_tools,
            question=self.question,
            system_prompt=system_prompt,
            answer_instructions=answer,
        )


TEXT = ReActFormat(
    name="text",
    template="react",
    examples="examples",
    parse=parse_llm_response,
    stop=(f"\n{MARKERS['observation']}:",),
    render_observation=render_observation,
    render_tools=render_tools,
    question=TEXT_QUESTION,
    cue=TEXT_CUE,
    final_answer_nudge="text_nudge",
    final_answer=f"{MARKERS['final_answer']}: {{json}}",
)
"""The classic text-ReAct format, the default."""

FORMAT_NAMES: tuple[FormatName, ...] = get_args(FormatName)


def get_format(name: str) -> ReActFormat:
    """The format called `name`; the XML and JSON formats are imported on first use.

    Raises:
        ValueError: No such format.
    """
    if name == "text":
        return TEXT
    if name not in FORMAT_NAMES:
        raise ValueError(f"Unknown format {name!r}; choose one of {FORMAT_NAMES}.")
    add_on: ReActFormat = import_module(f"custom_react.formats.{name}_format").FORMAT
    return add_on


def parse_with_calls(
    parse: Callable[[str, str], Action | FinalAnswer],
    tools: ToolArguments,
    text: str,
    language: str,
) -> Action | FinalAnswer:
    """The step `parse` reads, read again with `tools` known.

    An answer with no marker that ends with a call of one of them is that call: in Cline's tags
    (`parsing.prose_calls`) or written like Python in an `<answer>` block
    (`parsing.answer_calls`; a call of the final answer there is its answer). An Action whose name
    copied the prompt's list of tools runs the tool its input starts with
    (`parsing.placeholder_action`).
    """
    step = parse(text, language)
    if isinstance(step, Action):
        if step.tool in tools:
            return step  # the common case, read as it is
        found = tool_from_input(step.tool, step.tool_input, tools)
        return step if found is None else replace(step, tool=found[0], tool_input=found[1])
    if step.thought or step.log != step.output:
        return step  # an answer the model marked as one
    call = call_in_prose(step.output, tools) or call_in_answer_tag(step.output, tools)
    if call is None:
        return step
    if is_final_answer_name(call.name):
        answer = WrittenCall(call.name, call.args).answer
        return FinalAnswer(output=answer, thought=call.before, log=step.log) if answer else step
    return Action(tool=call.name, tool_input=call.args, thought=call.before, log=step.log)


def text_step(text: str) -> Action | FinalAnswer | None:
    """The step a reply spells in the text markers, or None (the other formats' fallback).

    Only an Action, or a Final Answer the model marked as one, counts: plain prose is not taken
    for an answer.
    """
    try:
        step = parse_llm_response(text)
    except ParseError:
        return None
    return step if isinstance(step, Action) or f"{MARKERS['final_answer']}:" in step.log else None
