"""The run's memory: the list of step records, the run's counters, and everything derived from them.

`open_run` starts a run from the agent's input: a question string or `{"input": ...,
"chat_history": [...]}` starts a new one; `{"resume": ...}` continues a paused or cut-short run
with its steps (`pausing/state.py` reads it back). `RunMemory` then keeps the question, the chat
history, one record per kept model reply (`steps.Step`: a `ToolStep`, a `ParseFailure`, an
`AnswerRejected` or the `FinalAnswerEvent`), the model calls made, the format errors in a row and the summed token usage.
The LangChain 1.0 messages (an `AIMessage` with the parsed tool call, then its `ToolMessage`: the
shape `create_agent` produces), the legacy `intermediate_steps` and the repeated-action check are
functions of that list, never parallel copies: each record turns itself into its messages. With a
checkpoint store, each record is written as it is kept, and a run of a thread begins with the
thread's earlier questions and answers as its chat history. It decides nothing and renders nothing.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from langchain_core.agents import AgentAction
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.messages.ai import UsageMetadata, add_usage
from langchain_core.runnables import RunnableConfig

from custom_react.events import AgentResult, Ending, StopReason
from custom_react.pausing.approval import Decision
from custom_react.pausing.state import resume_run, run_state
from custom_react.pausing.store import ResumeRefused, RunStore, claimed_elsewhere
from custom_react.pausing.threads import run_thread, thread_turns
from custom_react.prompts import message
from custom_react.running.inputs import AgentInput, read_input
from custom_react.running.model_call import reply_metadata
from custom_react.scratchpad import sent_back
from custom_react.settings import AgentSettings
from custom_react.steps import AnswerRejected, Observe, ParseFailure, Step, ToolStep

StepT = TypeVar("StepT", bound=Step)
RAN = ("ok", "error", "timed_out")
"""The statuses of a tool that really ran (it may have failed)."""


@dataclass
class BaseRun:
    """What every run keeps, ReAct or plan-and-execute.

    The question, the earlier conversation, and the token usage summed over the model's replies.
    """

    question: str
    chat_history: list[BaseMessage] = field(default_factory=list)
    usage: UsageMetadata | None = None

    def count_usage(self, reply: BaseMessage) -> None:
        """Add a model reply's token usage to the run total."""
        if isinstance(reply, AIMessage) and reply.usage_metadata:
            self.usage = add_usage(self.usage, reply.usage_metadata)

    @property
    def tokens(self) -> int:
        """Input plus output tokens of every model call so far (0 when the model reports none)."""
        return self.usage["total_tokens"] if self.usage else 0


