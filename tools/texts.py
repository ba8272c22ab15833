"""The shipped tools' words for the model, in the run's language, read from the loop's message tables.

Each tool's description is kept in every prompt language (`custom_react/prompts/messages_*.toml`,
the `tool_*` keys): `descriptions` gives them for the tool's `metadata["descriptions"]`, and the
prompt shows the one in its own language (`custom_react.prompt.in_language`); the English one is
the tool's `description` as well. What a tool writes around its result (a search result's label,
"nothing found") follows the language of the run that called it (`run_language` reads it from the
call's config), else the language of its input: a tool called outside the agent (by
`create_agent`, or directly) writes Chinese around a Chinese query. Nothing here calls a tool.
"""

from langchain_core.runnables import RunnableConfig

from custom_react.prompt import DESCRIPTIONS
from custom_react.prompts import LANGUAGES, load_messages
from custom_react.running.context import run_language
from tools.snapshot_search import has_chinese


def descriptions(key: str) -> dict[str, dict[str, str]]:
    """A shipped tool's `metadata` entry: its description (message `key`) in every language."""
    return {DESCRIPTIONS: {language: load_messages(language)[key] for language in LANGUAGES}}


def description(key: str) -> str:
    """A shipped tool's own `description`: the English one."""
    return load_messages("en")[key]


def language_of(config: RunnableConfig | None, text: str) -> str:
    """The language a tool writes in: the calling run's, else "zh" for Chinese `text`, else "en"."""
    return run_language(config) or ("zh" if has_chinese(text) else "en")
