"""Calculator safety: refusals that explain themselves, and proof that no input ever executes.

Each refused expression raises `CalculatorError` with a message for the model; code disguised as
arithmetic is refused before anything runs, and the calculator works without `eval` or `exec`.
"""

import builtins
from pathlib import Path

import pytest

from tools.calculator import MAX_INPUT_CHARS, CalculatorError, calculator, evaluate

REFUSED = [
    ("1/0", "division by zero"),
    ("5 % 0", "division by zero"),
    ("sqrt(-1)", "math domain error"),
    ("log(0)", "math domain error"),
    ("(-8) ** (1/3)", "not a real number"),
    ("", "empty"),
    ("   =  ", "empty"),
    ("2 +", "not a valid arithmetic expression"),
    ("1, 2", "comma"),
    ("1,234,5678", "comma"),
    ("0x10", "hexadecimal"),
    ("True + 1", "the literal 'True'"),
    ("2j", "the literal"),
    ("1 < 2", "comparison"),
    ("x + 1", "the name 'x'"),
    ("round(5, -10**300)", "round(x, n)"),
    ("round(5, 0.5)", "round(x, n)"),
    ("min()", "at least 1 argument"),
    ("sqrt(1, 2)", "argument"),
    ("abs(x=1)", "plain numbers"),
    ("exp(1000)", "too large"),
    ("1e999", "too large"),
    ("1e308 * 10", "too large"),
    ("10 ** 308 * 10", "too large"),
    ("10 ** 400", "too large"),
    ("9 ** 9 ** 9", "exponent 387420489 is out of range"),
    ("10 ** 100000", "exponent 100000 is out of range"),
    ("2 ** -2000", "out of range"),
    ("(" * 240 + "1" + ")" * 240, "not a valid arithmetic expression"),  # nested too deeply
    ("1+" * 300 + "1", "longer than"),
]

INJECTIONS = [
    "__import__('os')",
    "__import__('os').system('touch pwned.txt')",
    "().__class__.__bases__",
    "().__class__.__bases__[0].__subclasses__()",
    "(1).__class__",
    "a.b.c",
    "math.sqrt(4)",
    "lambda: 1",
    "(lambda: open('pwned.txt', 'w'))()",
    "[x for x in range(9)]",
    "[open('pwned.txt', 'w') for _ in range(1)]",
    "{x: 1 for x in range(3)}",
    "open('x')",
    "open('pwned.txt', 'w')",
    "1 + open('pwned.txt', 'w').write('x')",
    'exec(\'open("pwned.txt", "w")\')',
    "eval('1')",
    "getattr(1, 'real')",
    "'abc'",
    "'a' * 3",
    "f'{1}'",
    "b'1'",
    "[1, 2][0]",
    "{'a': 1}",
    "(x := 5)",
    "1 if 1 else 2",
    "not 1",
    "1 and 2",
    "sqrt.__call__(4)",
    "pi.real",
    "_percent.__globals__",
    "1" * (MAX_INPUT_CHARS + 1),
]


@pytest.mark.parametrize(("expression", "fragment"), REFUSED)
def test_refusals_explain_what_went_wrong(expression: str, fragment: str) -> None:
    """Each refused expression raises `CalculatorError` saying what is wrong with it."""
    with pytest.raises(CalculatorError, match=r"^Cannot calculate ") as caught:
        evaluate(expression)
    assert fragment in str(caught.value)


@pytest.mark.parametrize("expression", INJECTIONS)
def test_injections_are_refused_and_never_run(
    expression: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Code disguised as arithmetic is refused as not allowed, and nothing runs."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(CalculatorError, match=r"^Cannot calculate ") as caught:
        calculator.invoke(expression)
    assert "not allowed" in str(caught.value) or "longer than" in str(caught.value)
    assert list(tmp_path.iterdir()) == []  # pwned.txt (or anything else) was never created


def test_evaluate_never_calls_eval_or_exec(monkeypatch: pytest.MonkeyPatch) -> None:
    """The calculator works with `eval` and `exec` replaced by functions that fail."""

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("eval/exec must not be used")

    monkeypatch.setattr(builtins, "eval", forbidden)
    monkeypatch.setattr(builtins, "exec", forbidden)
    assert evaluate("12.5% of 2480 + sqrt(16)") == 314
