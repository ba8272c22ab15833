"""The ReAct prompt templates and the loop's messages to the model, kept as data files here.

`load_template("react", "zh")` reads `react_zh.txt`; `load_template("examples", "en")` reads
the worked few-shot example. The English and Chinese templates share the same `{placeholders}`
and the same ASCII markers (`Thought:`, `Action:`, ...), so one parser reads replies to either.
`load_messages("zh")` reads `messages_zh.toml`: what the loop writes to the model between its
replies (an answer sent back, say), in the run's language. This module only reads files;
building the chat prompt lives in `custom_react.prompt`.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib.resources import files
from typing import Any

LANGUAGES = ("en", "zh")
"""The languages of every template and message table (and of every label table beside them)."""


def check_language(language: str) -> str:
    """Return `language` if it is supported: the one place that decides it.

    Raises:
        ValueError: Any language but "en" and "zh", naming those.
    """
    if language not in LANGUAGES:
        raise ValueError(f"Unsupported language {language!r}; choose one of {list(LANGUAGES)}.")
    return language


def load_template(name: str, language: str = "en") -> str:
    """Return the text of template `name` in `language` ("en" or "zh").

    Raises:
        ValueError: The language is not supported or no such template exists.
    """
    check_language(language)
    resource = files(__name__) / f"{name}_{language}.txt"
    if not resource.is_file():
        raise ValueError(f"No prompt template {name!r} for language {language!r}.")
    return resource.read_text(encoding="utf-8")


def message(key: str, language: str = "en", **values: Any) -> str:
    """The loop's message `key` to the model in `language`, its `{placeholders}` filled."""
    return load_messages(language)[key].format(**values)


@cache
def load_messages(language: str = "en") -> dict[str, str]:
    """The loop's messages to the model in `language`, by key, each with its `{placeholders}`.

    Raises:
        ValueError: The language is not supported.
    """
    check_language(language)
    resource = files(__name__) / f"messages_{language}.toml"
    return tomllib.loads(resource.read_text(encoding="utf-8"))
