"""Search: backend selection, and the Tavily path with a recorded response injected below TavilySearch.

The recorded response follows Tavily's documented search JSON (query, answer, images, results with
title/url/content/score/raw_content, response_time). It replaces `raw_results` on the API wrapper
class that `TavilySearch` sends its requests through, so the tool's own code runs; a guard makes
any real HTTP request fail the test.
"""

import copy
import logging
import re
from typing import Any

import pytest
import requests
from langchain_core.tools import tool
from langchain_tavily import TavilySearch

from tools.search import SearchError, condense_tavily_results, make_search_tool, search_backend

# The API wrapper class, reached through the public tool: langchain_tavily does not export it.
TavilySearchAPIWrapper = type(TavilySearch(tavily_api_key="unused").api_wrapper)

RECORDED_RESPONSE: dict[str, Any] = {
    "query": "rose wholesale price Kunming",
    "follow_up_questions": None,
    "answer": "A standard red rose wholesales for about 1 yuan per stem in Kunming.",
    "images": [],
    "results": [
        {
            "title": "Dounan flower market prices",
            "url": "https://example.com/dounan",
            "content": "Red roses sold for about 1 yuan per stem\nat the Dounan market.",
            "score": 0.93,
            "raw_content": None,
        },
        {
            "title": "Valentine's Day rose prices  rise",
            "url": "https://example.com/valentine",
            "content": "Retail prices reached 15 yuan per stem in Shanghai. " * 20,
            "score": 0.71,
            "raw_content": None,
        },
    ],
    "response_time": 1.08,
}


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail any test that sends a real HTTP request."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the tests must not open network connections")

    monkeypatch.setattr(requests.Session, "request", refuse)


