"""Draw a run as a Mermaid `sequenceDiagram`: who talks to whom, one arrow per message.

`mermaid_lines` walks the step events and emits one statement per line under `sequenceDiagram`,
with four lanes: User, Agent loop, Model and Tool. Each model call is an arrow from the loop to
the model and its reply an arrow back; each tool call an arrow to the tool and its observation an
arrow back (a cross for an error); format errors, unknown tools, repeated actions and limits are
notes over the loop. Every text goes through `mermaid_text`, which keeps it on one line and free
of the characters that end or break a Mermaid statement. Labels, file saving and the other
formats live in `custom_react.export`; nothing here runs the agent.
"""

from __future__ import annotations

from collections.abc import Sequence

from custom_react.console.printing import decision_text
from custom_react.events import (
    ActionEvent,
    AgentEvent,
    ApprovalDecided,
    ApprovalRequested,
    LimitReached,
    ObservationEvent,
    RunFinished,
)
from custom_react.export.blocks import labels_for
from custom_react.export.labels import MERMAID
from custom_react.parsing.action_input import input_text
from custom_react.running.prompt_log import ModelCall
from custom_react.steps import AnswerRejected, FinalAnswerEvent, ParseFailure, ToolStep

MERMAID_TEXT_LIMIT = 80
# Characters that end or break a Mermaid statement (`;` and a newline end one, `#` starts an
# entity code, `%%` a comment), and the look-alikes that replace them.
_MERMAID_UNSAFE = str.maketrans({";": ",", "#": "＃", '"': "'", "<": "‹", ">": "›", "%": "％"})
# Participant ids: never a Mermaid keyword (`loop`, `end`, `opt`, ... are keywords in any case).
LANES = ("User", "Agent", "Model", "Tool")


def mermaid_text(text: str, limit: int = MERMAID_TEXT_LIMIT) -> str:
    """Make text safe for one Mermaid statement: one printable line without `;#"<>%`, shortened."""
    printable = "".join(char if char.isprintable() else " " for char in text)
    flat = " ".join(printable.translate(_MERMAID_UNSAFE).split())
    if flat.lower().startswith(("wrap:", "nowrap:")):
        flat = "'" + flat  # a message starting with `wrap:` would be read as a directive
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def to_mermaid(
    question: str, events: Sequence[AgentEvent | ModelCall], language: str = "en"
) -> str:
    """Draw the run as a Mermaid `sequenceDiagram` (lanes: User, Agent loop, Model, Tool).

    Prompts and raw replies (`ModelCall`s) are left out: an arrow is a call, not its text.
    """
    steps = [event for event in events if not isinstance(event, ModelCall)]
    label = labels_for(language) | MERMAID[language]
    return "\n".join(mermaid_lines(question, steps, label)) + "\n"


def mermaid_lines(question: str, events: Sequence[AgentEvent], label: dict[str, str]) -> list[str]:
    """The diagram's statements, starting with `sequenceDiagram` and the four lanes."""
    names = (label["user"], label["agent"], label["model"], label["tool"])
    lines = ["sequenceDiagram"]
    lines += [f"    participant {lane} as {name}" for lane, name in zip(LANES, names, strict=True)]
    lines.append(message("User", "->>", "Agent", f"{label['question']}{label['sep']}{question}"))
    calls = 0
    steps = 0
    action = ""
    generated = False
    for event in events:
        if isinstance(event, ActionEvent | ParseFailure | FinalAnswerEvent):
            calls += 1
            call = label["nudge" if generated else "call"].format(n=calls, steps=steps)
            lines.append(message("Agent", "->>", "Model", call))
            steps += not isinstance(event, FinalAnswerEvent)
        if isinstance(event, ActionEvent):
            action = f"{event.step.tool}({input_text(event.step.tool_input)})"
        if isinstance(event, ObservationEvent):
            lines += _observation_lines(event, action, label)
        else:
            lines += _event_lines(event, label)
        # "generate": the model was asked once more, and its answer follows
        generated = isinstance(event, LimitReached) and event.answer_generated
    return lines


