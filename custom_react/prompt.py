"""Build the prompt the model reads: the ReAct system turn with the tools, and the question turn.

Everything here is a pure function. `build_react_prompt` fills a template from `custom_react/prompts/` with the
tools (name, description, arguments), an optional few-shot block and optional environment facts,
and returns a `ChatPromptTemplate`: the system turn, the `chat_history` slot, and one user turn
holding the `input` question followed by the `agent_scratchpad`. `render_tools` describes the
tools for the text format (`InputStyle` lets the other formats say how to write an input), each in
the prompt's language when it has a description in it (`in_language`). The
earlier steps that fill `agent_scratchpad` are written by `scratchpad.render_scratchpad`. It does
not call the model, parse its reply or choose a format.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from string import Formatter

from langchain_core.messages import SystemMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from langchain_core.prompts.chat import MessageLikeRepresentation
from langchain_core.tools import BaseTool

from custom_react.parsing.markers import MARKERS
from custom_react.prompts import load_template, message
from custom_react.tool_schemas import (
    argument_schemas,
    by_example,
    input_example,
    json_kind,
    required_arguments,
)

REQUIRED_VARIABLES = frozenset({"tools", "tool_names"})
OPTIONAL_VARIABLES = frozenset({"examples", "environment"})
TEXT_QUESTION = "Question: {input}"

RenderTools = Callable[[Sequence[BaseTool]], str]
DESCRIPTIONS = "descriptions"
"""A tool's `metadata` key for its description per language, `{"zh": "..."}`: the prompt's wins."""


def build_react_prompt(
    tools: Sequence[BaseTool],
    *,
    language: str = "en",
    examples: str | bool | None = None,
    template: str | None = None,
    environment: str = "",
    render: RenderTools | None = None,
    question: str = TEXT_QUESTION,
    example_file: str = "examples",
    system_prompt: str = "",
    answer_instructions: str = "",
) -> ChatPromptTemplate:
    """Build the ReAct chat prompt.

    Args:
        tools: The tools the model may call; rendered with name, description and arguments.
        language: "en" or "zh": which bundled template (and example) to use.
        examples: No few-shot block (None, False), the bundled examples (True), or your own text.
        template: Your system template: it needs `{tools}`, `{tool_names}`; may use `{examples}`.
        environment: Facts about the machine for `{environment}` (appended without the slot).
        render: How tools are described (default: `render_tools`, the text format's).
        question: The human turn; it must contain `{input}`.
        example_file: Which bundled examples `examples=True` means (the format's own).
        system_prompt: Your instructions; they open the system turn, before the tool list.
        answer_instructions: What the Final Answer must be (a schema); they end the system turn.

    Returns:
        A prompt to fill with `input`, optional `chat_history` and `agent_scratchpad`.

    Raises:
        ValueError: The template lacks a required variable or has one nobody fills.
    """
    if examples is True:
        examples = bundled_examples(example_file, language, tools)
    listed = message("no_tools", language)  # what the tool list says when there are no tools
    if tools:
        listed = (render or render_tools)(in_language(tools, language))
    system = _system_template(template, language, environment).format(  # filled once
        tools=listed,
        tool_names=", ".join(tool.name for tool in tools),
        examples=examples or "",
        environment=environment,
    )
    if system_prompt.strip():
        system = f"{system_prompt.strip()}\n\n{system}"
    if answer_instructions.strip():
        system = f"{system.rstrip()}\n\n{answer_instructions.strip()}\n"
    history = MessagesPlaceholder("chat_history", optional=True)
    turns: list[MessageLikeRepresentation] = [
        SystemMessage(system),
        history,
        ("human", question + "{agent_scratchpad}"),
    ]
    # The question's turn is continued by the steps so far (`scratchpad.py`).
    return ChatPromptTemplate.from_messages(turns).partial(agent_scratchpad="")


def in_language(tools: Sequence[BaseTool], language: str) -> list[BaseTool]:
    """The tools as a prompt in `language` shows them: a copy with the description in it, if any."""
    shown = []
    for tool in tools:
        described = ((tool.metadata or {}).get(DESCRIPTIONS) or {}).get(language)
        keep = not described or described == tool.description
        shown.append(tool if keep else tool.model_copy(update={"description": described}))
    return shown


# The tool an example step calls, in the text, XML and JSON formats (the Chinese examples keep
# the English markers, as the Chinese templates do).
_EXAMPLE_ACTION = re.compile(r'^Action: (\S+)|<action>(\w+)|"action": "(\w+)"', re.MULTILINE)


def bundled_examples(name: str, language: str, tools: Sequence[BaseTool]) -> str:
    """The bundled few-shot block `name`, keeping only the examples whose tools the agent has.

    The file holds examples separated by blank lines; one that calls a tool the agent lacks would
    teach the model to call it, so it is left out ("" when none is left).
    """
    names = {tool.name for tool in tools}
    examples = load_template(name, language).strip("\n").split("\n\n")
    kept = [text for text in examples if _example_tools(text) <= names]
    return "\n" + "\n\n".join(kept) + "\n" if kept else ""


def _example_tools(example: str) -> set[str]:
    return {"".join(match) for match in _EXAMPLE_ACTION.findall(example)}


def _system_template(template: str | None, language: str, environment: str) -> str:
    system = template if template is not None else load_template("react", language)
    check_template_variables(system)
    if environment and "environment" not in template_variables(system):  # no slot: append it
        system = system.rstrip("\n") + "\n\n{environment}\n"
    return system


def template_variables(template: str) -> set[str]:
    """The `{names}` a template uses (literal `{{braces}}` are not variables)."""
    return {name for _, name, _, _ in Formatter().parse(template) if name is not None}


def check_template_variables(template: str) -> None:
    """Fail early, with the names, when a system template cannot be filled."""
    found = template_variables(template)
    missing = REQUIRED_VARIABLES - found
    unknown = found - REQUIRED_VARIABLES - OPTIONAL_VARIABLES
    if missing:
        names = ", ".join("{" + name + "}" for name in sorted(missing))
        raise ValueError(f"The ReAct prompt template is missing {names}; add it to the template.")
    if unknown:
        names = ", ".join("{" + name + "}" for name in sorted(unknown))
        raise ValueError(
            f"The ReAct prompt template uses {names}, which nothing fills; "
            "remove it or write literal braces as {{ and }}."
        )


@dataclass(frozen=True)
class InputStyle:
    """How a format tells the model to write a tool's input: for no, one and several arguments."""

    lead: str
    none: str
    one: str
    """Filled with `name` and `kind` (the argument's JSON type)."""
    several: str
    """Filled with `example`: a JSON object with a placeholder of the right type per argument."""
    plain_text_alone: bool = False
    """No line for a single text argument: plain text after the marker is all it takes."""


TEXT_INPUT = InputStyle(
    f"{MARKERS['action_input']}: ",
    "none",
    "{name} ({kind})",
    "a JSON object such as {example}",
    plain_text_alone=True,
)
ARGUMENT_LINE = "    - {name} ({details}){description}"
"""One argument under a tool: its name, JSON type, required or not, default, enum values."""


def render_tools(tools: Sequence[BaseTool], style: InputStyle = TEXT_INPUT) -> str:
    """One block per tool: `name: description`, then how to write its input (`style`) if needed."""
    blocks = []
    for tool in tools:
        line = describe_input(tool, style)
        blocks.append(f"{tool.name}: {tool.description.strip()}" + (f"\n  {line}" if line else ""))
    return "\n".join(blocks)


def describe_input(tool: BaseTool, style: InputStyle = TEXT_INPUT) -> str:
    """How to write `tool`'s input ("" when plain text is all): a line, then one per argument.

    A `plain_text_alone` style shows none for a tool with one text argument: its description
    says what to write, and a line such as `Action Input: query (string)` is what small models
    copy as the input itself (measured: `bench/results/solve_rate/tuning_log.md`). Several
    arguments get a JSON example of the required ones whose values have their types (`{"base":
    0}`, not `{"base": "integer"}`, which small models copy as a quoted value), then every
    argument on a line of its own (`argument_lines`); so does one argument that is an object (a
    nested model: the example shows its fields) or takes one of set values (the line lists them).
    """
    arguments = argument_schemas(tool)
    if not arguments:
        return style.lead + style.none
    if not by_example(tool):  # one plain argument
        ((name, schema),) = arguments.items()
        kind = json_kind(schema)
        if style.plain_text_alone and kind == "string":
            return ""
        return style.lead + style.one.format(name=name, kind=kind)
    example = json.dumps(input_example(tool))
    return style.lead + style.several.format(example=example) + "\n" + argument_lines(tool)


def argument_lines(tool: BaseTool) -> str:
    """One line per argument: name, JSON type, required or optional, default, enum, description."""
    required = set(required_arguments(tool))
    lines = []
    for name, schema in argument_schemas(tool).items():
        details = [json_kind(schema), "required" if name in required else "optional"]
        if "enum" in schema:
            details.append("one of " + ", ".join(json.dumps(v) for v in schema["enum"]))
        if "default" in schema:
            details.append(f"default {json.dumps(schema['default'])}")
        about = str(schema.get("description", "")).strip()
        description = f": {about}" if about else ""
        lines.append(
            ARGUMENT_LINE.format(name=name, details=", ".join(details), description=description)
        )
    return "\n".join(lines)
