"""A run as Markdown: the question, one section per model call, and a footer with how it ended."""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape

from custom_react.console.model_calls import call_facts
from custom_react.events import (
    AgentEvent,
)
from custom_react.export.blocks import (
    Block,
    labels_for,
    status_note,
    summarize_run,
    transcript_blocks,
)
from custom_react.running.prompt_log import ModelCall

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~])")


def to_markdown(
    question: str, events: Sequence[AgentEvent | ModelCall], language: str = "en"
) -> str:
    """Render the run as Markdown: the question, one section per model call, a footer."""
    label = labels_for(language)
    current = -1
    lines = [f"# {label['title']}", "", f"{_bold(label, 'question')} {_md(question)}"]
    for block in transcript_blocks(question, events, language)[1:]:
        if block.step != current and block.kind != "limit":
            current = block.step
            lines += ["", "## " + label["step"].format(n=current)]
        quoted = "> " * block.depth  # a sub-agent's steps, quoted once per level, on every line
        body = "\n".join(_markdown_block(block, label)).split("\n")
        lines += ["", *(f"{quoted}{line}" for line in body)]
    summary = summarize_run(events)
    sep = label["sep"]
    footer = f"{label['stop_reason']}{sep}`{summary.stop_reason}` · "
    footer += f"{label['model_calls']}{sep}{summary.iterations}"
    lines += ["", "---", "", f"*{footer if summary.stop_reason else label['unfinished']}*"]
    return "\n".join(lines) + "\n"


def _markdown_block(block: Block, label: dict[str, str]) -> list[str]:
    match block.kind:
        case "prompt" | "reply" if block.call is not None:
            return _call_markdown(block, block.call, label)
        case "action":
            head = f"{_bold(label, 'action')} {_code(block.text)}  "
            if "\n" in block.detail:
                return [head, _bold(label, "action_input"), "", _fence(block.detail)]
            return [head, f"{_bold(label, 'action_input')} {_code(block.detail)}"]
        case "observation":
            status = status_note(block.status, label)
            return [_bold(label, "observation", status), "", _fence(block.text)]
        case "parse_failure":
            error = f"{_bold(label, 'parse_failure')} {_md(block.text)}"
            return [_bold(label, "reply"), "", _fence(block.detail), "", error]
        case "limit":
            return [f"{_bold(label, 'limit')} {label['stop_reason']}{label['sep']}`{block.text}`"]
        case "rejected":
            return [
                f"{_bold(label, 'rejected')} {_md(block.text)}",
                "",
                f"{_bold(label, 'why')} {_md(block.detail)}",
            ]
        case "final_answer" if block.detail:  # returned by a tool (`return_direct`)
            by = label["aside"].format(text=label["returned_by"].format(tool=block.detail))
            return [f"{_bold(label, 'final_answer', by)} {_md(block.text)}"]
    return [f"{_bold(label, block.kind)} {_md(block.text)}"]  # a Thought, the Final Answer, a stop


def _call_markdown(block: Block, call: ModelCall, label: dict[str, str]) -> list[str]:
    """A prompt (each message; a marker where the new part starts) or a raw reply, folded."""
    if block.kind == "reply":
        title = label["raw_reply" if block.status == "ok" else "failed"].format(n=call.call)
        summary = title + label["aside"].format(text=call_facts(call, label))
        return _folded(summary, [_fence(block.text)])
    body = []
    for role, repeated, new in call.parts():
        marker = f"──── {label['new'].format(n=call.previous_call)} ────\n"
        text = repeated + (marker if repeated and new else "") + new
        body += [label["role"].format(role=role), "", _fence(text), ""]
    return _folded(label["prompt"].format(n=call.call), body[:-1])


def _folded(summary: str, body: list[str]) -> list[str]:
    """A `<details>` block: GitHub and most viewers show the summary and fold the rest."""
    return [f"<details><summary>{escape(summary)}</summary>", "", *body, "", "</details>"]


def _bold(label: dict[str, str], key: str, extra: str = "") -> str:
    return f"**{label[key]}{extra}{label['colon']}**"


def _md(text: str) -> str:
    """Escape Markdown syntax and keep line breaks."""
    return "  \n".join(_MARKDOWN_SPECIAL.sub(r"\\\1", line) for line in text.strip().splitlines())


def _code(text: str) -> str:
    """Inline code that survives backticks inside the text."""
    ticks = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if text[:1] == "`" or text[-1:] == "`" else ""  # Markdown drops one space each side
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _fence(text: str) -> str:
    """A fenced block longer than any backtick run inside the text."""
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text.rstrip()}\n{fence}"
