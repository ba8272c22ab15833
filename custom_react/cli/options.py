"""The options the `custom-react` commands share, each checked as it is read (before a model starts).

Each is a typed `Annotated` alias a command's parameter takes: its flag, its help, its check
(`--lang` must be a language the prompts have, `--max-iterations` at least 1, a stored-runs file
must exist).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from custom_react.prompts import check_language


def _language(language: str) -> str:
    """`--lang`, checked as it is read: before any model starts."""
    try:
        return check_language(language)
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None


Lang = Annotated[
    str, typer.Option("--lang", help="Prompt and label language: en or zh.", callback=_language)
]
Model = Annotated[str | None, typer.Option(help="Model name, bundled local model or GGUF path.")]
BaseUrl = Annotated[
    str | None, typer.Option(help="Any OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1")
]
MaxIterations = Annotated[int, typer.Option(help="Most model calls before stopping.", min=1)]
Quiet = Annotated[bool, typer.Option("--quiet", help="Print only the final answer.")]
NoStream = Annotated[
    bool, typer.Option("--no-stream", help="Show each step whole, not as the model writes it.")
]
Save = Annotated[
    list[Path] | None,
    typer.Option("--save", help="Also save the run: .md, .html or .mmd (repeatable)."),
]
Checkpoint = Annotated[
    Path | None,
    typer.Option(help="Store every step in this SQLite file; approvals then wait (`resume`)."),
]
WorkspaceOption = Annotated[
    Path | None,
    typer.Option(
        "--workspace", help="Also file and terminal tools for this folder (commands ask)."
    ),
]
ShowPrompts = Annotated[
    bool,
    typer.Option(
        "--show-prompts", help="Print each model call's exact prompt (its new part) and raw reply."
    ),
]
System = Annotated[
    str, typer.Option("--system", help="Your instructions: they open the system prompt.")
]
McpServers = Annotated[
    list[str] | None,
    typer.Option("--mcp-server", help='Also the tools of a stdio MCP server: "python s.py".'),
]


StoredRuns = Annotated[
    Path, typer.Option(help="The SQLite checkpoint file.", exists=True, dir_okay=False)
]
"""A checkpoint file to read: it must exist (a mistyped name is not a new, empty store)."""
