"""`CustomReActAgent`: the ReAct loop, written as one `while` you can read top to bottom.

Each turn: show the model the question and every earlier step (`scratchpad.py`), let it write its
next Thought and step, parse that (`parser.py`), then finish with the Final Answer or run one tool
(`acting.py`) and record its Observation (`events.ToolStep`, kept in `memory.py`). The options
are `settings.AgentSettings`.

The loop never calls the model or a tool itself: where it needs one, it *asks*. It yields a
`Call` and is sent the answer; everything else it yields is an event for whoever watches. So
`reply = yield from model.reply(prompt)` reads "ask the model for its reply". A driver that
answers the asks is ten lines:

    loop = agent._loop("What is 17 * 23?", {}, stream_tokens=False)
    answer = None
    while True:
        try:
            item = loop.send(answer)  # run the loop on to its next ask or event
        except StopIteration:
            break  # the run is over: its last event was `RunFinished`
        if isinstance(item, Call):
            answer = item.run()  # an ask: make the call (`ainvoke` awaits `item.arun()`)
        else:
            answer = None  # an event: show it; nothing goes back
            print(item)

`invoke` and `stream` run this driver (`running/calls.py`, which also raises a failed call's
error inside the loop); `ainvoke` and `astream` run its twin that awaits `item.arun()`: one loop
serves all four.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import suppress
from functools import partial
from pathlib import Path
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.tools import BaseTool

from custom_react.acting import Observed, act, act_on_decision
from custom_react.events import (
    ActionEvent,
    ApprovalDecided,
    ApprovalRequested,
    Ending,
    LimitReached,
    ObservationEvent,
    RunFinished,
    StopReason,
)
from custom_react.memory import RunMemory, open_run
from custom_react.parser import FinalAnswer, ParseError, parse_step
from custom_react.pausing.approval import ApprovalPause
from custom_react.running.calls import Loop
from custom_react.running.chat_model import chat_model
from custom_react.running.inputs import AgentInput, with_input_system
from custom_react.running.model_call import ModelCaller, ModelFailure, was_cut_off
from custom_react.running.runnable import StepRunnable
from custom_react.running.token_budget import PromptBudget, Shown
from custom_react.scratchpad import readable_history, render_scratchpad
from custom_react.settings import AgentSettings, Approve, Check, FormatName, RunStore
from custom_react.steps import AnswerRejected, FinalAnswerEvent, ParseFailure, Step, ToolStep
from custom_react.toolbox import Toolbox


class CustomReActAgent(StepRunnable):
    """A text-ReAct agent over any LangChain chat model and tools.

    `CustomReActAgent(llm, tools, max_iterations=5)`: the model needs no tool-calling support, it
    reads and writes plain text. Each option is a keyword, documented in `settings.AgentSettings`.
    """

    def _loop(
        self, agent_input: AgentInput, config: RunnableConfig, stream_tokens: bool
    ) -> Loop[None]:
        """One run: the ReAct loop, then its result; the last event is always `RunFinished`."""
        # A question of a conversation (a thread, with a store) sees its earlier questions and answers.
        run = open_run(
            agent_input, self.store, self.format.render_observation, config, self.settings.state_key
        )
        retries = self.settings.model_retries
        model = ModelCaller(self.llm, config, self.stop, stream_tokens, retries, self.format.parse)
        ending = yield from self._react(run, model, config)
        yield RunFinished(run.finish(ending))  # every run ends here, with its result

    def _react(self, run: RunMemory, model: ModelCaller, config: RunnableConfig) -> Loop[Ending]:
        """Think, then answer or act, until the Final Answer or a limit."""
        # A paused run first carries out the person's decision (a sub-agent may pause again).
        if (paused := (yield from self._resume(run, config))) is not None:
            return paused
        unfinished = ""  # a reply that stopped after its Thought: the model goes on from it
        while (limit := run.limit_reached(self.settings)) is None:
            run.iterations += 1
            # Thought: the model reads the question and every earlier step, then writes one step.
            try:
                reply = yield from self._think(run, model, unfinished=unfinished)
            except ModelFailure as failure:
                # The model failed for good (after retries): the run ends, keeping every step.
                stopped = self.settings.stop_message("model_error", error=failure)
                return Ending(stopped, "model_error", error=str(failure))
            try:
                step = self._parse(reply)
            except ParseError as error:
                # A Thought, then nothing: the next call shows it, and the model goes on (once).
                unfinished = reply.text if error.thought_only and not unfinished else ""
                if unfinished:
                    continue
                # The model broke the format: its error becomes the next Observation.
                run.failures += 1
                yield run.record(ParseFailure(reply.text, str(error), run.failures, run.iterations))
                continue
            unfinished = ""
            if isinstance(step, FinalAnswer):
                # Final Answer: the model says it is done; the run ends with it, unless it is
                # not the answer asked for (then why goes back to the model).
                ending = yield from self._answer(step, reply.text, run)
            else:
                # Action: run exactly one tool; whatever it returns (or raises) is the Observation.
                ending = yield from self._act(step, run, config)
            if ending is not None:
                return ending
        return (yield from self._stop_early(limit, run, model))

    def _act(self, action: ToolStep, run: RunMemory, config: RunnableConfig) -> Loop[Ending | None]:
        """Announce the Action, run its tool, record the step; an ending when the run stops here."""
        request, tool = self.toolbox.request(action, run.iterations)  # bound to its tool, once
        yield ActionEvent(request)
        # Observation: the tool's result, or why it did not run; the model reads either.
        try:
            observed = yield from act(request, tool, self.toolbox, run, config)
        except ApprovalPause as pause:
            # The tool (or a sub-agent it runs) needs a person's approval: the run ends, resumable.
            yield ApprovalRequested(pause.call, run.run_id)
            return run.paused(pause.pending, self.language)
        return (yield from self._observe(request, observed, run))

    def _observe(self, call: ToolStep, observed: Observed, run: RunMemory) -> Loop[Ending | None]:
        """Record the step with its Observation; an ending when the tool's output is the answer."""
        observation, status, artifact = observed
        step = call.observed(self.toolbox.shorten(observation), status, artifact)
        yield ObservationEvent(run.record(step))
        # An input the tool's schema refuses counts like a format error; a step that ran resets it.
        run.failures = run.failures + 1 if status == "invalid_input" else 0
        if status == "ok" and self.toolbox.returns_directly(call.tool):
            # The tool's output is the answer itself (`return_direct`): no more model calls.
            answer = FinalAnswerEvent(observation, "", run.iterations, returned_by=call.tool)
            yield run.record(answer)
            return Ending(observation, "final_answer")
        return None

    def _answer(self, step: FinalAnswer, reply: str, run: RunMemory) -> Loop[Ending | None]:
        """The run's ending with this Final Answer; None when it goes back to the model."""
        # With no schema and no checks: the answer as written, unless it repeats a loop message.
        verdict = self.answers.review(
            step, run.steps, run.question, run.rejections, run.chat_history
        )
        if verdict.invalid is not None:
            # Not the JSON the schema asks for: a format error, and why is the next Observation.
            run.failures += 1
            failure = ParseFailure(step.log or reply, verdict.invalid, run.failures, run.iterations)
            yield run.record(failure)
            return None
        run.failures = 0
        if verdict.sent_back:
            # A check failed and retries are left: the problems are the next Observation.
            run.rejections += 1
            rejected = AnswerRejected(verdict.output, verdict.problems, run.iterations, step.log)
            yield run.record(rejected)
            return None
        yield run.record(FinalAnswerEvent(verdict.output, step.thought, run.iterations, step.log))
        return Ending.answered(verdict, "final_answer")  # retries ran out: with what still fails

    def _think(
        self, run: RunMemory, model: ModelCaller, note: str = "", unfinished: str = ""
    ) -> Loop[AIMessage]:
        """Ask the model once, with the question and every earlier step; return its reply.

        After `unfinished` (a reply that stopped after its Thought) the model goes on from it.
        """
        build = partial(self._prompt, run, note=note, unfinished=unfinished)
        shown = Shown(run.steps, run.chat_history, run.handed)
        if self.budget is not None:  # what does not fit goes: old conversation, old observations
            shown = self.budget.fit(shown, build)
        reply = yield from model.reply(build(*shown), unfinished=unfinished)
        run.heard(reply)
        return reply

    def _prompt(
        self,
        run: RunMemory,
        steps: Sequence[Step],
        history: Sequence[BaseMessage],
        handed: Sequence[BaseMessage],
        note: str = "",
        unfinished: str = "",
    ) -> list[BaseMessage]:
        """The messages the model reads: system prompt (with the input's), history, question, steps."""
        scratchpad = render_scratchpad(
            steps, self.format.render_observation, self.format.cue, note, unfinished, handed
        )
        messages = self.prompt.format_messages(
            input=run.question, chat_history=readable_history(history), agent_scratchpad=scratchpad
        )
        return with_input_system(messages, run.chat_history)  # one system turn, first

    def _parse(self, reply: AIMessage) -> ToolStep | FinalAnswer:
        """The step in the reply; cut off at the model's token limit inside it, a format error."""
        cut_off = was_cut_off(reply, self.format.stop)
        return parse_step(reply.text, self.format.parse, self.language, cut_off=cut_off)

    def _stop_early(self, limit: StopReason, run: RunMemory, model: ModelCaller) -> Loop[Ending]:
        """End the run at a limit: a message naming it, or the model's answer from one more call."""
        stopped = self.settings.stop_message(limit)  # the limit, named, in the run's language
        reached_at = run.iterations  # model calls made when the limit came
        if self.settings.early_stopping_method == "generate":
            with suppress(ParseError, ModelFailure):
                run.iterations += 1  # one more model call, for the answer only
                nudge = self.format.nudge(self.language)
                step = self._parse((yield from self._think(run, model, nudge)))
                # An answer is held to the schema and the checks too; no retry can follow it.
                verdict = self.answers.last_answer(step, run.steps, run.question, run.chat_history)
                if isinstance(step, FinalAnswer) and verdict is not None:
                    yield LimitReached(limit, reached_at, answer_generated=True)
                    done = FinalAnswerEvent(verdict.output, step.thought, run.iterations, step.log)
                    yield run.record(done)  # recorded as any answer: the run's messages end on it
                    return Ending.answered(verdict, limit)
        yield LimitReached(limit, reached_at)
        return Ending(stopped, limit, error=stopped)

    def _resume(self, run: RunMemory, config: RunnableConfig) -> Loop[Ending | None]:
        """A resumed run's waiting call, as the person decided; an ending when the run ends there."""
        if run.pending is None or run.decision is None:
            return None
        # Claimed in the store first: a second resume of this pause cannot run the call again.
        run.claim(run.pending, run.decision)
        yield ApprovalDecided(run.pending, run.decision)
        try:
            request, observed = yield from act_on_decision(
                run.pending, run.decision, self.toolbox, run, config
            )
        except ApprovalPause as pause:
            yield ApprovalRequested(pause.call, run.run_id)
            return run.paused(pause.pending, self.language)
        return (yield from self._observe(request, observed, run))

    def __init__(
        self,
        llm: BaseChatModel | Runnable[Any, Any] | str,
        tools: Sequence[BaseTool | Callable[..., Any]] = (),
        *,
        max_iterations: int | None = 10,
        max_execution_time: float | None = None,
        early_stopping_method: Literal["force", "generate"] = "force",
        stop: Sequence[str] | Literal["format"] | None = "format",
        max_consecutive_parse_failures: int = 3,
        max_observation_chars: int | None = 2000,
        repeated_action: Literal["warn", "allow"] = "warn",
        max_tool_calls: int | None = None,
        system_prompt: str | SystemMessage = "",
        language: str = "en",
        examples: str | bool | None = True,
        format: FormatName = "text",
        environment: bool | str | Path = False,
        approve: Approve | None = None,
        approval: Literal["callback", "interrupt"] = "callback",
        interrupt_before: Sequence[str] = (),
        state_key: str | bytes | None = None,
        tool_timeout: float | None = None,
        tool_retries: int = 0,
        tool_retry_delay: float = 0.5,
        checkpoint: RunStore | None = None,
        verbose: bool = False,
        max_prompt_tokens: int | None = None,
        max_tokens_per_run: int | None = None,
        model_retries: int = 2,
        response_format: Any = None,
        final_answer_checks: Sequence[Check] = (),
        max_answer_retries: int = 2,
    ) -> None:
        """Build it from a chat model (or "provider:model"), tools and options (`AgentSettings`)."""
        self.settings = AgentSettings.of(locals())  # every option above, by its name
        self._assemble(chat_model(llm), tools)

    def _assemble(self, llm: BaseChatModel, tools: Sequence[BaseTool | Callable[..., Any]]) -> None:
        """Make what the loop uses from the model, the tools and the settings."""
        self.llm = llm
        self.toolbox = Toolbox(tools, self.settings.tool_options())  # plain functions become tools
        self.tools = self.toolbox.tools
        self.format = self.settings.react_format.reading_calls_of(self.tools)
        self.language = self.settings.language
        self.answers = self.settings.answer_rules(self.tools)
        self.prompt = self.settings.prompt(self.tools, self.answers)  # tools, format, examples
        self.stop = self.settings.stop_sequences(self.format.stop)
        self.budget = PromptBudget.of(llm, self.settings.max_prompt_tokens, self.language)
        self.store = self.settings.checkpoint
        self.watch(self.settings.verbose, self.language)  # print every event if verbose
