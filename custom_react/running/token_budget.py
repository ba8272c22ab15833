"""Keep every prompt within a token budget: older observations are shortened first.

`PromptBudget.of(llm, max_prompt_tokens).fit(steps, history, build)` returns the steps and the chat
history to show the model so that the prompt
`build(steps)` stays within `budget` tokens: the system prompt, the question and the newest step
stay whole; older observations are cut, oldest first, each with a visible marker that says what
was cut and where the full text is. A step and its observation are never separated. The run's
history (`result["messages"]`, `intermediate_steps`) keeps every observation in full.

Tokens are counted with the chat model's own `get_num_tokens_from_messages` when it works
offline; many need a tokenizer download (OpenAI's tiktoken, Hugging Face's GPT-2), so when it
fails once the agent uses `estimate_tokens` for the rest of its life: a deliberately generous
estimate (one token per 3 ASCII characters, one per other character, 4 per message) that errs
towards shorter prompts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage

from custom_react.events import Step, ToolStep
from custom_react.prompts import load_messages

Build = Callable[[Sequence[Step]], list[BaseMessage]]
"""Writes the prompt for the given steps."""
BuildWith = Callable[..., list[BaseMessage]]
"""Writes the prompt for the given steps and `history` (the chat history)."""

KEEP_WHOLE = 1
"""How many of the newest tool steps are never shortened."""
SHORT_CHARS = (300, 0)
"""What an older observation is cut to: first to 300 characters, then to the marker alone."""
MARKER = (
    "[observation shortened to fit the prompt: {shown} of {total} characters shown; the full "
    "text is kept in the run's history, and repeating this action shows it again]"
)


REPLY_ROOM = 512
"""Tokens left for the reply when the budget comes from the model's context window."""


def prompt_budget(llm: BaseChatModel) -> int | None:
    """The prompt budget a model announces: `metadata["context_window"]` minus its reply room."""
    window = (llm.metadata or {}).get("context_window")
    if not isinstance(window, int):
        return None
    reply = getattr(llm, "max_tokens", None)
    return window - (reply if isinstance(reply, int) else REPLY_ROOM)


def estimate_tokens(messages: Sequence[BaseMessage]) -> int:
    """A generous offline token count: ASCII characters / 3, other characters 1 each, +4 a message."""
    total = 0
    for message in messages:
        text = message.text
        ascii_chars = sum(char.isascii() for char in text)
        total += 4 + -(-ascii_chars // 3) + (len(text) - ascii_chars)
    return total


class TokenCounter:
    """Counts a prompt's tokens with the model's own counter, or the estimate once that fails."""

    def __init__(self, llm: BaseChatModel) -> None:
        """Use `llm.get_num_tokens_from_messages` until it fails once."""
        self.llm = llm
        self.use_model = (llm.metadata or {}).get("count_tokens") != "estimate"

    def __call__(self, messages: Sequence[BaseMessage]) -> int:
        """The number of tokens of `messages`."""
        if self.use_model:
            try:
                return self.llm.get_num_tokens_from_messages(list(messages))
            except Exception:  # an offline tokenizer download, or no counter at all
                self.use_model = False
        return estimate_tokens(messages)


class PromptBudget:
    """The most tokens one prompt of one agent may have, and how they are counted.

    `PromptBudget.of(llm, max_prompt_tokens)` is None when there is no budget to keep.
    """

    def __init__(self, llm: BaseChatModel, limit: int, language: str = "en") -> None:
        """A budget of `limit` tokens, counted for `llm` (see `TokenCounter`); markers in `language`."""
        self.limit = limit
        self.count = TokenCounter(llm)
        self.marker = load_messages(language)["shortened"]

    @classmethod
    def of(
        cls, llm: BaseChatModel, max_prompt_tokens: int | None, language: str = "en"
    ) -> PromptBudget | None:
        """`max_prompt_tokens`, else what the model announces (`prompt_budget`), else None."""
        limit = max_prompt_tokens or prompt_budget(llm)
        return None if limit is None else cls(llm, limit, language)

    def fit(
        self, steps: Sequence[Step], history: Sequence[BaseMessage], build: BuildWith
    ) -> tuple[list[Step], list[BaseMessage]]:
        """The steps and the chat history to show so that `build(steps, history)` fits.

        The oldest turns of the history (a thread's earlier questions and answers) are left out
        first, a question with its answer: what this run found outranks an old conversation.
        Then older observations are shortened (`fit_steps`).
        """
        kept = list(history)
        while kept and self.count(build(steps, kept)) > self.limit:
            kept = without_oldest_turn(kept)
        shown = fit_steps(steps, partial(build, history=kept), self.limit, self.count, self.marker)
        return shown, kept


def without_oldest_turn(history: Sequence[BaseMessage]) -> list[BaseMessage]:
    """The history without its first question and what answered it (up to the next question)."""
    rest = list(history[1:])
    while rest and not isinstance(rest[0], HumanMessage):
        rest.pop(0)
    return rest


def fit_steps(
    steps: Sequence[Step],
    build: Build,
    budget: int | None,
    count: Callable[[Sequence[BaseMessage]], int],
    marker: str = MARKER,
) -> list[Step]:
    """The steps to show so that `build(steps)` has at most `budget` tokens, if that can be done.

    Older observations are shortened, oldest first, in two rounds (`SHORT_CHARS`); the newest
    `KEEP_WHOLE` tool steps, the question and the system prompt are never touched. No budget
    (None): the steps as they are.
    """
    shown = list(steps)
    if budget is None or count(build(shown)) <= budget:
        return shown
    older = [i for i, step in enumerate(shown) if isinstance(step, ToolStep)][:-KEEP_WHOLE]
    for limit in SHORT_CHARS:
        for index in older:
            shown[index] = shorten(steps[index], limit, marker)  # type: ignore[arg-type]
            if count(build(shown)) <= budget:
                return shown
    return shown


def shorten(step: ToolStep, limit: int, marker: str = MARKER) -> ToolStep:
    """The step with its observation cut to `limit` characters and the marker appended."""
    total = len(step.observation)
    if total <= limit:
        return step
    note = marker.format(shown=limit, total=total)
    text = f"{step.observation[:limit]}… {note}" if limit else note
    return replace(step, observation=text)
