"""Render a run as one self-contained HTML page: inline CSS, no scripts, no external assets.

`to_html` lays out the transcript blocks of `custom_react.export` as the question, then one card per
model call holding its Thought, Action and Action Input, Observation, format error or Final Answer
(each kind with its own colour), and a footer with the stop reason and the number of model calls.
Every piece of text is HTML-escaped, so a tool result can never inject markup. Labels come in
English or Chinese. Building the blocks and saving files live in `custom_react.export`.
"""

from __future__ import annotations

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

CSS = """
body { font: 16px/1.5 system-ui, "Noto Sans", "Noto Sans CJK SC", "WenQuanYi Micro Hei",
  sans-serif; margin: 0; background: #f4f5f7; color: #1d2330; }
main { max-width: 900px; margin: 0 auto; padding: 24px; }
h1 { font-size: 22px; margin: 0 0 12px; }
.question { background: #1d2330; color: #fff; padding: 14px 18px; border-radius: 8px; }
.step { background: #fff; border-radius: 8px; margin: 16px 0; padding: 8px 18px 12px;
  box-shadow: 0 1px 3px rgba(0, 0, 0, .12); }
.step > h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .06em; color: #6b7280;
  margin: 4px 0; }
.block { border-left: 5px solid; padding: 6px 12px; margin: 8px 0; border-radius: 0 6px 6px 0; }
.label { font-weight: 700; margin-right: 6px; }
pre { white-space: pre-wrap; word-break: break-word; margin: 4px 0 0;
  font: 14px/1.45 ui-monospace, "DejaVu Sans Mono", monospace; }
.thought { border-color: #2563eb; background: #eff4ff; font-style: italic; }
.action { border-color: #d97706; background: #fff7e8; }
.observation { border-color: #059669; background: #ecfdf5; }
.observation.status-error, .observation.status-unknown_tool, .observation.status-denied,
.parse_failure { border-color: #dc2626; background: #fef2f2; }
.observation.status-repeated, .observation.status-over_budget { border-color: #7c3aed; background: #f5f3ff; }
.limit { border-color: #6b7280; background: #f3f4f6; }
.paused { border-color: #d97706; background: #fffbeb; font-weight: 600; }
.decision { border-color: #2563eb; background: #eff6ff; }
.final_answer { border-color: #15803d; background: #dcfce7; font-weight: 600; font-size: 17px; }
.final_answer.status-stopped { border-color: #6b7280; background: #e5e7eb; }
footer { color: #4b5563; border-top: 1px solid #d1d5db; margin-top: 20px; padding-top: 10px; }
.text { white-space: pre-wrap; word-break: break-word; }
code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; }
"""
CALLS_CSS = """
details.prompt, details.reply { border-left: 5px solid #a855f7; background: #faf5ff; margin: 8px 0;
  padding: 6px 12px; border-radius: 0 6px 6px 0; }
details.reply.status-error { border-color: #dc2626; background: #fef2f2; }
details > summary { cursor: pointer; font-weight: 700; color: #6b21a8; }
.role { font: 12px ui-monospace, monospace; color: #6b7280; margin-top: 8px; }
pre .same { color: #6b7280; }
pre mark { background: #fef08a; color: inherit; }
"""


def to_html(question: str, events: Sequence[AgentEvent | ModelCall], language: str = "en") -> str:
    """Render the run as a complete HTML document (a string)."""
    label = labels_for(language)
    parts: list[str] = []
    current = -1
    blocks = transcript_blocks(question, events, language)[1:]
    css = CSS + (CALLS_CSS if any(block.call for block in blocks) else "")  # prompts shown
    for block in blocks:
        if block.step != current and block.kind != "limit":
            if current != -1:
                parts.append("</section>")
            current = block.step
            heading = escape(label["step"].format(n=current))
            parts.append(f'<section class="step" id="step-{current}"><h2>{heading}</h2>')
        parts.append(_block_html(block, label))
    if current != -1:
        parts.append("</section>")
    title = escape(label["title"])
    return "\n".join(
        [
            "<!DOCTYPE html>",
            f'<html lang="{escape(language)}"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{title}</title><style>{css}</style></head>",
            f"<body><main><h1>{title}</h1>",
            f'<div class="question"><span class="label">{escape(label["question"])}{label["colon"]}</span>'
            f'<span class="text">{escape(question)}</span></div>',
            *parts,
            _footer_html(events, label),
            "</main></body></html>",
            "",
        ]
    )


