"""Calculator: results, calculator notation, number formatting and the tool's schema.

What it refuses, and the proof that nothing executes, are in `test_calculator_safety.py`.
"""

import operator
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tools.calculator import CalculatorError, calculator, evaluate, format_number

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
    # currency signs next to numbers, and a result written after the expression
    ("40 * $1.25", "50"),
    ("$39.99 / 10", "3.999"),
    ("($3 + $4) * 2", "14"),
    ("€ 3 + £2", "5"),
    ("-$5 + 2", "-3"),
    ("￥5999 / 7.26", "826.3085399"),
    ("3100 * 7.26 元", "22506"),
    ("5999元 / 7.26", "826.3085399"),
    ("$1,234.50 * 2", "2469"),
    ("15 * 3.10 = 46.5", "46.5"),
    ("15 * 3.10 = 47", "46.5"),
    ("10 * 2 = 20 元", "20"),
    ("40 * $1.25 = $50", "50"),
    ("(2 + 3) * 4 = 20", "20"),
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


@pytest.mark.parametrize(("expression", "expected"), RESULTS)
def test_calculator_tool_returns_short_text(expression: str, expected: str) -> None:
    """Arithmetic, percentages and everyday notation give the calculator's short text."""
    assert calculator.invoke(expression) == expected


@pytest.mark.parametrize(("expression", "expected"), [("2 + 3", 5), ("7 / 2", 3.5), ("2 ** 3", 8)])
def test_evaluate_returns_numbers(expression: str, expected: int | float) -> None:
    """`evaluate` returns an `int` while every step stays whole, else a `float`."""
    value = evaluate(expression)
    assert value == expected
    assert type(value) is type(expected)


def test_tool_schema_has_one_string_argument() -> None:
    """The tool takes one `expression` and says it is for arithmetic."""
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
    """Results print as a calculator shows them: whole floats without `.0`, ten digits."""
    assert format_number(value) == expected


@given(
    st.integers(min_value=-(10**12), max_value=10**12),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.sampled_from([("+", operator.add), ("-", operator.sub), ("*", operator.mul)]),
)
def test_integer_arithmetic_matches_python(
    left: int, right: int, op: tuple[str, Callable[[int, int], int]]
) -> None:
    """Sums, differences and products of large integers equal Python's."""
    symbol, function = op
    assert evaluate(f"{left} {symbol} ({right})") == function(left, right)


@pytest.mark.parametrize(
    ("expression", "words"),
    [
        ("price of roses * 1.05", "'price', 'of', 'roses'"),
        ("玫瑰价格 * 1.05", "'玫瑰价格'"),
        ("expression (string) as plain text", "'expression', 'string'"),
    ],
)
def test_words_where_numbers_go_get_a_hint_to_look_them_up(expression, words):
    with pytest.raises(CalculatorError) as raised:
        evaluate(expression)
    message = str(raised.value)
    assert (
        words in message and "Find each value first" in message and "'4 * 11.31 * 1.10'" in message
    )


@pytest.mark.parametrize("expression", ["$", "10 $ 3", "x = 6 * 7", "2 = 3 + 4", "$price * 2"])
def test_a_currency_sign_or_an_equals_sign_is_not_taken_for_a_number(expression):
    """Only a sign next to a number is dropped, and only a number written after `=` as the result."""
    with pytest.raises(CalculatorError):
        evaluate(expression)


@pytest.mark.parametrize("expression", ["3 +* 4", "sqrt(-1)", "1/0", "12.5% of"])
def test_errors_without_words_keep_their_own_reason(expression):
    with pytest.raises(CalculatorError) as raised:
        evaluate(expression)
    assert "Find each value first" not in str(raised.value)
