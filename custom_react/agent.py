"""`CustomReActAgent`: the ReAct loop, written as one `while` you can read top to bottom.

Each turn: show the model the question and every earlier step (`scratchpad.py`), let it write its
next Thought and step, parse that (`parser.py`), then finish with the Final Answer or run one tool
(`acting.py`) and record its Observation (`events.ToolStep`, kept in `memory.py`). Options:
`settings.AgentSettings`; `runnable.py` makes the loop a `Runnable`; pausing: `approval.py`.

It never calls the model or a tool itself: it yields a `calls.Call` and is sent the result
(`reply = yield from ...`); `invoke` makes each call, `ainvoke` awaits it: one loop for both.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from contextlib import suppress
from functools import partial
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool

from custom_react import events as ev
from custom_react import model_call, toolbox
from custom_react.acting import act, decide, pauses
from custom_react.approval import ActionRequest, ApprovalDecided, ApprovalRequested
from custom_react.budget import TokenCounter, fit_steps, prompt_budget
from custom_react.calls import Steps
from custom_react.checkpoints import open_store
from custom_react.formats import ReActFormat, get_format
from custom_react.labels import check_language
from custom_react.memory import RunMemory
from custom_react.model_call import ModelCallPolicy, ModelFailure, call_model
from custom_react.parser import Action, FinalAnswer, ParseError
from custom_react.runnable import AgentInput, StepRunnable
from custom_react.scratchpad import render_scratchpad
from custom_react.settings import AgentSettings
from custom_react.state import RunStart, open_run

STOPPED_MESSAGE = "Agent stopped due to iteration limit or time limit."


class CustomReActAgent(StepRunnable):
    """A text-ReAct agent over any LangChain chat model and tools.

    `CustomReActAgent(llm, tools, **options)`: the model needs no tool-calling support, it reads
    and writes plain text. The options and their defaults are `settings.AgentSettings`.
    """

    def _loop(self, agent_input: AgentInput, config: RunnableConfig) -> Steps[None]:
        """The ReAct loop: yields each step event; the last one is always `RunFinished`."""
        start = open_run(agent_input, self.store)  # a new question, or a paused or cut-short run
        memory = RunMemory.begin(start, self.format.render_observation, self.store)
        calls = ModelCallPolicy(retries=self.settings.model_retries)
        started, iterations, failures = time.monotonic(), start.iterations, 0
        yield from self._resume(start, memory, config)  # after a pause: the person's decision
        while True:
            limit = self.settings.limit_reached(iterations, started, failures, memory.tokens)
            if limit is not None:
                yield from self._stop_early(limit, iterations, memory, calls, config)
                return
            iterations += 1
            # Thought: the model reads the question and every earlier step, then writes one step.
            try:
                reply = yield from self._think(memory, calls, config)
            except ModelFailure as failure:
                # The model failed for good (after retries): end the run, keeping every step.
                output = f"{model_call.MODEL_FAILED} {failure}"
                yield ev.RunFinished(memory.result(output, "model_error", iterations, str(failure)))
                return
            try:
                step = self._parse(reply)
            except ParseError as error:
                # The model broke the format: its error becomes the next Observation.
                failures += 1
                yield memory.record(ev.ParseFailure(reply.text, str(error), failures, iterations))
                continue
            failures = 0
            if isinstance(step, FinalAnswer):
                # Final Answer: the model says it is done; the run ends with its words.
                final = ev.FinalAnswerEvent(step.output, step.thought, iterations, step.log)
                yield memory.record(final)
                yield ev.RunFinished(memory.result(step.output, "final_answer", iterations))
                return
            # Action: run exactly one tool; whatever it returns (or raises) is the Observation.
            if (yield from self._act(step, memory, iterations, config)) == "paused":
                return  # the tool needs a person's approval first: resume with their decision

    def _think(
        self, memory: RunMemory, calls: ModelCallPolicy, config: RunnableConfig, note: str = ""
    ) -> Steps[AIMessage]:
        """Call the model once with the question and every earlier step; return its reply."""
        build = partial(self._prompt, memory, note=note)
        # Older observations are shortened when the prompt would not fit the token budget.
        steps = fit_steps(memory.steps, build, self.max_prompt_tokens, self.count_tokens)
        reply = yield from call_model(self.llm, build(steps), config, self.stop, calls)
        memory.count_usage(reply)
        return reply

    def _prompt(
        self, memory: RunMemory, steps: Sequence[ev.Step], note: str = ""
    ) -> list[BaseMessage]:
        """The messages the model reads: system prompt, question, then the steps as one transcript."""
        scratchpad = render_scratchpad(steps, self.format.render_observation, self.format.cue, note)
        return self.prompt.format_messages(
            input=memory.question, chat_history=memory.chat_history, agent_scratchpad=scratchpad
        )

    def _parse(self, reply: AIMessage) -> Action | FinalAnswer:
        """The step in the reply; a reply cut off at the model's token limit is a format error."""
        if model_call.was_cut_off(reply, self.format.stop):
            raise ParseError(model_call.CUT_OFF, reply.text)
        return self.format.parse(reply.text)

    def _act(
        self, action: Action, memory: RunMemory, iteration: int, config: RunnableConfig
    ) -> Steps[Literal["done", "paused"]]:
        """Announce the Action; yield its finished `ToolStep`, or pause the run for approval."""
        tool = toolbox.resolve_tool(action.tool, self.tools)
        args, tool_input = toolbox.bind_arguments(tool, action.tool_input)  # onto the tool's schema
        name = tool.name if tool else action.tool
        call = ActionRequest.of(action, name, tool_input, args, iteration)
        yield ev.ActionEvent(call.thought, call.tool, tool_input, call.tool_call_id, iteration)
        if pauses(tool, self.settings):  # it needs approval: the run ends here, resumable
            yield ApprovalRequested(call, memory.run_id)
            yield ev.RunFinished(memory.paused(call, iteration))
            return "paused"
        # Observation: the tool's result, or why it did not run (`acting.py`); the model reads either.
        observation, status = yield from act(
            tool, action.tool, args, memory, self.tools, self.settings, config
        )
        yield self._record(call, observation, status, memory)
        return "done"

    def _resume(self, start: RunStart, memory: RunMemory, config: RunnableConfig) -> Steps[None]:
        """A resumed run's waiting call, as the person decided (approve, edit or reject)."""
        if start.pending is None or start.decision is None:
            return
        yield ApprovalDecided(start.pending, start.decision)
        tool = toolbox.resolve_tool(start.pending.tool, self.tools)
        observation, status, call = yield from decide(start.pending, start.decision, tool, config)
        yield self._record(call, observation, status, memory)

    def _record(
        self, call: ActionRequest, observation: str, status: ev.ObservationStatus, memory: RunMemory
    ) -> ev.ObservationEvent:
        """The finished step: recorded in the memory (and the store), returned to be yielded."""
        cut = toolbox.truncate(observation, self.settings.max_observation_chars)
        step = ev.ToolStep(**call.to_dict(), observation=cut, status=status)
        memory.record(step)
        return ev.ObservationEvent(step)

    def _stop_early(
        self,
        limit: ev.StopReason,
        iterations: int,
        memory: RunMemory,
        calls: ModelCallPolicy,
        config: RunnableConfig,
    ) -> Steps[None]:
        """End the run at a limit: the fixed message, or the model's answer from one more call."""
        output, generated = STOPPED_MESSAGE, False
        if self.settings.early_stopping_method == "generate":
            with suppress(ParseError, ModelFailure):
                nudge = self.format.final_answer_nudge
                step = self._parse((yield from self._think(memory, calls, config, nudge)))
                if isinstance(step, FinalAnswer):
                    output, generated = step.output, True
        yield ev.LimitReached(limit, iterations, answer_generated=generated)
        yield ev.RunFinished(memory.result(output, limit, iterations))

    def __init__(self, llm: BaseChatModel, tools: Sequence[BaseTool], **options: Any) -> None:
        """Build the agent: the model, its tools, and any `AgentSettings` option by keyword."""
        self.settings = AgentSettings(**options)
        self.llm = llm
        self.tools = list(tools)
        self.format: ReActFormat = get_format(self.settings.format)
        self.prompt = self.format.build_prompt(
            self.tools,
            language=check_language(self.settings.language),
            examples=self.settings.examples,
            environment=self.settings.environment,
        )
        self.stop = self.settings.stop_sequences(self.format.stop)
        self.max_prompt_tokens = self.settings.max_prompt_tokens or prompt_budget(llm)
        self.count_tokens = TokenCounter(llm)
        self.store = open_store(self.settings.checkpoint)
        self.watch(self.settings.verbose, self.settings.language)  # print every event if verbose
