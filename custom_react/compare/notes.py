"""What a comparison's numbers mean: how each agent works, and why their results differ.

`AGENT_NOTES` says in one line per agent what it sends the model and how it reads the reply, which
is where most differences in calls and tokens come from. `differences` reads a report and writes
one line per thing the tables show differently: per question, who solved it and how each miss
ended (the step limit, format errors, a wrong answer, a crash); then the totals that differ most
(model calls, prompt tokens, time) with the reason each agent's design gives. Pure functions of a
`ComparisonReport`; `tables.to_markdown` puts them under the tables.
"""

from __future__ import annotations

import textwrap

from custom_react.compare.report import ComparisonReport, RunRecord

AGENT_NOTES = {
    "custom": (
        "this project's `CustomReActAgent`: text ReAct (tools described in the system prompt, "
        "the bundled few-shot example), a forgiving parser, repeated actions answered from memory"
    ),
    "legacy": (
        "LangChain's `create_react_agent` + `AgentExecutor(handle_parsing_errors=True)` with the "
        "`hwchase17/react` prompt: text ReAct, an exact-match parser, the scratchpad as one string"
    ),
    "create_agent": (
        "LangChain 1.x `create_agent`: provider tool calls (the tools' JSON schemas go with every "
        "request; the local server answers them with `tool_calls` through its tool-calling chat "
        "format), no text parsing"
    ),
    "create_agent_text": (
        "LangChain 1.x `create_agent` with `TextReActMiddleware`: `create_agent`'s graph and "
        "tools node, this project's prompt and parser in the model call (no tool calls needed)"
    ),
}
"""One line per agent: what it sends the model and how it reads the reply."""
_WHY = {
    "model_calls": "model calls: every step costs one; format errors and repeated steps add more",
    "prompt_tokens": (
        "prompt tokens: each call resends the whole prompt (tool list, example, steps so far), "
        "so extra calls and a longer system prompt both add up"
    ),
    "wall_time": "time: about 5 tokens/s written and 10 tokens/s read on the CPU, so it follows "
    "the tokens",
}


def differences(report: ComparisonReport) -> list[str]:
    """One line per difference the report's tables show, with its cause from the runs."""
    lines = [_question_line(report, question_id) for question_id in _question_ids(report)]
    lines = [line for line in lines if line]
    totals = report.totals()
    for key, why in _WHY.items():
        values = {agent: total[key] for agent, total in totals.items()}
        if len(values) > 1 and min(values.values()) != max(values.values()):
            fewest = min(values, key=values.__getitem__)
            most = max(values, key=values.__getitem__)
            lines.append(
                f"{why}; fewest: {fewest} ({_number(values[fewest])}), most: "
                f"{most} ({_number(values[most])})"
            )
    return lines


def _question_ids(report: ComparisonReport) -> list[str]:
    return list(dict.fromkeys(record.question_id for record in report.records))


def _question_line(report: ComparisonReport, question_id: str) -> str:
    """Who solved the question and how each miss ended; "" when every agent did the same."""
    runs = [r for r in report.records if r.question_id == question_id and r.agent in report.agents]
    if len({run.correct for run in runs}) <= 1:
        return ""
    solved = [run.agent for run in runs if run.correct]
    missed = [f"{run.agent} {how_it_ended(run)}" for run in runs if not run.correct]
    return f"{question_id}: solved by {', '.join(solved)}; missed by {'; '.join(missed)}"


def how_it_ended(run: RunRecord) -> str:
    """Why one run missed: a crash, a limit, format errors, or the answer it gave."""
    if run.error:
        return f"(crashed: {textwrap.shorten(run.error, 80)})"
    failures = f", {run.parse_failures} format errors" if run.parse_failures else ""
    if run.stop_reason != "final_answer":
        return f"(stopped by {run.stop_reason} after {run.model_calls} calls{failures})"
    tools = (
        "without calling a tool" if run.tool_calls == 0 else f"after {run.tool_calls} tool calls"
    )
    answer = textwrap.shorten(" ".join(run.answer.split()), 70) or "(empty)"
    return f"(answered {answer!r} {tools}{failures})"


def _number(value: float) -> str:
    return f"{value:.0f} s" if isinstance(value, float) else str(value)
