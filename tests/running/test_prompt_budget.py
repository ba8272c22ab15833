"""The prompt budget's fitting, unit by unit: the same choices as counting each candidate in turn,
found with a few counts of the whole prompt per model call instead of one per shortening.

`reference_fit_steps` and `reference_fit_history` are the budget as it was (the whole prompt
counted again after each shortening, each dropped turn); the budget must choose what they chose.
No timings here: `bench/prompt_budget.py` times long runs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from custom_react.running.first_fit import first_fit
from custom_react.running.token_budget import (
    KEEP_WHOLE,
    MARKER,
    SHORT_CHARS,
    PromptBudget,
    Shown,
    StepCosts,
    fit_history,
    fit_steps,
    shorten,
    turn_starts,
    without_oldest_turn,
)
from custom_react.running.tokens import estimate_tokens
from custom_react.scratchpad import render_scratchpad
from custom_react.steps import ParseFailure, Step, ToolStep
from custom_react.testing import Script, count_tokens

Count = Callable[[Sequence[BaseMessage]], int]
SYSTEM = "You answer questions with tools. " * 20


def build(
    steps: Sequence[Step],
    history: Sequence[BaseMessage] = (),
    handed: Sequence[BaseMessage] = (),
    note: str = "",
) -> list[BaseMessage]:
    """A prompt as the agent writes one: system prompt, history, question and scratchpad."""
    scratchpad = render_scratchpad(steps, note=note, handed=handed)
    return [SystemMessage(SYSTEM), *history, HumanMessage("Question: read the pages." + scratchpad)]


def tool_step(n: int, observation: str) -> ToolStep:
    return ToolStep(
        thought=f"I need page {n}.",
        tool="read_page",
        tool_input=str(n),
        args={"page": str(n)},
        tool_call_id=f"call_{n}",
        iteration=n,
        log=f"Thought: I need page {n}.\nAction: read_page\nAction Input: {n}",
        observation=observation,
        status="ok",
    )


def reference_fit_steps(
    steps: Sequence[Step],
    build: Callable[[Sequence[Step]], list[BaseMessage]],
    budget: int,
    count: Count,
) -> list[Step]:
    """The budget as it was: count the whole prompt after each shortening."""
    shown = list(steps)
    if count(build(shown)) <= budget:
        return shown
    older = [i for i, step in enumerate(shown) if isinstance(step, ToolStep)][:-KEEP_WHOLE]
    for limit in SHORT_CHARS:
        for index in older:
            shown[index] = shorten(steps[index], limit)  # type: ignore[arg-type]
            if count(build(shown)) <= budget:
                return shown
    return shown


def reference_fit_history(
    steps: Sequence[Step], history: Sequence[BaseMessage], budget: int, count: Count
) -> list[BaseMessage]:
    kept = list(history)
    while kept and count(build(steps, kept)) > budget:
        kept = without_oldest_turn(kept)
    return kept


class CountingCounter:
    """A counter that records the size of every prompt it counts."""

    def __init__(self, count: Count) -> None:
        self.count = count
        self.sizes: list[int] = []

    def __call__(self, messages: Sequence[BaseMessage]) -> int:
        self.sizes.append(sum(len(message.text) for message in messages))
        return self.count(messages)


observations = st.one_of(
    st.text(alphabet="abc xyz0123", max_size=60),  # shorter than the marker
    st.text(alphabet="abc xyz0123\n", min_size=280, max_size=520),  # longer when cut to 300
    st.text(alphabet="abc xyz0123é中", min_size=500, max_size=1500),
)
entries = st.lists(st.one_of(observations, st.just(None)), min_size=0, max_size=18)


def as_steps(items: list[str | None]) -> list[Step]:
    return [
        ParseFailure(text="Thought: hmm", error="Invalid Format", consecutive=1)
        if item is None
        else tool_step(n, item)
        for n, item in enumerate(items)
    ]


@settings(max_examples=300, deadline=None)
@given(
    entries,
    st.integers(min_value=100, max_value=4000),
    st.sampled_from([count_tokens, estimate_tokens]),
)
def test_the_steps_chosen_are_those_counting_each_shortening_would_choose(items, budget, count):
    steps = as_steps(items)
    assert fit_steps(steps, build, budget, count) == reference_fit_steps(
        steps, build, budget, count
    )


@settings(max_examples=100, deadline=None)
@given(
    st.lists(observations, min_size=1, max_size=25),
    st.integers(min_value=300, max_value=3000),
    st.sampled_from([count_tokens, estimate_tokens]),
)
def test_a_run_that_grows_step_by_step_chooses_the_same_with_costs_kept(items, budget, count):
    costs = StepCosts()  # kept from call to call, as `PromptBudget` keeps it
    steps: list[Step] = []
    for n, item in enumerate(items):
        steps.append(tool_step(n, item))
        shown = fit_steps(steps, build, budget, count, costs=costs)
        assert shown == reference_fit_steps(steps, build, budget, count)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["human", "ai", "system"]), st.text(max_size=300)), max_size=12
    ),
    st.lists(observations, max_size=6),
    st.integers(min_value=200, max_value=3000),
    st.sampled_from([count_tokens, estimate_tokens]),
)
def test_the_history_kept_is_what_dropping_turn_by_turn_keeps(turns, items, budget, count):
    kinds = {"human": HumanMessage, "ai": AIMessage, "system": SystemMessage}
    history = [kinds[kind](text) for kind, text in turns]
    steps = [tool_step(n, item) for n, item in enumerate(items)]
    kept, total = fit_history(steps, history, build, budget, count)
    assert kept == reference_fit_history(steps, history, budget, count)
    assert total is None or total == count(build(steps, kept))  # None: not counted


def test_turn_starts_follow_without_oldest_turn():
    history = [AIMessage("a"), HumanMessage("q1"), AIMessage("a1"), AIMessage("a1'")]
    history += [HumanMessage("q2"), HumanMessage("q3"), AIMessage("a3")]
    starts = turn_starts(history)
    kept = list(history)
    for start in starts:
        assert kept == history[start:]
        kept = without_oldest_turn(kept)
    assert starts[-1] == len(history) and turn_starts([]) == [0]


def test_a_long_run_counts_the_whole_prompt_a_few_times_per_call_not_once_per_step():
    counter = CountingCounter(count_tokens)
    costs = StepCosts()
    steps: list[Step] = [tool_step(n, f"[page {n}] " + "word " * 80) for n in range(300)]
    fit_steps(steps[:-1], build, 3000, counter, costs=costs)
    counter.sizes.clear()
    shown = fit_steps(steps, build, 3000, counter, costs=costs)  # the next model call
    assert shown == reference_fit_steps(steps, build, 3000, count_tokens)
    whole = sum(len(message.text) for message in build(steps)) // 2
    assert sum(size > whole for size in counter.sizes) <= 3  # the prompt, its fit, the one before
    assert len(counter.sizes) <= 3 + 3  # and the new step's three versions, alone
    assert len(costs.entries) == 299  # every older step measured once


REAL = [50, 40, 30, 20, 10, 5]


def fit(estimates: list[int], errors: list[int], budget: int) -> tuple[int, int | None]:
    return first_fit(REAL.__getitem__, estimates, errors, budget, {0: 50})


def test_candidates_the_estimate_rules_out_are_never_counted():
    counted: list[int] = []

    def total(j: int) -> int:
        counted.append(j)
        return REAL[j]

    assert first_fit(total, [50, 41, 31, 21, 11, 6], [0, 1, 2, 3, 4, 5], 25, {0: 50}) == (3, 20)
    assert counted == [3]  # 1 and 2 are over by more than their error
    assert fit([50, 41, 31, 21, 11, 6], [0] * 6, 4) == (5, None)  # none can fit: none counted


def test_within_its_error_the_first_that_fits_is_the_answer_even_after_a_rise():
    real = [50, 45, 60, 40, 20]  # cutting the second piece made the prompt longer
    estimates = [50, 46, 59, 41, 19]
    assert first_fit(real.__getitem__, estimates, [0, 1, 2, 3, 4], 45, {0: 50}) == (1, 45)


def test_a_loose_error_bound_follows_the_estimate_confirmed_by_real_counts():
    assert fit([50, 45, 35, 25, 15, 10], [0, 99, 99, 99, 99, 99], 30) == (2, 30)
    estimates = list(range(500, 0, -1))
    real = [n + 3 for n in estimates]  # within the error, but the bound admits them all
    chosen, count = first_fit(real.__getitem__, estimates, [5] * 500, 200, {0: 503})
    assert (chosen, count) == (303, 200)


def test_an_estimate_off_by_more_than_its_error_falls_back_to_counting_each_candidate():
    counted: list[int] = []

    def total(j: int) -> int:
        counted.append(j)
        return REAL[j]

    estimates = [50, 35, 48, 47, 46, 45]  # 1 fits by the estimate, but counts 40
    assert first_fit(total, estimates, [0] * 6, 35, {0: 50}) == (2, 30)
    assert counted == [1, 2]
    assert fit([50, 3, 48, 47, 46, 45], [0] * 6, 4) == (5, 5)  # none fits: every piece cut


def test_costs_forget_steps_of_finished_runs():
    costs = StepCosts()
    old = [tool_step(n, "x" * 400) for n in range(200)]
    for step in old:
        costs.of(step, build, count_tokens)
    new = [tool_step(n, "y" * 400) for n in range(3)]
    costs.keep_only(new)
    assert costs.entries == {}
    costs.of(new[0], build, count_tokens)
    costs.keep_only(new)
    assert list(costs.entries) == [id(new[0])]


def test_a_step_is_measured_again_when_its_id_belongs_to_another_step():
    costs = StepCosts()
    step = tool_step(1, "x" * 400)
    costs.entries[id(step)] = (tool_step(2, "y"), (step, step), (0, 0))  # a stale entry
    versions, deltas = costs.of(step, build, count_tokens)
    assert versions == tuple(shorten(step, limit, MARKER) for limit in SHORT_CHARS)
    assert deltas[1] < 0


def test_the_budget_measures_anew_when_its_counter_falls_back_to_the_estimate():
    llm = Script().model
    budget = PromptBudget(llm, 600)
    steps = [tool_step(n, "z" * 500) for n in range(8)]
    budget.fit(Shown(steps, []), partial(build))
    measured = budget.costs
    assert measured.entries
    budget.count.use_model = False  # as when the model's tokenizer download fails
    shown, *_ = budget.fit(Shown(steps, []), partial(build))
    assert budget.costs is not measured and budget.counted_by_model is False
    assert shown == reference_fit_steps(steps, build, 600, estimate_tokens)


def test_a_result_handed_in_after_the_question_is_shortened_before_the_run_s_steps():
    from langchain_core.messages import ToolMessage

    handed = [ToolMessage("h" * 2000, tool_call_id="call_0")]
    steps = [tool_step(n, "z" * 2000) for n in (1, 2)]
    whole = count_tokens(build(steps, handed=handed))
    budget = PromptBudget(Script().model, whole - 100)  # one shortening is enough
    shown = budget.fit(Shown(steps, [], handed), partial(build))
    assert shown.steps == steps and shown.handed[0].text.startswith("h" * 300 + "…")
    assert handed[0].text == "h" * 2000  # the message itself is not changed
