"""The agents the comparison harness runs: ours, and LangChain's own, built the way their docs show.

`custom_runner` runs our `CustomReActAgent` (its English or Chinese prompt, by the question);
`legacy_runner` builds the classic `create_react_agent` (the `hwchase17/react` hub prompt, inlined:
the hub needs the network) in `AgentExecutor(handle_parsing_errors=True,
return_intermediate_steps=True)`; `create_agent_runner` builds LangChain 1.x `create_agent`, which
needs provider tool calls, and `tool_calling_problem` asks the model once whether it makes them.
A runner answers one question with a `RunOutcome` (answer, iterations, stop reason, parse
failures, transcript). LangChain's agents get `handle_tool_error=True` tools, so a `ToolException`
is an observation, as every tool error is in our loop. Timing, tokens and crashes are the
harness's job (`custom_react.compare`); nothing here prints.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.prompts import PromptTemplate
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool

from custom_react import events as ev
from custom_react.agent import CustomReActAgent
from custom_react.printing import ConsolePrinter

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

CREATE_AGENT_SYSTEM_PROMPT = (
    "Answer the question as well as you can. Use the tools for facts, prices and arithmetic; "
    "do not guess numbers. Answer in the language of the question."
)
PARSE_ERROR_TOOL = "_Exception"  # how AgentExecutor names a format error in intermediate_steps
_CHINESE = re.compile(r"[\u4e00-\u9fff]")
_PROBE_QUESTION = "What is 17 * 23? Use the calculator tool."


@dataclass
class RunOutcome:
    """What one agent did with one question (the harness adds timing and token counts)."""

    output: str
    """The final answer, or the agent's own stop message."""
    iterations: int
    """Agent steps: model replies the loop acted on (a tool step, a format error or the answer)."""
    stop_reason: str
    """`final_answer`, or the limit that ended the run."""
    parse_failures: int = 0
    """Replies the agent could not parse (0 for tool-calling agents, which parse nothing)."""
    transcript: list[str] = field(default_factory=list)
    """The run as plain-text lines, for reading side by side."""


Runner = Callable[[str, RunnableConfig], RunOutcome]
"""Answer one question under a `RunnableConfig` (which carries the harness's callbacks)."""


def custom_runner(
    llm: BaseChatModel, tools: list[BaseTool], max_iterations: int, *, examples: bool = True
) -> Runner:
    """Our `CustomReActAgent` as its docs use it: the bundled few-shot example, and the Chinese
    prompt for a question written in Chinese (as `custom-react ask --lang zh` would)."""

    def run(question: str, config: RunnableConfig) -> RunOutcome:
        language = "zh" if _CHINESE.search(question) else "en"
        agent = CustomReActAgent(
            llm, tools, max_iterations=max_iterations, language=language, examples=examples
        )
        lines: list[str] = []
        printer = ConsolePrinter(write=lines.append, language=language, color=False)
        failures, result = 0, None
        for event in agent.stream(question, config):
            printer(event)
            failures += isinstance(event, ev.ParseFailure)
            if isinstance(event, ev.RunFinished):
                result = event.result
        if result is None:
            raise RuntimeError("the agent's stream ended without a RunFinished event")
        return RunOutcome(result.output, result.iterations, result.stop_reason, failures, lines)

    return run


def with_tool_errors_handled(tools: Sequence[BaseTool]) -> list[BaseTool]:
    """Copies of `tools` that return a `ToolException`'s message instead of raising it."""
    return [tool.model_copy(update={"handle_tool_error": True}) for tool in tools]


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
    """Read an `AgentExecutor(return_intermediate_steps=True)` result into a `RunOutcome`."""
    steps = result.get("intermediate_steps", [])
    output = str(result.get("output", ""))
    stopped = len(steps) >= max_iterations and output.startswith("Agent stopped")
    lines: list[str] = []
    for action, observation in steps:
        if action.tool == PARSE_ERROR_TOOL:
            lines += [f"Model wrote: {action.log.strip()}", f"Format error: {observation}"]
        else:
            lines += [action.log.strip(), f"Observation: {observation}"]
    lines.append(f"Final Answer: {output}")
    failures = sum(action.tool == PARSE_ERROR_TOOL for action, _ in steps)
    stop_reason = "max_iterations" if stopped else "final_answer"
    return RunOutcome(output, len(steps) + (not stopped), stop_reason, failures, lines)


def create_agent_runner(
    llm: BaseChatModel, tools: Sequence[BaseTool], max_iterations: int
) -> Runner:
    """Build LangChain 1.x `create_agent`, stopping after `max_iterations` model calls."""
    from langchain.agents import create_agent
    from langchain.agents.middleware import ModelCallLimitMiddleware

    graph = create_agent(
        llm,
        with_tool_errors_handled(tools),
        system_prompt=CREATE_AGENT_SYSTEM_PROMPT,
        middleware=[ModelCallLimitMiddleware(run_limit=max_iterations, exit_behavior="end")],
    )

    def run(question: str, config: RunnableConfig) -> RunOutcome:
        limits: RunnableConfig = {**config, "recursion_limit": 2 * max_iterations + 5}
        state = graph.invoke({"messages": [HumanMessage(content=question)]}, config=limits)
        return create_agent_outcome(state["messages"])

    return run


def create_agent_outcome(messages: Sequence[BaseMessage]) -> RunOutcome:
    """Read the message list a `create_agent` run ends with into a `RunOutcome`."""
    lines: list[str] = []
    replies = [message for message in messages if isinstance(message, AIMessage)]
    for message in messages:
        if isinstance(message, ToolMessage):
            lines.append(f"Observation: {message.text}")
        elif isinstance(message, AIMessage):
            if message.text.strip():
                label = "Thought" if message.tool_calls else "Final Answer"
                lines.append(f"{label}: {message.text.strip()}")
            for call in message.tool_calls:
                lines.append(f"Action: {call['name']}")
                lines.append(f"Action Input: {json.dumps(call['args'], ensure_ascii=False)}")
    answered = bool(replies) and not replies[-1].tool_calls
    output = replies[-1].text.strip() if answered else ""
    stop_reason = "final_answer" if answered else "max_iterations"
    return RunOutcome(output, len(replies), stop_reason, transcript=lines)


def tool_calling_problem(llm: BaseChatModel, tools: Sequence[BaseTool]) -> str | None:
    """Ask the model one tool question (one model call); say why `create_agent` cannot use it.

    Returns None when the reply carries provider `tool_calls`. A model that writes the call as
    text (llama.cpp's server with the model's own chat template does) cannot drive `create_agent`.
    """
    try:
        reply = llm.bind_tools(list(tools)).invoke(_PROBE_QUESTION)
    except NotImplementedError:
        return f"{type(llm).__name__} does not implement bind_tools (no tool calling)"
    except Exception as error:  # the server refused the `tools` field: that is the answer too
        return f"the model server rejected a tool-calling request: {type(error).__name__}: {error}"
    if isinstance(reply, AIMessage) and reply.tool_calls:
        return None
    text = " ".join(str(getattr(reply, "text", reply)).split())[:160]
    return (
        "the model returned no tool_calls for a request with tools bound (it wrote the call as "
        f"text: {text!r}), so create_agent would stop at its first reply"
    )
