"""Build what the planner, the replanner and each step's executor read in a plan-and-execute run.

Pure functions. `build_plan_prompt` turns a template from `custom_react/prompts/` (`planner_<language>.txt`,
`replanner_<language>.txt`, and `repair_<language>.txt` for the repair replanner of
`replan="on_failure"`) into a `ChatPromptTemplate`: the filled template as one user turn, after
the one `system` turn (`system_turn`: the input's system messages, then your `system_prompt`) and
any `chat_history`, and before any `feedback` (a reply that could not be read, and the error).
`render_plan` and `render_past_steps` write the steps still to do and the finished steps with
their results as the numbered text the templates show (`replan_variables` fills the replanner's);
`step_task` writes the question one step's executor gets: every result so far, or only those of
the steps it depends on; `step_input` puts the input's system messages before it. It does not call a model or read replies (`parser.py` does).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from langchain_core.tools import BaseTool

from custom_react.plan.labels import PLAN
from custom_react.prompt import in_language, render_tools, template_variables
from custom_react.prompts import check_language, load_template
from custom_react.running.inputs import system_texts

PLANNER_VARIABLES = frozenset({"input"})
REPLANNER_VARIABLES = frozenset({"input", "plan", "past_steps"})
REPAIR_VARIABLES = frozenset({"input", "plan", "past_steps", "failed_step", "error"})
TOOL_VARIABLES = frozenset({"tools", "tool_names"})


def build_plan_prompt(
    template: str,
    required: frozenset[str],
    tools: Sequence[BaseTool],
    name: str = "plan",
    system_prompt: str = "",
    language: str = "en",
) -> ChatPromptTemplate:
    """Build the planner's or replanner's prompt.

    Args:
        template: The template text; `{tools}` and `{tool_names}` are filled here.
        required: The variables the template must contain (the rest are filled per call).
        tools: The executor's tools, rendered as `build_react_prompt` renders them.
        name: Who the template is for, in error messages.
        system_prompt: Your instructions, as a system turn before everything else ("": none).
        language: The tools' descriptions are shown in it when they have one (`in_language`).

    Returns:
        A prompt whose remaining variables are `required` plus the optional `chat_history` and
        `feedback` message lists.

    Raises:
        ValueError: The template lacks a required variable or has one nobody fills.
    """
    found = template_variables(template)
    missing = required - found
    unknown = found - required - TOOL_VARIABLES
    if missing or unknown:
        problem = f"misses {sorted(missing)}" if missing else f"uses unknown {sorted(unknown)}"
        raise ValueError(f"The {name} template {problem}; write literal braces as {{{{ }}}}.")
    filled = {
        "tools": render_tools(in_language(tools, language)),
        "tool_names": ", ".join(tool.name for tool in tools),
    }
    prompt = ChatPromptTemplate.from_messages(
        [
            MessagesPlaceholder("system", optional=True),
            MessagesPlaceholder("chat_history", optional=True),
            ("human", template),
            MessagesPlaceholder("feedback", optional=True),
        ]
    )
    partials: dict[str, Any] = {key: value for key, value in filled.items() if key in found}
    return prompt.partial(system=system_turn([], system_prompt), **partials)


def system_turn(chat_history: Sequence[BaseMessage], system_prompt: str) -> list[BaseMessage]:
    """The planner's one system turn: the input's system messages, then `system_prompt`; [] for none.

    They come in the order `CustomReActAgent` puts them in its own system turn.
    """
    text = "\n\n".join([*system_texts(chat_history), system_prompt.strip()]).strip()
    return [SystemMessage(text)] if text else []


def conversation(chat_history: Sequence[BaseMessage]) -> list[BaseMessage]:
    """The chat history without its system messages (those open the system turn instead)."""
    return [message for message in chat_history if not isinstance(message, SystemMessage)]


def step_input(task: str, chat_history: Sequence[BaseMessage]) -> str | list[BaseMessage]:
    """What a step's executor is asked: the task, after the input's system messages if any."""
    system = [message for message in chat_history if isinstance(message, SystemMessage)]
    return [*system, HumanMessage(task)] if system else task


def render_plan(steps: Sequence[str], language: str = "en") -> str:
    """The steps as a numbered list, one per line; "(none)" when there are none."""
    if not steps:
        return PLAN[check_language(language)]["none"]
    return "\n".join(f"{number}. {step}" for number, step in enumerate(steps, 1))


def render_past_steps(
    past_steps: Sequence[tuple[str, str]], language: str = "en", numbers: Sequence[int] = ()
) -> str:
    """The finished steps, numbered, each with its result on one indented line.

    `numbers` (1-based) picks the steps to show, under their own numbers; empty shows them all.
    """
    label = PLAN[check_language(language)]
    if not past_steps:
        return label["none"]
    lines = []
    for number in numbers or range(1, len(past_steps) + 1):
        step, text = past_steps[number - 1]
        lines.append(f"{number}. {step}\n   {label['result']}{' '.join(text.split())}")
    return "\n".join(lines)


def replan_variables(
    past_steps: Sequence[tuple[str, str]], planned: Sequence[str], language: str = "en"
) -> dict[str, str]:
    """The replanner template's `{past_steps}` and `{plan}` (the steps still planned)."""
    return {
        "plan": render_plan(planned, language),
        "past_steps": render_past_steps(past_steps, language),
    }


def step_task(
    step: str,
    question: str,
    past_steps: Sequence[tuple[str, str]],
    language: str = "en",
    needs: Sequence[int] = (),
) -> str:
    """What the executor is asked for one step.

    The step alone at first; later the question and the results so far, then the step last (a
    small model reads the last line as its task). `needs` (past step numbers, 1-based) narrows
    the results to the steps this one depends on; empty shows every result.
    """
    if not past_steps:
        return step
    template = load_template("plan_step", language).strip()
    past = render_past_steps(past_steps, language, needs)
    return template.format(step=step, input=question, past_steps=past)