@dataclass
class RunMemory(BaseRun):
    """The question and the steps of one ReAct run, in order, with the run's counters."""

    steps: list[Step] = field(default_factory=list)
    observe: Observe = str
    """How the format showed an observation to the model: a format error's user turn holds
    the error as the model read it (`Observation: ...` in the text format)."""
    run_id: str = field(default_factory=lambda: f"run-{uuid.uuid4().hex[:12]}")
    store: RunStore | None = None
    """Where each step is written as it is recorded (`pausing/checkpoints.py`), if anywhere."""
    iterations: int = 0
    """Model calls made so far (a resumed run keeps counting)."""
    failures: int = 0
    """Replies in a row that broke the format."""
    rejections: int = 0
    """Final Answers the checks sent back."""
    started: float = field(default_factory=time.monotonic)
    pending: ToolStep | None = None
    """A resumed run's call that waited for a person's `decision`."""
    decision: Decision | None = None
    thread_id: str | None = None
    """The conversation the run belongs to (`config["configurable"]["thread_id"]`), if any."""
    state_key: str | bytes | None = None
    """Signs the run's state when it pauses (the agent's `state_key`), if set."""
    reply: AIMessage | None = None
    """The model's latest reply (`heard`): the records it writes keep what it carried."""
    asked: HumanMessage | None = None
    """The question as the message it came in (its id, its name), when it came as one."""
    handed: list[BaseMessage] = field(default_factory=list)
    """What was done on the question before this run (`inputs.RunInput.handed`), as it came."""

    def heard(self, reply: AIMessage) -> None:
        """Count the reply's tokens, and keep it for the records it writes (`replied`)."""
        self.count_usage(reply)
        self.reply = reply

    def replied(self, step: StepT) -> StepT:
        """`step` with what the latest reply carried besides its text: its id, usage, metadata.

        Not a step that has them (a call that waited for a person) or that no reply wrote (a
        tool's output as the answer: `returned_by`).
        """
        if getattr(step, "returned_by", "") or step.reply_metadata or self.reply is None:
            return step
        return replace(step, reply_metadata=reply_metadata(self.reply))

    def record(self, step: StepT) -> StepT:
        """Keep one step record (`replied`) and return it (the loop yields it); store it."""
        step = self.replied(step)
        self.steps.append(step)
        if self.store is not None:
            self.store.add_step(self.run_id, len(self.steps) - 1, step.to_dict())
        return step

    def claim(self, call: ToolStep, decision: Decision) -> None:
        """Claim the waiting `call` in the store before it runs (exactly once across processes).

        A call whose result is already recorded is never claimed here: `pausing.state.resume_run`
        goes on from that step, or refuses a stale state, before the run starts.

        Raises:
            ResumeRefused: Another resume of this pause claimed the call first (unless the
                decision rejects it: then nothing runs anyway), or it already ran.
        """
        if self.store is None:
            return
        claim = self.store.claim(self.run_id, call.tool_call_id)
        if claim == "claimed" or (claim == "taken" and decision.kind == "reject"):
            return
        raise ResumeRefused(claimed_elsewhere(self.run_id, call.tool, call.tool_call_id))

    def ran_before(self, call: ToolStep) -> tuple[str | None, int]:
        """The observation of an earlier call the same as `call`, and how often its tool ran.

        Only a call that worked counts as the same call again: one that failed may be tried
        again (its failure may have passed). Every call that ran counts towards the budget.
        """
        earlier: str | None = None
        calls = 0
        for step in self.steps:  # one pass; only this tool's steps are compared
            if not isinstance(step, ToolStep) or step.tool != call.tool or step.status not in RAN:
                continue
            calls += 1
            if earlier is None and step.status == "ok" and step.action_key == call.action_key:
                earlier = step.observation
        return earlier, calls

    def limit_reached(self, settings: AgentSettings) -> StopReason | None:
        """Which of the agent's limits, if any, this run has reached (before a model call)."""
        if self.failures >= settings.max_consecutive_parse_failures:
            return "parse_failures"
        if settings.max_tokens_per_run is not None and self.tokens >= settings.max_tokens_per_run:
            return "token_budget"
        if settings.max_iterations is not None and self.iterations >= settings.max_iterations:
            return "max_iterations"
        time_limit = settings.max_execution_time
        if time_limit is not None and self.elapsed >= time_limit:
            return "max_execution_time"
        return None

    @property
    def elapsed(self) -> float:
        """Seconds since this run (or this part of a resumed run) started."""
        return time.monotonic() - self.started

    def paused(self, call: ToolStep, language: str = "en") -> Ending:
        """The ending of a run that waits for a person's decision about `call` (as `replied`)."""
        call = self.replied(call)
        return Ending(message("paused", language, tool=call.tool), "needs_approval", pending=call)

    def state(self, pending: ToolStep | None = None) -> dict[str, Any]:
        """The run as JSON data, enough to resume it in another process (`pausing/state.py`)."""
        return run_state(
            self.question,
            self.chat_history,
            self.steps,
            self.run_id,
            pending,
            self.thread_id,
            self.state_key,
            self.usage,
            self.asked,
            self.handed,
        )

    def _messages(self, pending: ToolStep | None = None) -> list[BaseMessage]:
        """As `create_agent` returns them: history, question, what came after it, steps, the call.

        The `pending` call waits for a person (an interrupt). What the run made gets an id that
        holds on every resume (`with_ids`): a graph merging by id holds each message once.
        """
        waiting = pending.to_messages(self.observe)[:1] if pending is not None else []
        steps = to_messages(self.steps, self.observe)
        made = with_ids([HumanMessage(self.question), *steps, *waiting], self.run_id)
        return [*self.chat_history, self.asked or made[0], *self.handed, *made[1:]]

    def finish(self, ending: Ending) -> AgentResult:
        """Close the run: the question, every step, the final answer and the totals.

        A run paused for approval also returns its state, to be resumed with.
        """
        result = AgentResult(
            input=self.question,
            output=ending.output,
            messages=self._messages(ending.pending),
            intermediate_steps=to_intermediate_steps(self.steps),
            iterations=self.iterations,
            stop_reason=ending.stop_reason,
            usage=dict(self.usage or {}),
            error=ending.error,
            run_id=self.run_id,
            state=self.state(ending.pending) if ending.pending is not None else None,
            structured_response=ending.structured,
            checks_failed=list(ending.checks_failed),
        )
        if self.store is not None:
            self.store.finish(self.run_id, result)
        return result


