"""Calculator: results, calculator notation, refusals with messages, and proof that nothing executes."""

import builtins
import operator
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tools.calculator import MAX_INPUT_CHARS, CalculatorError, calculator, evaluate, format_number

RESULTS = [
    ("2 + 3 * 4", "14"),
    ("(2 + 3) * 4", "20"),
    ("7 / 2", "3.5"),
    ("7 // 2", "3"),
    ("7 % 3", "1"),
    ("2 ** 10", "1024"),
    ("2^10", "1024"),
    ("-3 + +5", "2"),
    ("--3", "3"),
    ("24 * 19.99 + 5", "484.76"),
    ("3 * 4.5 * 1.10", "14.85"),
    ("0.1 + 0.2", "0.3"),
    ("1/3", "0.3333333333"),
    ("2 ** 0.5", "1.414213562"),
    ("10 ** 15", "1000000000000000"),
    ("1e20", "1e+20"),
    ("2 ** -2", "0.25"),
    # percentages
    ("12.5% of 2480", "310"),
    ("12.5 % of 2480", "310"),
    ("12.5 percent of 2480", "310"),
    ("2480 * 5%", "124"),
    ("5% * 2480", "124"),
    ("15%", "0.15"),
    ("2480 + 5%", "2604"),
    ("2480 - 5%", "2356"),
    ("(100 + 10%) * 2", "220"),
    ("100 + 5% of 200", "110"),
    ("10 % 3", "1"),
    # everyday notation
    ("1,234.5 * 2", "2469"),
    ("1,000,000 / 4", "250000"),
    ("max(1,234)", "234"),
    ("max(1,234) + 1,000", "1234"),
    ("3 x 4", "12"),
    ("3x4", "12"),
    ("(2)x(3)", "6"),
    ("3×4", "12"),
    ("10 ÷ 4", "2.5"),
    ("5 − 2", "3"),
    ("= 6 * 7 =", "42"),
    ("6 * 7 =", "42"),
    ("`2 + 2`", "4"),
    ('"2 + 2"', "4"),
    ("（1 + 2）× 3", "9"),
    # functions and constants
    ("sqrt(16)", "4"),
    ("round(2.567, 2)", "2.57"),
    ("round(2.5)", "2"),
    ("abs(-5)", "5"),
    ("min(3, 1, 2)", "1"),
    ("max(3, 1, 2)", "3"),
    ("floor(2.7)", "2"),
    ("ceil(2.1)", "3"),
    ("log(100, 10)", "2"),
    ("exp(0)", "1"),
    ("pi", "3.141592654"),
    ("2 * e", "5.436563657"),
]

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


@pytest.mark.parametrize(("expression", "expected"), RESULTS)
def test_calculator_tool_returns_short_text(expression: str, expected: str) -> None:
    assert calculator.invoke(expression) == expected


@pytest.mark.parametrize(("expression", "expected"), [("2 + 3", 5), ("7 / 2", 3.5), ("2 ** 3", 8)])
def test_evaluate_returns_numbers(expression: str, expected: int | float) -> None:
    value = evaluate(expression)
    assert value == expected
    assert type(value) is type(expected)


@pytest.mark.parametrize(("expression", "fragment"), REFUSED)
def test_refusals_explain_what_went_wrong(expression: str, fragment: str) -> None:
    with pytest.raises(CalculatorError, match=r"^Cannot calculate ") as caught:
        evaluate(expression)
    assert fragment in str(caught.value)


@pytest.mark.parametrize("expression", INJECTIONS)
def test_injections_are_refused_and_never_run(
    expression: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(CalculatorError, match=r"^Cannot calculate ") as caught:
        calculator.invoke(expression)
    assert "not allowed" in str(caught.value) or "longer than" in str(caught.value)
    assert list(tmp_path.iterdir()) == []  # pwned.txt (or anything else) was never created


def test_evaluate_never_calls_eval_or_exec(monkeypatch: pytest.MonkeyPatch) -> None:
    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("eval/exec must not be used")

    monkeypatch.setattr(builtins, "eval", forbidden)
    monkeypatch.setattr(builtins, "exec", forbidden)
    assert evaluate("12.5% of 2480 + sqrt(16)") == 314


def test_tool_schema_has_one_string_argument() -> None:
    assert calculator.name == "calculator"
    assert list(calculator.args) == ["expression"]
    assert "arithmetic" in calculator.description.lower()


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (310, "310"),
        (310.0, "310"),
        (2.5, "2.5"),
        (-0.0, "0"),
        (1 / 3, "0.3333333333"),
        (1e16, "1e+16"),
    ],
)
def test_format_number(value: int | float, expected: str) -> None:
    assert format_number(value) == expected


@given(
    st.integers(min_value=-(10**12), max_value=10**12),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.sampled_from([("+", operator.add), ("-", operator.sub), ("*", operator.mul)]),
)
def test_integer_arithmetic_matches_python(
    left: int, right: int, op: tuple[str, Callable[[int, int], int]]
) -> None:
    symbol, function = op
    assert evaluate(f"{left} {symbol} ({right})") == function(left, right)
