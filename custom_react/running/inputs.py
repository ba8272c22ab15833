"""What the agent takes: a question, `{"input": ..., "chat_history": [...]}`, or `{"messages": [...]}`.

`read_input` turns a new run's input into its question and chat history, in the legacy
`AgentExecutor` shape or LangChain 1.x's (`create_agent`'s `{"messages": [...]}`), or what a chat
model takes (a prompt value, so `prompt | agent` works; a message or a list of them); a resume
(`{"resume": ...}`) is read by `pausing.state`. The question is text: a message's text blocks, one
per line; an image or other block is left out, with a warning. The input's system messages (a
`ChatPromptTemplate` with a `("system", ...)` line, piped into the agent) stay in its history, and
`with_input_system` joins them to the system turn of each prompt (`system_texts`, which
`TextReActMiddleware` reads too): a chat model reads one system message, first (Anthropic's
refuses a second one later in the conversation).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, NamedTuple, cast

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage, convert_to_messages
from langchain_core.prompt_values import PromptValue

AgentInput = str | dict[str, Any] | PromptValue | BaseMessage | list[Any]
"""What the agent takes: a question, `{"input": question, "chat_history": [...]}`,
`{"messages": [...]}`, a prompt value, a message or a list of them, or a resume (`{"resume":
state_or_run_id, "decision": ...}`)."""


class RunInput(NamedTuple):
    """A new run's input, read: its question, the chat history before it, its question's message.

    The message (when the question came as one) keeps its id and name, so a LangGraph graph
    that merges messages by id (`add_messages`) does not add the question a second time.
    """

    question: str
    chat_history: list[BaseMessage]
    asked: HumanMessage | None = None
    handed: Sequence[BaseMessage] = ()
    """The messages after the question: what was already done on it (a tool call and its result,
    another node's or agent's words), which the model reads before its own first step."""


def read_input(agent_input: AgentInput) -> RunInput:
    """The question and the chat history of a new run's input.

    A question string, `{"input": str, "chat_history": [...]}`, or LangChain 1.x's
    `{"messages": [...]}`: the last human message is the question, the ones before it the history.

    Raises:
        TypeError: Anything else, with the shapes the agent takes.
        ValueError: The question is empty (or only spaces): there is nothing to answer.
    """
    read = _question_and_history(agent_input)
    if not read.question.strip():
        raise ValueError("The question is empty: give the agent something to answer.")
    return read


def _question_and_history(agent_input: AgentInput) -> RunInput:
    if isinstance(agent_input, str):
        return RunInput(agent_input, [])
    if isinstance(agent_input, PromptValue):  # `prompt | agent`
        return from_messages(agent_input.to_messages())
    if isinstance(agent_input, BaseMessage | list | tuple):  # what a chat model takes
        return from_messages([agent_input] if isinstance(agent_input, BaseMessage) else agent_input)
    if isinstance(agent_input, dict) and "messages" in agent_input and "input" not in agent_input:
        return from_messages(agent_input["messages"])
    if not isinstance(agent_input, dict) or not isinstance(agent_input.get("input"), str):
        raise TypeError(
            'The agent takes a question string, {"input": "<question>"}, '
            '{"messages": [("user", "<question>")]}, a prompt value or a list of messages.'
        )
    history = agent_input.get("chat_history") or []
    if not isinstance(history, list | tuple):
        raise TypeError(f"chat_history must be a list of messages, not {type(history).__name__}.")
    return RunInput(agent_input["input"], convert_to_messages(history))


def from_messages(given: Any) -> RunInput:
    """The question (the last human message), the history before it, the messages after it.

    The messages after it are `RunInput.handed`; a system message among them joins the history
    (whose system messages open the prompt's system turn).

    Raises:
        TypeError: Not a list of messages, or no human message in it.
    """
    if not isinstance(given, list | tuple):
        raise TypeError(f"messages must be a list of messages, not {type(given).__name__}.")
    messages = convert_to_messages(given)
    asked = [i for i, message in enumerate(messages) if isinstance(message, HumanMessage)]
    if not asked:
        raise TypeError("messages holds no human message: the last one is the question.")
    question = cast(HumanMessage, messages[asked[-1]])
    history = messages[: asked[-1]]
    after = messages[asked[-1] + 1 :]
    history += [m for m in after if isinstance(m, SystemMessage)]  # they join the system turn
    handed = [m for m in after if not isinstance(m, SystemMessage)]
    return RunInput(question_text(question), history, question, handed)


def with_input_system(
    prompt: Sequence[BaseMessage], given: Sequence[BaseMessage]
) -> list[BaseMessage]:
    """`prompt` with the text of the system messages among `given` (the input's) opening its system turn.

    They come first, before the agent's own `system_prompt` and the tool list, as `system_prompt`
    opens it; the prompt keeps one system message. Without any (or a prompt that opens with no
    system message) `prompt` is returned as it is.
    """
    texts = system_texts(given)
    if not texts or not prompt or not isinstance(prompt[0], SystemMessage):
        return list(prompt)
    return [SystemMessage("\n\n".join([*texts, prompt[0].text])), *prompt[1:]]


def system_texts(messages: Sequence[BaseMessage]) -> list[str]:
    """The text of each system message among `messages` (none empty), in order."""
    return [m.text.strip() for m in messages if isinstance(m, SystemMessage) and m.text.strip()]


def question_text(message: BaseMessage) -> str:
    """A message's text: its text blocks, one per line.

    Other blocks (an image, audio) are left out, with a warning: a text-ReAct model reads text.
    """
    if isinstance(message.content, str):
        return message.content
    blocks = [{"type": "text", "text": b} if isinstance(b, str) else b for b in message.content]
    texts = [str(block.get("text", "")) for block in blocks if block.get("type") == "text"]
    if left_out := [str(block.get("type")) for block in blocks if block.get("type") != "text"]:
        warnings.warn(
            f"The question's {', '.join(left_out)} content is left out: the agent reads text only.",
            stacklevel=2,
        )
    return "\n".join(texts)
