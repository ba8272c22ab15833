"""Cutting long tool output down to size, with a marker the model can see.

This module holds one helper shared by the search and workspace tools. It does not decide how long an
observation may be (each tool factory takes its own limit) and it knows nothing about tokens.
"""

TRUNCATION_MARKER = "…[truncated]"


def truncate_text(text: str, max_chars: int) -> str:
    """Shorten `text` to at most `max_chars` characters, ending with a visible marker when cut.

    Args:
        text: The text to shorten.
        max_chars: The largest length allowed for the result, marker included. Must be greater than
            the marker's length.

    Returns:
        `text` unchanged when it fits; otherwise its beginning (trailing whitespace removed) followed by
        `TRUNCATION_MARKER`, `max_chars` characters or fewer in total.

    Raises:
        ValueError: If `max_chars` is too small to hold the marker.
    """
    if max_chars <= len(TRUNCATION_MARKER):
        raise ValueError(
            f"max_chars must be greater than {len(TRUNCATION_MARKER)}, got {max_chars}"
        )
    if len(text) <= max_chars:
        return text
    return text[: max_chars - len(TRUNCATION_MARKER)].rstrip() + TRUNCATION_MARKER
