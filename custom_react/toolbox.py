"""Facts about tools: which one the model meant, its arguments, how to call it, what it returned.

`Toolbox` holds the agent's tools (checked when the agent is built: `check_tools`) and the
options that apply to all of them; `request` binds a parsed step (`steps.ToolStep`) to the tool
it names, once, and returns both; `over_budget` is the tool-call budget, whole.
Underneath, `resolve_tool` forgives how models write tool names (case, markdown, escapes,
trailing punctuation, a unique prefix), `resolve_call` finds a tool's call wrapped in code, and
`arguments.bind_arguments` maps an Action Input onto the tool's argument schema. A tool's
`metadata` says what the loop's guards read: `requires_approval` (read by `pausing/approval.py`),
`repeatable`, `max_calls`, `poll_interval`, `timeout`; a tool whose parameter the loop cannot fill
is refused (`running/context.py`); `async_only` tells a tool with only async code. What a tool returns becomes text in `running/tool_output.py`.
Deciding whether a tool runs, and the messages when it does not, is `acting.py`'s job.
"""

from __future__ import annotations

import ast
import functools
import inspect
import re
import secrets
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from langchain_core.tools import BaseTool
from langchain_core.tools import tool as make_tool

from custom_react.arguments import bind_arguments
from custom_react.parsing.action_input import POSITIONAL_ARGS, ActionInput
from custom_react.parsing.call_syntax import parse_tool_call
from custom_react.parsing.tool_name import clean_tool_name, is_final_answer_name
from custom_react.pausing.approval import Approve
from custom_react.prompts import load_messages, message
from custom_react.running.context import unfilled_parameters
from custom_react.running.tool_output import truncate
from custom_react.steps import ToolStep

REPEATABLE_MAX_CALLS = 10
"""Calls of a `repeatable` tool in one run when neither it nor the agent sets a budget."""

_SEPARATORS = re.compile(r"[\s-]+")
_MIN_PREFIX = 3


@dataclass(frozen=True)
class ToolOptions:
    """The agent's options about its tools (`settings.AgentSettings` holds them all)."""

    language: str = "en"
    approve: Approve | None = None
    approval: Literal["callback", "interrupt"] = "callback"
    interrupt_before: tuple[str, ...] = ()
    repeated_action: Literal["warn", "allow"] = "warn"
    max_tool_calls: int | None = None
    tool_timeout: float | None = None
    tool_retries: int = 0
    tool_retry_delay: float = 0.5
    max_execution_time: float | None = None
    max_observation_chars: int | None = 2000


class Toolbox:
    """The agent's tools, and the agent's options for them (`options`: budgets, approval)."""

    def __init__(
        self, tools: Sequence[BaseTool | Callable[..., Any]], options: ToolOptions | None = None
    ) -> None:
        """The agent's tools, checked (`check_tools`), and its options about them.

        Raises:
            TypeError: An item is not a LangChain tool.
            ValueError: Two tools share a name, or a name reads as the Final Answer.
        """
        self.tools = check_tools(tools)
        self.options = options or ToolOptions()
        names = {tool.name for tool in self.tools}
        if unknown := [name for name in self.options.interrupt_before if name not in names]:
            raise ValueError(f"interrupt_before names {unknown}: the tools are {sorted(names)}.")
        self.marker = load_messages(self.options.language)["truncated"]
        self._by_name = {tool.name: tool for tool in self.tools}

    def named(self, name: str) -> BaseTool | None:
        """The tool whose real name is `name` (a bound step's), or None: no forgiving here."""
        return self._by_name.get(name)

    def request(self, action: ToolStep, iteration: int) -> tuple[ToolStep, BaseTool | None]:
        """The `action` bound to the tool it names, and that tool (None: no tool has the name).

        The step gets the tool's real name, the arguments bound to its schema and a fresh call
        id; the tool is resolved here once, and the loop carries it with the step.
        """
        tool, written = resolve_call(action.tool, action.tool_input, self.tools)
        args, tool_input = bind_arguments(tool, written)
        call_id = f"call_{secrets.token_hex(6)}"  # 12 random hex digits
        bound = replace(
            action,
            tool=tool.name if tool else action.tool,
            tool_input=tool_input,
            args=args,
            tool_call_id=call_id,
            iteration=iteration,
        )
        return bound, tool

    def returns_directly(self, name: str) -> bool:
        """Whether the output of the tool called `name` is the run's answer (`return_direct`)."""
        tool = self._by_name.get(name)
        return tool is not None and bool(tool.return_direct)

    def shorten(self, observation: str) -> str:
        """The observation as the model reads it: cut to the agent's `max_observation_chars`."""
        return truncate(observation, self.options.max_observation_chars, self.marker)

    def timeout(self, tool: BaseTool, elapsed: float) -> float | None:
        """Seconds `tool` may run now (None: no limit).

        Its `metadata["timeout"]`, else the agent's `tool_timeout`, and never past the run's
        `max_execution_time` (`elapsed` seconds of it are gone).
        """
        limits = [metadata(tool).get("timeout", self.options.tool_timeout)]
        if self.options.max_execution_time is not None:
            limits.append(max(self.options.max_execution_time - elapsed, 0.001))
        known = [float(limit) for limit in limits if limit is not None]
        return min(known) if known else None

    def over_budget(self, tool: BaseTool, calls: int) -> str | None:
        """Why `tool`, which ran `calls` times in this run, may not run again; None: it may.

        Its budget is its `metadata["max_calls"]`, else the agent's `max_tool_calls`, else
        `REPEATABLE_MAX_CALLS` for a `repeatable` tool, so polling a job cannot go on forever.
        """
        budget = metadata(tool).get("max_calls", self.options.max_tool_calls)
        if budget is None and metadata(tool).get("repeatable"):
            budget = REPEATABLE_MAX_CALLS
        if budget is None or calls < int(budget):
            return None
        language = self.options.language
        not_run = message("not_run", language)
        return message("over_budget", language, tool=tool.name, budget=budget, not_run=not_run)