def _call_html(block: Block, call: ModelCall, label: dict[str, str]) -> str:
    """A prompt (the part new since the call before highlighted) or a raw reply, folded."""
    classes = f"{block.kind} status-{escape(block.status)}"
    if block.kind == "reply":
        title = label["raw_reply" if block.status == "ok" else "failed"].format(n=call.call)
        title += label["aside"].format(text=call_facts(call, label))
        body = f"<pre>{escape(block.text)}</pre>"
    else:
        title = label["prompt"].format(n=call.call)
        if call.previous_call:
            title += label["aside"].format(text=label["new"].format(n=call.previous_call))
        body = "".join(
            f'<div class="role">{escape(label["role"].format(role=role))}</div>'
            f'<pre><span class="same">{escape(repeated)}</span><mark>{escape(new)}</mark></pre>'
            for role, repeated, new in call.parts()
        )
    return f'<details class="{classes}"><summary>{escape(title)}</summary>{body}</details>'


def _block_html(block: Block, label: dict[str, str]) -> str:
    """One `<div class="block KIND status-STATUS">` with its label and escaped text."""
    if block.call is not None:
        return _call_html(block, block.call, label)
    classes = f"block {block.kind} status-{escape(block.status)}"
    match block.kind:
        case "action":
            value = escape(block.detail)
            shown = f"<pre>{value}</pre>" if "\n" in block.detail else f"<code>{value}</code>"
            head = label["action"]
            body = (
                f"<code>{escape(block.text)}</code><br>"
                f'<span class="label">{escape(label["action_input"])}{label["colon"]}</span>{shown}'
            )
        case "observation":
            head = label["observation"] + status_note(block.status, label)
            body = f"<pre>{escape(block.text)}</pre>"
        case "parse_failure":
            head = label["reply"]
            body = (
                f"<pre>{escape(block.detail)}</pre>"
                f'<span class="label">{escape(label["parse_failure"])}{label["colon"]}</span>{escape(block.text)}'
            )
        case "rejected":
            head = label["rejected"]
            why = f'<span class="label">{escape(label["why"])}{label["colon"]}</span>'
            body = f'<div class="text">{escape(block.text)}</div>{why}{escape(block.detail)}'
        case "final_answer" if block.detail:  # returned by a tool (`return_direct`)
            by = label["aside"].format(text=label["returned_by"].format(tool=block.detail))
            head = f"{label['final_answer']}{by}"
            body = f'<div class="text">{escape(block.text)}</div>'
        case "limit":
            head = label["limit"]
            body = f"{escape(label['stop_reason'])}{label['sep']}<code>{escape(block.text)}</code>"
        case _:
            head = label[block.kind]
            body = f'<div class="text">{escape(block.text)}</div>'
    indent = f' style="margin-left: {1.5 * block.depth:g}em"' if block.depth else ""
    return f'<div class="{classes}"{indent}><span class="label">{escape(head)}{label["colon"]}</span>{body}</div>'


def _footer_html(events: Sequence[AgentEvent | ModelCall], label: dict[str, str]) -> str:
    summary = summarize_run(events)
    if summary.stop_reason is None:
        return f"<footer>{escape(label['unfinished'])}</footer>"
    return (
        f'<footer>{escape(label["stop_reason"])}{label["sep"]}<code class="stop-reason">'
        f"{escape(summary.stop_reason)}</code> · {escape(label['model_calls'])}{label['sep']}"
        f"{summary.iterations}</footer>"
    )
