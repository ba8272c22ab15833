"""A callback handler with `raise_error=True` stops the run, as LangChain lets it.

Such a handler (a guardrail, a budget, an audit log) raises on purpose: its error reaches the
caller of invoke, ainvoke and stream, is never an Observation for the model, and a tool that
already ran is never run again by `tool_retries`. A tool's own error stays an Observation.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.tools import tool

from custom_react import CustomReActAgent
from custom_react.testing import Script
from tests.conftest import run_by

WAYS = ["invoke", "ainvoke", "stream"]


class Stop(RuntimeError):
    """What the handler raises."""


class Guard(BaseCallbackHandler):
    """Raises in one hook; `raise_error` asks LangChain to pass its error on."""

    raise_error = True

    def __init__(self, hook: str) -> None:
        self.hook = hook

    def on_tool_start(self, *args: Any, **kwargs: Any) -> None:
        if self.hook == "on_tool_start":
            raise Stop("not this tool")

    def on_tool_end(self, *args: Any, **kwargs: Any) -> None:
        if self.hook == "on_tool_end":
            raise Stop("audit log unavailable")

    def on_chat_model_start(self, *args: Any, **kwargs: Any) -> None:
        if self.hook == "on_chat_model_start":
            raise Stop("over budget")


def payment_tool(sent: list[str]) -> Any:
    @tool
    def send_payment(to: str) -> str:
        """Send 100 yuan to someone."""
        sent.append(to)
        return f"sent 100 yuan to {to}"

    return send_payment


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("hook", ["on_tool_start", "on_tool_end", "on_chat_model_start"])
def test_a_raising_handler_stops_the_run_and_nothing_runs_again(way, hook):
    sent: list[str] = []
    model = Script("Action: send_payment\nAction Input: Li", "Final Answer: paid")
    agent = CustomReActAgent(
        model.model, [payment_tool(sent)], tool_retries=2, tool_retry_delay=0, model_retries=2
    )
    with pytest.raises(Stop):
        run_by(agent, way, "Pay Li", callbacks=[Guard(hook)])
    assert sent == (["Li"] if hook == "on_tool_end" else [])


def test_a_tool_s_own_error_is_still_an_observation():
    @tool
    def flaky(x: str) -> str:
        """Fails."""
        raise ValueError("disk full")

    model = Script("Action: flaky\nAction Input: a", "Final Answer: could not")
    result = CustomReActAgent(model.model, [flaky]).invoke("go", {"callbacks": [Guard("none")]})
    assert "disk full" in result["intermediate_steps"][0][1] and result["output"] == "could not"
