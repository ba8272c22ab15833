"""The `search` tool: live web search through Tavily, or the offline snapshot when there is no key.

`make_search_tool` picks the backend once, when it is called: `langchain_tavily.TavilySearch` if a
Tavily key is passed or `TAVILY_API_KEY` is set, otherwise BM25 over the bundled snapshot
(`tools.snapshot_search`), with one log record saying so. Either way the tool is named `search`, takes
one string `query`, returns short text for the prompt, and raises `SearchError` (a `ValueError`) with a
message for the model when the search itself fails, like the calculator. `search_backend` tells
callers which backend a tool uses. Importing this module reads no environment and opens no connection.

The offline snapshot ends in mid-2025. A query naming a later year (`gold price 2026`) still gets the
closest results, but under a note that the snapshot has nothing from that year: small models
otherwise report a 2025 price as the 2026 one. The tool's description, each result's label and its
notes are in the calling run's language (`tools.texts`: the message tables' `search_*` keys).
"""

import logging
import os
from collections.abc import Mapping
from typing import Any, Literal, cast

from langchain_core.runnables import ensure_config
from langchain_core.tools import BaseTool, StructuredTool, ToolException
from langchain_tavily import TavilySearch

from custom_react.prompts import load_messages, message
from custom_react.running.tool_output import MIN_TRUNCATED, truncate
from tools.snapshot_search import default_index, format_document
from tools.texts import description, descriptions, language_of

SearchBackend = Literal["tavily", "offline"]

logger = logging.getLogger(__name__)

_BACKEND_KEY = "search_backend"


class SearchError(ValueError, ToolException):
    """The search could not run (bad key, network or API failure, empty query); meant for the model.

    Also a `ToolException`, so `handle_tool_error=True` turns it into an observation.
    """


def make_search_tool(
    *, tavily_api_key: str | None = None, max_results: int = 3, max_chars: int = 1500
) -> BaseTool:
    """Build the `search` tool with the backend the environment allows.

    Args:
        tavily_api_key: A Tavily key. When `None`, `TAVILY_API_KEY` from the environment is used if set
            and non-empty; with neither, the tool searches the offline snapshot. An empty string
            selects the offline snapshot whatever the environment says.
        max_results: How many results to return (Tavily results or snapshot documents).
        max_chars: The longest observation returned; longer text ends with a "…[truncated N characters]" marker.

    Returns:
        A tool named `search` with one string argument `query`. Its `metadata["search_backend"]` is
        "tavily" or "offline" (read it with `search_backend`).

    Raises:
        ValueError: If `max_results` is below 1 or `max_chars` is too small to hold the marker.
    """
    if max_results < 1:
        raise ValueError(f"max_results must be at least 1, got {max_results}")
    if max_chars < MIN_TRUNCATED:
        raise ValueError(f"max_chars must be at least {MIN_TRUNCATED}, got {max_chars}")
    api_key = tavily_api_key if tavily_api_key is not None else os.environ.get("TAVILY_API_KEY")
    if api_key:
        return _make_tavily_tool(api_key, max_results=max_results, max_chars=max_chars)
    index = default_index()
    dates = sorted(document.date for document in index.documents)
    logger.info(
        "No Tavily API key (TAVILY_API_KEY): the search tool uses the offline snapshot of %d "
        "documents dated %s to %s, not the live web.",
        len(index.documents),
        dates[0],
        dates[-1],
    )
    return _make_offline_tool(max_results=max_results, max_chars=max_chars)


def search_backend(tool: BaseTool) -> SearchBackend:
    """Tell which backend a tool built by `make_search_tool` uses: "tavily" or "offline".

    Raises:
        ValueError: If `tool` was not built by `make_search_tool`.
    """
    backend = (tool.metadata or {}).get(_BACKEND_KEY)
    if backend not in ("tavily", "offline"):
        raise ValueError(f"tool {tool.name!r} was not built by make_search_tool")
    return cast(SearchBackend, backend)


def condense_tavily_results(response: Mapping[str, Any], *, max_chars: int) -> str:
    """Turn a Tavily search response into short text for the model.

    The text is the answer (if any), then per result "title — url" and its content on the next
    line, blocks separated by a blank line, truncated to `max_chars` with a visible marker.
    """
    blocks: list[str] = []
    if answer := str(response.get("answer") or "").strip():
        blocks.append(f"Answer: {answer}")
    for result in response.get("results") or []:
        title = " ".join(str(result.get("title") or "(untitled)").split())
        url = str(result.get("url") or "").strip()
        content = " ".join(str(result.get("content") or "").split())
        blocks.append(f"{title} — {url}\n{content}" if url else f"{title}\n{content}")
    return truncate("\n\n".join(blocks), max_chars)


def _make_tavily_tool(api_key: str, *, max_results: int, max_chars: int) -> BaseTool:
    """Wrap `TavilySearch` in a one-argument tool that returns condensed text."""
    # handle_tool_error=False: "no results" comes back as a ToolException we answer in our own words.
    tavily = TavilySearch(tavily_api_key=api_key, max_results=max_results, handle_tool_error=False)

    def search(query: str) -> str:
        """Search the web with Tavily and return condensed results; raise `SearchError` on failure."""
        language = language_of(ensure_config(), query)  # the calling run's config
        query = _clean_query(query, language)
        try:
            response = tavily.invoke({"query": query})
        except ToolException:  # TavilySearch raises this when nothing was found
            return message("search_no_web_results", language, query=query)
        if not isinstance(response, Mapping):
            raise SearchError(f"Web search returned an unexpected reply: {str(response)[:200]}")
        if "error" in response:  # TavilySearch turns API and network failures into {"error": ...}
            raise SearchError(f"Web search failed: {response['error']}. Nothing was found.")
        return condense_tavily_results(response, max_chars=max_chars)

    return StructuredTool.from_function(
        search,
        name="search",
        description=description("tool_search_web"),
        metadata={_BACKEND_KEY: "tavily", **descriptions("tool_search_web")},
    )


def _make_offline_tool(*, max_results: int, max_chars: int) -> BaseTool:
    """Build the snapshot-backed tool; each result line names the snapshot and its date.

    A query about a year after the newest document gets a note before the results, so a result
    for an earlier year is not read as the answer; not when the best result speaks of that year.
    """
    index = default_index()

    def search(query: str) -> str:
        """Rank snapshot documents for `query` and return the best as labelled lines."""
        language = language_of(ensure_config(), query)  # the calling run's config
        query = _clean_query(query, language)
        documents = index.search(query, k=max_results)
        if not documents:
            return message("search_no_match", language, query=query)
        results = "\n".join(format_document(doc, language) for doc in documents)
        best = f"{documents[0].title} {documents[0].content}"
        if later := [y for y in index.years_after_snapshot(query) if y not in best]:
            # A result for an earlier year is not an answer about a later one: say so first
            # (unless the best result speaks of that year: a decision made earlier, a host city).
            year = ("、" if language == "zh" else " or ").join(later)
            note = message("search_later_year", language, year=year, last=index.last_date)
            results = note + "\n" + results
        return truncate(results, max_chars, load_messages(language)["truncated"])

    return StructuredTool.from_function(
        search,
        name="search",
        description=description("tool_search_offline"),
        metadata={_BACKEND_KEY: "offline", **descriptions("tool_search_offline")},
    )


def _clean_query(query: str, language: str = "en") -> str:
    """Strip whitespace and surrounding quotes; refuse an empty query."""
    cleaned = query.strip().strip("\"'`").strip()
    if not cleaned:
        raise SearchError(message("search_empty_query", language))
    return cleaned
