"""The agent designs an experiment compares, each as a runner of the comparison harness.

A runner answers one question (`custom_react.compare.runners.Runner`); the harness's
`agent_runner` turns any way of building an agent (ours, or Plan-and-Execute) into one. On it:
`react_runner` (our agent with any options, e.g. one loop defence off), `step_limit_runner` (our
agent with a step limit of its own), `action_first_runner` (the same loop with a prompt that
forbids Thought), `no_final_answer_check_runner` (the same loop blind to a Final Answer),
`plan_runner` (Plan-and-Execute with either replanner) and `cot_runner` (Chain-of-Thought: one
model call, no tools). The questions and the scoring are the harness's.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool

from custom_react.agent import CustomReActAgent
from custom_react.compare.harness import RunnerFactory
from custom_react.compare.runners import Runner, RunOutcome
from custom_react.compare.runners.custom import agent_runner, custom_runner, question_language
from custom_react.formats import TEXT, ReActFormat
from custom_react.parser import Action, FinalAnswer, ParseError, parse_llm_response
from custom_react.parsing.thinking import strip_think
from custom_react.plan import PlanAndExecuteAgent
from custom_react.prompts import load_template
from custom_react.running.runnable import StepRunnable

ACTION_FIRST_TEMPLATE = "react_action_first"
"""The prompt without Thought (`custom_react/prompts/react_action_first_<language>.txt`)."""
ACTION_FIRST = replace(
    TEXT, template=ACTION_FIRST_TEMPLATE, examples="examples_action_first", cue=""
)
"""The text format, with the Thought taken out of its prompt, its example and its cue."""


def react_runner(**options: Any) -> RunnerFactory:
    """Our agent with the bundled example and `options` (e.g. `repeated_action="allow"`)."""
    return partial(custom_runner, **options)


def step_limit_runner(max_iterations: int, **options: Any) -> RunnerFactory:
    """Our agent with its own step limit, whatever limit the experiment gives its other runs."""

    def factory(llm: BaseChatModel, tools: list[BaseTool], _experiments_limit: int) -> Runner:
        return custom_runner(llm, tools, max_iterations, **options)

    return factory


def reformatted(agent: CustomReActAgent, react_format: ReActFormat) -> CustomReActAgent:
    """The same agent and loop with another format: its prompt, parser and cue (stop unchanged)."""
    agent.format = react_format
    agent.prompt = react_format.build_prompt(
        agent.tools, language=agent.settings.language, examples=agent.settings.examples
    )
    return agent


def action_first_runner(**options: Any) -> RunnerFactory:
    """Our loop with `ACTION_FIRST`: a prompt and example without Thought, and no Thought cue."""
    return agent_runner(
        lambda llm, tools, limit, language: reformatted(
            CustomReActAgent(llm, tools, **_options(limit, language, options)), ACTION_FIRST
        )
    )


def no_final_answer_check_runner(**options: Any) -> RunnerFactory:
    """Our loop, blind to a Final Answer: it is a format error, so only a limit ends the run."""
    return agent_runner(
        lambda llm, tools, limit, language: reformatted(
            CustomReActAgent(
                llm,
                tools,
                **_options(limit, language, {"max_consecutive_parse_failures": limit, **options}),
            ),
            NO_FINAL_ANSWER_CHECK,
        )
    )


def _options(limit: int, language: str, options: dict[str, Any]) -> dict[str, Any]:
    """The agent options of a condition: its step limit, the bundled example, then its own."""
    return {"max_iterations": limit, "examples": True, **options, "language": language}


def _never_final(text: str, language: str = "en") -> Action | FinalAnswer:
    """Parse a reply as the text format does, but refuse a Final Answer like a missing Action."""
    step = parse_llm_response(text, language)
    if isinstance(step, FinalAnswer):
        raise ParseError(NO_ACTION_ERROR, text)
    return step


NO_ACTION_ERROR = "Invalid format: write 'Action:' with 'Action Input:'."
"""What the loop without a final-answer check says to a reply that holds no action."""
NO_FINAL_ANSWER_CHECK = replace(TEXT, parse=_never_final)
"""The text format whose parser never accepts a Final Answer."""


def plan_runner(
    replan: Literal["always", "on_failure"] = "always", **options: Any
) -> RunnerFactory:
    """Plan-and-Execute: at most `max_iterations` plan steps, each done by our agent (same limit)."""

    def make(llm: BaseChatModel, tools: list[BaseTool], limit: int, language: str) -> StepRunnable:
        executor = CustomReActAgent(
            llm, tools, max_iterations=limit, examples=True, language=language
        )
        return PlanAndExecuteAgent(
            llm, executor, max_steps=limit, replan=replan, language=language, **options
        )

    return agent_runner(make)


def cot_runner(llm: BaseChatModel, tools: list[BaseTool], max_iterations: int) -> Runner:
    """Chain-of-Thought: one call, no tools (`tools` and `max_iterations` are not used)."""

    def run(question: str, config: RunnableConfig) -> RunOutcome:
        language = question_language(question)
        messages = [SystemMessage(load_template("cot", language)), HumanMessage(question)]
        reply = strip_think(llm.invoke(messages, config).text).strip()
        try:
            step = parse_llm_response(reply)
            output = step.output if isinstance(step, FinalAnswer) else reply
        except ParseError:  # no marker: the whole reply is its answer
            output = reply
        return RunOutcome(output, 1, "final_answer", 0, reply.splitlines())

    return run
