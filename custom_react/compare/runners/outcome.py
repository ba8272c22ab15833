"""What a runner returns, and the one tool adjustment LangChain's agents need to be compared fairly.

A runner answers one question under a ``RunnableConfig`` (which carries the harness's callbacks)
with a ``RunOutcome``: the answer, the agent steps, why it stopped, its parse failures and a
plain-text transcript. ``with_tool_errors_handled`` gives LangChain's agents tools that return a
``ToolException``'s message instead of raising it, as every tool error is an observation in our
loop. Building the agents is the other modules' job.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool


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


def with_tool_errors_handled(tools: Sequence[BaseTool]) -> list[BaseTool]:
    """Return copies of `tools` that return a `ToolException`'s message instead of raising it."""
    return [tool.model_copy(update={"handle_tool_error": True}) for tool in tools]
