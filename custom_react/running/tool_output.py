"""What a tool returned, as the text the model reads: its content as text, cut with a marker.

`observation_text` turns whatever a tool returns into the Observation's text (a message's
content, MCP's content blocks, a `Command`'s messages, JSON); `truncate` is the project's one cut of a long text, with a
visible marker saying how much went, used by the agent's `max_observation_chars` and by the
bundled tools' output limits alike, so the model learns one marker.
"""

from __future__ import annotations

import json
import warnings
from typing import Any

from custom_react.prompts import load_messages, message

MIN_TRUNCATED = 40
"""The smallest `max_chars` that `truncate` accepts: room for the marker and some text."""


def observation_text(result: Any, language: str = "en") -> str:
    """A tool's result as the text the model reads.

    A string as it is; a message's content; a list of content blocks (what MCP tools return) as
    their text, one per line, with a placeholder for an image, audio or file; other values as
    JSON when they can be written so.
    """
    if type(result).__name__ == "Command" and isinstance(getattr(result, "update", None), dict):
        return _command_text(result.update, language)  # LangGraph's Command, made for a graph
    content = getattr(result, "content", result)
    if isinstance(content, str):
        return content
    if isinstance(content, list) and all(isinstance(block, str | dict) for block in content):
        return "\n".join(_block_text(block, language) for block in content)
    try:
        return json.dumps(content, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(content)


def _command_text(update: dict[str, Any], language: str) -> str:
    """A `Command`'s messages as the Observation.

    The rest of its update has no graph state to go to, and a warning says so.
    """
    if rest := sorted(str(key) for key in update if key != "messages"):
        warnings.warn(
            f"A tool returned a Command updating {', '.join(rest)}: the agent has no graph state, "
            "so only the Command's messages reach the model (use the tool in create_agent).",
            stacklevel=2,
        )
    messages = update.get("messages") or []
    shown = [observation_text(m, language) for m in messages if hasattr(m, "content")]
    return "\n".join(shown) or json.dumps(update, ensure_ascii=False, default=str)


def _block_text(block: str | dict[str, Any], language: str) -> str:
    if isinstance(block, str):
        return block
    kind = block.get("type")
    if kind == "text":
        return str(block.get("text", ""))
    if kind in ("image", "image_url", "audio", "file"):
        mime = block.get("mime_type") or block.get("mimeType") or kind
        return message("content_not_shown", language, kind=kind, mime=mime)
    return json.dumps(block, ensure_ascii=False, default=str)


def truncate(text: str, max_chars: int | None, marker: str = "") -> str:
    """Cut `text` to at most `max_chars` characters, ending with a marker saying how many went.

    The one truncation of the project: the agent's `max_observation_chars` and the bundled
    tools' output limits both use it, so the model learns one marker (`marker`, with `{count}`:
    the run's language's for the agent; the English one from the message table by default).

    Raises:
        ValueError: `max_chars` is below `MIN_TRUNCATED`, too short to hold the marker.
    """
    if max_chars is None or len(text) <= max_chars:
        return text
    if max_chars < MIN_TRUNCATED:
        raise ValueError(f"max_chars must be at least {MIN_TRUNCATED}, got {max_chars}")
    marker = marker or load_messages("en")["truncated"]
    room = max_chars - len(marker.format(count=len(text)))
    kept = text[:room].rstrip()
    return kept + marker.format(count=len(text) - len(kept))
