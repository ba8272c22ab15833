"""`PromptLog`: each model call's exact messages and raw reply, where the new part starts, the console."""

from __future__ import annotations

import re

from langchain_core.messages import HumanMessage, SystemMessage

from custom_react import ConsolePrinter, CustomReActAgent
from custom_react.events import ActionEvent, FinalAnswerEvent, ObservationEvent, RunFinished
from custom_react.running.prompt_log import ModelCall, PromptLog, new_part

REPLIES = [
    "Thought: I need the price.\nAction: search\nAction Input: rose",
    "Thought: I now know the final answer\nFinal Answer: 1.2 yuan.",
]


def logged_run(script, tools, replies=REPLIES, **options):
    scripted = script(*replies)
    agent = CustomReActAgent(scripted.model, tools, **options)
    log = PromptLog()
    events = list(log.interleave(agent.stream("How much is a rose?", {"callbacks": [log]})))
    return scripted, log, events


def test_each_call_is_kept_with_the_exact_messages_and_raw_reply(script, tools):
    scripted, log, _ = logged_run(script, tools)
    assert [call.messages for call in log.calls] == scripted.prompts  # what the model was sent
    assert [call.reply for call in log.calls] == REPLIES
    assert [call.call for call in log.calls] == [1, 2]
    assert all(call.seconds >= 0 and call.tokens is None and not call.error for call in log.calls)
    assert [call.previous_call for call in log.calls] == [0, 1]


def test_calls_sit_in_the_event_stream_where_they_happened(script, tools):
    _, _, events = logged_run(script, tools)
    kinds = [
        ("started" if event.started else "answered") if isinstance(event, ModelCall) else event.type
        for event in events
    ]
    assert kinds == [
        "started", "answered", "action", "observation",
        "started", "answered", "final_answer", "result",
    ]  # fmt: skip
    assert isinstance(events[2], ActionEvent) and isinstance(events[3], ObservationEvent)
    assert isinstance(events[6], FinalAnswerEvent) and isinstance(events[7], RunFinished)


def test_the_new_part_is_the_last_step_in_whole_lines(script, tools):
    _, log, _ = logged_run(script, tools)
    first, second = log.calls
    assert first.new_from == (0, 0)  # the first call: all of it is new
    (system, same, new_system), (human, repeated, new) = second.parts()
    assert (system, same, new_system) == ("system", first.messages[0].text, "")
    assert human == "human" and repeated == "Question: How much is a rose?\n"
    assert new.startswith("Thought: I need the price.\nAction: search\nAction Input: rose\n")
    assert new.endswith("Observation: A rose stem costs 1.2 yuan wholesale in Kunming.\nThought: ")


def test_new_part_by_cases():
    system, human = SystemMessage("rules"), HumanMessage("Q: x\nThought: ")
    assert new_part([], [system, human]) == (0, 0)
    assert new_part([system, human], [system, human]) == (2, 0)
    grown = HumanMessage("Q: x\nThought: a\nObservation: b\nThought: ")
    assert new_part([system, human], [system, grown]) == (1, len("Q: x\n"))
    assert new_part([system, human], [SystemMessage("other"), human]) == (0, 0)
    assert new_part([human], [system, human]) == (0, 0)  # a role changed: new from there


def test_a_retried_call_is_a_failed_call_then_the_next(script, tools):
    from custom_react.testing import ScriptedError

    replies = [ScriptedError("busy", 503), *REPLIES]
    _, log, _ = logged_run(script, tools, replies, model_retries=1)
    assert [bool(call.error) for call in log.calls] == [True, False, False]
    assert "ScriptedError: busy" in log.calls[0].error
    assert log.calls[2].previous_call == 2  # compared with the last answered call


def test_the_console_shows_the_first_prompt_whole_then_only_what_is_new(script, tools):
    _, _, events = logged_run(script, tools)
    lines: list[str] = []
    printer = ConsolePrinter(lines.append, color=False, stream_tokens=False, show_prompts=True)
    for event in events:
        printer(event)
    text = "\n".join(lines)
    assert lines[0] == "── Prompt of call 1 ──" and lines[1] == "[system]"
    assert "Answer the question as well as you can." in lines[2]
    assert re.search(
        r"── Reply of call 1, raw \(\d+\.\d s\) ──\n" + re.escape(REPLIES[0]) + "\n──", text
    )
    second = text[text.index("── Prompt of call 2 ──") :]
    assert second.startswith(
        "── Prompt of call 2 ──\n[system] (as in call 1)\n[human]\n"
        "… 1 line(s) as in call 1; new from here …\nThought: I need the price."
    )
    assert second.count("Answer the question as well as you can.") == 0


def test_the_console_labels_are_chinese_in_a_chinese_run(script, tools):
    _, _, events = logged_run(script, tools, language="zh")
    lines: list[str] = []
    printer = ConsolePrinter(
        lines.append, language="zh", color=False, stream_tokens=False, show_prompts=True
    )
    for event in events:
        printer(event)
    assert lines[0] == "── 第 1 次调用的提示词 ──"
    assert "[system] （与第 1 次调用相同）" in lines
    assert any(line.startswith("── 第 2 次调用的原始回复（") for line in lines)


def test_a_sub_agents_calls_are_left_out(script, tools):
    inner = script("Action: calculator\nAction Input: 17 * 23", "Final Answer: 391")
    sub = CustomReActAgent(inner.model, tools).as_tool(name="math_agent", description="Math.")
    outer = script("Action: math_agent\nAction Input: 17 * 23", "Final Answer: 391")
    log = PromptLog()
    list(CustomReActAgent(outer.model, [sub]).stream("17 * 23?", {"callbacks": [log]}))
    assert [call.messages for call in log.calls] == outer.prompts
