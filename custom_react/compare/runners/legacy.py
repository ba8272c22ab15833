"""The classic `create_react_agent` in an `AgentExecutor`, built as LangChain's docs show.

The prompt is the `hwchase17/react` hub prompt, inlined word for word (the hub needs the network);
the executor runs with `handle_parsing_errors=True` and `return_intermediate_steps=True`, so a
format error is fed back to the model and every step can be read afterwards (`legacy_outcome`).
It needs the `legacy` extra (`langchain-classic`), imported only when a runner is built.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.prompts import PromptTemplate
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool

from custom_react.compare.runners.outcome import Runner, RunOutcome, with_tool_errors_handled
from custom_react.console.labels import REACT
from custom_react.scratchpad import render_observation, transcript_entries
from custom_react.steps import PARSE_ERROR_TOOL

# The `hwchase17/react` prompt from the LangChain hub, word for word.
LEGACY_REACT_PROMPT = """Answer the following questions as best you can. You have access to the following tools:

{tools}

Use the following format:

Question: the input question you must answer
Thought: you should always think about what to do
Action: the action to take, should be one of [{tool_names}]
Action Input: the input to the action
Observation: the result of the action
... (this Thought/Action/Action Input/Observation can repeat N times)
Thought: I now know the final answer
Final Answer: the final answer to the original input question

Begin!

Question: {input}
Thought:{agent_scratchpad}"""

"""How `AgentExecutor` names a format error in `intermediate_steps` (and in its tool callbacks)."""


def legacy_runner(llm: BaseChatModel, tools: Sequence[BaseTool], max_iterations: int) -> Runner:
    """Build `create_react_agent` + `AgentExecutor`, configured as the comparison needs.

    `stream_runnable=False` (instead of the default streamed model call) only so the model's token
    usage reaches the callbacks: a streamed `ChatOpenAI` reply reports none. The steps are the same.
    """
    from langchain_classic.agents import AgentExecutor, create_react_agent
    from langchain_classic.agents.agent import RunnableAgent

    tools = with_tool_errors_handled(tools)
    prompt = PromptTemplate.from_template(LEGACY_REACT_PROMPT)
    agent = RunnableAgent(runnable=create_react_agent(llm, tools, prompt), stream_runnable=False)
    executor = AgentExecutor(
        agent=agent,
        tools=tools,
        handle_parsing_errors=True,
        return_intermediate_steps=True,
        max_iterations=max_iterations,
    )

    def run(question: str, config: RunnableConfig) -> RunOutcome:
        result = executor.invoke({"input": question}, config=config)
        return legacy_outcome(result, max_iterations)

    return run


def legacy_outcome(result: dict[str, Any], max_iterations: int) -> RunOutcome:
    """Read an `AgentExecutor(return_intermediate_steps=True)` result into a `RunOutcome`.

    A run stopped by the limit has `max_iterations` steps and the executor's "Agent stopped"
    output; any other run ended with an answer, which counts as one more step.
    """
    steps = result.get("intermediate_steps", [])
    output = str(result.get("output", ""))
    stopped = len(steps) >= max_iterations and output.startswith("Agent stopped")
    label = REACT["en"]  # the transcript in our console's words, as the other runners write it
    lines: list[str] = []
    for action, observation in steps:
        if action.tool == PARSE_ERROR_TOOL:
            lines += [
                f"{label['reply']}: {action.log.strip()}",
                f"{label['parse_failure']}: {observation}",
            ]
        else:
            lines += transcript_entries([(action.log, observation)], render_observation, "")
    lines.append(f"{label['final_answer']}: {output}")
    failures = sum(action.tool == PARSE_ERROR_TOOL for action, _ in steps)
    stop_reason = "max_iterations" if stopped else "final_answer"
    return RunOutcome(output, len(steps) + (not stopped), stop_reason, failures, lines)
