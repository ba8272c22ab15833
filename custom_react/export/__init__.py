"""Save a run as a transcript file: Markdown, a self-contained HTML page, or a Mermaid diagram.

Everything here is a pure function of the question and the step events the loop yielded
(`custom_react.events`): `transcript_blocks` turns the events into labelled blocks (one per Thought,
Action, Observation, format error, limit and Final Answer), `to_markdown` renders them as Markdown,
and `save_transcript` writes a run in the format its file suffix names (.md, .html, .mmd). The HTML
page is drawn in `custom_react.export.html`, the Mermaid `sequenceDiagram` in
`custom_react.export.mermaid`; both share the blocks and labels defined here. Nothing here runs the
agent or prints.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from custom_react import events as ev
from custom_react.parser import ActionInput
from custom_react.printing import LABELS

BlockKind = Literal[
    "question", "thought", "action", "observation", "parse_failure", "limit", "final_answer"
]

EXPORT_LABELS = {
    "en": {
        **LABELS["en"],
        "colon": ":",
        "sep": ": ",
        "title": "ReAct transcript",
        "question": "Question",
        "step": "Step {n}",
        "model_calls": "model calls",
        "unfinished": "(the run did not finish)",
    },
    "zh": {
        **LABELS["zh"],
        "colon": "：",
        "sep": "：",
        "title": "ReAct 运行记录",
        "question": "问题",
        "step": "第 {n} 步",
        "model_calls": "模型调用次数",
        "unfinished": "（运行没有结束）",
    },
}
SUFFIXES = {".md": "markdown", ".markdown": "markdown", ".html": "html", ".htm": "html"}
SUFFIXES |= {".mmd": "mermaid", ".mermaid": "mermaid"}
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~])")


@dataclass(frozen=True)
class Block:
    """One labelled piece of the transcript.

    Attributes:
        kind: What it is; renderers style each kind differently.
        text: The main text (the tool name for an action, the error for a format error).
        step: The model call that wrote it (1-based); 0 for the question.
        detail: The Action Input of an action, or the unreadable reply of a format error.
        status: An observation's status (`ok`, `error`, ...); `stopped` for a limit's fallback.
    """

    kind: BlockKind
    text: str
    step: int = 0
    detail: str = ""
    status: str = "ok"


@dataclass(frozen=True)
class RunSummary:
    """How a run ended, for the footer: None fields when the events hold no `RunFinished`."""

    stop_reason: str | None
    iterations: int | None


def labels_for(language: str) -> dict[str, str]:
    """The export labels for "en" or "zh".

    Raises:
        ValueError: Any other language.
    """
    if language not in EXPORT_LABELS:
        raise ValueError(f"Unsupported language {language!r}; choose one of {sorted(LABELS)}.")
    return EXPORT_LABELS[language]


def input_text(tool_input: ActionInput) -> str:
    """An Action Input as one string: text as written, a dict as JSON."""
    return tool_input if isinstance(tool_input, str) else json.dumps(tool_input, ensure_ascii=False)


def transcript_blocks(question: str, events: Iterable[ev.AgentEvent]) -> list[Block]:
    """Turn a run's events into the transcript's blocks, in order, starting with the question."""
    blocks, step = [Block("question", question)], 0
    for event in events:
        match event:
            case ev.ActionEvent(thought=thought, tool=tool, tool_input=tool_input):
                step = event.iteration
                blocks += [Block("thought", thought, step)] if thought else []
                blocks.append(Block("action", tool, step, detail=input_text(tool_input)))
            case ev.ObservationEvent(observation=observation, status=status):
                blocks.append(Block("observation", observation, step, status=status))
            case ev.ParseFailure(text=text, error=error):
                step += 1
                blocks.append(Block("parse_failure", error, step, detail=text, status="error"))
            case ev.LimitReached(reason=reason):
                blocks.append(Block("limit", reason, step, status="error"))
            case ev.FinalAnswerEvent(output=output, thought=thought):
                step += 1
                blocks += [Block("thought", thought, step)] if thought else []
                blocks.append(Block("final_answer", output, step))
            case ev.RunFinished(result=result) if result.stop_reason != "final_answer":
                blocks.append(Block("final_answer", result.output, step, status="stopped"))
    return blocks


def summarize_run(events: Iterable[ev.AgentEvent]) -> RunSummary:
    """The stop reason and model-call count from the run's `RunFinished` event."""
    for event in events:
        if isinstance(event, ev.RunFinished):
            return RunSummary(event.result.stop_reason, event.result.iterations)
    return RunSummary(None, None)


def to_markdown(question: str, events: Sequence[ev.AgentEvent], language: str = "en") -> str:
    """Render the run as Markdown: the question, one section per model call, a footer."""
    label, current = labels_for(language), -1
    lines = [f"# {label['title']}", "", f"{_bold(label, 'question')} {_md(question)}"]
    for block in transcript_blocks(question, events)[1:]:
        if block.step != current and block.kind != "limit":
            current = block.step
            lines += ["", "## " + label["step"].format(n=current)]
        lines += ["", *_markdown_block(block, label)]
    summary, sep = summarize_run(events), label["sep"]
    footer = f"{label['stop_reason']}{sep}`{summary.stop_reason}` · "
    footer += f"{label['model_calls']}{sep}{summary.iterations}"
    lines += ["", "---", "", f"*{footer if summary.stop_reason else label['unfinished']}*"]
    return "\n".join(lines) + "\n"


def _markdown_block(block: Block, label: dict[str, str]) -> list[str]:
    match block.kind:
        case "action":
            head = f"{_bold(label, 'action')} {_code(block.text)}  "
            if "\n" in block.detail:
                return [head, _bold(label, "action_input"), "", _fence(block.detail)]
            return [head, f"{_bold(label, 'action_input')} {_code(block.detail)}"]
        case "observation":
            status = "" if block.status == "ok" else f" ({block.status})"
            return [_bold(label, "observation", status), "", _fence(block.text)]
        case "parse_failure":
            error = f"{_bold(label, 'parse_failure')} {_md(block.text)}"
            return [_bold(label, "reply"), "", _fence(block.detail), "", error]
        case "limit":
            return [f"{_bold(label, 'limit')} {label['stop_reason']}{label['sep']}`{block.text}`"]
    return [f"{_bold(label, block.kind)} {_md(block.text)}"]  # a Thought or the Final Answer


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


def save_transcript(
    path: str | Path, question: str, events: Iterable[ev.AgentEvent], language: str = "en"
) -> Path:
    """Write the run to `path`, in the format its suffix names (.md, .html or .mmd).

    Args:
        path: The file to write (parent folders are created).
        question: The question the agent was asked.
        events: The run's step events, e.g. `list(agent.stream(question))`.
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
    # The other renderers import this module, so they are imported here, when needed.
    from custom_react.export.html import to_html
    from custom_react.export.mermaid import to_mermaid

    render = {"markdown": to_markdown, "html": to_html, "mermaid": to_mermaid}[kind]
    text = render(question, list(events), language)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return target
