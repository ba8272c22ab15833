"""What tool a name as written means: the one place a written name becomes the name meant.

`clean_tool_name` takes off what models put around a name (markdown, quotes, an escaped
underscore, a gloss in brackets, trailing punctuation) and gives "" for a word that names no tool
(`None`, `N/A`, `No tool needed`, `无需工具`), which `names_no_tool` asks; `is_final_answer_name`
says whether a name is the final answer's (`Final Answer`, `final_answer`, the paper's `Finish`).
Every format's reader, the marker scan and `toolbox.resolve_tool` call these. Pure, linear time.
"""

from __future__ import annotations

import re

_FINAL_NAMES = frozenset({"finalanswer", "finish", "最终答案"})
_SEPARATORS = re.compile(r"[\s_\-]++")
# What follows a name to explain it, as a tool list writes it: `add (adds two numbers)`,
# `search(query) - Search the web`, `search — ...`.
_GLOSS = re.compile(r"\s*+[(（]|\s[-–—]\s")
_NAME_NOISE = " \t\n*`'\"<>[](){}（）.,:;!?。，：；！？"
# `Action: None`, `N/A`, `No tool needed`, `无需工具`: the model named no tool.
_NO_TOOL = re.compile(
    r"none|n/?a|null|nothing|no(?: (?:tool|action)s?)?(?: (?:is )?(?:needed|required|necessary))?"
    r"|无|不需要(?:使用)?(?:工具)?|无需(?:使用)?(?:工具)?",
    re.IGNORECASE,
)
# `web\_search`: markdown's escape of an underscore (a run of backslashes is tried once)
_ESCAPED_UNDERSCORE = re.compile(r"(?<!\\)\\++_")


def clean_tool_name(written: str) -> str:
    """The tool name the model meant, its case kept.

    `**current\\_date**` -> `current_date`, `` `search` `` -> `search`, `add (adds two numbers)`
    -> `add`, `search(query) - Search the web` -> `search`, `search.` -> `search`; a word that
    names no tool (`None`, `N/A (no tool needed)`) -> "", so the reply is refused as one with no
    tool name (or its answer after it is the step).
    """
    name = unescaped(written.strip())
    if (gloss := _GLOSS.search(name, 1)) is not None:
        name = name[: gloss.start()]
    name = name.strip(_NAME_NOISE)
    return "" if _NO_TOOL.fullmatch(name) else name


def names_no_tool(written: object) -> bool:
    """Whether an action as written names no tool: null, "", `None`, `N/A`, `No tool needed`."""
    return written is None or (isinstance(written, str) and not clean_tool_name(written))


def is_final_answer_name(name: str) -> bool:
    """Whether a tool name reads as the Final Answer (`finish`, `final_answer`, `最终答案`, ...)."""
    return squeezed(name) in _FINAL_NAMES


def squeezed(word: str) -> str:
    """A name or key in lower case without spaces, underscores or hyphens (`Action Input`)."""
    return _SEPARATORS.sub("", word.lower())


def is_escaped(text: str) -> bool:
    """Whether `text` escapes an underscore the markdown way (`web\\_search`)."""
    return _ESCAPED_UNDERSCORE.search(text) is not None


def unescaped(text: str) -> str:
    """`text` with markdown's escaped underscores (`\\_`) as plain ones."""
    return _ESCAPED_UNDERSCORE.sub("_", text)
