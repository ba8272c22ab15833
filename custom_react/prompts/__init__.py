"""The ReAct prompt templates, kept as data files beside this module.

`load_template("react", "zh")` reads `react_zh.txt`; `load_template("examples", "en")` reads
the worked few-shot example. The English and Chinese templates share the same `{placeholders}` and
the same ASCII markers (`Thought:`, `Action:`, ...), so one parser reads replies to either. This module only
reads files; building the chat prompt lives in `custom_react.prompt`.
"""

from __future__ import annotations

from importlib.resources import files

from custom_react.labels import check_language


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
