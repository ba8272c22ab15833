"""The first of a row of prompts that fits a token budget, counting as few of them as it can.

The prompt budget (`token_budget.py`) tries prompts that each cut one more piece, in order, and
takes the first that fits. Counting a whole prompt costs as much as the prompt is long, so
counting each in turn makes a long run quadratic. `first_fit` takes a cheap estimate of each
prompt with its error bound, never counts one the estimate rules out, and counts the others in
turn, so it returns what counting every prompt would; when the estimate turns out looser than
its bound, it falls back to counting every prompt (`Candidates`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

CHECKS = 8
"""How many prompts that may fit `first_fit` counts in turn before it follows the estimate."""
PROBES = 4
"""How far `first_fit` follows the estimate with real counts before it counts every prompt."""


class Candidates:
    """Prompts that each cut one more piece, their estimated token counts, and the real ones.

    `total(j)` counts the j-th prompt for real (the cost of a whole prompt); `estimates[j]` is a
    cheap guess of it, off by at most `errors[j]` tokens (a token for each piece whose change was
    measured elsewhere, as a counter that rounds each message can be). A real count farther off
    than that makes the estimate untrusted (`trusted`).
    """

    def __init__(
        self,
        total: Callable[[int], int],
        estimates: Sequence[int],
        errors: Sequence[int],
        budget: int,
        known: dict[int, int],
    ) -> None:
        """The candidates `0..len(estimates) - 1`; `known`: real counts already made."""
        self.total = total
        self.estimates = estimates
        self.errors = errors
        self.budget = budget
        self.counts = dict(known)
        self.last = len(estimates) - 1
        self.trusted = True
        self.over = -1
        """Every candidate up to this one is over the budget."""

    def fits(self, j: int) -> bool:
        """Whether the j-th prompt fits, counted for real (once)."""
        if j not in self.counts:
            self.counts[j] = self.total(j)
            if abs(self.counts[j] - self.estimates[j]) > self.errors[j]:
                self.trusted = False
        return self.counts[j] <= self.budget

    def in_turn(self) -> int | None:
        """The first that fits, counting only those the estimate allows; None after `CHECKS`."""
        failed = 0
        for j, (estimate, error) in enumerate(zip(self.estimates, self.errors, strict=True)):
            if estimate - error > self.budget:
                continue  # over the budget, however the counter rounds
            if self.fits(j):
                return j
            self.over = j
            failed += 1
            if failed == CHECKS or not self.trusted:
                return None
        return self.last  # none can fit: every piece is cut

    def near_estimate(self) -> int | None:
        """The first estimate that fits, moved by real counts to the first that does; or None."""
        start = self.over + 1
        fitting = (j for j in range(start, self.last + 1) if self.estimates[j] <= self.budget)
        guess = next(fitting, self.last)
        for _ in range(PROBES):
            if self.fits(guess):
                if guess == start or not self.fits(guess - 1):
                    return guess
                guess -= 1
            elif guess == self.last:
                return guess
            else:
                guess += 1
        return None

    def every(self) -> int:
        """The first that fits, every prompt counted in turn (the safe path); else the last."""
        return next((j for j in range(self.last + 1) if self.fits(j)), self.last)


def first_fit(
    total: Callable[[int], int],
    estimates: Sequence[int],
    errors: Sequence[int],
    budget: int,
    known: dict[int, int],
) -> tuple[int, int | None]:
    """The first candidate whose prompt fits the budget (else the last), and its count if made.

    See `Candidates` for the arguments. Candidates whose estimate is over the budget by more
    than its error cannot fit and are never counted; the others are counted in turn, so the
    answer is the one counting every candidate would give. When `CHECKS` of them do not fit
    (a loose error bound), the first estimate that fits is taken, confirmed by counting it and
    the one before it, and moved by up to `PROBES` real counts while the estimate was off. When
    that is not enough, or a real count is farther from its estimate than the error allows,
    every candidate is counted in turn.
    """
    candidates = Candidates(total, estimates, errors, budget, known)
    chosen = candidates.in_turn()
    if chosen is None and candidates.trusted:
        chosen = candidates.near_estimate()
    if chosen is None or not candidates.trusted:
        chosen = candidates.every()
    return chosen, candidates.counts.get(chosen)
