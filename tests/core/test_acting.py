"""Tool resolution, argument mapping, truncation and the error observations."""

from __future__ import annotations

from typing import Annotated, Any

import pytest
from langchain_core.messages import ToolMessage
from langchain_core.tools import InjectedToolCallId, StructuredTool, ToolException, tool
from langgraph.types import Command

from custom_react import CustomReActAgent
from custom_react.acting import run_tool as run_tool_steps
from custom_react.arguments import tool_arguments
from custom_react.running.calls import Loop
from custom_react.steps import ToolStep
from custom_react.toolbox import resolve_call, resolve_tool, truncate


def run_plainly(loop: Loop[Any]) -> Any:
    """Make every call of `loop` plainly and return what it returns (one tool run, say)."""
    answer: Any = None
    error: Exception | None = None
    while True:
        try:
            call = loop.throw(error) if error is not None else loop.send(answer)
        except StopIteration as stop:
            return stop.value
        answer, error = None, None
        try:
            answer = call.run()
        except Exception as raised:  # raised inside the loop, where the call was asked for
            error = raised


def run_tool(tool, args, config, approve):
    request = ToolStep(tool.name, args, args=args, tool_call_id="call_1", iteration=1)
    return run_plainly(run_tool_steps(tool, request, config, approve))


@tool
def search(query: str) -> str:
    """Search."""
    return query


@tool
def search_news(query: str) -> str:
    """Search news."""
    return query


@tool
def read_file(path: str) -> str:
    """Read a file."""
    return path


@tool
def calculator(expression: str) -> str:
    """Calculate."""
    return expression


@tool
def write_file(path: str, content: str) -> str:
    """Write a file."""
    return f"{path}:{content}"


@tool
def current_date() -> str:
    """Today."""
    return "today"


@tool
def square(n: int) -> int:
    """Square a number."""
    return n * n


TOOLS = [search, search_news, read_file, calculator, write_file, current_date]
WRITTEN = {"path": "a.txt", "content": "hi"}


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("search", "search"),  # exact
        ("Search", "search"),  # any case
        ("SEARCH_NEWS", "search_news"),
        ("**search**", "search"),  # markdown
        ("`calculator`", "calculator"),
        ("calculator.", "calculator"),  # trailing punctuation
        ("calculator。", "calculator"),
        ('"search"', "search"),
        ("read\\_file", "read_file"),  # escaped underscore
        ("read file", "read_file"),  # words
        ("read-file", "read_file"),
        ("calc", "calculator"),  # unique prefix
        ("calculator_tool", "calculator"),  # tool name is a prefix of what was written
        ("current_date()", "current_date"),
        ("The tool to use is `calculator`", "calculator"),  # the format's line copied
        ("I will use read_file.", "read_file"),
        ("search or calculator", None),  # two tools named: no guess
        ("use search, then calculator", None),
        ("Search for the rose price", "search"),  # a sentence that opens with one tool's name
        ("search Action Input: x", "search"),  # its empty input is refused later, not run
        ("search the news", "search"),  # a whole word names search (search_news is no word here)
        ("sea", None),  # ambiguous: search, search_news
        ("se", None),  # too short for a prefix
        ("browser", None),
        ("", None),
    ],
)
def test_resolve_tool(written, expected):
    found = resolve_tool(written, TOOLS)
    assert (found.name if found else None) == expected


def named(*names: str) -> list[StructuredTool]:
    """Tools with these names (as an MCP server names them: `resolve-library-id`)."""
    return [
        StructuredTool.from_function(lambda query: query, name=name, description="Look up.")
        for name in names
    ]


CONTEXT7 = ("resolve-library-id", "get-library-docs")


@pytest.mark.parametrize(
    ("names", "written", "expected"),
    [
        # spaces, hyphens and underscores read alike on both sides
        (CONTEXT7, "resolve_library_id", "resolve-library-id"),
        (CONTEXT7, "resolve library id", "resolve-library-id"),
        (CONTEXT7, "Get_Library_Docs", "get-library-docs"),
        (CONTEXT7, "**resolve\\_library\\_id**", "resolve-library-id"),
        (CONTEXT7, "I will use resolve_library_id.", "resolve-library-id"),
        (CONTEXT7, "resolve_library", "resolve-library-id"),  # a unique prefix
        (CONTEXT7, "resolve_library_id_tool", "resolve-library-id"),
        (("web_search",), "web-search", "web_search"),  # as before
        # two tools that read alike: only the name as one of them is written picks it
        (("read-file", "read_file"), "read-file", "read-file"),
        (("read-file", "read_file"), "read_file", "read_file"),
        (("read-file", "read_file"), "READ-FILE", "read-file"),  # any case, one tool
        (("read-file", "read_file"), "read file", None),
        (("read-file", "read_file"), "Read_File_Tool", None),
        (("read-file", "read_file"), "I will use read file", None),
        (("Search", "search"), "SEARCH", None),  # any case fits both
    ],
)
def test_resolve_tool_reads_separators_alike_and_never_guesses_between_two(
    names, written, expected
):
    found = resolve_tool(written, named(*names))
    assert (found.name if found else None) == expected


