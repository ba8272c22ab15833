"""Our `CustomReActAgent`, run the way its docs use it, as a comparison runner.

The runner picks the English or Chinese prompt by the question (as `custom-react ask --lang zh`
would), keeps the bundled few-shot example, and records the console printer's lines as the
transcript. Parse failures are counted from the `ParseFailure` events; the rest of the outcome is
the agent's own `AgentResult`. A run our loop ends with `stop_reason="model_error"` raises, as the
same failure does in LangChain's agents, so the harness records it as that run's error.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool

from custom_react.agent import CustomReActAgent
from custom_react.compare.runners.outcome import Runner, RunOutcome
from custom_react.events import RunFinished
from custom_react.plan.events import PlanParseFailure
from custom_react.running.runnable import StepRunnable
from custom_react.steps import ParseFailure

_CHINESE = re.compile(r"[\u4e00-\u9fff]")


def question_language(question: str) -> str:
    """Which prompt a question gets: "zh" when it has Chinese characters, else "en"."""
    return "zh" if _CHINESE.search(question) else "en"


MakeAgent = Callable[[BaseChatModel, list[BaseTool], int, str], StepRunnable]
"""Build an agent from (model, tools, max_iterations, language)."""


def agent_runner(make_agent: MakeAgent) -> Callable[[BaseChatModel, list[BaseTool], int], Runner]:
    """A runner factory for agents built by `make_agent`, in the question's language.

    The runner streams the agent once per question, keeps its console printer's lines as the
    transcript and counts its format errors (ReAct's and a planner's).
    """

    def factory(llm: BaseChatModel, tools: list[BaseTool], max_iterations: int) -> Runner:
        def run(question: str, config: RunnableConfig) -> RunOutcome:
            language = question_language(question)
            agent = make_agent(llm, tools, max_iterations, language)
            lines: list[str] = []
            printer = agent.printer_type(lines.append, language=language, color=False)
            failures = 0
            result = None
            for event in agent.stream(question, config):
                printer(event)
                failures += isinstance(event, ParseFailure | PlanParseFailure)
                if isinstance(event, RunFinished):
                    result = event.result
            if result is None:
                raise RuntimeError("the agent's stream ended without a RunFinished event")
            if result.stop_reason == "model_error":
                # LangChain's agents raise on the same failure: make it this run's error for all.
                raise RuntimeError(f"the model failed for good: {result.error}")
            return RunOutcome(result.output, result.iterations, result.stop_reason, failures, lines)

        return run

    return factory


def custom_runner(
    llm: BaseChatModel, tools: list[BaseTool], max_iterations: int, **options: Any
) -> Runner:
    """Build a runner for our `CustomReActAgent` with `tools` and `max_iterations`.

    Args:
        llm: The chat model.
        tools: The tools, shared by every question this runner answers.
        max_iterations: The agent's step limit.
        **options: Any other `AgentSettings` option, such as `examples=False` or
            `format="json"` (the agent's defaults otherwise; the language follows the question).

    Returns:
        A runner that streams the agent once per question.
    """
    make = agent_runner(
        lambda llm, tools, limit, language: CustomReActAgent(
            llm, tools, **{**options, "max_iterations": limit, "language": language}
        )
    )
    return make(llm, tools, max_iterations)
