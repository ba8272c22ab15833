"""`CustomReActAgent`: the ReAct loop, written as one `while` you can read top to bottom.

Each turn: show the model the question and every earlier step (`scratchpad.py`), let it write its
next Thought and step, parse that (`parser.py`), then finish with the Final Answer or run one tool
(`acting.py`) and record its Observation (`events.ToolStep`, kept in `memory.py`). The options
are `settings.AgentSettings`; `runnable.py` makes the loop a LangChain `Runnable`.

The loop never calls the model or a tool itself: it yields a `calls.Call` and is sent the result
(`reply = yield from ...`). `invoke` makes each call, `ainvoke` awaits it: one loop for both.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Sequence
from functools import partial
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool

from custom_react import events as ev
from custom_react import toolbox
from custom_react.acting import act
from custom_react.budget import TokenCounter, fit_steps, prompt_budget
from custom_react.calls import Steps
from custom_react.formats import ReActFormat, get_format
from custom_react.labels import check_language
from custom_react.memory import RunMemory
from custom_react.model_call import (
    CUT_OFF,
    MODEL_FAILED,
    ModelCallPolicy,
    ModelFailure,
    call_model,
    was_cut_off,
)
from custom_react.parser import Action, FinalAnswer, ParseError
from custom_react.runnable import AgentInput, StepRunnable, read_input
from custom_react.scratchpad import render_scratchpad
from custom_react.settings import AgentSettings

STOPPED_MESSAGE = "Agent stopped due to iteration limit or time limit."


class CustomReActAgent(StepRunnable):
    """A text-ReAct agent over any LangChain chat model and tools.

    `CustomReActAgent(llm, tools, **options)`: the model needs no tool-calling support, it reads
    and writes plain text. The options and their defaults are `settings.AgentSettings`.
    """

    def _loop(self, agent_input: AgentInput, config: RunnableConfig) -> Steps[None]:
        """The ReAct loop: yields each step event; the last one is always `RunFinished`."""
        memory = RunMemory(*read_input(agent_input), observe=self.format.render_observation)
        calls = ModelCallPolicy(retries=self.settings.model_retries)
        started, iterations, failures = time.monotonic(), 0, 0
        while True:
            limit = self.settings.limit_reached(iterations, started, failures, memory.tokens)
            if limit is not None:
                output, generated = yield from self._stop_early(memory, calls, config)
                yield ev.LimitReached(limit, iterations, answer_generated=generated)
                yield ev.RunFinished(memory.result(output, limit, iterations))
                return
            iterations += 1
            # Thought: the model reads the question and every earlier step, then writes one step.
            try:
                reply = yield from self._think(memory, calls, config)
            except ModelFailure as failure:
                # The model failed for good (after retries): end the run, keeping every step.
                output = f"{MODEL_FAILED} {failure}"
                yield ev.RunFinished(memory.result(output, "model_error", iterations, str(failure)))
                return
            try:
                step = self._parse(reply)
            except ParseError as error:
                # The model broke the format: its error becomes the next Observation.
                failures += 1
                bad_step = ev.ParseFailure(reply.text, str(error), failures, iterations)
                memory.record(bad_step)
                yield bad_step
                continue
            failures = 0
            if isinstance(step, FinalAnswer):
                # Final Answer: the model says it is done; the run ends with its words.
                final = ev.FinalAnswerEvent(step.output, step.thought, iterations, step.log)
                memory.record(final)
                yield final
                yield ev.RunFinished(memory.result(step.output, "final_answer", iterations))
                return
            # Action: run exactly one tool; whatever it returns (or raises) is the Observation.
            yield from self._act(step, memory, iterations, config)

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
        if was_cut_off(reply, self.format.stop):
            raise ParseError(CUT_OFF, reply.text)
        return self.format.parse(reply.text)

    def _act(
        self, action: Action, memory: RunMemory, iteration: int, config: RunnableConfig
    ) -> Steps[None]:
        """Announce the Action, get its Observation, record and yield the finished `ToolStep`."""
        call_id = f"call_{uuid.uuid4().hex[:12]}"
        tool = toolbox.resolve_tool(action.tool, self.tools)
        name = tool.name if tool else action.tool
        args, tool_input = toolbox.bind_arguments(tool, action.tool_input)  # onto the tool's schema
        yield ev.ActionEvent(action.thought, name, tool_input, call_id, iteration)
        # Observation: the tool's result, or why it did not run (`acting.py`); the model reads either.
        observation, status = yield from act(
            tool, action.tool, args, memory, self.tools, self.settings, config
        )
        step = ev.ToolStep(
            thought=action.thought,
            tool=name,
            tool_input=tool_input,
            args=args,
            tool_call_id=call_id,
            observation=toolbox.truncate(observation, self.settings.max_observation_chars),
            status=status,
            iteration=iteration,
            log=action.log,
        )
        memory.record(step)
        yield ev.ObservationEvent(step)

    def _stop_early(
        self, memory: RunMemory, calls: ModelCallPolicy, config: RunnableConfig
    ) -> Steps[tuple[str, bool]]:
        """On a limit: the fixed message, or the model's answer from one more call ("generate")."""
        if self.settings.early_stopping_method == "force":
            return STOPPED_MESSAGE, False
        try:
            reply = yield from self._think(memory, calls, config, self.format.final_answer_nudge)
            step = self._parse(reply)
        except (ParseError, ModelFailure):
            return STOPPED_MESSAGE, False
        return (step.output, True) if isinstance(step, FinalAnswer) else (STOPPED_MESSAGE, False)

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
        self.watch(self.settings.verbose, self.settings.language)  # print every event if verbose
