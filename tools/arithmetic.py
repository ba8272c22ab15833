"""The safe arithmetic core: a walk over a whitelisted Python expression tree.

`evaluate_tree` computes a parsed expression made only of numbers, `+ - * / // % **`, unary signs, a
few math functions (sqrt, round, abs, min, max, floor, ceil, log, exp), the constants `pi` and `e`, and
the percentage marker from `tools.calculator_notation`. Every other node is refused with a
`CalculatorError` before anything runs; exponents and the size of every intermediate value are bounded.
It does not read text, parse, or format results: `tools.calculator` does that.
"""

import ast
import math
import operator
from collections.abc import Callable
from typing import Any

from langchain_core.tools import ToolException

from tools.calculator_notation import PERCENT_FUNCTION

Number = int | float

MAX_EXPONENT = 1000
MAX_MAGNITUDE = 10**308
MAX_ROUND_DIGITS = 100

ALLOWED = (
    "Use numbers with + - * / // % ** and brackets, percentages such as '12.5% of 2480', "
    "the functions sqrt, round, abs, min, max, floor, ceil, log, exp and the constants pi and e."
)
_BINARY_OPERATORS: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "sqrt": math.sqrt,
    "round": round,
    "abs": abs,
    "min": min,
    "max": max,
    "floor": math.floor,
    "ceil": math.ceil,
    "log": math.log,
    "exp": math.exp,
}
_CONSTANTS: dict[str, float] = {"pi": math.pi, "e": math.e}
NAMES = frozenset({*_FUNCTIONS, *_CONSTANTS})
"""The function and constant names an expression may use."""


class CalculatorError(ValueError, ToolException):
    """An expression the calculator refuses or cannot compute; the message is meant for the model.

    It is also a `ToolException`, so a tool built with `handle_tool_error=True` (as LangChain's own
    agents expect) returns the message as the observation instead of raising.
    """


def evaluate_tree(node: ast.expr) -> Number:
    """Compute one whitelisted expression node (recursively), refusing every other kind of node.

    A percentage marker added to or subtracted from a value changes that value by the percentage
    (`2480 + 5%` is 2604); anywhere else it is the number divided by 100.

    Args:
        node: The body of `ast.parse(text, mode="eval")`.

    Returns:
        The value, an `int` when every step stayed in integers, otherwise a `float`.

    Raises:
        CalculatorError: For a refused node, a huge exponent, or a complex, infinite or too-large value.
        ZeroDivisionError, OverflowError, ValueError, TypeError: From the arithmetic or math functions
            themselves (division by zero, `sqrt(-1)`, wrong argument count); callers translate them.
    """
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return _bounded(node.value)
    if isinstance(node, ast.Name) and node.id in _CONSTANTS:
        return _CONSTANTS[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.UAdd | ast.USub):
        operand = evaluate_tree(node.operand)
        return operand if isinstance(node.op, ast.UAdd) else -operand
    if isinstance(node, ast.BinOp):
        return _bounded(_evaluate_binary(node))
    if isinstance(node, ast.Call):
        return _bounded(_evaluate_call(node))
    raise CalculatorError(f"{_describe_refused(node)} is not allowed. {ALLOWED}")


def _evaluate_binary(node: ast.BinOp) -> object:
    """Compute `left <op> right`, unchecked: the caller bounds the result.

    Calculator rules apply to `value ± N%` (the value changes by N percent), and a power is
    refused before it is computed if it would be too large.
    """
    left = evaluate_tree(node.left)
    if isinstance(node.op, ast.Add | ast.Sub) and _is_percentage(node.right):
        change = left * evaluate_tree(node.right)  # 2480 + 5% adds 5% of 2480
        return left + change if isinstance(node.op, ast.Add) else left - change
    right = evaluate_tree(node.right)
    if isinstance(node.op, ast.Pow):
        return _power(left, right)
    if type(node.op) not in _BINARY_OPERATORS:
        raise CalculatorError(f"the operator in {ast.unparse(node)!r} is not allowed. {ALLOWED}")
    return _BINARY_OPERATORS[type(node.op)](left, right)


def _power(base: Number, exponent: Number) -> object:
    """Raise `base` to `exponent`, refusing before computing anything too large (may be complex)."""
    if abs(exponent) > MAX_EXPONENT:
        raise CalculatorError(
            f"the exponent {exponent} is out of range (allowed: -{MAX_EXPONENT} to {MAX_EXPONENT})."
        )
    if base != 0 and exponent * math.log10(abs(base)) > math.log10(MAX_MAGNITUDE):
        raise CalculatorError("the result is too large (more than 10**308).")
    return base**exponent


def _evaluate_call(node: ast.Call) -> object:
    """Call one whitelisted function with computed positional arguments (unchecked result)."""
    name = node.func.id if isinstance(node.func, ast.Name) else None
    if name != PERCENT_FUNCTION and name not in _FUNCTIONS:
        raise CalculatorError(f"{_describe_refused(node)} is not allowed. {ALLOWED}")
    if node.keywords or any(isinstance(argument, ast.Starred) for argument in node.args):
        raise CalculatorError(f"{name}() takes plain numbers separated by commas only.")
    arguments = [evaluate_tree(argument) for argument in node.args]
    if name == PERCENT_FUNCTION and len(arguments) == 1:
        return arguments[0] / 100
    if name == "round" and len(arguments) == 2:
        digits = arguments[1]
        if not isinstance(digits, int) or abs(digits) > MAX_ROUND_DIGITS:
            raise CalculatorError("round(x, n) needs a whole number n between -100 and 100.")
    if name not in _FUNCTIONS:
        raise CalculatorError("a percentage needs one number, as in '15%'.")
    return _FUNCTIONS[name](*arguments)


def _bounded(value: object) -> Number:
    """Return `value` if it is a finite real number no larger than `MAX_MAGNITUDE`."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise CalculatorError("the result is not a real number.")
    if isinstance(value, float) and not math.isfinite(value):
        raise CalculatorError("the result is too large (overflow) or undefined.")
    if abs(value) > MAX_MAGNITUDE:
        raise CalculatorError("the result is too large (more than 10**308).")
    return value


def _is_percentage(node: ast.expr) -> bool:
    """Tell whether `node` is the marker call that stands for `N%`."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == PERCENT_FUNCTION
    )


def _describe_refused(node: ast.AST) -> str:
    """Name what the model wrote in words, quoting a short form of it."""
    if isinstance(node, ast.Tuple):
        return (
            "a comma between values (commas may only separate function arguments or digit groups)"
        )
    kinds: dict[type[ast.AST], str] = {
        ast.Name: "the name",
        ast.Attribute: "attribute access",
        ast.Call: "calling",
        ast.Subscript: "indexing",
        ast.Lambda: "a lambda",
        ast.Constant: "the literal",
        ast.Compare: "the comparison",
        ast.JoinedStr: "the string",
    }
    kind = kinds.get(type(node), "the construct")
    text = ast.unparse(node)
    return f"{kind} {text if len(text) <= 40 else text[:37] + '...'!r}"
