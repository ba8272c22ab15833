"""Live tokens: the model's reply as it is written, in the event stream and on the console.

Scripted models stream each reply word by word (or `chunk_size` characters at a time). The step
events are the same with and without tokens; the printer shows the Thought in several pieces,
never a made-up Observation, and with `stream_tokens=False` nothing partial at all.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AIMessageChunk
from langchain_core.outputs import ChatGenerationChunk
from pydantic import Field

from custom_react import ConsolePrinter, CustomReActAgent
from custom_react.events import ReplyToken
from custom_react.parsing.markers import reply_sections
from custom_react.running.prompt_log import PromptLog
from custom_react.testing import ScriptedError
from tests.conftest import summarize
from tests.core.test_printing import SCRIPTS

TOOL_STEP = "I should compute it.\nAction: calculator\nAction Input: 2 + 2"
MADE_UP = TOOL_STEP + "\nObservation: 5, I think\nThought: so it is 5\nFinal Answer: 5"
ANSWER = "I know it now.\nFinal Answer: It is 4."


class Screen:
    """A printer's two sinks, whole lines and pieces, joined in the order they were written."""

    def __init__(self) -> None:
        self.writes: list[str] = []
        self.pieces: list[str] = []

    def line(self, text: str) -> None:
        self.writes.append(text + "\n")

    def piece(self, text: str) -> None:
        self.writes.append(text)
        self.pieces.append(text)

    @property
    def text(self) -> str:
        return "".join(self.writes)


def printer_for(screen: Screen, **options) -> ConsolePrinter:
    return ConsolePrinter(screen.line, write_token=screen.piece, color=False, **options)


def test_stream_tokens_yields_the_reply_in_pieces_before_its_step(script, tools):
    agent = CustomReActAgent(script(TOOL_STEP, ANSWER).model, tools)
    events = list(agent.stream("2 + 2?", stream_tokens=True))
    first_step = next(i for i, e in enumerate(events) if e.type == "action")
    tokens = [e.text for e in events[:first_step] if isinstance(e, ReplyToken)]
    assert len(tokens) > 5 and "".join(tokens) == TOOL_STEP


def test_the_steps_are_the_same_with_and_without_tokens(script, tools):
    plain = CustomReActAgent(script(MADE_UP, ANSWER).model, tools)
    streamed = CustomReActAgent(script(MADE_UP, ANSWER).model, tools)
    without = summarize(list(plain.stream("2 + 2?")))
    with_tokens = [
        e for e in streamed.stream("2 + 2?", stream_tokens=True) if e.type != "reply_token"
    ]
    assert summarize(with_tokens) == without


def test_astream_yields_tokens_too_and_ainvoke_returns_the_same_result(script, tools):
    agent = CustomReActAgent(script(TOOL_STEP, ANSWER, TOOL_STEP, ANSWER).model, tools)

    async def run():
        events = [event async for event in agent.astream("2 + 2?", stream_tokens=True)]
        return events, await agent.ainvoke("2 + 2?")

    events, result = asyncio.run(run())
    assert sum(isinstance(e, ReplyToken) for e in events) > 10
    assert events[-1].result.output == result["output"] == "It is 4."


def test_without_stream_tokens_no_token_event_is_yielded(script, tools):
    agent = CustomReActAgent(script(TOOL_STEP, ANSWER).model, tools)
    assert not any(isinstance(e, ReplyToken) for e in agent.stream("2 + 2?"))


def test_a_reply_cut_at_the_token_limit_is_still_seen_when_streamed(script, tools):
    cut = AIMessage(content="I should", response_metadata={"finish_reason": "length"})
    agent = CustomReActAgent(script(cut, ANSWER).model, tools)
    events = [e for e in agent.stream("2 + 2?", stream_tokens=True) if e.type != "reply_token"]
    assert summarize(events)[0] == ("parse_failure", 1)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_pipe_shows_the_same_transcript_as_without_tokens(script, tools, language):
    question, replies = SCRIPTS[language]
    replies = [reply for reply in replies if "something without a step" not in reply]
    before, after = Screen(), Screen()
    agent = CustomReActAgent(script(*replies).model, tools, language=language)
    for event in agent.stream(question):
        printer_for(before, language=language)(event)  # one printer per event is fine: no draft
    streamed = CustomReActAgent(script(*replies).model, tools, language=language)
    printer = printer_for(after, language=language)
    for event in streamed.stream(question, stream_tokens=True):
        printer(event)
    assert after.text == before.text  # nothing printed twice, nothing lost
    assert len(after.pieces) > 5


