"""End to end on the bundled model: a run longer than its 4,096-token window, and native tool calls.

The report tool returns ~2,000 characters a page and names the next page to read, so the model
walks page after page until it finds the code word on page 4: on a server started with a
2,048-token window, more observations than the window holds with the system prompt. The agent's budget (set from the server's context size) shortens the
older pages, and the run ends with the answer. Then the model is given the tools natively, so it
writes a `{"name": ..., "arguments": ...}` call as text, and the loop still runs the tool.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool

from custom_react import CustomReActAgent
from custom_react.serving.server import LocalModelServer
from tools import calculator

pytestmark = pytest.mark.e2e
CODE_PAGE = 4
PAGE_CHARS = 2000
WINDOW = 2048
WALK_EXAMPLE = """Question: Find the password in the manual. Start by reading page 1.
Thought: I need to read page 1 of the manual.
Action: read_page
Action Input: 1
Observation: Page 1. Row 1: 12 units shipped. This page has no code word. Read page 2 next.
Thought: Page 1 has no code word, so I read page 2.
Action: read_page
Action Input: 2
Observation: Page 2. Row 1: 40 units shipped. The code word is ORANGE.
Thought: Page 2 has the code word.
Final Answer: ORANGE"""


@tool
def read_page(page: int) -> str:
    """Read one page of the company report. Only one page holds the code word; every other page
    says which page to read next. Input: the page number."""
    filler = " ".join(f"Row {n}: {n * 37 % 1000} units shipped." for n in range(1, 160))
    if page == CODE_PAGE:
        return f"Page {page}. {filler[:PAGE_CHARS]}\nThe code word is PINEAPPLE."
    return f"Page {page}. {filler[:PAGE_CHARS]}\nThis page has no code word. Read page {page + 1} next."


@pytest.fixture(scope="module")
def small_window_server(local_server: LocalModelServer) -> Iterator[LocalModelServer]:
    """The bundled model again, with a 2,048-token window (the session's server sits idle)."""
    with LocalModelServer(local_server.model_path, n_ctx=WINDOW) as server:
        yield server


def test_a_run_longer_than_the_window_ends_with_an_answer(small_window_server):
    llm = small_window_server.chat_model(timeout=600)
    agent = CustomReActAgent(
        llm,
        [read_page],
        max_iterations=10,
        examples=WALK_EXAMPLE,
        max_observation_chars=PAGE_CHARS + 200,
    )
    assert agent.budget is not None and agent.budget.limit < WINDOW  # from the server's window
    result = agent.invoke("Find the code word in the company report. Start by reading page 1.")
    pages = [m.content for m in result["messages"] if isinstance(m, ToolMessage)]
    assert result["stop_reason"] == "final_answer", result["output"]
    assert "PINEAPPLE" in result["output"].upper(), result["output"]
    assert len(pages) >= CODE_PAGE and all(len(page) > PAGE_CHARS for page in pages)  # kept whole
    assert sum(len(page) for page in pages) // 4 > WINDOW  # more than the window


class FirstReplyNative:
    """The bundled model, its first reply written with the tools bound natively.

    Bound natively and asked the bare question, Qwen writes its call as JSON text
    (`{"name": "calculator", "arguments": {...}}`, often fenced): that real reply is the loop's
    first step; every later call is the plain model reading the ReAct transcript.
    """

    def __init__(self, llm: Any, question: str) -> None:
        self.llm, self.question, self.first = llm, question, True
        self.metadata = llm.metadata

    def invoke(self, messages: Any, config: Any = None, stop: Any = None) -> AIMessage:
        if self.first:
            self.first = False
            native = self.llm.bind_tools([calculator])
            return native.invoke([HumanMessage(self.question)], config=config)
        return self.llm.invoke(messages, config=config, stop=stop)

    def get_num_tokens_from_messages(self, messages: Any) -> int:
        raise NotImplementedError  # the local model counts with the estimate


def test_a_native_json_tool_call_from_the_model_runs_the_tool(local_server):
    """Served in the model's own template (not the shipped one), the call comes back as text."""
    question = "What is 12.5% of 2480? Use the calculator."
    with LocalModelServer(local_server.model_path, chat_template=None) as own_template:
        llm = FirstReplyNative(own_template.chat_model(), question)
        result = CustomReActAgent(llm, [calculator], max_iterations=4).invoke(question)  # type: ignore[arg-type]
    first_reply = result["messages"][1].content
    assert re.search(r'"name"\s*:\s*"calculator"', first_reply), first_reply
    assert re.search(r'"arguments"\s*:', first_reply), first_reply
    assert [action.tool for action, _ in result["intermediate_steps"]][:1] == ["calculator"]
    assert "310" in result["intermediate_steps"][0][1], result["intermediate_steps"]
