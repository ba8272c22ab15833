"""Facts about the machine for the prompt: operating system, working folder and what it holds.

`render_environment` is a pure function from those facts to the text block the model reads;
`describe_environment(folder)` gathers them (the OS name, the resolved folder, a sorted, bounded
listing of its top-level entries, folders ending in "/") and renders them. A coding agent uses the
block to write paths that exist. The listing is taken once, when the prompt is built; the agent's
`list_files` tool sees later changes. Nothing here reads file contents or environment variables.
"""

from __future__ import annotations

import os
import platform
from collections.abc import Sequence
from pathlib import Path

from custom_react.prompts import load_messages

MAX_ENTRIES = 40


def render_environment(
    system: str,
    folder: str,
    entries: Sequence[str],
    *,
    more: int = 0,
    language: str = "en",
) -> str:
    """Render environment facts as a prompt block.

    Args:
        system: The operating system, e.g. "Linux".
        folder: The working folder, as the model should read it.
        entries: Names in the folder, already sorted and bounded (folders end in "/").
        more: How many further entries were left out of `entries`.
        language: "en" or "zh" labels.

    Returns:
        A heading line and one line per fact, the entries indented below the last one.
    """
    label = load_messages(language)  # the environment_* entries of the message table
    empty = "" if entries else label["environment_empty"]
    lines = [
        label["environment_heading"],
        "- " + label["environment_system"].format(system=system),
        "- " + label["environment_folder"].format(folder=folder),
        "- " + label["environment_files"].format(empty=empty).rstrip(),
        *(f"  {name}" for name in entries),
    ]
    if more > 0:
        lines.append("  " + label["environment_more"].format(count=more))
    return "\n".join(lines)


def describe_environment(
    folder: str | Path = ".", *, language: str = "en", max_entries: int = MAX_ENTRIES
) -> str:
    """Gather the facts for `folder` and render them (see `render_environment`).

    Args:
        folder: The working folder; it must exist.
        language: "en" or "zh" labels.
        max_entries: Most folder entries listed; the rest are counted.

    Raises:
        ValueError: `folder` is not an existing folder.
    """
    root = Path(folder).expanduser().resolve()
    if not root.is_dir():
        raise ValueError(f"The working folder {str(folder)!r} does not exist.")
    names = list_entries(root)
    return render_environment(
        operating_system(),
        str(root),
        names[:max_entries],
        more=max(0, len(names) - max_entries),
        language=language,
    )


def environment_option(option: bool | str | Path, *, language: str = "en") -> str:
    """The agent's `environment=` option as prompt text.

    False gives "", True describes the current working folder, a path describes that folder.
    """
    if option is False:
        return ""
    return describe_environment(Path.cwd() if option is True else option, language=language)


def list_entries(root: Path) -> list[str]:
    """The folder's top-level entries, sorted, folders marked with a trailing "/"."""
    with os.scandir(root) as scan:
        names = [entry.name + ("/" if entry.is_dir() else "") for entry in scan]
    return sorted(names)


def operating_system() -> str:
    """The OS name and release, e.g. "Linux 6.1.0" or "macOS 14.5" or "Windows 11"."""
    if platform.system() == "Darwin":
        return f"macOS {platform.mac_ver()[0]}".strip()
    return f"{platform.system()} {platform.release()}".strip()