def test_verbose_shows_the_thought_in_several_pieces_before_the_action_line(script, tools):
    screen = Screen()
    agent = CustomReActAgent(script(TOOL_STEP, ANSWER).model, tools, verbose=True)
    agent.printer = printer_for(screen)
    agent.invoke("2 + 2?")
    action_at = next(i for i, text in enumerate(screen.writes) if "Action:" in text)
    thought = [text for text in screen.writes[:action_at] if text.strip()]
    assert len(thought) >= 3 and "".join(thought) == "Thought: I should compute it."


def test_the_display_stops_at_a_made_up_observation(script, tools):
    screen = Screen()
    agent = CustomReActAgent(script(MADE_UP, ANSWER).model, tools)
    printer = printer_for(screen)
    for event in agent.stream("2 + 2?", stream_tokens=True):
        printer(event)
    assert "5, I think" not in screen.text and "so it is 5" not in screen.text
    assert "Observation: 4\n" in screen.text  # the real one, from the tool


def test_a_terminal_dims_the_draft_then_erases_it_for_the_coloured_step(script, tools):
    screen = Screen()
    printer = ConsolePrinter(screen.line, write_token=screen.piece, color=True)
    agent = CustomReActAgent(script(TOOL_STEP, ANSWER).model, tools)
    for event in agent.stream("2 + 2?", stream_tokens=True):
        printer(event)
    assert screen.pieces[0].startswith("\x1b[2m")  # dimmed while it is written
    assert "\r\x1b[2A\x1b[J" in screen.pieces  # three lines of draft erased
    assert "\x1b[33mAction: \x1b[0mcalculator\n" in screen.writes


def test_stream_tokens_off_shows_no_partial_text(script, tools):
    screen = Screen()
    agent = CustomReActAgent(script(TOOL_STEP, ANSWER).model, tools)
    printer = printer_for(screen, stream_tokens=False)
    for event in agent.stream("2 + 2?", stream_tokens=True):
        printer(event)
    assert screen.pieces == [] and screen.writes[0] == "Thought: I should compute it.\n"


def test_watch_without_stream_tokens_calls_the_model_whole(script, tools):
    used = script(TOOL_STEP, ANSWER)
    agent = CustomReActAgent(used.model, tools, verbose=True)
    agent.watch(True, stream_tokens=False)
    assert agent.printer is not None and not agent.printer.stream_tokens
    assert agent.invoke("2 + 2?")["output"] == "It is 4."


@pytest.mark.parametrize(
    ("text", "sections"),
    [
        ("I need", [("thought", "I need")]),
        ("I need it.\nAct", [("thought", "I need it.")]),  # a marker still arriving: held back
        ("I need it.\nAction: search\nObserv", [("thought", "I need it."), ("action", "search")]),
        (
            MADE_UP,
            [
                ("thought", "I should compute it."),
                ("action", "calculator"),
                ("action_input", "2 + 2"),
            ],
        ),
        ("先查。\n最终答案：每枝", [("thought", "先查。"), ("final_answer", "每枝")]),
    ],
)
def test_reply_sections_reads_a_reply_so_far_as_the_parser_does(text, sections):
    assert reply_sections(text) == sections


def test_a_streamed_call_that_fails_is_retried_like_a_plain_one(script, tools, monkeypatch):
    monkeypatch.setattr("time.sleep", lambda seconds: None)
    agent = CustomReActAgent(script(ScriptedError("busy", 503), TOOL_STEP, ANSWER).model, tools)
    events = [e for e in agent.stream("2 + 2?", stream_tokens=True) if e.type != "reply_token"]
    assert events[-1].result.output == "It is 4."


def test_a_streamed_call_that_fails_for_good_ends_the_run_with_a_model_error(script, tools):
    agent = CustomReActAgent(script(ScriptedError("bad", 401)).model, tools)
    events = list(agent.stream("2 + 2?", stream_tokens=True))
    assert events[-1].result.stop_reason == "model_error"


RESTATED = "Question: What is 2 + 2?\nThought: " + TOOL_STEP


