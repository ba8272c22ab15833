"""File and terminal tools confined to one workspace folder, with an approval gate for commands.

`make_workspace_tools(root)` returns `read_file`, `write_file`, `list_files` and `run_terminal_command`.
Every path is resolved inside the workspace: absolute paths, `~`, `..` and symbolic links that lead
outside are refused with a `WorkspaceError` (a `ValueError`) whose message is meant for the model, and
nothing is read or written. `run_terminal_command` carries `metadata={"requires_approval": True}`; the
agent loop asks the user and invokes an approved call with
`config={"configurable": {APPROVAL_CONFIG_KEY: True}}`. Without that flag the tool raises
`CommandNotApprovedError` and runs nothing. This module does not ask the user anything itself, and
the shell command is not sandboxed beyond its working directory and timeout.
"""

import os
from pathlib import Path, PurePosixPath, PureWindowsPath

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, StructuredTool, ToolException

from custom_react.pausing.approval import APPROVAL_CONFIG_KEY
from custom_react.running.tool_output import truncate
from tools.terminal import run_shell_command

MAX_WRITE_CHARS = 1_000_000
MAX_LISTED_ENTRIES = 200
_FILE_TRUNCATED = "\n…[truncated: the file has {size} bytes]"
"""The marker at the end of a file's text that `read_file` cut (see `truncate`)."""


class WorkspaceError(ValueError, ToolException):
    """A path or request the workspace tools refuse; nothing was read, written or run.

    Also a `ToolException`, so `handle_tool_error=True` turns it into an observation.
    """


class CommandNotApprovedError(PermissionError):
    """`run_terminal_command` was called without the user's approval; nothing was run."""


def make_workspace_tools(
    root: str | Path, *, command_timeout: float = 30.0, max_output_chars: int = 4000
) -> list[BaseTool]:
    """Build the four workspace tools for the folder `root` (created if missing).

    Args:
        root: The workspace folder; every path the tools accept is relative to it.
        command_timeout: Seconds before `run_terminal_command` stops a command.
        max_output_chars: Longest text returned by `read_file`, and per stream by the terminal tool.

    Returns:
        `[read_file, write_file, list_files, run_terminal_command]`; only the last one has
        `metadata={"requires_approval": True}`.
    """
    workspace = Workspace(root, command_timeout=command_timeout, max_output_chars=max_output_chars)
    file_tools = [
        StructuredTool.from_function(workspace.read_file, description=_READ_DESCRIPTION),
        StructuredTool.from_function(workspace.write_file, description=_WRITE_DESCRIPTION),
        StructuredTool.from_function(workspace.list_files, description=_LIST_DESCRIPTION),
    ]
    terminal_tool = StructuredTool.from_function(
        workspace.run_terminal_command,
        description=_TERMINAL_DESCRIPTION,
        metadata={"requires_approval": True},
    )
    return [*file_tools, terminal_tool]