def check_tools(tools: Sequence[BaseTool | Callable[..., Any]]) -> list[BaseTool]:
    """The tools as a list of LangChain tools, each with a name of its own.

    A plain function becomes a tool (`langchain_core.tools.tool`: its name, docstring and type
    hints). A tool named like the Final Answer (`finish`, `final_answer`, `Final Answer`,
    `最终答案`) could never run: the parsers read a call of it as the answer. It is refused here.

    Raises:
        TypeError: An item is neither a tool nor a function with a docstring (named by index).
        ValueError: Two tools share a name, a name collides with the Final Answer, or a tool
            takes a parameter nothing here fills (`running.context.unfilled_parameters`).
    """
    if isinstance(tools, BaseTool) or not isinstance(tools, Sequence):
        raise TypeError(
            f"tools must be a list of tools, not {type(tools).__name__}: write [tool, ...]."
        )
    checked = [as_tool(item, index) for index, item in enumerate(tools)]
    seen: set[str] = set()
    for tool in checked:
        if is_final_answer_name(tool.name):
            raise ValueError(
                f"The tool {tool.name!r} cannot be called: the parsers read an Action named "
                f"{tool.name!r} as the Final Answer. Give it another name."
            )
        if tool.name in seen:
            raise ValueError(f"Two tools are named {tool.name!r}: give each tool its own name.")
        if unfilled := unfilled_parameters(tool):
            raise ValueError(
                f"The tool {tool.name!r} takes {unfilled}, which a LangGraph graph injects "
                "(InjectedState, InjectedStore, InjectedToolArg): this agent has none to give. "
                "Read the run's context and config from a `runtime: ToolRuntime` parameter, or "
                "bind the value before (functools.partial, a closure)."
            )
        seen.add(tool.name)
    return checked


def as_tool(item: object, index: int) -> BaseTool:
    """`item` as a LangChain tool: a tool as it is, a plain function through `@tool`.

    Raises:
        TypeError: Neither, or a function `@tool` cannot describe (no docstring), named by index.
    """
    if isinstance(item, BaseTool):
        return item
    if inspect.isfunction(item) or inspect.ismethod(item):
        try:
            return make_tool(item)
        except ValueError as error:  # no docstring to describe it to the model
            raise TypeError(f"tools[{index}] ({item.__name__}) cannot be a tool: {error}") from None
    raise TypeError(
        f"tools[{index}] is {type(item).__name__}, not a LangChain tool: pass a BaseTool or a "
        "function with a docstring."
    )


def metadata(tool: BaseTool) -> dict[str, Any]:
    """The tool's metadata (`{}` when it has none)."""
    return tool.metadata or {}


