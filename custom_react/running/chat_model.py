"""The chat model an agent is given: a model, any Runnable over one, or a "provider:model" string.

`chat_model("openai:gpt-4o-mini")` makes the model with LangChain's `init_chat_model` (from the
`langchain` package, the `legacy` extra), imported here only when a string is given: building or
running an agent from a model object never loads `langchain` (the import contract in
`pyproject.toml` lets this one import through; `tests/core/test_model_strings.py` checks it at
run time). A missing package or key fails when the agent is built, saying what to install or set.
A model wrapped by LangChain (`with_retry`, `with_fallbacks`, `bind`, `configurable_fields`,
`with_config`) is taken as it is: the loop calls it as it would call the model.
"""

from __future__ import annotations

from typing import Any, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import Runnable

LLM_TAKES = "a chat model, a Runnable over one (with_retry, bind...) or a 'provider:model' string"


def chat_model(llm: object) -> BaseChatModel:
    """The model the agent calls for `llm`: `llm` itself, or the one its string names.

    A Runnable over a chat model is returned as it is (typed as the model it wraps: it is
    called the same way, `invoke`, `stream`, `bind`), and so is any object with an `invoke`
    (a hand-written wrapper serves plain `invoke`).

    Raises:
        TypeError: `llm` is not a chat model, a Runnable, an object with `invoke`, or a string.
        ImportError: The string's provider (or `langchain`) is not installed: what to install.
        ValueError: `init_chat_model` cannot make it: an unknown provider, a missing key.
    """
    if isinstance(llm, str):
        return from_string(llm)
    if not isinstance(llm, Runnable) and not callable(getattr(llm, "invoke", None)):
        raise TypeError(f"llm takes {LLM_TAKES}, not {llm!r} ({type(llm).__name__}).")
    return cast(BaseChatModel, llm)


def from_string(name: str) -> BaseChatModel:
    """The chat model `init_chat_model(name)` makes ("openai:gpt-4o-mini", "gpt-4o-mini").

    Raises:
        ImportError: `langchain` or the provider's package is missing (which one, and the fix).
        ValueError: No such provider, or the provider refused (a missing API key, say).
    """
    try:
        from langchain.chat_models import init_chat_model
    except ImportError as error:
        raise ImportError(
            f"llm={name!r} is made with init_chat_model from the `langchain` package: "
            "pip install 'custom-react[legacy]' (or pass a chat model object)."
        ) from error
    try:
        model: Any = init_chat_model(name)
    except ImportError as error:  # the provider's own package (langchain-anthropic, ...)
        raise ImportError(f"llm={name!r}: {error}") from error
    except Exception as error:  # an unknown provider, a missing key: the provider's own words
        raise ValueError(
            f"llm={name!r} could not be made into a chat model: {error}\n"
            "Write 'provider:model' (such as 'openai:gpt-4o-mini') with the provider's package "
            "installed and its API key set, or pass a chat model object."
        ) from error
    return cast(BaseChatModel, model)