@pytest.mark.parametrize(
    ("name", "tool_input", "expected"),
    [
        # a tool's call wrapped in code: the call is the step
        ("python", 'calculator("2 * 3")', ("calculator", "2 * 3")),
        ("python", "write_file(path='a.txt', content='hi')", ("write_file", WRITTEN)),
        ("print", {"*args": ["The file:", 'read_file("a.txt")']}, ("read_file", "a.txt")),
        ("sum", {"*args": ["calculator('1+1')", "calculator('2+2')"]}, ("calculator", "1+1")),
        ("code", {"code": "search(query='rose')"}, ("search", {"query": "rose"})),
        # a tool the action names is kept, whatever its input looks like
        ("calculator", 'search("rose")', ("calculator", 'search("rose")')),
        # no tool's call inside: unknown, with the input as written
        ("python", "print(df.shape)", (None, "print(df.shape)")),
        ("python", "rose price", (None, "rose price")),
        (
            "print",
            {"*args": ["hello", "browser('x')"]},
            (None, {"*args": ["hello", "browser('x')"]}),
        ),
        ("print", "Calculator('2+2')", ("calculator", "2+2")),  # any case
        ("print", "calc('2+2')", (None, "calc('2+2')")),  # no prefix inside code
    ],
)
def test_resolve_call(name, tool_input, expected):
    found, written = resolve_call(name, tool_input, TOOLS)
    assert (found.name if found else None, written) == expected


@pytest.mark.parametrize(
    ("chosen", "tool_input", "expected"),
    [
        (search, "rose price", {"query": "rose price"}),
        (search, {"query": "rose"}, {"query": "rose"}),
        (search, {"q": "rose"}, {"query": "rose"}),  # one-key object renamed to the only argument
        (write_file, {"path": "a.txt", "content": "hi"}, {"path": "a.txt", "content": "hi"}),
        (write_file, "a.txt", {"path": "a.txt"}),  # the tool's validation will report content
        (current_date, "none", {}),
        # the tool's arguments as a JSON object inside other words: the object
        (write_file, 'a JSON object such as {"path": "a.txt", "content": "hi"}', WRITTEN),
        (write_file, 'Use {"path": "a.txt", "content": "hi"} to save it', WRITTEN),
        (square, "the number such as {'n': 3}", {"n": 3}),
        # ... not when it names another argument, nor for a tool that takes the text itself
        (write_file, 'such as {"file": "a.txt"}', {"path": 'such as {"file": "a.txt"}'}),
        (search, 'such as {"query": "rose"}', {"query": 'such as {"query": "rose"}'}),
        # arguments named in plain text, outside a call: read by their names
        (search, 'query="rose"', {"query": "rose"}),
        (search, "query: rose, price", {"query": "rose, price"}),
        (write_file, 'path="a.txt", content="hi"', WRITTEN),
        (square, "n=3", {"n": 3}),
        # ... only when the names are the tool's own
        (search, "rose: price", {"query": "rose: price"}),
        (search, "https://example.com", {"query": "https://example.com"}),
        (write_file, 'path="a.txt", size=3', {"path": 'path="a.txt", size=3'}),
    ],
)
def test_tool_arguments(chosen, tool_input, expected):
    assert tool_arguments(chosen, tool_input) == expected


def test_missing_argument_is_an_error_observation_not_a_crash():
    observation, status, _ = run_tool(write_file, {"path": "a.txt"}, {}, None)
    assert status == "error" and observation.startswith("Error: write_file failed: ValidationError")
    assert "content" in observation


def test_an_error_a_tool_handled_itself_still_reads_as_its_failure():
    def flaky(x: str) -> str:
        """Fails."""
        raise ToolException("the service is down")

    handled = StructuredTool.from_function(flaky, handle_tool_error=True)
    observation, status, _ = run_tool(handled, {"x": "a"}, {}, None)
    assert (observation, status) == ("Error: flaky failed: the service is down", "error")


def test_run_tool_returns_the_result_as_text():
    assert run_tool(write_file, {"path": "a", "content": "b"}, {}, None) == ("a:b", "ok", None)


@pytest.mark.parametrize(
    ("text", "limit", "expected"),
    [
        ("abc", 5, "abc"),
        ("a" * 100, 60, "a" * 32 + "\n…[truncated 68 characters]"),
        ("word " * 20, 50, "word word word word wo" + "\n…[truncated 78 characters]"),
        ("abc", None, "abc"),
    ],
)
def test_truncate(text, limit, expected):
    assert truncate(text, limit) == expected
    assert len(truncate(text, limit)) <= (limit or len(text))


@pytest.mark.parametrize("size", [41, 99, 100, 999, 1000, 10_001])
def test_truncate_never_goes_over_its_limit(size):
    for limit in (40, 41, 60, 99, 100, 1000):
        cut = truncate("x" * size, limit)
        assert len(cut) <= limit
        if size > limit:
            kept = len(cut.split("\n…")[0])
            assert cut.endswith(f"[truncated {size - kept} characters]")


def test_truncate_refuses_a_limit_too_small_for_its_marker():
    with pytest.raises(ValueError, match="at least 40"):
        truncate("x" * 100, 10)


def test_a_command_s_messages_are_the_observation_and_its_state_update_is_warned_of(script):
    """A tool made for a graph returns LangGraph's `Command`: the agent has no graph state."""

    @tool
    def set_name(name: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> Command:
        """Remember the user's name."""
        saved = ToolMessage(f"Saved the name {name}.", tool_call_id=tool_call_id)
        return Command(update={"user_name": name, "messages": [saved]})

    model = script("Action: set_name\nAction Input: Ada", "Final Answer: ok")
    with pytest.warns(UserWarning, match="Command updating user_name: the agent has no graph"):
        result = CustomReActAgent(model.model, [set_name]).invoke("My name is Ada")
    assert result["intermediate_steps"][0][1] == "Saved the name Ada."
