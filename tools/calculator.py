"""The calculator: a safe arithmetic evaluator and the `calculator` tool built on it.

`evaluate` bounds the input length, rewrites everyday notation (percentages, `x`, `÷`, thousands
separators, currency signs, a result written after `=`) with `tools.calculator_notation`, parses the
text with `ast` and hands the tree to the whitelist walker in `tools.arithmetic`; nothing is ever
passed to `eval` or `exec`. Errors raise `CalculatorError`, whose message is written for the model:
the agent loop turns a tool exception into the observation (the tool does not return "Error: ..."
strings). This module holds no arithmetic rules of its own and formats no output for other tools.
"""

import ast
import re

from langchain_core.tools import tool

from tools.arithmetic import ALLOWED, NAMES, CalculatorError, Number, evaluate_tree
from tools.calculator_notation import PERCENT_FUNCTION, to_python_syntax
from tools.texts import description, descriptions

__all__ = ["MAX_INPUT_CHARS", "CalculatorError", "calculator", "evaluate", "format_number"]

MAX_INPUT_CHARS = 500
_HEX_LITERAL = re.compile(r"\b0[xX][0-9a-fA-F]")
_WORD = re.compile(r"[^\W\d_]{2,}")
_KNOWN_WORDS = NAMES | {PERCENT_FUNCTION.strip("_")}  # `12.5% of 2480` is rewritten to `_percent`
_CODE = re.compile(
    r"[_'\"\[\]{}:;=]|\.\s*[A-Za-z]|\b(?:lambda|import|True|False|None|if|not|and|or)\b"
)


def evaluate(expression: str) -> Number:
    """Compute an arithmetic expression without executing any code.

    Percentages follow pocket-calculator rules: `15%` is 0.15, `12.5% of 2480` and `2480 * 12.5%` are
    310, and a percentage added to or subtracted from a value changes that value by the percentage:
    `2480 + 5%` is 2480 * 1.05 = 2604 and `2480 - 5%` is 2356.

    Args:
        expression: Text such as `"(3 + 4) * 2"`, `"12.5% of 2480"`, `"1,234.5 x 2"`, `"40 * $1.25"`
            or `"sqrt(2)"`.

    Returns:
        The value: an `int` when every step stayed in integers, otherwise a `float`.

    Raises:
        CalculatorError: If the text is too long, not arithmetic, uses anything outside the whitelist
            (names, attributes, strings, lambdas, ...), or the result is undefined, complex, infinite,
            or larger in magnitude than 10**308.
    """
    shown = expression if len(expression) <= 80 else expression[:77] + "..."
    try:
        return _evaluate_text(expression)
    except CalculatorError as error:
        raise CalculatorError(
            f"Cannot calculate {shown!r}: {_words_hint(expression) or error}"
        ) from None
    except ZeroDivisionError:
        raise CalculatorError(f"Cannot calculate {shown!r}: division by zero.") from None
    except OverflowError:
        raise CalculatorError(f"Cannot calculate {shown!r}: the result is too large.") from None
    except (ValueError, TypeError) as error:
        raise CalculatorError(f"Cannot calculate {shown!r}: {error}.") from None


def format_number(value: Number) -> str:
    """Show a result the way a calculator does: `310`, `2.5`, `0.3333333333`, `1.5e+20`."""
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e16:
            return str(int(value))
        return f"{value:.10g}"
    return str(value)


@tool("calculator", description=description("tool_calculator"))
def calculator(expression: str) -> str:
    """Evaluate `expression` with `evaluate` and return the result as short text such as "310".

    Raises:
        CalculatorError: Whatever `evaluate` refuses; the agent loop shows the message to the model.
    """
    return format_number(evaluate(expression))


calculator.metadata = descriptions("tool_calculator")  # the prompt shows it in its own language


def _words_hint(expression: str) -> str:
    """Why an expression with words failed: a model wrote a value's name where its number goes."""
    if len(expression) > MAX_INPUT_CHARS or _CODE.search(expression):
        return ""  # code, not words: the refusal itself says what is not allowed
    words = [w for w in _WORD.findall(to_python_syntax(expression)) if w not in _KNOWN_WORDS]
    if not words:
        return ""
    named = ", ".join(repr(word) for word in dict.fromkeys(words))
    return (
        f"it has words ({named}) where numbers go; the calculator takes numbers only. "
        "Find each value first (for example with a search), then write the numbers themselves, "
        "such as '4 * 11.31 * 1.10'."
    )


def _evaluate_text(expression: str) -> Number:
    """Check the raw text, rewrite its notation, parse it and walk the tree."""
    if len(expression) > MAX_INPUT_CHARS:
        raise CalculatorError(f"the expression is longer than {MAX_INPUT_CHARS} characters.")
    if _HEX_LITERAL.search(expression):
        raise CalculatorError("hexadecimal numbers such as 0x10 are not supported; use decimal.")
    source = to_python_syntax(expression)
    if not source:
        raise CalculatorError(f"the expression is empty. {ALLOWED}")
    try:
        tree = ast.parse(source, mode="eval")
    except (SyntaxError, RecursionError, MemoryError):
        raise CalculatorError(f"this is not a valid arithmetic expression. {ALLOWED}") from None
    try:
        return evaluate_tree(tree.body)
    except RecursionError:
        raise CalculatorError("the expression is nested too deeply.") from None