@pytest.fixture
def recorded_tavily(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Make every Tavily API call return RECORDED_RESPONSE; return the list of calls made."""
    calls: list[dict[str, Any]] = []

    def raw_results(self: TavilySearchAPIWrapper, query: str, **kwargs: Any) -> dict[str, Any]:
        calls.append({"query": query, "api_key": self.tavily_api_key.get_secret_value(), **kwargs})
        return copy.deepcopy(RECORDED_RESPONSE)

    monkeypatch.setattr(TavilySearchAPIWrapper, "raw_results", raw_results)
    return calls


def test_explicit_key_selects_tavily(recorded_tavily: list[dict[str, Any]]) -> None:
    """An explicit key builds the Tavily tool, which passes the key and `max_results` on."""
    search = make_search_tool(tavily_api_key="test-key", max_results=2)
    assert (search.name, list(search.args), search_backend(search)) == (
        "search",
        ["query"],
        "tavily",
    )
    search.invoke("rose wholesale price Kunming")
    assert recorded_tavily[0]["query"] == "rose wholesale price Kunming"
    assert recorded_tavily[0]["api_key"] == "test-key"
    assert recorded_tavily[0]["max_results"] == 2


def test_environment_key_selects_tavily(
    monkeypatch: pytest.MonkeyPatch, recorded_tavily: list[dict[str, Any]]
) -> None:
    """`TAVILY_API_KEY` selects Tavily; the quotes a model adds around a query are removed."""
    monkeypatch.setenv("TAVILY_API_KEY", "env-key")
    search = make_search_tool()
    assert search_backend(search) == "tavily"
    search.invoke('"rose price"')
    assert recorded_tavily == [
        {**recorded_tavily[0], "query": "rose price", "api_key": "env-key", "max_results": 3}
    ]


def test_tavily_results_are_condensed(recorded_tavily: list[dict[str, Any]]) -> None:
    """The answer, then each result's title, URL and one-line content, blank-line separated."""
    observation = make_search_tool(tavily_api_key="k", max_chars=5000).invoke("rose price")
    first, second, third = observation.split("\n\n")
    assert first == "Answer: A standard red rose wholesales for about 1 yuan per stem in Kunming."
    assert second == (
        "Dounan flower market prices — https://example.com/dounan\n"
        "Red roses sold for about 1 yuan per stem at the Dounan market."
    )
    assert third.startswith("Valentine's Day rose prices rise — https://example.com/valentine\n")
    assert "score" not in observation and "response_time" not in observation


@pytest.mark.parametrize("max_chars", [40, 150, 400, 1000])
def test_tavily_results_are_truncated_with_a_marker(
    max_chars: int, recorded_tavily: list[dict[str, Any]]
) -> None:
    """The observation fits `max_chars` and ends with the truncation marker."""
    observation = make_search_tool(tavily_api_key="k", max_chars=max_chars).invoke("rose price")
    assert len(observation) <= max_chars
    assert re.search(r"\n…\[truncated \d+ characters\]$", observation)
    assert observation.startswith("Answer: ")


def test_tavily_api_error_raises_a_readable_search_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Tavily API error becomes a `SearchError` quoting it."""

    def failing(self: TavilySearchAPIWrapper, query: str, **kwargs: Any) -> dict[str, Any]:
        raise ValueError("Error 401: Unauthorized: missing or invalid API key.")

    monkeypatch.setattr(TavilySearchAPIWrapper, "raw_results", failing)
    with pytest.raises(SearchError, match="Web search failed: Error 401: Unauthorized"):
        make_search_tool(tavily_api_key="bad-key").invoke("rose price")


def test_tavily_without_results_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """No results is an observation suggesting another query, not an error."""

    def empty(self: TavilySearchAPIWrapper, query: str, **kwargs: Any) -> dict[str, Any]:
        return {**RECORDED_RESPONSE, "answer": None, "results": []}

    monkeypatch.setattr(TavilySearchAPIWrapper, "raw_results", empty)
    observation = make_search_tool(tavily_api_key="k").invoke("qqqq zzzz")
    assert observation == "No web results for 'qqqq zzzz'. Try a shorter or different query."


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ({"results": []}, ""),
        ({"answer": "42", "results": []}, "Answer: 42"),
        ({"results": [{"title": "T", "url": "", "content": "c"}]}, "T\nc"),
        ({"results": [{"url": "https://u", "content": " a\n b "}]}, "(untitled) — https://u\na b"),
    ],
)
def test_condense_tavily_results(response: dict[str, Any], expected: str) -> None:
    """Missing parts are left out, a missing title is "(untitled)", and whitespace collapses."""
    assert condense_tavily_results(response, max_chars=100) == expected


@pytest.mark.parametrize("explicit_key", [None, ""])
def test_missing_key_selects_offline_search_and_logs_once(
    explicit_key: str | None, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """No key selects the offline snapshot, logged once per tool, not once per call."""
    monkeypatch.delenv("TAVILY_API_KEY", raising=False)
    caplog.set_level(logging.INFO, logger="tools.search")
    search = make_search_tool(tavily_api_key=explicit_key)
    search.invoke("rose price")
    search.invoke("gold price")
    assert search_backend(search) == "offline"
    records = [record for record in caplog.records if record.name == "tools.search"]
    assert len(records) == 1
    assert "offline snapshot" in records[0].getMessage()


def test_search_backend_rejects_other_tools() -> None:
    """`search_backend` refuses a tool that `make_search_tool` did not build."""

    @tool
    def other(query: str) -> str:
        """Not a search tool."""
        return query

    with pytest.raises(ValueError, match="not built by make_search_tool"):
        search_backend(other)


@pytest.mark.parametrize(("options"), [{"max_results": 0}, {"max_chars": 5}])
def test_factory_rejects_bad_limits(options: dict[str, int]) -> None:
    """A result count below one or a character limit below the marker is refused."""
    with pytest.raises(ValueError):
        make_search_tool(tavily_api_key="k", **options)


@pytest.mark.parametrize("query", ["", "   ", '""'])
def test_empty_query_is_refused(query: str, recorded_tavily: list[dict[str, Any]]) -> None:
    """An empty query raises `SearchError` without calling Tavily."""
    with pytest.raises(SearchError, match="empty"):
        make_search_tool(tavily_api_key="k").invoke(query)
    assert recorded_tavily == []