class Workspace:
    """The operations behind the workspace tools, bound to one resolved root folder."""

    def __init__(self, root: str | Path, *, command_timeout: float, max_output_chars: int) -> None:
        """Create `root` if needed and remember its resolved path and the limits."""
        folder = Path(root).expanduser()
        folder.mkdir(parents=True, exist_ok=True)
        self.root = folder.resolve()
        self.command_timeout = command_timeout
        self.max_output_chars = max_output_chars

    def resolve(self, path: str) -> Path:
        """Map a relative `path` to an absolute path inside the workspace, or raise `WorkspaceError`."""
        text = path.strip().strip("\"'`").strip() or "."
        if "\x00" in text:
            raise WorkspaceError(f"{path!r} contains a NUL character; nothing was done.")
        if text.startswith("~"):
            raise WorkspaceError(
                f"{path!r} refers to a home folder, outside the workspace. {_HINT}"
            )
        windows = PureWindowsPath(text)
        if PurePosixPath(text).is_absolute() or windows.is_absolute() or windows.drive:
            raise WorkspaceError(f"{path!r} is an absolute path. {_HINT}")
        if ".." in windows.parts:  # Windows parsing also splits on "/", so this covers both
            raise WorkspaceError(f"{path!r} contains '..'; leaving the workspace is not allowed.")
        resolved = (self.root / text).resolve()
        if not resolved.is_relative_to(self.root):
            raise WorkspaceError(f"{path!r} leads outside the workspace through a link. {_HINT}")
        return resolved

    def read_file(self, path: str) -> str:
        """Return the text of a workspace file (undecodable bytes replaced, long text truncated).

        Only the start of the file is read (one character more than `max_output_chars`), so a
        huge file costs no more than a short one. The marker of a cut text gives the file's size
        in bytes: how many characters were cut would need the whole file read.
        """
        target = self.resolve(path)
        if not target.is_file():
            raise WorkspaceError(f"There is no file {path!r} in the workspace; use list_files.")
        with target.open(encoding="utf-8", errors="replace") as file:
            text = file.read(self.max_output_chars + 1)
            size = os.fstat(file.fileno()).st_size
        if not text:
            return "(the file is empty)"
        return truncate(text, self.max_output_chars, _FILE_TRUNCATED.format(size=size))

    def write_file(self, path: str, content: str) -> str:
        """Write `content` to a workspace file, replacing it and creating parent folders."""
        target = self.resolve(path)
        if target == self.root or target.is_dir():
            raise WorkspaceError(f"{path!r} is a folder; give a file path such as 'notes.txt'.")
        if len(content) > MAX_WRITE_CHARS:
            raise WorkspaceError(f"The content is longer than {MAX_WRITE_CHARS} characters.")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")
        return f"Wrote {len(content)} characters to {target.relative_to(self.root).as_posix()}."

    def list_files(self, path: str = ".") -> str:
        """List a workspace folder, one entry per line, folders ending in "/"."""
        folder = self.resolve(path)
        if not folder.is_dir():
            raise WorkspaceError(f"There is no folder {path!r} in the workspace.")
        entries = sorted(folder.iterdir(), key=lambda entry: entry.name)
        names = [entry.name + ("/" if entry.is_dir() else "") for entry in entries]
        shown = "\n".join(names[:MAX_LISTED_ENTRIES]) or "(the folder is empty)"
        hidden = len(names) - MAX_LISTED_ENTRIES
        return f"{shown}\n…[{hidden} more entries]" if hidden > 0 else shown

    def run_terminal_command(self, command: str, config: RunnableConfig) -> str:
        """Run an approved shell command in the workspace; raise `CommandNotApprovedError` otherwise."""
        configurable = config.get("configurable") or {}
        if configurable.get(APPROVAL_CONFIG_KEY) is not True:
            raise CommandNotApprovedError(
                "run_terminal_command was not approved by the user, so nothing was run."
            )
        if not command.strip():
            raise WorkspaceError("The command is empty; write one shell command.")
        return run_shell_command(
            command,
            cwd=self.root,
            timeout=self.command_timeout,
            max_output_chars=self.max_output_chars,
        )


_HINT = "Use a path relative to the workspace folder, such as 'notes.txt' or 'src/main.py'."
_READ_DESCRIPTION = (
    "Read a text file from the workspace folder. Input: a relative path such as 'notes.txt'."
)
_WRITE_DESCRIPTION = (
    "Write text to a file in the workspace folder, replacing the file if it exists and creating "
    "folders as needed. Arguments: path (a relative path) and content (the full text)."
)
_LIST_DESCRIPTION = (
    "List the files and folders in a workspace folder. Input: a relative folder path, or '.'."
)
_TERMINAL_DESCRIPTION = (
    "Run one shell command in the workspace folder and return its exit code and output. The user "
    "must approve every command before it runs. Input: the command, such as 'ls -l'."
)
