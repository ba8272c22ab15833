"""LangChain 1.x `create_agent` with `TextReActMiddleware`: text ReAct inside LangChain's graph.

The fourth agent of the comparison: `create_agent`'s own graph and tools node, with this project's
prompt and parser in the model call (`custom_react.integrations.create_agent`), so it runs on a model without
native tool calls. Like our runner it picks the English or Chinese prompt by the question and keeps
the bundled few-shot example; the step limit is `ModelCallLimitMiddleware`, as for `create_agent`.
It needs the `legacy` extra (`langchain`), imported only when a runner is built.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool

from custom_react.compare.runners.create_agent import create_agent_outcome, recursion_limit
from custom_react.compare.runners.custom import question_language
from custom_react.compare.runners.outcome import Runner, RunOutcome, with_tool_errors_handled
from custom_react.scratchpad import render_observation, transcript_entries


def text_react_runner(
    llm: BaseChatModel, tools: list[BaseTool], max_iterations: int, *, examples: bool = True
) -> Runner:
    """Build `create_agent` with text ReAct (English and Chinese), stopping after `max_iterations`."""
    from langchain.agents import create_agent
    from langchain.agents.middleware import AgentMiddleware, ModelCallLimitMiddleware

    from custom_react.integrations.create_agent import TextReActMiddleware
    from custom_react.scratchpad import is_format_error

    def graph_for(language: str) -> Any:
        middleware: list[AgentMiddleware[Any, Any, Any]] = [
            TextReActMiddleware(language=language, examples=examples),
            ModelCallLimitMiddleware(run_limit=max_iterations, exit_behavior="end"),
        ]
        return create_agent(llm, with_tool_errors_handled(tools), middleware=middleware)

    graphs = {language: graph_for(language) for language in ("en", "zh")}

    def run(question: str, config: RunnableConfig) -> RunOutcome:
        limits: RunnableConfig = {**config, "recursion_limit": recursion_limit(max_iterations)}
        graph = graphs[question_language(question)]
        state = graph.invoke({"messages": [HumanMessage(content=question)]}, config=limits)
        outcome = create_agent_outcome(state["messages"], transcript=react_lines)
        outcome.parse_failures = sum(
            isinstance(message, AIMessage) and is_format_error(message)
            for message in state["messages"]
        )
        return outcome

    return run


def react_lines(messages: Sequence[BaseMessage]) -> list[str]:
    """The run as the model wrote it: each ReAct step, then its Observation (`scratchpad.py`)."""
    from custom_react.integrations.react_messages import step_exchanges

    exchanges = step_exchanges(messages)
    return transcript_entries(exchanges, render_observation, "")