def _event_lines(event: AgentEvent, label: dict[str, str]) -> list[str]:
    """The statements for one event (the model call arrow before it is drawn by the caller)."""
    match event:
        case ActionEvent(step=ToolStep(thought=thought, tool=tool)):
            # The tool arrow shows the input; here the tool name must survive the shortening.
            reply = (
                f"{label['thought']}{label['sep']}{mermaid_text(thought, 40)} / " if thought else ""
            )
            return [
                message("Model", "-->>", "Agent", f"{reply}{label['action']}{label['sep']}{tool}")
            ]
        case ParseFailure(text=text, error=error, consecutive=consecutive):
            return [
                message("Model", "-->>", "Agent", f"{label['reply']}{label['sep']}{text}"),
                note(f"{label['parse_failure']} ({consecutive}): {error}"),
            ]
        case AnswerRejected(output=output, message=why):
            return [
                message("Model", "-->>", "Agent", f"{label['final_answer']}{label['sep']}{output}"),
                note(f"{label['rejected']}{label['sep']}{why}"),
            ]
        case LimitReached(reason=reason, iterations=iterations):
            stopped = f"{label['limit']}{label['sep']}{label['stop_reason']}{label['sep']}{reason}"
            return [note(f"{stopped} ({iterations})")]
        case FinalAnswerEvent():
            return _answer_lines(event, label)
        case ApprovalRequested(call=call, run_id=run_id):
            waits = label["waits"].format(tool=call.tool, run_id=run_id)
            ask = message("Agent", "->>", "User", label["approve"].format(tool=call.tool))
            return [ask, note(f"{label['paused']}{label['sep']}{waits}")]
        case ApprovalDecided(decision=decision):
            return [message("User", "-->>", "Agent", decision_text(decision, label))]
        case RunFinished(result=result) if result.error:  # else an event showed the end
            return [message("Agent", "-->>", "User", result.output)]
    return []


def _answer_lines(event: FinalAnswerEvent, label: dict[str, str]) -> list[str]:
    """The model's answer to the agent, then to the user; a tool's (`return_direct`) to the user."""
    reply = f"{label['thought']}{label['sep']}{event.thought} / " if event.thought else ""
    answer = f"{label['final_answer']}{label['sep']}{event.output}"
    to_user = message("Agent", "-->>", "User", answer)
    if event.returned_by:
        return [to_user]
    return [message("Model", "-->>", "Agent", reply + answer), to_user]


def _observation_lines(event: ObservationEvent, action: str, label: dict[str, str]) -> list[str]:
    """The tool call and its observation; drawn only now, when we know whether the tool ran."""
    observation = f"{label['observation']}{label['sep']}{event.step.observation}"
    match event.step.status:
        case "ok":
            return [
                message("Agent", "->>", "Tool", action),
                message("Tool", "-->>", "Agent", observation),
            ]
        case "error":
            return [
                message("Agent", "->>", "Tool", action),
                message("Tool", "--x", "Agent", observation),
            ]
        case "denied":
            return [
                message("Agent", "->>", "User", label["approve"].format(tool=event.step.tool)),
                message("User", "-->>", "Agent", label["no"]),
                note(observation),
            ]
    return [
        note(
            f"{label.get(event.step.status, event.step.status)}{label['sep']}{event.step.observation}"
        )
    ]


def message(source: str, arrow: str, target: str, text: str) -> str:
    """One arrow between two lanes, its text made safe (`mermaid_text`)."""
    return f"    {source}{arrow}{target}: {mermaid_text(text)}"


def note(text: str, lane: str = "Agent") -> str:
    """A note over one lane, its text made safe."""
    return f"    Note over {lane}: {mermaid_text(text)}"
