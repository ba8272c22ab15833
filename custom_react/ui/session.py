"""One learner's runs on the web page: the agent in a thread, paused where the browser decides.

`Session.start(question)` runs `CustomReActAgent` in a thread with `SteppingModel`, a chat model
that hands each call to `Session.model_turn`. There the call is announced (its exact messages
and where they stop repeating the call before), and in step mode the thread waits for the
browser: continue as is, with the learner's own reply instead of the model's, or with the last
message of the prompt edited for that one call. A tool that needs approval waits the same way
(`approve`, the agent's approval callback). Every announcement and every step event becomes one
JSON item in `items`, numbered, which the server streams to the page. `fork(k)` starts the run
again, replaying the replies of calls 1 to k-1 as they were (edits included) and pausing before
call k. The loop is the library's own: nothing here changes what a run does, only who answers.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import BaseTool
from pydantic import ConfigDict

from custom_react.agent import CustomReActAgent
from custom_react.running.prompt_log import ModelCall
from custom_react.running.tokens import prompt_budget
from custom_react.ui.items import call_item, event_item

Live = Callable[[list[BaseMessage], list[str] | None, int], AIMessage]
"""How a call is answered when the learner does not: (messages, stop, call number) -> reply."""


class RunCancelled(RuntimeError):
    """The learner started another run while this one waited: it ends here."""


@dataclass
class Pause:
    """Where the run's thread waits for the browser, and what the browser answered."""

    kind: str = ""
    """What waits: "step" (before a model call), "approval" (before a tool), "" nothing."""
    answer: dict[str, Any] | None = None
    cancelled: bool = False
    condition: threading.Condition = field(default_factory=threading.Condition)

    def wait(self, kind: str) -> dict[str, Any]:
        """Block until the browser answers a pause of this kind (or the run is cancelled)."""
        with self.condition:
            self.kind = kind
            self.answer = None
            while self.answer is None and not self.cancelled:
                self.condition.wait(0.5)
            self.kind = ""
            if self.cancelled:
                raise RunCancelled("a new run started")
            return self.answer or {}

    def give(self, kind: str, answer: dict[str, Any]) -> bool:
        """Answer the pause; False when nothing of that kind waits."""
        with self.condition:
            if self.kind != kind or self.answer is not None:
                return False
            self.answer = answer
            self.condition.notify_all()
            return True

    def cancel(self) -> None:
        """End whatever waits."""
        with self.condition:
            self.cancelled = True
            self.condition.notify_all()