def open_run(
    agent_input: AgentInput,
    store: RunStore | None,
    observe: Observe,
    config: RunnableConfig | None = None,
    state_key: str | bytes | None = None,
) -> RunMemory:
    """The memory a run starts with (see the module docstring); registered in `store`, if any.

    A new question of a thread (`thread_id` in `config`, with a `store`) gets the thread's
    earlier questions and answers first in its chat history (`pausing/threads.py`).

    Raises:
        TypeError: The input is neither a question nor a resume.
        ValueError: A resume that cannot continue (see `pausing.state.resume_run`).
    """
    if isinstance(agent_input, dict) and "resume" in agent_input:
        start = resume_run(agent_input, store, state_key)
        memory = RunMemory(
            start.question,
            start.chat_history,
            steps=list(start.steps),
            run_id=start.run_id,
            iterations=start.iterations,
            pending=start.pending,
            decision=start.decision,
            thread_id=start.thread_id,
            usage=start.usage,  # the tokens used before the pause count on
            asked=start.asked,  # the question's message, its id kept
            handed=start.handed,
        )
    else:
        question, chat_history, asked, handed = read_input(agent_input)
        thread = run_thread(config or {}, store)
        if thread is not None and store is not None:
            chat_history = [*thread_turns(store, thread, chat_history), *chat_history]
        memory = RunMemory(
            question, chat_history, thread_id=thread, asked=asked, handed=list(handed)
        )
    memory.observe = observe
    memory.store = store
    memory.state_key = state_key
    if store is not None:
        store.begin(memory.run_id, memory.state())
    return memory


def with_ids(messages: Sequence[BaseMessage], run_id: str) -> list[BaseMessage]:
    """`messages`, one without an id given `run_id-n` (n: its place): the same on every resume."""
    return [
        message if message.id else message.model_copy(update={"id": f"{run_id}-{number}"})
        for number, message in enumerate(messages)
    ]


def to_messages(steps: Sequence[Step], observe: Observe = str) -> list[BaseMessage]:
    """The steps as LangChain messages, each record's own (`ToolStep.to_messages`, ...).

    A reply the run sent back (a format error, an answer a check refused) and the user turn
    that said why are marked `FORMAT_ERROR`, so a conversation's history leaves them out.
    """
    return [
        sent_back(message) if isinstance(step, ParseFailure | AnswerRejected) else message
        for step in steps
        for message in step.to_messages(observe)
    ]


def to_intermediate_steps(steps: Sequence[Step]) -> list[tuple[AgentAction, str]]:
    """`(AgentAction, observation)` pairs, as `AgentExecutor(return_intermediate_steps=True)`."""
    return [pair for step in steps for pair in step.to_intermediate_steps()]
