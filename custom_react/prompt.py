"""Build the prompt the model reads: the ReAct system turn with the tools, and the question turn.

Everything here is a pure function. `build_react_prompt` fills a template from `custom_react/prompts/` with the
tools (name, description, arguments), an optional few-shot block and optional environment facts,
and returns a `ChatPromptTemplate`: the system turn, the `chat_history` slot, and one user turn
holding the `input` question followed by the `agent_scratchpad`. `render_tools` describes the
tools for the text format (`InputStyle` lets the other formats say how to write an input). The
earlier steps that fill `agent_scratchpad` are written by `scratchpad.render_scratchpad`. It does
not call the model, parse its reply or choose a format.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from string import Formatter
from typing import Any

from langchain_core.messages import SystemMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from langchain_core.prompts.chat import MessageLikeRepresentation
from langchain_core.tools import BaseTool

from custom_react.parsing.markers import MARKERS
from custom_react.prompts import load_template

REQUIRED_VARIABLES = frozenset({"tools", "tool_names"})
OPTIONAL_VARIABLES = frozenset({"examples", "environment"})
TEXT_QUESTION = "Question: {input}"

RenderTools = Callable[[Sequence[BaseTool]], str]


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
    system = _system_template(template, language, environment).format(  # filled once
        tools=(render or render_tools)(tools),
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
    """Filled with `fields`, the arguments and their types as a JSON object."""
    plain_text_alone: bool = False
    """No line for a single text argument: plain text after the marker is all it takes."""


TEXT_INPUT = InputStyle(
    f"{MARKERS['action_input']}: ",
    "none",
    "{name} ({kind})",
    "a JSON object {fields}",
    plain_text_alone=True,
)


def render_tools(tools: Sequence[BaseTool], style: InputStyle = TEXT_INPUT) -> str:
    """One block per tool: `name: description`, then how to write its input (`style`) if needed."""
    blocks = []
    for tool in tools:
        line = describe_input(tool, style)
        blocks.append(f"{tool.name}: {tool.description.strip()}" + (f"\n  {line}" if line else ""))
    return "\n".join(blocks)


def describe_input(tool: BaseTool, style: InputStyle = TEXT_INPUT) -> str:
    """The line that tells the model how to write `tool`'s input ("" when plain text is all).

    A `plain_text_alone` style shows none for a tool with one text argument: its description
    says what to write, and a line such as `Action Input: query (string)` is what small models
    copy as the input itself (measured: `bench/results/solve_rate/tuning_log.md`).
    """
    arguments: dict[str, Any] = tool.args
    if not arguments:
        return style.lead + style.none
    if len(arguments) == 1:
        ((name, schema),) = arguments.items()
        kind = schema.get("type", "string")
        if style.plain_text_alone and kind == "string":
            return ""
        return style.lead + style.one.format(name=name, kind=kind)
    fields = {name: schema.get("type", "string") for name, schema in arguments.items()}
    return style.lead + style.several.format(fields=json.dumps(fields))


def prompt_fingerprint(tools: Sequence[BaseTool]) -> str:
    """Which shipped prompt a result was made with: a short hash of what the model reads first.

    That is the agent's default system prompt (the text format, the bundled examples) in English
    and in Chinese, with `tools` and their descriptions. A saved transcript or table records it;
    when the templates, the examples or a tool's description change, so does the fingerprint,
    and `scripts/make_docs_assets.py --check` names what was made with the old one.
    """
    texts = [
        build_react_prompt(tools, language=language, examples=True)
        .format_messages(input="")[0]
        .text
        for language in ("en", "zh")
    ]
    return hashlib.sha256("\n\0".join(texts).encode("utf-8")).hexdigest()[:12]
