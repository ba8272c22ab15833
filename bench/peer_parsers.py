"""The peers' ReAct parsers for `bench/parser_robustness.py`, each mapped to the step its executor
would take.

A peer takes the case texts and returns one meaning per text: `{"action", "args"}`, `{"final"}` or
`{"error": True}` -- the same shape as the labels. What the executor does with a parsed action is
the same for every peer: the tool is looked up by its exact name (`args` is None when none has it),
a string input becomes the tool's only argument, a dict input is used as the arguments, and a tool
without arguments gets `{}`. Any exception from a parser is a refusal (the executor would send the
error back to the model).

- LangChain (`langchain_classic`, the `[legacy]` extra): `ReActSingleInputOutputParser`,
  `MRKLOutputParser`, `ReActJsonSingleInputOutputParser`, `StructuredChatOutputParser`,
  `ConvoOutputParser` and `XMLAgentOutputParser`, called in this process.
- crewAI: its `crewai.agents.parser.parse`, run by `bench/crewai_parse.py` under another
  interpreter (crewAI is not a dependency of this project; install it in a throwaway venv and pass
  that venv's python). Its tool input is always a string, which crewAI's `ToolUsage` decodes as a
  JSON or Python dict; that is done here too, and any other string is the only argument (crewAI
  itself would reject it: its tools take dicts only).
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from langchain_classic.agents.conversational.output_parser import ConvoOutputParser
from langchain_classic.agents.mrkl.output_parser import MRKLOutputParser
from langchain_classic.agents.output_parsers import (
    ReActJsonSingleInputOutputParser,
    ReActSingleInputOutputParser,
    XMLAgentOutputParser,
)
from langchain_classic.agents.structured_chat.output_parser import StructuredChatOutputParser
from langchain_core.agents import AgentAction, AgentFinish
from langchain_core.tools import BaseTool

Meaning = dict[str, Any]
Peer = Callable[[Sequence[str], Sequence[BaseTool]], list[Meaning]]

LANGCHAIN_PARSERS = {
    "legacy": ReActSingleInputOutputParser(),
    "mrkl": MRKLOutputParser(),
    "react-json": ReActJsonSingleInputOutputParser(),
    "struct-chat": StructuredChatOutputParser(),
    "convo": ConvoOutputParser(),
    "xml": XMLAgentOutputParser(),
}
CREWAI_WORKER = Path(__file__).with_name("crewai_parse.py")
_QUIET_CREWAI = {"CREWAI_DISABLE_TELEMETRY": "true", "OTEL_SDK_DISABLED": "true"}


def executor_step(name: str, tool_input: Any, tools: Sequence[BaseTool]) -> Meaning:
    """The step an executor takes for a parsed action: exact name, input bound as described above."""
    tool = next((tool for tool in tools if tool.name == name), None)
    if tool is None:
        return {"action": name, "args": None}
    fields = list(tool.args)
    if not fields:
        return {"action": tool.name, "args": {}}
    if isinstance(tool_input, dict):
        return {"action": tool.name, "args": dict(tool_input)}
    value = tool_input if isinstance(tool_input, str) else json.dumps(tool_input)
    return {"action": tool.name, "args": {fields[0]: value}}


def _as_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def langchain_peer(name: str) -> Peer:
    """A peer running one of LangChain's parsers, as `AgentExecutor` would use its result."""
    parser = LANGCHAIN_PARSERS[name]

    def run(texts: Sequence[str], tools: Sequence[BaseTool]) -> list[Meaning]:
        meanings = []
        for text in texts:
            try:
                step: AgentAction | AgentFinish = parser.parse(text)
            except Exception:  # any parser failure is a refusal, whatever its type
                meanings.append({"error": True})
                continue
            if isinstance(step, AgentAction):
                meanings.append(executor_step(step.tool, step.tool_input, tools))
            else:
                meanings.append({"final": _as_text(step.return_values["output"])})
        return meanings

    return run


def _crewai_input(raw: str) -> str | dict[str, Any]:
    """crewAI's `ToolUsage` reads the (already repaired) input string as a JSON or Python dict."""
    for read in (json.loads, ast.literal_eval):
        try:
            value = read(raw)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        if isinstance(value, dict):
            return value
    return raw


def crewai_peer(python: str) -> Peer:
    """A peer running crewAI's parser under `python` (a venv with crewAI installed)."""

    def run(texts: Sequence[str], tools: Sequence[BaseTool]) -> list[Meaning]:
        done = subprocess.run(
            [python, str(CREWAI_WORKER)],
            input=json.dumps(list(texts)),
            capture_output=True,
            text=True,
            check=True,
            timeout=300,
            env={**os.environ, **_QUIET_CREWAI},
        )
        meanings = []
        for result in json.loads(done.stdout):
            if "tool" in result:
                tool_input = _crewai_input(result["tool_input"])
                meanings.append(executor_step(result["tool"], tool_input, tools))
            else:
                meanings.append(result)
        return meanings

    return run


def available_peers(crewai_python: str | None) -> dict[str, Peer]:
    """LangChain's parsers, and crewAI's when an interpreter with crewAI is given."""
    peers = {name: langchain_peer(name) for name in LANGCHAIN_PARSERS}
    if crewai_python:
        peers["crewai"] = crewai_peer(crewai_python)
    return peers
