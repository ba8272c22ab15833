"""A Chinese run reads its tools in Chinese: their descriptions and the words around their results.

The shipped tools keep a description per language (`metadata["descriptions"]`, from the message
tables), and the prompt shows the one in its own language, whatever the format; any tool can do
the same. The run's language reaches a tool that takes `config`, so the offline search labels its
results, its "nothing found" and its later-year note in it, whatever language the query is in;
called outside a run, the search follows the query's language.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

import pytest
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, tool

from custom_react import CustomReActAgent
from custom_react.events import ObservationEvent
from custom_react.plan.prompt import PLANNER_VARIABLES, build_plan_prompt
from custom_react.prompt import DESCRIPTIONS, build_react_prompt, in_language
from custom_react.prompts import load_template, message
from custom_react.running.context import LANGUAGE_KEY, run_language
from custom_react.testing import Script
from tools import default_tools, make_search_tool
from tools.search import SearchError

CJK = re.compile(r"[\u4e00-\u9fff]")
MakeScript = Callable[..., Script]


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search tool is the offline snapshot's."""
    monkeypatch.delenv("TAVILY_API_KEY", raising=False)


def shipped_tools() -> list[BaseTool]:
    """Every shipped tool the model may be shown: the defaults and the web search."""
    return [*default_tools(), make_search_tool(tavily_api_key="unused")]


@pytest.mark.parametrize("shipped", shipped_tools(), ids=lambda t: t.description[:12])
def test_every_shipped_tool_is_described_in_every_language(shipped: BaseTool) -> None:
    descriptions = shipped.metadata[DESCRIPTIONS]
    assert descriptions["en"] == shipped.description and not CJK.search(descriptions["en"])
    assert CJK.search(descriptions["zh"])


@pytest.mark.parametrize("format", ["text", "json", "xml"])
def test_a_chinese_run_shows_the_tool_list_in_chinese(script: MakeScript, format: str) -> None:
    model = script("Final Answer: 1")
    CustomReActAgent(model.model, default_tools(), language="zh", format=format).invoke("几点？")
    system = model.prompts[0][0].text
    for shipped in default_tools():
        assert shipped.metadata[DESCRIPTIONS]["zh"] in system
        assert shipped.description not in system


def test_an_english_prompt_keeps_the_english_descriptions() -> None:
    system = build_react_prompt(default_tools(), language="en").format_messages(input="x")[0].text
    assert not CJK.search(system)


def test_any_tool_may_bring_its_own_translation_and_is_not_changed() -> None:
    @tool
    def lookup(query: str) -> str:
        """Look a fact up."""
        return query

    @tool
    def plain(query: str) -> str:
        """A tool with one description."""
        return query

    lookup.metadata = {DESCRIPTIONS: {"zh": "查一个事实。"}}
    shown = in_language([lookup, plain], "zh")
    assert [t.description for t in shown] == ["查一个事实。", "A tool with one description."]
    assert shown[1] is plain and lookup.description == "Look a fact up."
    assert in_language([lookup], "en")[0] is lookup


def observations(script: MakeScript, language: str, query: str) -> str:
    """The observation a run in `language` gets for a search with `query`."""
    model = script(f"Thought: 查\nAction: search\nAction Input: {query}", "Final Answer: 1")
    agent = CustomReActAgent(model.model, default_tools(), language=language)
    events = list(agent.stream("玫瑰？" if language == "zh" else "Roses?"))
    return next(e.step.observation for e in events if isinstance(e, ObservationEvent))


def test_a_chinese_run_labels_search_results_in_chinese(script: MakeScript) -> None:
    observation = observations(script, "zh", "rose wholesale price Kunming")
    lines = observation.splitlines()
    assert lines and all(line.startswith("[离线快照，2025-") for line in lines)
    assert all(line.endswith("）") and "（来源：" in line for line in lines)


def test_an_english_run_labels_them_in_english(script: MakeScript) -> None:
    observation = observations(script, "en", "玫瑰 批发价")
    assert all(line.startswith("[offline snapshot, 2025-") for line in observation.splitlines())


def test_a_chinese_run_says_nothing_was_found_in_chinese(script: MakeScript) -> None:
    expected = message("search_no_match", "zh", query="qqqq zzzz")
    assert observations(script, "zh", "qqqq zzzz") == expected


def test_a_chinese_run_gets_the_later_year_note_in_chinese(script: MakeScript) -> None:
    observation = observations(script, "zh", "gold price 2026")
    assert observation.startswith("离线快照中没有找到 2026 年的信息")


@tool
def which_language(text: str, config: RunnableConfig) -> str:
    """Say the calling run's language."""
    return str(run_language(config))


@pytest.mark.parametrize("call", ["invoke", "stream", "ainvoke"])
def test_the_run_language_reaches_a_tool_that_takes_config(script: MakeScript, call: str) -> None:
    model = script("Action: which_language\nAction Input: x", "Final Answer: 1")
    agent = CustomReActAgent(model.model, [which_language], language="zh")
    if call == "stream":
        list(agent.stream("?"))
    else:
        asyncio.run(agent.ainvoke("?")) if call == "ainvoke" else agent.invoke("?")
    assert "Observation: zh" in model.prompts[1][-1].text


def test_outside_a_run_the_search_follows_its_query() -> None:
    search = make_search_tool()
    assert search.invoke("玫瑰 批发价").startswith("[离线快照，")
    assert search.invoke("rose wholesale price").startswith("[offline snapshot, ")
    zh: RunnableConfig = {"configurable": {LANGUAGE_KEY: "zh"}}
    assert search.invoke({"query": "rose wholesale price"}, zh).startswith("[离线快照，")
    with pytest.raises(SearchError, match="搜索词是空的"):
        search.invoke({"query": "  "}, zh)


def test_a_chinese_planner_reads_the_tool_list_in_chinese() -> None:
    template = load_template("planner", "zh")
    prompt = build_plan_prompt(template, PLANNER_VARIABLES, default_tools(), language="zh")
    text = prompt.format_messages(input="玫瑰？")[-1].text
    assert all(t.metadata[DESCRIPTIONS]["zh"] in text for t in default_tools())