def test_a_pipe_prints_a_thought_once_when_the_reply_restated_the_question(script, tools):
    screen = Screen()
    printer = printer_for(screen)
    for event in CustomReActAgent(script(RESTATED, ANSWER).model, tools).stream(
        "2 + 2?", stream_tokens=True
    ):
        printer(event)
    lines = screen.text.splitlines()
    assert lines.count("Thought: I should compute it.") == 1
    assert lines.count("Action: calculator") == 1 and lines[-1] == "Final Answer: It is 4."


def test_a_pipe_keeps_its_draft_through_a_model_call_it_does_not_show(script, tools):
    before, after = Screen(), Screen()
    for event in CustomReActAgent(script(TOOL_STEP, ANSWER).model, tools).stream("2 + 2?"):
        printer_for(before)(event)
    log, printer = PromptLog(), printer_for(after)
    agent = CustomReActAgent(script(TOOL_STEP, ANSWER).model, tools)
    events = agent.stream("2 + 2?", {"callbacks": [log]}, stream_tokens=True)
    for event in log.interleave(events):  # as `--save` runs it: the calls among the events
        printer(event)
    assert after.text == before.text


class BreaksMidReply(GenericFakeChatModel):
    """Streams the first reply's opening words, then the connection drops; then the script."""

    broken: list[str] = Field(default_factory=list)

    def _stream(self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any):
        if not self.broken:
            self.broken.append("once")
            for word in ("I should ", "search ", "for it."):
                yield ChatGenerationChunk(message=AIMessageChunk(content=word))
            raise ScriptedError("connection reset", 503)
        yield from super()._stream(messages, stop=stop, run_manager=run_manager, **kwargs)


def breaking_model() -> BreaksMidReply:
    return BreaksMidReply(messages=iter([TOOL_STEP, ANSWER]), broken=[])


def test_a_reply_dropped_mid_stream_is_restarted_not_joined(tools, monkeypatch):
    monkeypatch.setattr("time.sleep", lambda seconds: None)
    events = list(CustomReActAgent(breaking_model(), tools).stream("2 + 2?", stream_tokens=True))
    tokens = [e for e in events if isinstance(e, ReplyToken)]
    restart = next(i for i, token in enumerate(tokens) if token.restart)
    assert "".join(t.text for t in tokens[:restart]) == "I should search for it."
    assert "".join(t.text for t in tokens[restart + 1 :]).startswith(TOOL_STEP)
    assert events[-1].result.output == "It is 4."


def test_the_console_ends_a_dropped_draft_and_writes_the_new_reply_whole(tools, monkeypatch):
    monkeypatch.setattr("time.sleep", lambda seconds: None)
    screen = Screen()
    printer = printer_for(screen)
    for event in CustomReActAgent(breaking_model(), tools).stream("2 + 2?", stream_tokens=True):
        printer(event)
    lines = screen.text.splitlines()
    assert lines[0] == "Thought: I should search for it."  # the dropped draft, ended
    assert lines[1] == "Thought: I should compute it." and "Action: calculator" in lines


def test_stream_final_answer_drops_a_failed_reply(tools, monkeypatch):
    monkeypatch.setattr("time.sleep", lambda seconds: None)

    class BreaksInTheAnswer(BreaksMidReply):
        def _stream(self, messages, stop=None, run_manager=None, **kwargs):
            if not self.broken:
                self.broken.append("once")
                yield ChatGenerationChunk(message=AIMessageChunk(content="Final Answer: It is"))
                raise ScriptedError("connection reset", 503)
            yield from GenericFakeChatModel._stream(self, messages, stop, run_manager, **kwargs)

    model = BreaksInTheAnswer(messages=iter(["Final Answer: It is 4."]), broken=[])
    pieces = list(CustomReActAgent(model, tools).stream_final_answer("2 + 2?"))
    assert "".join(pieces) == "It is 4."


@pytest.mark.parametrize("question", ["what is 2 + 2?", "2 加 2 等于几？"])
def test_a_pipe_never_shows_the_question_restated_as_a_thought(script, tools, question):
    """A reply that opens with `Question:` shows on a pipe as it does without tokens."""
    reply = f"Question: {question}\nThought: {TOOL_STEP}"
    before, after = Screen(), Screen()
    for event in CustomReActAgent(script(reply, ANSWER).model, tools).stream(question):
        printer_for(before)(event)
    printer = printer_for(after)
    streamed = CustomReActAgent(script(reply, ANSWER).model, tools)
    for event in streamed.stream(question, stream_tokens=True):
        printer(event)
    assert after.text == before.text and question not in after.text
    assert after.text.startswith("Thought: I should compute it.\nAction: calculator")
