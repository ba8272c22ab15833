"""Time `parse_llm_response` on a typical reply and on adversarial 100 KB replies.

The parser promises linear time (anchored, non-nested patterns; no catastrophic backtracking). This
script holds it to that: each input is parsed 5 times, the best time is reported in milliseconds, and
the script exits with status 1 if any adversarial input takes 50 ms or more (the threshold is
`LIMIT_MS`). A ParseError is a normal outcome here; any other exception is a failure.

`ADVERSARIAL_INPUTS` is also imported by `tests/parsing/test_parser.py`, which checks (without timing) that
each input parses or raises ParseError.

Run from the repository root:  python bench/parser_speed.py
"""

from __future__ import annotations

import contextlib
import sys
import time

from custom_react.parser import ParseError, parse_llm_response

LIMIT_MS = 50.0
REPEATS = 5
SIZE = 100_000  # characters, about 100 KB

TYPICAL_REPLY = (
    "Thought: I need the current price of a dozen roses, then the total for three dozen.\n"
    "Action: search\n"
    'Action Input: {"query": "price of a dozen roses", "max_results": 3}'
)

ADVERSARIAL_INPUTS: dict[str, str] = {
    "Action + spaces": "Action" + " " * SIZE,
    "Action + spaces + x": "Action" + " " * SIZE + "x",
    "'- ' list prefixes": "- " * (SIZE // 2),
    "'*' run": "*" * SIZE,
    "'**Action' + '*' run": "**Action" + "*" * SIZE + "x:",
    "Thought: + one long line": "Thought:" + "a" * SIZE,
    "lines of 'Action:'": "Action:\n" * (SIZE // 8),
    "lines of 'Thought:'": "Thought:\n" * (SIZE // 9),
    "Action Input '{' run": "Action: search\nAction Input: " + "{" * SIZE,
    "Action Input '{' ... '}'": "Action: search\nAction Input: "
    + "{" * (SIZE // 2)
    + "}" * (SIZE // 2),
    "Action Input nested JSON": 'Action: search\nAction Input: {"a": '
    + "[" * (SIZE // 2)
    + "]" * (SIZE // 2)
    + "}",
    "Action Input big dict": "Action: search\nAction Input: {" + "'k': 1, " * (SIZE // 8) + "}",
    # A Python-style dict just under the parser's `ast.literal_eval` cap (10,000 chars).
    "Action Input Python dict at the ast cap": "Thought: "
    + "a" * (SIZE - 10_000)
    + "\nAction: x\nAction Input: {"
    + "".join(f"'k{i}': [1, {{'a': 'b'}}], " for i in range(400))
    + "}",
    "prose Python dict": "{" + "'k': 1, " * (SIZE // 8) + "}",
    "JSON action blob": '{"action": "search", "action_input": "' + "a" * SIZE + '"}',
    "Action Input huge int": "Action: search\nAction Input: {'a': " + "9" * SIZE + "}",
    "Action Input '```' + text": "Action: search\nAction Input: ```" + "a" * SIZE,
    "Action Input '```' run": "Action: search\nAction Input: " + "```" * (SIZE // 3),
    "'<think>' run": "<think>" * (SIZE // 7),
    "'</think>' run": "</think>" * (SIZE // 8),
    "unclosed <think> + text": "<think>" + "Action: search " * (SIZE // 15),
    "'[' nesting after name": "Action: search" + "[" * SIZE,
    "'[[[[' ... ']]]]' call": "Action: search" + "[" * (SIZE // 2) + "]" * (SIZE // 2),
    "Action: x( + '(' run": "Action: x(" + "(" * SIZE,
    "tool name run": "Action: " + "a" * SIZE + " (",
    "full-width colons": "Action：" + "：" * SIZE,
    "full-width spaces": "\u3000" * SIZE,
    "numbered marker digits": "Action " + "1" * SIZE + "x",
    "Final Answer + newlines": "Final Answer:" + "\n" * SIZE,
    "'Observ' lines": "Observ\n" * (SIZE // 7),
    "CJK prose": "最终答案是什么" * (SIZE // 7),
    # The dialects of other frameworks: markers mid-line, JSON calls, tags, weak markers.
    "one line of '. Action: '": ". Action: " * (SIZE // 10),
    "one line of ' Action Input:'": "Action: x" + " Action Input:" * (SIZE // 14),
    "one line of '. Tool: '": "I need it. " + ". Tool: " * (SIZE // 8),
    "lines of 'Observation:'": "Observation:\n" * (SIZE // 13),
    "lines of 'Answer:'": "Answer: x\n" * (SIZE // 10),
    "'{' at line starts": "{\n" * (SIZE // 2),
    "': {' run": "Thought: t" + ": {" * (SIZE // 3),
    "'[{' run": "[{" * (SIZE // 2),
    "'<tool_call>' run": "<tool_call>" * (SIZE // 11),
    "'<tool>' run": "<tool>" * (SIZE // 6),
    "'<tool_input>' run": "<tool>x</tool>" + "<tool_input>" * (SIZE // 12),
    "JSON call with a long input": '{"name": "search", "arguments": {"query": "'
    + "a" * SIZE
    + '"}}',
    "Action: Finish[ + '[' run": "Action: Finish[" + "[" * SIZE,
    "name of backslashes": "Action: " + "\\" * SIZE + "_",
    "name with '(' glosses": "Action: a" + " (" * (SIZE // 2) + "\nAction Input: x",
    "unclosed block comment": 'Action: search\nAction Input: {"a": 1 /*' + "*" * SIZE,
    "input of quotes": "Action: search\nAction Input: " + '"' * SIZE,
}


def best_ms(text: str) -> float:
    """Parse `text` REPEATS times and return the fastest run in milliseconds."""
    best = float("inf")
    for _ in range(REPEATS):
        start = time.perf_counter()
        with contextlib.suppress(ParseError):
            parse_llm_response(text)
        best = min(best, (time.perf_counter() - start) * 1000)
    return best


def main() -> int:
    rows = [("typical reply", len(TYPICAL_REPLY), best_ms(TYPICAL_REPLY), False)]
    rows += [(name, len(text), best_ms(text), True) for name, text in ADVERSARIAL_INPUTS.items()]
    width = max(len(name) for name, *_ in rows)
    print(f"{'input':<{width}}  {'chars':>7}  {'best ms':>8}")
    for name, size, ms, adversarial in rows:
        flag = "  SLOW" if adversarial and ms >= LIMIT_MS else ""
        print(f"{name:<{width}}  {size:>7}  {ms:>8.3f}{flag}")
    slow = [name for name, _, ms, adversarial in rows if adversarial and ms >= LIMIT_MS]
    if slow:
        print(f"FAIL: {len(slow)} input(s) took >= {LIMIT_MS:.0f} ms: {', '.join(slow)}")
        return 1
    print(f"OK: every adversarial input parsed in under {LIMIT_MS:.0f} ms (best of {REPEATS}).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
