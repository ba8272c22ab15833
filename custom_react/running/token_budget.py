"""Keep every prompt within a token budget: old conversation turns go first, then old observations.

`PromptBudget.of(llm, max_prompt_tokens).fit(Shown(steps, history, handed), build)` returns the
steps, the chat history and the messages handed in after the question to show the model so that
the prompt `build(steps, history, handed)` stays within `budget` tokens: the system prompt, the
question and the newest step stay whole; a thread's oldest turns are left out first, then older
observations are cut, oldest first, each with a visible marker that says what was cut and where
the full text is. A tool result handed in after the question (`RunInput.handed`) is older than
every step of the run: it is cut first. A step and its observation are never separated. The run's
history (`result["messages"]`, `intermediate_steps`) keeps every observation in full.

Tokens are counted by `tokens.TokenCounter`: the model's own counter, or a generous estimate.

The cost stays linear in the number of steps per model call: what each step's shortening
changes is counted once, in a prompt of that step alone (`StepCosts`, kept from one model call to
the next); their running sum estimates each shortened prompt within a token per shortening, and
`first_fit.first_fit` counts only the prompts the estimate does not rule out. The history's
turns are dropped the same way.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import NamedTuple

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, ToolMessage

from custom_react.prompts import load_messages
from custom_react.running.first_fit import first_fit
from custom_react.running.tokens import TokenCounter, prompt_budget
from custom_react.steps import Step, ToolStep

Entry = Step | BaseMessage
"""What the scratchpad shows: a step of the run, or a message handed in after the question."""
Build = Callable[[Sequence[Entry]], list[BaseMessage]]
"""Writes the prompt for the given steps (and handed messages)."""
BuildWith = Callable[..., list[BaseMessage]]
"""Writes the prompt for the given steps, `history` (the chat history) and `handed`."""
Observed = ToolStep | ToolMessage
"""What has an observation to shorten: a tool step, or a tool result handed in."""


class Shown(NamedTuple):
    """What one prompt shows: the run's steps, the chat history, the messages handed in."""

    steps: Sequence[Step]
    history: Sequence[BaseMessage]
    handed: Sequence[BaseMessage] = ()


KEEP_WHOLE = 1
"""How many of the newest tool steps are never shortened."""
SHORT_CHARS = (300, 0)
"""What an older observation is cut to: first to 300 characters, then to the marker alone."""
MARKER = load_messages("en")["shortened"]
"""The note that ends a shortened observation (the run's language's, for the agent)."""


class PromptBudget:
    """The most tokens one prompt of one agent may have, and how they are counted.

    `PromptBudget.of(llm, max_prompt_tokens)` is None when there is no budget to keep. It keeps
    what each step's shortening saves (`StepCosts`) from one model call to the next, so a call
    counts only its new steps' parts, and the whole prompt a few times (`first_fit`).
    """

    def __init__(self, llm: BaseChatModel, limit: int, language: str = "en") -> None:
        """A budget of `limit` tokens, counted for `llm` (see `TokenCounter`); markers in `language`."""
        self.limit = limit
        self.count = TokenCounter(llm)
        self.marker = load_messages(language)["shortened"]
        self.costs = StepCosts(self.marker)
        self.counted_by_model = self.count.use_model
        """How `costs` were counted: a counter that fell back to the estimate starts them anew."""

    @classmethod
    def of(
        cls, llm: BaseChatModel, max_prompt_tokens: int | None, language: str = "en"
    ) -> PromptBudget | None:
        """`max_prompt_tokens`, else what the model announces (`prompt_budget`), else None."""
        limit = max_prompt_tokens or prompt_budget(llm)
        return None if limit is None else cls(llm, limit, language)

    def fit(self, shown: Shown, build: BuildWith) -> Shown:
        """What to show so that `build(steps, history, handed)` fits.

        The oldest turns of the history (a thread's earlier questions and answers) are left out
        first, a question with its answer: what this run found outranks an old conversation.
        Then older observations are shortened (`fit_steps`; the handed results first), and the
        room that frees is given back to the newest turns that fit (the question may need them:
        "where I live"). A handed message is never changed: it is shown as a shortened copy.
        """
        entries = [*shown.handed, *shown.steps]
        with_handed = partial(build, handed=shown.handed)
        kept, total = fit_history(shown.steps, shown.history, with_handed, self.limit, self.count)
        if self.count.use_model != self.counted_by_model:  # the model's counter failed
            self.costs = StepCosts(self.marker)
            self.counted_by_model = self.count.use_model
        self.costs.keep_only(entries)
        fitted = split(
            fit_steps(
                entries,
                lambda some: build(*split(some)._replace(history=kept)),
                self.limit,
                self.count,
                self.marker,
                costs=self.costs,
                total=total,
            )
        )
        if [*fitted.handed, *fitted.steps] != entries and len(kept) < len(shown.history):
            with_handed = partial(build, handed=fitted.handed)  # shortened: room for newer turns?
            kept, _ = fit_history(fitted.steps, shown.history, with_handed, self.limit, self.count)
        return fitted._replace(history=kept)


