"""`CustomReActAgent`: the ReAct loop, written as one `while` you can read top to bottom.

Each turn: render the prompt (question + every earlier step), ask the model for its next Thought,
parse the reply, then finish with the Final Answer or run one tool and record its Observation.
The loop is a generator of step events (`custom_react.events`); `StepRunnable` (runnable.py) turns
it into a LangChain `Runnable`. Not here: prompt text (`prompt.py`), the three step formats and
their parsers (`formats.py`), running tools (`toolbox.py`), the message history (`history.py`) and
printing (`printing.py`).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator, Sequence
from typing import Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool

from custom_react import events as ev
from custom_react.formats import GENERATE_FINAL_ANSWER as GENERATE_FINAL_ANSWER
from custom_react.formats import EnvironmentOption, FormatName, get_format
from custom_react.memory import Scratchpad
from custom_react.parser import Action, FinalAnswer, ParseError
from custom_react.printing import ConsolePrinter
from custom_react.runnable import AgentInput, StepRunnable, read_input
from custom_react.toolbox import (
    Approve,
    bind_arguments,
    repeated_action_message,
    resolve_tool,
    run_tool,
    truncate,
    unknown_tool_message,
)

STOPPED_MESSAGE = "Agent stopped due to iteration limit or time limit."


class CustomReActAgent(StepRunnable):
    """A text-ReAct agent over any LangChain chat model and tools.

    Args:
        llm: The chat model. It sees plain text turns; it needs no tool-calling support.
        tools: The tools the model may call by name.
        max_iterations: Most model calls in one run (None: no limit).
        max_execution_time: Most seconds for one run, checked between steps (None: no limit).
        early_stopping_method: On a limit, "force" returns a fixed message; "generate" asks the
            model once more for a final answer from what it has.
        stop: Stop sequences sent to the model so it halts before inventing an Observation
            ("format": the format's own; None for servers that reject `stop`).
        max_consecutive_parse_failures: Format errors in a row that end the run.
        max_observation_chars: Longer observations are cut with a visible marker.
        repeated_action: "warn" answers a repeated (tool, input) with the earlier observation and
            a note instead of running it again; "allow" runs it again.
        language: "en" or "zh": the prompt template (and printed labels).
        examples: Few-shot block for the prompt: None, True (bundled example) or your own text.
        format: How the model writes a step: "text" markers, "xml" tags or a "json" object.
        environment: Put the OS, working folder and its files in the prompt: True for the current
            folder, a path for another, False for none. Listed once, when the agent is built.
        approve: Asked before any tool marked `requires_approval` runs; without it they never run.
        verbose: Print a live transcript to the console.
    """

    def __init__(
        self,
        llm: BaseChatModel,
        tools: Sequence[BaseTool],
        *,
        max_iterations: int | None = 10,
        max_execution_time: float | None = None,
        early_stopping_method: Literal["force", "generate"] = "force",
        stop: Sequence[str] | Literal["format"] | None = "format",
        max_consecutive_parse_failures: int = 3,
        max_observation_chars: int | None = 2000,
        repeated_action: Literal["warn", "allow"] = "warn",
        language: str = "en",
        examples: str | bool | None = None,
        format: FormatName = "text",
        environment: EnvironmentOption = False,
        approve: Approve | None = None,
        verbose: bool = False,
    ) -> None:
        if early_stopping_method not in ("force", "generate"):
            raise ValueError("early_stopping_method must be 'force' or 'generate'.")
        if repeated_action not in ("warn", "allow"):
            raise ValueError("repeated_action must be 'warn' or 'allow'.")
        self.llm, self.tools, self.format = llm, list(tools), get_format(format)
        self.prompt = self.format.build_prompt(
            self.tools, language=language, examples=examples, environment=environment
        )
        self.max_iterations, self.max_execution_time = max_iterations, max_execution_time
        self.early_stopping_method, self.repeated_action = early_stopping_method, repeated_action
        self.stop = list(self.format.stop if stop == "format" else stop or ()) or None
        self.max_consecutive_parse_failures = max_consecutive_parse_failures
        self.max_observation_chars, self.approve = max_observation_chars, approve
        self.printer = ConsolePrinter(language=language) if verbose else None

    # -- The ReAct loop -------------------------------------------------------------------------

    def _loop(self, agent_input: AgentInput, config: RunnableConfig) -> Iterator[ev.AgentEvent]:
        """The ReAct loop: yields each step event; the last one is always `RunFinished`."""
        scratchpad = Scratchpad(
            *read_input(agent_input), observe=self.format.render_observation, cue=self.format.cue
        )
        started, iterations, failures = time.monotonic(), 0, 0
        while True:
            if (limit := self._limit_reached(iterations, started, failures)) is not None:
                yield ev.LimitReached(limit, iterations)
                output = self._stop_early(scratchpad, config)
                yield ev.RunFinished(scratchpad.result(output, limit, iterations))
                return
            iterations += 1
            # Thought: the model reads the question and every earlier step, then writes one step.
            reply = self._think(scratchpad, config)
            try:
                step = self.format.parse(reply)
            except ParseError as error:
                # The model broke the format: its error becomes the next Observation.
                failures += 1
                scratchpad.add_parse_failure(reply, str(error))
                yield ev.ParseFailure(reply, str(error), failures)
                continue
            failures = 0
            if isinstance(step, FinalAnswer):
                scratchpad.add_final_answer(step.log)
                yield ev.FinalAnswerEvent(step.output, step.thought)
                yield ev.RunFinished(scratchpad.result(step.output, "final_answer", iterations))
                return
            # Action: run exactly one tool; whatever it returns (or raises) is the Observation.
            yield from self._act(step, scratchpad, iterations, config)

    def _think(
        self, scratchpad: Scratchpad, config: RunnableConfig, extra: Sequence[BaseMessage] = ()
    ) -> str:
        """Call the model once with the question and every earlier step; return its reply text."""
        steps = scratchpad.render(*extra)  # "\nThought: ...\nObservation: ...\nThought: "
        messages = self.prompt.format_messages(
            input=scratchpad.question, chat_history=scratchpad.chat_history, agent_scratchpad=steps
        )
        reply = self.llm.invoke(messages, config=config, stop=self.stop)
        scratchpad.count_usage(reply)
        return reply.text

    def _act(
        self, step: Action, scratchpad: Scratchpad, iteration: int, config: RunnableConfig
    ) -> Iterator[ev.AgentEvent]:
        call_id = f"call_{uuid.uuid4().hex[:12]}"
        tool = resolve_tool(step.tool, self.tools)
        name = tool.name if tool else step.tool
        args, tool_input = bind_arguments(tool, step.tool_input)  # onto the tool's schema
        yield ev.ActionEvent(step.thought, name, tool_input, call_id, iteration)
        status: ev.ObservationStatus = "ok"
        earlier = scratchpad.previous_observation(name, args) if tool else None
        if tool is None:
            observation, status = unknown_tool_message(step.tool, self.tools), "unknown_tool"
        elif earlier is not None and self.repeated_action == "warn":
            observation, status = repeated_action_message(name, earlier), "repeated"
        else:
            observation, failed = run_tool(tool, args, config, self.approve)
            status = "error" if failed else "ok"
        observation = truncate(observation, self.max_observation_chars)
        scratchpad.add_step(
            log=step.log, tool=name, tool_input=tool_input, args=args, call_id=call_id,
            observation=observation, is_error=status != "ok",
        )  # fmt: skip
        yield ev.ObservationEvent(name, observation, call_id, status)

    def _limit_reached(
        self, iterations: int, started: float, failures: int
    ) -> ev.StopReason | None:
        if failures >= self.max_consecutive_parse_failures:
            return "parse_failures"
        if self.max_iterations is not None and iterations >= self.max_iterations:
            return "max_iterations"
        elapsed = time.monotonic() - started
        if self.max_execution_time is not None and elapsed >= self.max_execution_time:
            return "max_execution_time"
        return None

    def _stop_early(self, scratchpad: Scratchpad, config: RunnableConfig) -> str:
        """On a limit: a fixed message ("force"), or one more model call for an answer ("generate")."""
        if self.early_stopping_method == "force":
            return STOPPED_MESSAGE
        nudge: list[BaseMessage] = [HumanMessage(content=self.format.final_answer_nudge)]
        reply = self._think(scratchpad, config, extra=nudge)
        try:
            step = self.format.parse(reply)
        except ParseError:
            return STOPPED_MESSAGE
        return step.output if isinstance(step, FinalAnswer) else STOPPED_MESSAGE
