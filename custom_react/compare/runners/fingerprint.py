"""What each agent's model reads first, as a short hash: the one home of "which prompt made this run".

`agent_fingerprint(agent, tools, language)` answers it for every agent the harness and the
benches run. LangChain's two agents have a table of their own (`BASELINES`): the legacy agent
reads the `hwchase17/react` prompt with the tools as `create_react_agent` renders them (in any
language: the prompt is English); `create_agent` with native tool calls reads its system prompt
and the tools' schemas as they are sent to the provider. Every other agent is ours (ours in the
text, XML or JSON format, `create_agent` with `TextReActMiddleware`, Plan-and-Execute, an
experiment's condition) and gets the fingerprint of our default system prompt in the run's
language (`prompt_fingerprint`: the text format's template and examples with
the tools), except an agent named after a step format ("xml", "json", as the BFCL bench names
them): it gets the fingerprint of that format's prompt (`format_fingerprint`). The templates
another variant reads besides (the planner's, an experiment's own) are not hashed. So a change to
our English prompt changes only our agents' English fingerprints, and a change to the Chinese one
only their Chinese ones.
`fingerprint_with(tools)` is that function for one tool list (each value made once),
`agent_fingerprints` makes what a saved result records: `{agent: {language: fingerprint}}` for
the (agent, language) pairs its runs read, `changed_fingerprints` says which of a record's are
not what those agents read now, and `shown_fingerprints` writes a record on one line for a
report. Nothing here runs an agent.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import TypeGuard

from langchain_core.tools import BaseTool, render_text_description
from langchain_core.utils.function_calling import convert_to_openai_tool

from custom_react.compare.runners.create_agent import CREATE_AGENT_SYSTEM_PROMPT
from custom_react.compare.runners.legacy import LEGACY_REACT_PROMPT
from custom_react.formats import FORMAT_NAMES, get_format
from custom_react.prompt import build_react_prompt
from custom_react.prompts import LANGUAGES

Fingerprints = dict[str, dict[str, str]]
"""What a saved result records: agent -> language of its runs -> the fingerprint they read."""
Fingerprint = Callable[[str, str], str]
"""(agent, language) -> the fingerprint of what that agent reads in that language, now."""


def prompt_fingerprint(tools: Sequence[BaseTool], *, language: str) -> str:
    """Which shipped prompt a run in `language` read: a short hash of what the model reads first.

    That is the agent's default system prompt in `language` ("en" or "zh": the text format, the
    bundled examples) with `tools` and their descriptions; nothing of the other language's. A
    saved transcript or table records it for each agent and language its runs read
    (`custom_react.compare.runners.fingerprint` says which agents read this prompt); when the
    template, the examples or a tool's description in that language change, so does the
    fingerprint, and `scripts/make_docs_assets.py --check` names what was made with the old one.
    """
    system = build_react_prompt(tools, language=language, examples=True).format_messages(input="")
    return text_fingerprint(system[0].text)


def text_fingerprint(text: str) -> str:
    """A short, stable hash of `text`: the first 12 hex digits of its SHA-256."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def legacy_fingerprint(tools: Sequence[BaseTool]) -> str:
    """The legacy agent's prompt with `tools` as `create_react_agent` fills it (no question yet)."""
    text = LEGACY_REACT_PROMPT.format(
        tools=render_text_description(list(tools)),
        tool_names=", ".join(tool.name for tool in tools),
        input="",
        agent_scratchpad="",
    )
    return text_fingerprint(text)


def tool_calling_fingerprint(tools: Sequence[BaseTool]) -> str:
    """`create_agent`'s system prompt and the tools' schemas as sent for native tool calls."""
    schemas = [convert_to_openai_tool(tool) for tool in tools]
    text = json.dumps(schemas, ensure_ascii=False, sort_keys=True)
    return text_fingerprint(f"{CREATE_AGENT_SYSTEM_PROMPT}\n\0{text}")


BASELINES: dict[str, Callable[[Sequence[BaseTool]], str]] = {
    "legacy": legacy_fingerprint,
    "create_agent": tool_calling_fingerprint,
}
"""LangChain's agents, by their name in the harness, and what their model reads first."""


def reads_our_prompt(agent: str) -> bool:
    """Whether `agent` reads our system prompt (every agent but LangChain's two)."""
    return agent not in BASELINES


def agent_fingerprint(agent: str, tools: Sequence[BaseTool], language: str) -> str:
    """The fingerprint of what `agent`'s model reads first with `tools` in a `language` run.

    Args:
        agent: The agent's name in the harness ("custom", "legacy", an experiment's condition).
        tools: The tools it gets, as it gets them (the legacy agent's one-string tools, say).
        language: "en" or "zh": the prompt our agents read (LangChain's read the same in both).
    """
    if baseline := BASELINES.get(agent):
        return baseline(tools)
    return format_fingerprint(agent if agent in FORMAT_NAMES else "text", tools, language)


def format_fingerprint(name: str, tools: Sequence[BaseTool], language: str) -> str:
    """What the step format `name`'s model reads first: its template and examples with `tools`.

    For the text format that is `prompt_fingerprint`, the same hash.
    """
    prompt = get_format(name).build_prompt(tools, language=language, examples=True)
    return text_fingerprint(prompt.format_messages(input="")[0].text)


def fingerprint_with(tools: Sequence[BaseTool]) -> Fingerprint:
    """`agent_fingerprint` with `tools`, as (agent, language) -> fingerprint, each made once."""

    @cache
    def fingerprint(agent: str, language: str) -> str:
        return agent_fingerprint(agent, tools, language)

    return fingerprint


def agent_fingerprints(reads: Iterable[tuple[str, str]], fingerprint: Fingerprint) -> Fingerprints:
    """`{agent: {language: fingerprint(agent, language)}}` for each (agent, language) runs read.

    Agents keep the order they first appear in; each agent's languages are sorted.
    """
    pairs = list(dict.fromkeys(reads))
    found: Fingerprints = {agent: {} for agent, _ in pairs}
    for agent, language in sorted(pairs, key=lambda pair: pair[1]):
        found[agent][language] = fingerprint(agent, language)
    return found


def shown_fingerprints(fingerprints: Fingerprints) -> str:
    """A saved result's fingerprints on one line: `custom (en 1a2b…, zh 3c4d…), legacy (en …)`."""
    return ", ".join(
        f"{agent} (" + ", ".join(f"{language} {value}" for language, value in read.items()) + ")"
        for agent, read in fingerprints.items()
    )


def is_fingerprints(recorded: object) -> TypeGuard[Fingerprints]:
    """Whether `recorded` has the shape `agent_fingerprints` gives: agent -> "en"/"zh" -> str."""
    return (
        isinstance(recorded, dict)
        and bool(recorded)
        and all(
            isinstance(read, dict)
            and bool(read)
            and all(
                language in LANGUAGES and isinstance(value, str) for language, value in read.items()
            )
            for read in recorded.values()
        )
    )


def changed_fingerprints(
    recorded: Fingerprints, current: Fingerprint
) -> list[tuple[str, str, str, str]]:
    """(agent, language, recorded, current) for each recorded fingerprint not `current`'s now."""
    return [
        (agent, language, value, now)
        for agent, read in recorded.items()
        for language, value in read.items()
        if value != (now := current(agent, language))
    ]