def split(entries: Sequence[Entry]) -> Shown:
    """The entries as steps and handed messages (no history)."""
    steps = [entry for entry in entries if not isinstance(entry, BaseMessage)]
    handed = [entry for entry in entries if isinstance(entry, BaseMessage)]
    return Shown(steps, [], handed)


def shortenable(entries: Sequence[Entry]) -> list[tuple[int, Observed]]:
    """The observations to shorten, with where they are: handed tool results, older tool steps."""
    handed = [(i, entry) for i, entry in enumerate(entries) if isinstance(entry, ToolMessage)]
    steps = [(i, entry) for i, entry in enumerate(entries) if isinstance(entry, ToolStep)]
    return [*handed, *steps[:-KEEP_WHOLE]]


SPARE_ENTRIES = 64
"""`StepCosts` forgets the steps of other runs when it holds this many more than twice a run's."""


class StepCosts:
    """Each tool step's (or handed result's) shortened versions and the tokens each one adds.

    Measured once a step: the prompt of that step alone is counted as written, cut to 300
    characters and cut to the marker; the differences are what each shortening changes in any
    prompt the step is in (exactly, up to how the counter rounds a message and joins text across
    the step's edges). Kept by the step's identity: the loop passes the same frozen records to
    every model call, and an entry holds its step, so an id is never reused while it is kept.
    """

    def __init__(self, marker: str = MARKER) -> None:
        """No step measured yet; shortened steps carry `marker`."""
        self.marker = marker
        self.entries: dict[int, tuple[Observed, tuple[Observed, ...], tuple[int, ...]]] = {}

    def of(
        self, step: Observed, build: Build, count: Callable[[Sequence[BaseMessage]], int]
    ) -> tuple[tuple[Observed, ...], tuple[int, ...]]:
        """The step shortened in each round, and what each round adds to the prompt's tokens."""
        entry = self.entries.get(id(step))
        if entry is not None and entry[0] is step:
            return entry[1], entry[2]
        versions = tuple(shorten(step, limit, self.marker) for limit in SHORT_CHARS)
        chain = (step, *versions)
        sizes: dict[int, int] = {}

        def size(index: int) -> int:
            if index not in sizes:
                sizes[index] = count(build([chain[index]]))
            return sizes[index]

        deltas = tuple(
            0 if chain[index] is chain[index - 1] else size(index) - size(index - 1)
            for index in range(1, len(chain))
        )
        self.entries[id(step)] = (step, versions, deltas)
        return versions, deltas

    def keep_only(self, steps: Sequence[Entry]) -> None:
        """Forget the steps not in `steps` once many are kept (finished runs' steps)."""
        entries = self.entries
        if len(entries) <= 2 * len(steps) + SPARE_ENTRIES:
            return
        kept = ((id(step), entries.get(id(step))) for step in steps)
        self.entries = {key: entry for key, entry in kept if entry is not None}


def turn_starts(history: Sequence[BaseMessage]) -> list[int]:
    """Where the history starts after each `without_oldest_turn`: 0, ..., `len(history)`."""
    starts = [0]
    while starts[-1] < len(history):
        start = starts[-1] + 1
        while start < len(history) and not isinstance(history[start], HumanMessage):
            start += 1
        starts.append(start)
    return starts


