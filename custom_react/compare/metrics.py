"""Counting what an agent did from LangChain callbacks: model calls, tool calls, tokens.

`MetricsHandler` is one callback handler the harness passes to every agent, so ours, the legacy
`AgentExecutor` and `create_agent` are counted the same way, from the same events, without any
agent reporting on itself. Token counts come from the replies' `usage_metadata` (0 when the model
reports none). It counts; it does not time, judge or print.
"""

from __future__ import annotations

import threading
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.outputs import LLMResult

from custom_react.compare.runners import PARSE_ERROR_TOOL

# AgentExecutor runs a format error and an unknown tool name through stand-in tools.
_STAND_IN_TOOLS = (PARSE_ERROR_TOOL, "invalid_tool")


class MetricsHandler(BaseCallbackHandler):
    """Counts model calls, tool calls and token usage from callbacks, whatever the agent."""

    def __init__(self) -> None:
        """Start every count at zero."""
        self.model_calls = 0
        self.tool_calls = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self._lock = threading.Lock()  # AgentExecutor may call back from worker threads

    def on_chat_model_start(self, serialized: Any, messages: Any, **kwargs: Any) -> None:
        """Count a chat model call."""
        self._add(model_calls=1)

    def on_llm_start(self, serialized: Any, prompts: Any, **kwargs: Any) -> None:
        """Count a completion model call."""
        self._add(model_calls=1)

    def on_tool_start(self, serialized: Any, input_str: str, **kwargs: Any) -> None:
        """Count a tool call, but not AgentExecutor's stand-ins for a format error or bad name."""
        if (serialized or {}).get("name") not in _STAND_IN_TOOLS:
            self._add(tool_calls=1)

    def on_llm_end(self, response: LLMResult, **kwargs: Any) -> None:
        """Add the reply's token usage, when the model reported it (0 otherwise)."""
        for batch in response.generations:
            for generation in batch:
                usage = getattr(getattr(generation, "message", None), "usage_metadata", None) or {}
                self._add(
                    prompt_tokens=int(usage.get("input_tokens") or 0),
                    completion_tokens=int(usage.get("output_tokens") or 0),
                )

    def _add(self, **counts: int) -> None:
        with self._lock:
            for name, count in counts.items():
                setattr(self, name, getattr(self, name) + count)
