"""Save a run as a transcript: Markdown, a self-contained HTML page, or a Mermaid diagram.

`save_transcript(path, question, events)` picks the renderer from the file's suffix (`SUFFIXES`).
The renderers (`markdown`, `html`, `mermaid`) all draw the same labelled blocks (`blocks`).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from custom_react.events import (
    AgentEvent,
)
from custom_react.export.html import to_html
from custom_react.export.markdown import to_markdown
from custom_react.export.mermaid import to_mermaid
from custom_react.running.prompt_log import ModelCall

SUFFIXES = {".md": "markdown", ".markdown": "markdown", ".html": "html", ".htm": "html"}
SUFFIXES |= {".mmd": "mermaid", ".mermaid": "mermaid"}


def save_transcript(
    path: str | Path,
    question: str,
    events: Iterable[AgentEvent | ModelCall],
    language: str = "en",
) -> Path:
    """Write the run to `path`, in the format its suffix names (.md, .html or .mmd).

    Args:
        path: The file to write (parent folders are created).
        question: The question the agent was asked.
        events: The run's step events, e.g. `list(agent.stream(question))`; with the
            `ModelCall`s of a `PromptLog` among them, every prompt and raw reply too.
        language: "en" or "zh" labels.

    Returns:
        The path written.

    Raises:
        ValueError: An unknown suffix or language.
    """
    target = Path(path)
    kind = SUFFIXES.get(target.suffix.lower())
    if kind is None:
        raise ValueError(f"Cannot save {target.name!r}: use one of {', '.join(SUFFIXES)}.")
    render = {"markdown": to_markdown, "html": to_html, "mermaid": to_mermaid}[kind]
    text = render(question, list(events), language)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return target
