"""A runtime context for tools, passed when the agent is run, as `create_agent` passes it.

`agent.invoke(question, context=Context(user_id="42"))` puts the context in the run's config
(`with_context`); a tool that declares a `runtime: ToolRuntime` parameter (LangChain's
`langchain.tools.ToolRuntime`, from LangGraph) gets one with that `context`, the run's `config`
and its `tool_call_id`, so a tool written for `create_agent` runs here unchanged. The model never
sees the parameter (LangChain leaves it out of the tool's arguments). Its `state` is empty: the
run's steps are the agent's own records, not a graph's state. An agent that runs inside a
LangGraph graph, as a node or as a graph's tool (`create_agent(tools=[agent.as_tool()])`), passes
the graph's context, store and stream writer on to its own tools (the context unless its run was
given one of its own), so `runtime.stream_writer(...)` reaches the graph's `stream_mode="custom"`.
Outside a graph the writer does nothing, as LangGraph's own writer does when nobody streams.

The config also carries the run's language (`run_language`), so a tool that takes `config` can
write its own words around its result in the language the model is prompted in.
"""

from __future__ import annotations

from functools import cache
from typing import Any, get_type_hints

from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import patch_config
from langchain_core.tools import BaseTool, InjectedToolCallId

CONTEXT_KEY = "custom_react_context"
"""The `configurable` key that carries the run's context to its tools."""
GRAPH_RUNTIME = "__pregel_runtime"
"""Where LangGraph keeps a graph run's `Runtime` (its context, store and stream writer) in the
config, as its `langgraph.runtime.get_runtime` reads it: an agent run in a graph finds it there."""
LANGUAGE_KEY = "custom_react_language"
"""The `configurable` key that carries the run's language ("en", "zh") to its tools."""


def with_context(
    config: RunnableConfig | None, context: Any, language: str | None = None
) -> RunnableConfig | None:
    """`config` carrying `context` and the run's `language` for its tools (None: not added)."""
    added = {
        key: value
        for key, value in ((CONTEXT_KEY, context), (LANGUAGE_KEY, language))
        if value is not None
    }
    return patch_config(config, configurable=added) if added else config


def run_language(config: RunnableConfig | None) -> str | None:
    """The language of the run that called a tool with `config` (None: not run by an agent here)."""
    language = ((config or {}).get("configurable") or {}).get(LANGUAGE_KEY)
    return language if isinstance(language, str) else None


def runtime_parameter(tool: BaseTool) -> str | None:
    """The name of the tool's `ToolRuntime` parameter, if it declares one."""
    function = getattr(tool, "func", None) or getattr(tool, "coroutine", None)
    return None if function is None else _runtime_parameter(function)


@cache
def _runtime_parameter(function: Any) -> str | None:
    try:
        hints = get_type_hints(function)
    except (NameError, TypeError):  # an annotation that cannot be resolved: none of ours
        return None
    for name, hint in hints.items():
        kind = getattr(hint, "__origin__", hint)
        if getattr(kind, "__name__", "") == "ToolRuntime":
            return name
    return None


def unfilled_parameters(tool: BaseTool) -> list[str]:
    """The tool's parameters the model is not shown and nothing here fills.

    LangChain fills an `InjectedToolCallId` (from the ToolCall) and a `config`, the loop a
    `runtime: ToolRuntime`. A parameter for LangGraph's `InjectedState` or `InjectedStore`, or
    a bare `InjectedToolArg` (a value the caller passes), has no graph here to come from: every
    call would fail, and the model could not fix it.
    """
    fields = getattr(tool.args_schema, "model_fields", None) or {}
    runtime = runtime_parameter(tool)
    return [
        name
        for name, field in fields.items()
        if name not in tool.args
        and name != runtime
        and not any(_is_call_id(marker) for marker in field.metadata)
    ]


def _is_call_id(marker: Any) -> bool:
    kind = marker if isinstance(marker, type) else type(marker)
    return issubclass(kind, InjectedToolCallId)


def tool_runtime(tool_call_id: str, config: RunnableConfig) -> Any:
    """The `ToolRuntime` a tool gets: the run's context, its config and the call's id.

    Its store and stream writer are those of the LangGraph graph the agent runs in (as a node or
    as a graph's tool). Outside a graph it gets LangGraph's `DEFAULT_RUNTIME`, as LangGraph itself
    does: no store, and a writer that does nothing.
    """
    from langgraph.prebuilt.tool_node import ToolRuntime  # the tool's own import brought it
    from langgraph.runtime import DEFAULT_RUNTIME

    configurable = config.get("configurable", {})
    graph = configurable.get(GRAPH_RUNTIME, DEFAULT_RUNTIME)
    return ToolRuntime(
        state={},
        context=configurable.get(CONTEXT_KEY, graph.context),
        config=config,
        stream_writer=graph.stream_writer,
        tool_call_id=tool_call_id,
        store=graph.store,
    )