def async_only(tool: BaseTool) -> bool:
    """Whether the tool has only async code, so `invoke` runs its coroutine (`acting.tool_call`).

    A `StructuredTool` made with only a `coroutine`, or a `BaseTool` subclass with its own
    `_arun` whose `_run` (which `BaseTool` requires) does nothing but raise `NotImplementedError`.
    """
    if getattr(tool, "func", True) is None and getattr(tool, "coroutine", None) is not None:
        return True
    kind = type(tool)
    return kind._arun is not BaseTool._arun and _only_refuses(kind._run)


@functools.cache
def _only_refuses(function: Callable[..., Any]) -> bool:
    """Whether the function's body (a docstring aside) is one `raise NotImplementedError`."""
    try:
        (defined,) = ast.parse(textwrap.dedent(inspect.getsource(function))).body
    except (OSError, TypeError, SyntaxError, ValueError):  # no source to read: assume real code
        return False
    if not isinstance(defined, ast.FunctionDef):
        return False
    body = [
        s
        for s in defined.body
        if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
    ]
    return (
        len(body) == 1
        and isinstance(body[0], ast.Raise)
        and "NotImplementedError" in ast.unparse(body[0])
    )


def resolve_tool(name: str, tools: Sequence[BaseTool]) -> BaseTool | None:
    """Find the tool the model meant.

    Tries, in order: the exact name; the name in any case; the name the model meant
    (`parsing.tool_name.clean_tool_name`: markdown, quotes, escapes, a gloss and trailing
    punctuation removed), with spaces, hyphens and underscores read alike in it and in the tools'
    names (`resolve library id` -> `resolve-library-id`); a sentence that ends or opens with a
    tool's name, naming no other (the format's line copied: `The tool to use is `search``;
    `Search for Canada's population`); a unique prefix either way (`calc` -> `calculator`,
    `calculator_tool` -> `calculator`), only for a name of one word.
    Returns None when nothing or more than one tool fits (`read file`: `read-file`, `read_file`).
    """
    if (exact := next((tool for tool in tools if tool.name == name), None)) is not None:
        return exact  # the common case, found without building anything
    meant = clean_tool_name(name)
    cleaned = _name_key(meant)
    readings = [(str.lower, name), (_name_key, meant), (_name_key, _named_once(meant, tools))]
    for key, written in readings:
        wanted = key(written)  # once per reading, not once per tool
        if fits := [tool for tool in tools if key(tool.name) == wanted]:
            return fits[0] if len(fits) == 1 else None  # two tools read alike: no guess
    if len(cleaned) < _MIN_PREFIX or len(meant.split()) != 1:
        return None
    matches = [
        tool
        for tool in tools
        if (known := _name_key(tool.name)).startswith(cleaned) or cleaned.startswith(known)
    ]
    return matches[0] if len(matches) == 1 else None


def resolve_call(
    name: str, tool_input: ActionInput, tools: Sequence[BaseTool]
) -> tuple[BaseTool | None, ActionInput]:
    """The tool an action names (`resolve_tool`) and its input, or a tool's call wrapped in code.

    Small models wrap a call in code (`Action: python`, `Action Input: area(radius=5)`). When no
    tool has the action's name, the first argument that calls a tool by its exact name (any case;
    no prefix: code calls `sum` and `str`) is the step; otherwise the input is as written.
    """
    if (tool := resolve_tool(name, tools)) is not None:
        return tool, tool_input
    by_name = {tool.name.lower(): tool for tool in tools}
    given = tool_input if isinstance(tool_input, dict) else {"": tool_input}
    values = [*given.get(POSITIONAL_ARGS, []), *given.values()]
    for call in (parse_tool_call(value) for value in values if isinstance(value, str)):
        if call is not None and (wrapped := by_name.get(call[0].lower())) is not None:
            return wrapped, call[1]
    return None, tool_input


def _named_once(sentence: str, tools: Sequence[BaseTool]) -> str:
    """The last or first word of a sentence that names one tool, there and nowhere else ("")."""
    keys = {_name_key(tool.name) for tool in tools}
    words = [_name_key(clean_tool_name(word)) for word in sentence.split()]
    named = [word for word in words if word in keys]
    return named[0] if len(words) > 1 and named in ([words[-1]], [words[0]]) else ""


def _name_key(name: str) -> str:
    """A tool's name as an inexact name is compared with it: any case, spaces and hyphens as `_`."""
    return _SEPARATORS.sub("_", name).lower()
