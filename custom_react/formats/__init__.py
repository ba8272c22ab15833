"""The three ways to write a ReAct step, and what the loop needs to know about each.

A `ReActFormat` bundles what differs between the classic text markers (`Thought:` / `Action:` /
`Action Input:` / `Observation:`), XML tags (`<thought>`, `<action>tool(args)</action>`,
`<observation>`, `<final_answer>`) and one JSON object per step: the prompt templates in `custom_react/prompts/`,
how tools and the question are shown, the parse function, the default stop sequences, how an
observation is shown to the model, and the nudge for a last answer. `FORMATS` holds the three;
`get_format(name)` looks one up. Every parser returns the same `Action` / `FinalAnswer` or raises
the same `ParseError`, so the loop, its events and its message history do not depend on the
format. This module holds no parsing or prompt logic itself.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

from langchain_core.prompts import ChatPromptTemplate
from langchain_core.tools import BaseTool

from custom_react.environment import environment_option
from custom_react.formats.json_format import parse_json_response
from custom_react.formats.xml_format import parse_xml_response
from custom_react.parser import Action, FinalAnswer, parse_llm_response
from custom_react.prompt import (
    TEXT_CUE,
    TEXT_QUESTION,
    RenderObservation,
    RenderTools,
    build_react_prompt,
    render_json_tools,
    render_observation,
    render_tool_signatures,
    render_tools,
)
from custom_react.prompts import load_template

FormatName = Literal["text", "xml", "json"]
EnvironmentOption = bool | str | Path
"""False (no environment facts), True (the current folder) or the path of a working folder."""

_NO_STEPS_LEFT = (
    "You have no steps left. Using only the observations above, write your best answer now"
)
GENERATE_FINAL_ANSWER = f"{_NO_STEPS_LEFT}, starting with 'Final Answer:'."


@dataclass(frozen=True)
class ReActFormat:
    """Everything format-specific the loop uses."""

    name: FormatName
    """"text", "xml" or "json"."""
    template: str
    """Name of the system template in `custom_react/prompts/` (`{template}_{language}.txt`)."""
    examples: str
    """Name of the bundled few-shot example in `custom_react/prompts/`."""
    parse: Callable[[str], Action | FinalAnswer]
    """Reply text -> `Action` | `FinalAnswer`, or `ParseError`."""
    stop: tuple[str, ...]
    """Default stop sequences: the model halts before it invents an observation."""
    render_observation: RenderObservation
    """How an observation (or a format error) is shown to the model."""
    render_tools: RenderTools
    """How the tools are described in the prompt."""
    question: str
    """The human turn with the question; holds `{input}`."""
    cue: str
    """Ends the transcript the model continues ("Thought: "; "" when a step is one object)."""
    final_answer_nudge: str
    """Asked once on a limit with `early_stopping_method="generate"`."""

    def build_prompt(
        self,
        tools: Sequence[BaseTool],
        *,
        language: str = "en",
        examples: str | bool | None = None,
        environment: EnvironmentOption = False,
    ) -> ChatPromptTemplate:
        """The chat prompt for this format (see `prompt.build_react_prompt`); `environment`
        adds the OS, the working folder and its files (`environment.describe_environment`)."""
        return build_react_prompt(
            tools,
            language=language,
            examples=load_template(self.examples, language) if examples is True else examples,
            template=load_template(self.template, language),
            environment=environment_option(environment, language=language),
            render=self.render_tools,
            question=self.question,
        )


def _xml_observation(observation: str) -> str:
    return f"<observation>{observation}</observation>"


def _json_observation(observation: str) -> str:
    return json.dumps({"observation": observation}, ensure_ascii=False)


FORMATS: dict[str, ReActFormat] = {
    "text": ReActFormat(
        name="text",
        template="react",
        examples="examples",
        parse=parse_llm_response,
        stop=("\nObservation:",),
        render_observation=render_observation,
        render_tools=render_tools,
        question=TEXT_QUESTION,
        cue=TEXT_CUE,
        final_answer_nudge=GENERATE_FINAL_ANSWER,
    ),
    "xml": ReActFormat(
        name="xml",
        template="react_xml",
        examples="examples_xml",
        parse=parse_xml_response,
        stop=("<observation>",),
        render_observation=_xml_observation,
        render_tools=render_tool_signatures,
        question="<question>{input}</question>",
        cue="",
        final_answer_nudge=f"{_NO_STEPS_LEFT}, inside <final_answer>...</final_answer>.",
    ),
    "json": ReActFormat(
        name="json",
        template="react_json",
        examples="examples_json",
        parse=parse_json_response,
        stop=('"observation"',),
        render_observation=_json_observation,
        render_tools=render_json_tools,
        question=TEXT_QUESTION,
        cue="",
        final_answer_nudge=f'{_NO_STEPS_LEFT}, as {{"final_answer": "..."}}.',
    ),
}


def get_format(name: str) -> ReActFormat:
    """The format called `name` ("text", "xml" or "json").

    Raises:
        ValueError: No such format.
    """
    if name not in FORMATS:
        raise ValueError(f"Unknown format {name!r}; choose one of {get_args(FormatName)}.")
    return FORMATS[name]
