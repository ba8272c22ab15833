"""LangChain 1.x `create_agent`, which needs provider tool calls, and the check that a model makes them.

`create_agent_runner` builds the agent with a system prompt and a model-call limit;
`create_agent_outcome` reads the messages it ends with. `create_agent` parses no text: a model that
writes its tool call as text (llama.cpp's server with the model's own chat template does) stops it
at the first reply, so `tool_calling_problem` asks the model once beforehand and says why it
cannot drive the agent. It needs the `legacy` extra (`langchain`), imported only when a runner is
built.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool

from custom_react.compare.runners.outcome import Runner, RunOutcome, with_tool_errors_handled
from custom_react.integrations.react_messages import STOPPED
from custom_react.parsing.markers import MARKERS
from custom_react.scratchpad import message_exchanges, render_observation, transcript_entries

CREATE_AGENT_SYSTEM_PROMPT = (
    "Answer the question as well as you can. Use the tools for facts, prices and arithmetic; "
    "do not guess numbers. Answer in the language of the question."
)
_PROBE_QUESTION = "What is 17 * 23? Use the calculator tool."
GRAPH_STEPS_PER_CALL = 5
"""LangGraph steps one model call may take in these graphs (a tool step took 4 with the call limit's
`before_model` node, measured by the runner's test); the recursion limit allows `max_iterations`
of them, so the model-call limit ends a long run, never a `GraphRecursionError`."""
LIMIT_REACHED = "Model call limits exceeded:"
"""How the text of the message `ModelCallLimitMiddleware(exit_behavior="end")` ends a run with
begins: the graph's last `AIMessage`, but not a model reply."""


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
        limits: RunnableConfig = {**config, "recursion_limit": recursion_limit(max_iterations)}
        state = graph.invoke({"messages": [HumanMessage(content=question)]}, config=limits)
        return create_agent_outcome(state["messages"])

    return run


def recursion_limit(max_iterations: int) -> int:
    """The graph's `recursion_limit` for a run of at most `max_iterations` model calls."""
    return GRAPH_STEPS_PER_CALL * max_iterations + 5


def create_agent_outcome(
    messages: Sequence[BaseMessage],
    transcript: Callable[[Sequence[BaseMessage]], list[str]] | None = None,
) -> RunOutcome:
    """Read the message list a `create_agent` run ends with into a `RunOutcome`.

    Every model reply is one iteration; the run answered when the last reply calls no tool. The
    model-call limit's closing message is not a reply: a run that ends with it hit the limit; nor
    is `TextReActMiddleware`'s after too many format errors in a row (`react_messages.STOPPED`).
    `transcript` writes the messages as lines (default: `transcript_lines`).
    """
    write = transcript or transcript_lines
    replies = [message for message in messages if isinstance(message, AIMessage)]
    if replies and replies[-1].response_metadata.get(STOPPED):  # the middleware's own limit
        reason = replies.pop().response_metadata[STOPPED]
        return RunOutcome("", len(replies), reason, transcript=write(messages[:-1]))
    if replies and replies[-1].text.startswith(LIMIT_REACHED) and not replies[-1].tool_calls:
        replies.pop()
        return RunOutcome("", len(replies), "max_iterations", transcript=write(messages[:-1]))
    return RunOutcome(*_answer(replies), transcript=write(messages))


def _answer(replies: Sequence[AIMessage]) -> tuple[str, int, str]:
    answered = bool(replies) and not replies[-1].tool_calls
    output = replies[-1].text.strip() if answered else ""
    return output, len(replies), "final_answer" if answered else "max_iterations"


def transcript_lines(messages: Sequence[BaseMessage]) -> list[str]:
    """Provider tool calls and their results as Thought / Action / Observation lines.

    Each reply is written as the text step it stands for, then the one transcript renderer
    (`scratchpad.transcript_entries`) writes the steps and their observations.
    """
    steps = [as_text_step(m) if isinstance(m, AIMessage) else m for m in messages]
    return transcript_entries(message_exchanges(steps), render_observation, "")


def as_text_step(message: AIMessage) -> AIMessage:
    """A reply with provider tool calls as the ReAct text step it stands for."""
    label = MARKERS["thought"] if message.tool_calls else MARKERS["final_answer"]
    lines = [f"{label}: {message.text.strip()}"] if message.text.strip() else []
    for call in message.tool_calls:
        lines.append(f"{MARKERS['action']}: {call['name']}")
        arguments = json.dumps(call["args"], ensure_ascii=False)
        lines.append(f"{MARKERS['action_input']}: {arguments}")
    return AIMessage(content="\n".join(lines))


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
