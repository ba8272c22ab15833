"""The model an agent takes: a "provider:model" string (`init_chat_model`), or any Runnable model.

No network and no key here: a string's model is built and its type checked, never called; the
errors for an unknown provider, a missing key or a missing package say what to do. Wrapped models
run on scripted replies in `invoke`, `ainvoke` and `stream`.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from langchain_core.runnables import ConfigurableField, RunnableLambda
from langchain_core.tools import tool

from custom_react import CustomReActAgent
from tests.conftest import ROOT, run_by


def test_a_provider_model_string_becomes_that_chat_model(monkeypatch: pytest.MonkeyPatch) -> None:
    from langchain_openai import ChatOpenAI

    monkeypatch.setenv("OPENAI_API_KEY", "sk-not-a-real-key")
    agent = CustomReActAgent("openai:gpt-4o-mini", [])
    assert isinstance(agent.llm, ChatOpenAI) and agent.llm.model_name == "gpt-4o-mini"


def test_an_unknown_provider_is_refused_when_built_saying_what_to_write() -> None:
    with pytest.raises(ValueError, match="llm='nowhere:model' could not be made") as raised:
        CustomReActAgent("nowhere:model", [])
    assert "'provider:model'" in str(raised.value) and "Supported providers" in str(raised.value)


def test_a_missing_key_is_refused_when_built_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for variable in ("OPENAI_API_KEY", "OPENAI_ADMIN_KEY"):
        monkeypatch.delenv(variable, raising=False)
    with pytest.raises(ValueError, match="llm='openai:gpt-4o-mini'") as raised:
        CustomReActAgent("openai:gpt-4o-mini", [])
    assert "OPENAI_API_KEY" in str(raised.value)


def test_a_missing_provider_package_says_what_to_install() -> None:
    pytest.importorskip("langchain")
    try:
        import langchain_anthropic  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("langchain-anthropic is installed here")
    with pytest.raises(ImportError, match="pip install langchain-anthropic"):
        CustomReActAgent("anthropic:claude-3-5-haiku-latest", [])


@pytest.mark.parametrize("llm", [42, None, object()])
def test_what_is_not_a_model_is_refused_when_built(llm: Any) -> None:
    with pytest.raises(TypeError, match="llm takes a chat model, a Runnable over one"):
        CustomReActAgent(llm, [])


@tool
def calculator(expression: str) -> str:
    """Evaluate arithmetic."""
    return "4"


WRAPS = {
    "with_retry": lambda model: model.with_retry(stop_after_attempt=2),
    "with_fallbacks": lambda model: model.with_fallbacks([model]),
    "bind": lambda model: model.bind(temperature=0),
    "configurable_fields": lambda model: model.configurable_fields(
        chunk_size=ConfigurableField(id="chunk_size")
    ),
}


@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream"])
@pytest.mark.parametrize("wrap", list(WRAPS))
def test_any_runnable_chat_model_runs_every_way(script: Any, wrap: str, way: str) -> None:
    model = script(
        "Action: calculator\nAction Input: 2 + 2",
        "Final Answer: 4",
        metadata={"context_window": 8000},
    )
    agent = CustomReActAgent(WRAPS[wrap](model.model), [calculator], verbose=way == "stream")
    assert agent.budget is not None  # the wrapped model's context window is read through it
    result, _ = run_by(agent, way, "2 + 2?")
    assert result["output"] == "4" and result["intermediate_steps"][0][1] == "4"


def test_a_model_object_loads_no_langchain_and_a_string_loads_it_only_then() -> None:
    code = """
import sys
from custom_react import CustomReActAgent
from custom_react.testing import Script
CustomReActAgent(Script("Final Answer: 4").model, []).invoke("2 + 2?")
print(any(name == "langchain" or name.startswith("langchain.") for name in sys.modules))
import os
os.environ["OPENAI_API_KEY"] = "sk-not-a-real-key"
CustomReActAgent("openai:gpt-4o-mini", [])
print("langchain.chat_models" in sys.modules)
"""
    ran = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert ran.stdout.split() == ["False", "True"]


@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream"])
@pytest.mark.parametrize("wrap", ["plain", "with_retry", "stop=None"])
def test_a_plain_function_as_the_model_gets_no_stop_it_cannot_take(wrap: str, way: str) -> None:
    replies = iter(["Action: calculator\nAction Input: 2 + 2", "Final Answer: 4"])
    seen: list[Any] = []

    def answer(messages: Any) -> str:
        seen.append(messages)
        return next(replies)

    model: Any = RunnableLambda(answer)
    model = model.with_retry() if wrap == "with_retry" else model
    options = {"stop": None} if wrap == "stop=None" else {}
    result, _ = run_by(CustomReActAgent(model, [calculator], **options), way, "2 + 2?")
    assert result["output"] == "4" and len(seen) == 2


@pytest.mark.parametrize("way", ["invoke", "stream"])
def test_a_stop_bound_to_the_model_is_kept_beside_the_format_s(script, tools, way: str) -> None:
    model = script("Thought: add\nAction: calculator\nAction Input: 2 + 2", "Final Answer: 4")
    agent = CustomReActAgent(model.model.bind(stop=["\nUser:"]), tools)
    result, _ = run_by(agent, way, "2 + 2?")
    assert result["output"] == "4"
    assert model.stops == [["\nObservation:", "\nUser:"]] * 2