class SteppingModel(BaseChatModel):
    """A chat model whose every call is `Session.model_turn`: the browser may pause or answer it."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    session: Any
    """The `Session` that answers."""
    run: Any
    """The `Run` the calls belong to (a cancelled run's thread must not touch the next one)."""
    counter: Any = None
    """The model the live answers come from, if any: it counts the prompt's tokens."""

    @property
    def _llm_type(self) -> str:
        return "custom-react-ui"

    def get_num_tokens_from_messages(self, messages: list[BaseMessage], tools: Any = None) -> int:
        """The live model's count of `messages` (an estimate when there is none)."""
        if self.counter is None:
            return super().get_num_tokens_from_messages(messages, tools)
        return int(self.counter.get_num_tokens_from_messages(messages))

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        reply = self.session.model_turn(self.run, messages, stop)
        return ChatResult(generations=[ChatGeneration(message=reply)])


@dataclass
class Run:
    """One run: its question, what each call was sent and answered, and how it waits."""

    number: int
    question: str
    step_mode: bool
    replay: list[str] = field(default_factory=list)
    """Replies of the run it was forked from, given again to calls 1..len(replay)."""
    prompts: list[list[BaseMessage]] = field(default_factory=list)
    replies: list[str] = field(default_factory=list)
    pause: Pause = field(default_factory=Pause)
    finished: bool = False


class Session:
    """The page's runs: one at a time, each item of the current run kept for the page."""

    def __init__(
        self,
        live: Live,
        tools: Sequence[BaseTool],
        language: str = "en",
        max_iterations: int = 8,
        model: BaseChatModel | None = None,
    ) -> None:
        """A session answering calls with `live` (the model, or the scripted replies).

        `model`: the model `live` calls, if any: its context window bounds each prompt, which is
        shortened to fit as an agent on that model shortens it (`running/token_budget.py`).
        """
        self.live = live
        self.model = model
        self.tools = list(tools)
        self.language = language
        self.max_iterations = max_iterations
        self.items: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.run: Run | None = None

    def start(self, question: str, step_mode: bool = False, replay: Sequence[str] = ()) -> int:
        """Start a run (ending the one before); returns its number."""
        with self.lock:
            if self.run is not None:
                self.run.pause.cancel()
            number = (self.run.number + 1) if self.run else 1
            self.run = Run(number, question, step_mode, list(replay))
            self.items = []
        run = self.run
        self.push(run, {"type": "run_started", "question": question, "step_mode": step_mode})
        threading.Thread(target=self._work, args=(run,), daemon=True).start()
        return number

    def fork(self, call: int, step_mode: bool = True) -> int:
        """Run the question again, replaying calls 1..call-1 as they were answered."""
        if self.run is None or not 1 <= call <= len(self.run.replies) + 1:
            raise ValueError(f"no model call {call} to fork from")
        replay = self.run.replies[: call - 1]
        return self.start(self.run.question, step_mode, replay)

    def answer(self, kind: str, answer: dict[str, Any]) -> bool:
        """The browser's answer to the current pause ("step" or "approval")."""
        return self.run is not None and self.run.pause.give(kind, answer)

    def since(self, index: int) -> list[dict[str, Any]]:
        """The items of the current run from `index` on."""
        with self.lock:
            return self.items[index:]

    def push(self, run: Run, item: dict[str, Any]) -> None:
        """Keep an item of `run` for the page (dropped when another run has started)."""
        with self.lock:
            if self.run is run:
                self.items.append({**item, "run": run.number, "seq": len(self.items)})

    def _work(self, run: Run) -> None:
        agent = CustomReActAgent(
            SteppingModel(session=self, run=run, counter=self.model),
            self.tools,
            language=self.language,
            examples=True,
            max_iterations=self.max_iterations,
            max_prompt_tokens=None if self.model is None else prompt_budget(self.model),
            approve=lambda name, args: self.approve(run, name, args),
        )
        try:
            for event in agent.stream(run.question):
                self.push(run, event_item(event))
        except RunCancelled:
            return
        except Exception as error:  # shown on the page, the server keeps serving
            self.push(run, {"type": "error", "error": f"{type(error).__name__}: {error}"})
        run.finished = True

    def model_turn(
        self, run: Run, messages: list[BaseMessage], stop: list[str] | None
    ) -> AIMessage:
        """Answer one model call of `run` (the `SteppingModel`'s every call)."""
        if run.pause.cancelled:  # a new run started: this one asks nothing more of the model
            raise RunCancelled("a new run started")
        number = len(run.replies) + 1
        previous = run.prompts[-1] if run.prompts else []
        call = ModelCall(number, list(messages), previous=previous, previous_call=number - 1)
        replayed = number <= len(run.replay)
        pauses = run.step_mode and not replayed
        self.push(run, call_item(call, waiting=pauses, replayed=replayed))
        choice = run.pause.wait("step") if pauses else {}
        run.prompts.append(list(messages))  # as the loop built it: the next call compares with it
        sent = list(messages)
        if choice.get("prompt") is not None:  # the learner's prompt, for this call only
            sent[-1] = type(sent[-1])(content=choice["prompt"])
        began = time.perf_counter()
        if replayed:
            reply = AIMessage(content=run.replay[number - 1])
        elif choice.get("reply"):
            reply = AIMessage(content=choice["reply"])
        else:
            reply = self.live(sent, stop, number)
        usage = reply.usage_metadata
        answered = ModelCall(
            number,
            sent,
            reply=reply.text,
            seconds=time.perf_counter() - began,
            tokens=usage["total_tokens"] if usage else None,
            previous=previous,
            previous_call=number - 1,
        )
        run.replies.append(reply.text)
        source = "replayed" if replayed else "edited" if choice.get("reply") else "model"
        self.push(run, call_item(answered, source=source, edited_prompt=choice.get("prompt")))
        return reply

    def approve(self, run: Run, name: str, args: dict[str, Any]) -> bool:
        """The agent's approval callback: ask the page, wait for its button."""
        self.push(run, {"type": "approval", "tool": name, "args": args})
        approved = bool(run.pause.wait("approval").get("approve"))
        self.push(run, {"type": "approval_decided", "tool": name, "approved": approved})
        return approved
