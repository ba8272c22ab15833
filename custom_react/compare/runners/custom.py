"""Our `CustomReActAgent`, run the way its docs use it, as a comparison runner.

The runner picks the English or Chinese prompt by the question (as `custom-react ask --lang zh`
would), keeps the bundled few-shot example, and records the console printer's lines as the
transcript. Parse failures are counted from the `ParseFailure` events; the rest of the outcome is
the agent's own `AgentResult`. A run our loop ends with `stop_reason="model_error"` raises, as the
same failure does in LangChain's agents, so the harness records it as that run's error.
"""

from __future__ import annotations

import re

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool

from custom_react import events as ev
from custom_react.agent import CustomReActAgent
from custom_react.compare.runners.outcome import Runner, RunOutcome
from custom_react.printing import ConsolePrinter

_CHINESE = re.compile(r"[\u4e00-\u9fff]")


def question_language(question: str) -> str:
    """Which prompt a question gets: "zh" when it has Chinese characters, else "en"."""
    return "zh" if _CHINESE.search(question) else "en"


def custom_runner(
    llm: BaseChatModel, tools: list[BaseTool], max_iterations: int, *, examples: bool = True
) -> Runner:
    """Build a runner for our `CustomReActAgent` with `tools` and `max_iterations`.

    Args:
        llm: The chat model.
        tools: The tools, shared by every question this runner answers.
        max_iterations: The agent's step limit.
        examples: Whether the prompt includes the bundled few-shot example.

    Returns:
        A runner that streams the agent once per question.
    """

    def run(question: str, config: RunnableConfig) -> RunOutcome:
        language = question_language(question)
        agent = CustomReActAgent(
            llm, tools, max_iterations=max_iterations, language=language, examples=examples
        )
        lines: list[str] = []
        printer = ConsolePrinter(write=lines.append, language=language, color=False)
        failures = 0
        result = None
        for event in agent.stream(question, config):
            printer(event)
            failures += isinstance(event, ev.ParseFailure)
            if isinstance(event, ev.RunFinished):
                result = event.result
        if result is None:
            raise RuntimeError("the agent's stream ended without a RunFinished event")
        if result.stop_reason == "model_error":
            # LangChain's agents raise on the same failure: make it this run's error for all three.
            raise RuntimeError(f"the model failed for good: {result.error}")
        return RunOutcome(result.output, result.iterations, result.stop_reason, failures, lines)

    return run
