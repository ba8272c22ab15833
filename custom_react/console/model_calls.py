"""A model call as console lines (`--show-prompts`): its exact prompt as it starts, its raw reply.

`call_lines` gives (kind, text) pairs the printer colours by kind: a prompt shows only what is
new since the call before (a message as it was is one line naming that call, the repeated lines
of a message that grew are counted), a reply its raw text, a failed call its error. `call_facts`
is how long the call took and its tokens, which the exports show too.
"""

from __future__ import annotations

from custom_react.running.prompt_log import ModelCall


def call_lines(call: ModelCall, label: dict[str, str]) -> list[tuple[str, str]]:
    """A model call as (kind, text) lines: started, its prompt; ended, its raw reply (or error).

    A prompt shows only what is new since the call before: a message as it was is one line
    naming that call, and the repeated lines of the message that grew are counted, not shown.
    """
    if call.error:
        return [
            ("rule", _rule(label["failed"].format(n=call.call), call, label)),
            ("text", call.error),
        ]
    if call.reply is not None:
        head = _rule(label["raw_reply"].format(n=call.call), call, label)
        return [("rule", head), ("text", call.reply.rstrip("\n")), ("rule", "──")]
    lines = [("rule", _rule(label["prompt"].format(n=call.call)))]
    for role, repeated, new in call.parts():
        role = label["role"].format(role=role)
        if not new and repeated:
            lines.append(("same", f"{role} {label['same_message'].format(n=call.previous_call)}"))
            continue
        lines.append(("rule", role))
        if repeated:
            count = repeated.count("\n")
            lines.append(("same", label["same_lines"].format(lines=count, n=call.previous_call)))
        lines.append(("text", new))
    return lines


def _rule(title: str, call: ModelCall | None = None, label: dict[str, str] | None = None) -> str:
    """`── title (time · tokens) ──`: the head of a prompt or a reply."""
    if call is not None and label is not None:
        title += label["aside"].format(text=call_facts(call, label))
    return f"── {title} ──"


def call_facts(call: ModelCall, label: dict[str, str]) -> str:
    """How long a model call took, and its tokens when the server counted them."""
    facts = [label["seconds"].format(seconds=call.seconds)]
    facts += [label["tokens"].format(tokens=call.tokens)] if call.tokens is not None else []
    return " · ".join(facts)
