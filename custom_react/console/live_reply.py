"""What a console shows of a reply while the model writes it, and how that gives way to the step.

`LiveReply` turns `ReplyToken` text into what to write next: the reply so far as the parser reads
it (`parsing.markers.reply_sections`: a Thought, then the step; never a made-up Observation), one
`Label: text` line per section, only the part not yet written. When the step's own event comes,
`finish` says how to end the draft: on a terminal (`erase=True`) the draft was dimmed and is
erased, so the formatted step replaces it; elsewhere (a pipe, a log) nothing can be taken back:
the draft is the Thought and the Final Answer alone (the step prints its Action whole, the tool's
name resolved), and only what the draft lacks of the step is written. It returns text; it never writes.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable

from rich.cells import cell_len

from custom_react.parsing.markers import reply_sections

DIM = "\x1b[2m"
RESET = "\x1b[0m"
WRITTEN_AS_IS = ("thought", "final_answer")
"""Sections a pipe shows as they arrive: the step prints the action (its tool resolved) whole."""
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


class LiveReply:
    """The draft of one reply on the console.

    Args:
        line: Renders one (kind, text) section as a plain `Label: text` line.
        erase: Dim the draft and erase it at the end (a terminal); else keep what was written.
        width: The console's width in columns (to count the rows the draft takes).
    """

    def __init__(
        self,
        line: Callable[[str, str], str],
        *,
        erase: bool,
        width: Callable[[], int] = lambda: shutil.get_terminal_size().columns,
    ) -> None:
        self.line = line
        self.erase = erase
        self.width = width
        self.reply = ""
        """The reply's text so far."""
        self.shown = ""
        """The draft written so far (plain text)."""

    def add(self, text: str) -> str:
        """Take a piece of the reply; return what to write now ("" when nothing new shows)."""
        self.reply += text
        sections = reply_sections(self.reply)
        if _may_restate_question(self.reply) and all(kind == "thought" for kind, _ in sections):
            sections = []  # the question restated (an echo, left out once a step follows): wait
        if not self.erase:  # what cannot be taken back: the Thought and the answer, as written
            ends = [i for i, (kind, _) in enumerate(sections) if kind not in WRITTEN_AS_IS]
            sections = sections[: ends[0]] if ends else sections
        view = "\n".join(self.line(kind, body) for kind, body in sections)
        if not view.startswith(self.shown) or view == self.shown:
            return ""  # a rewrite (a marker just completed): the step's event will settle it
        new, self.shown = view[len(self.shown) :], view
        return f"{DIM}{new}{RESET}" if self.erase else new

    def finish(self, lines: list[str]) -> tuple[str, list[str]]:
        """End the draft before the step's `lines`: (text to write, lines still to print)."""
        shown = self.shown
        self.reply = ""
        self.shown = ""
        if not shown:
            return "", lines
        if self.erase:
            rows = sum(max(1, -(-cell_len(row) // self.width())) for row in shown.split("\n"))
            return "\r" + (f"\x1b[{rows - 1}A" if rows > 1 else "") + "\x1b[J", lines
        plain = [_ANSI.sub("", line) for line in lines]
        if "\n".join(plain).startswith(shown):  # the draft is the step's beginning: complete it
            return "\n".join(plain)[len(shown) :] + "\n", []
        return "\n", lines[_already_written(shown.split("\n"), plain) :]


def _already_written(drafted: list[str], step: list[str]) -> int:
    """How many of the step's first lines the draft holds whole: at its start or at its end.

    A draft that began like the step and then went astray holds its first lines; one that began
    with text the step leaves out (a `Question:` the model restated) holds them at its end.
    """
    same_start = 0
    for written, line in zip(drafted, step, strict=False):
        if written != line:
            break
        same_start += 1
    overlaps = (n for n in range(min(len(drafted), len(step)), 0, -1) if drafted[-n:] == step[:n])
    return max(same_start, next(overlaps, 0))


def _may_restate_question(reply: str) -> bool:
    """Whether the reply's first line is, or may grow into, the question restated (`Question:`).

    The parser leaves such a line out of the step as an echo once a step follows it.
    """
    head = reply.lstrip(" *#`>").split("\n", 1)[0].lower()
    return head.startswith("question:") or "question:".startswith(head)
