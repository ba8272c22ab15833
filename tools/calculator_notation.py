"""Rewriting everyday calculator notation into Python expression syntax, as plain text.

Models and people write `12.5% of 2480`, `3 x 4`, `1,234.5 ÷ 2`, `2^10`, `40 * $1.25`,
`5999 元 / 7.26` or `15 * 3.10 = 46.5`. This module turns such text into an expression that
`ast.parse` understands, marking percentages as calls to `PERCENT_FUNCTION` so the evaluator can
apply calculator rules to them. It only rewrites strings: it never parses, checks or evaluates anything (that is `tools.calculator`), so its output may still be refused.
"""

import re

PERCENT_FUNCTION = "_percent"
"""Name of the marker call that stands for `N%` in the rewritten text."""

_SYMBOLS = str.maketrans(
    {"×": "*", "÷": "/", "−": "-", "（": "(", "）": ")", "％": "%", "，": ",", "^": "**"}
)
_QUOTES = ("`", '"', "'")
_PERCENT_WORD = re.compile(r"\s*\bper\s?cent\b", re.IGNORECASE)
# An "x" between two operands is multiplication: "3 x 4", "3x4", "(2)x(3)", "5% x 20".
_TIMES_LETTER = re.compile(r"(?<=[\d.)%])\s*[xX]\s*(?=[\d.(])")
# An opening bracket right after a name starts a function call: "max(", "sqrt (".
_CALL_BRACKET = re.compile(r"(?<![\w.])[A-Za-z_]\w*\s*(\()")
# A grouped number such as 1,234 or 12,345,678.9 (every group after the first has three digits).
_GROUPED_NUMBER = re.compile(r"(?<![\w.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w,])")
# A currency sign written before or after a number: "$1.25", "1.25 $", "€3", "￥5999", "5999 元".
_CURRENCY = "$¢£¥€₹₩₽₺₫₪฿₱₦￥元円"
_CURRENCY_MARK = re.compile(
    rf"[{re.escape(_CURRENCY)}]\s*(?=[\d.(])|(?<=[\d.)])\s*[{re.escape(_CURRENCY)}]"
)
# An equation with its result written out: "15 * 3.10 = 46.5" is the left side; the calculator
# gives the true result.
_WRITTEN_RESULT = re.compile(r"(?<=[\d)%])\s*=\s*[-+]?[\d.,]+$")
# "N%" is a percentage when "of", the end, a closing bracket, a comma or an operator follows it;
# otherwise ("10 % 3") the sign is the modulo operator.
_PERCENTAGE = re.compile(
    r"(?<![\w.])(\d+(?:\.\d*)?|\.\d+)\s*%(\s*of\b)?(?(2)|(?=\s*(?:$|[)+\-*/,])))", re.IGNORECASE
)


def to_python_syntax(expression: str) -> str:
    """Rewrite calculator notation in `expression` as Python expression syntax.

    Rules, applied in this order:
    surrounding backticks or quotes and a leading or trailing `=` are dropped; `×` and a standalone
    `x` mean `*`, `÷` means `/`, `^` means `**`; currency signs next to numbers (`$1.25`, `5999 元`)
    and a result written after the expression (`15 * 3.10 = 46.5`: the calculator gives its own)
    are dropped; the word "percent" means `%`; commas between digit groups (`1,234,567.5`) are
    thousands separators unless they sit inside a function call such as `max(1,234)`, where they
    separate arguments; `N%` becomes `_percent(N)` and `N% of` becomes `_percent(N) *`.

    Args:
        expression: The text the model or user wrote.

    Returns:
        The rewritten text; not yet checked for safety or syntax.
    """
    text = expression.strip()
    for quote in _QUOTES:
        if len(text) >= 2 and text[0] == text[-1] == quote:
            text = text[1:-1].strip()
    text = text.removeprefix("=").removesuffix("=").strip()
    text = text.translate(_SYMBOLS)
    text = _CURRENCY_MARK.sub("", text)
    text = _WRITTEN_RESULT.sub("", text)
    text = _PERCENT_WORD.sub("%", text)
    text = _TIMES_LETTER.sub(" * ", text)
    text = _drop_thousands_separators(text)
    return _PERCENTAGE.sub(_rewrite_percentage, text)


def _rewrite_percentage(match: re.Match[str]) -> str:
    """Turn one matched `N%` (or `N% of`) into the marker call (followed by `*` for "of")."""
    call = f"{PERCENT_FUNCTION}({match[1]})"
    return f"{call} *" if match[2] else call


def _drop_thousands_separators(text: str) -> str:
    """Remove commas inside grouped numbers that are not function arguments."""
    inside_call = _mark_call_arguments(text)
    pieces: list[str] = []
    end = 0
    for match in _GROUPED_NUMBER.finditer(text):
        if inside_call[match.start()]:
            continue  # max(1,234) means max(1, 234): an argument list, not a thousands separator.
        pieces.append(text[end : match.start()])
        pieces.append(match[0].replace(",", ""))
        end = match.end()
    pieces.append(text[end:])
    return "".join(pieces)


def _mark_call_arguments(text: str) -> list[bool]:
    """For each character, tell whether its innermost enclosing bracket is a function call's."""
    call_starts = {match.start(1) for match in _CALL_BRACKET.finditer(text)}
    call_brackets: list[bool] = []  # one entry per open bracket: does it open a call?
    inside_call: list[bool] = []
    for index, character in enumerate(text):
        if character == "(":
            call_brackets.append(index in call_starts)
        elif character == ")" and call_brackets:
            call_brackets.pop()
        inside_call.append(bool(call_brackets) and call_brackets[-1])
    return inside_call