def fit_history(
    steps: Sequence[Step],
    history: Sequence[BaseMessage],
    build: BuildWith,
    budget: int,
    count: Callable[[Sequence[BaseMessage]], int],
) -> tuple[list[BaseMessage], int | None]:
    """The newest turns of the history that fit with every step whole, and that prompt's count.

    The oldest turns go first, one `without_oldest_turn` at a time, until the prompt fits or no
    history is left. Each turn is counted once in a prompt without steps; the whole prompt is
    counted a few times (`first_fit`). The count is None when it was not made (none fits).
    """
    full = count(build(steps, history=history))
    if full <= budget or not history:
        return list(history), full
    starts = turn_starts(history)
    empty = count(build([], history=[]))
    estimates = [full]
    for start, end in itertools.pairwise(starts):
        turn = count(build([], history=history[start:end])) - empty
        estimates.append(estimates[-1] - turn)
    chosen, total = first_fit(
        lambda j: count(build(steps, history=history[starts[j] :])),
        estimates,
        range(len(estimates)),  # a token a turn, for counters that do not count each message
        budget,
        {0: full},
    )
    return list(history[starts[chosen] :]), total


def without_oldest_turn(history: Sequence[BaseMessage]) -> list[BaseMessage]:
    """The history without its first question and what answered it (up to the next question)."""
    rest = list(history[1:])
    while rest and not isinstance(rest[0], HumanMessage):
        rest.pop(0)
    return rest


def fit_steps(
    steps: Sequence[Entry],
    build: Build,
    budget: int | None,
    count: Callable[[Sequence[BaseMessage]], int],
    marker: str = MARKER,
    *,
    costs: StepCosts | None = None,
    total: int | None = None,
) -> list[Entry]:
    """The steps to show so that `build(steps)` has at most `budget` tokens, if that can be done.

    Older observations are shortened, oldest first, in two rounds (`SHORT_CHARS`): the handed
    tool results, then the run's tool steps (`shortenable`); the newest `KEEP_WHOLE` tool steps,
    the question and the system prompt are never touched. No budget
    (None): the steps as they are. The result is the first of those shortenings whose prompt
    fits (else all of them), found in linear time: each shortening's change is measured once a
    step (`costs`, kept across calls), and `first_fit` confirms the summed estimate with real
    counts. `total`: the count of `build(steps)`, when known.
    """
    shown = list(steps)
    if budget is None:
        return shown
    if total is None:
        total = count(build(shown))
    if total <= budget:
        return shown
    if costs is None:
        costs = StepCosts(marker)
    measured = [(i, step, *costs.of(step, build, count)) for i, step in shortenable(shown)]
    rounds = range(len(SHORT_CHARS))
    moves = [(i, versions[r]) for r in rounds for i, _, versions, _ in measured]
    deltas = (change[r] for r in rounds for *_, change in measured)
    estimates = list(itertools.accumulate(deltas, initial=total))
    changed = (
        (versions[r - 1] if r else step) is not versions[r]
        for r in rounds
        for _, step, versions, _ in measured
    )
    errors = list(itertools.accumulate(changed, initial=0))  # a token per changed step

    def after(moved: int) -> list[Entry]:
        shortened = list(steps)
        for index, version in itertools.islice(moves, moved):
            shortened[index] = version
        return shortened

    chosen, _ = first_fit(lambda j: count(build(after(j))), estimates, errors, budget, {0: total})
    return after(chosen)


def shorten(step: Observed, limit: int, marker: str = MARKER) -> Observed:
    """The step (a handed result: a copy) with its observation cut to `limit`, the marker after."""
    observation = step.observation if isinstance(step, ToolStep) else step.text
    total = len(observation)
    if total <= limit:
        return step
    note = marker.format(shown=limit, total=total)
    text = f"{observation[:limit]}… {note}" if limit else note
    if isinstance(step, ToolStep):
        return replace(step, observation=text)
    return step.model_copy(update={"content": text})
