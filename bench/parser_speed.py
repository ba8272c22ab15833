"""Time `parse_llm_response` on a typical reply and on adversarial 100 KB replies.

The parser promises linear time (anchored, non-nested patterns; no catastrophic backtracking). This
script holds it to that without trusting the machine's speed: each adversarial input is built at
100 KB and at 10 KB, each is parsed 5 times and the best time kept. Linear parsing takes about 10
times as long on the input 10 times as long; quadratic backtracking about 100 times. The script exits
with status 1 if an input's 100 KB time is more than `MAX_GROWTH` times its 10 KB time (and above
`NOISE_MS`, below which timings are noise). A ParseError is a normal outcome here; any other
exception is a failure. The times in ms are reported too: they depend on the machine and its load.

`ADVERSARIAL_INPUTS` is also imported by `tests/parsing/test_parser.py`, which checks (without timing) that
each input parses or raises ParseError.

Run from the repository root:  python bench/parser_speed.py
"""

from __future__ import annotations

import contextlib
import sys
import time

from custom_react.parser import ParseError, parse_llm_response

MAX_GROWTH = 30.0  # linear: about 10; quadratic: about 100
NOISE_MS = 5.0
REPEATS = 5
SIZE = 100_000  # characters, about 100 KB

TYPICAL_REPLY = (
    "Thought: I need the current price of a dozen roses, then the total for three dozen.\n"
    "Action: search\n"
    'Action Input: {"query": "price of a dozen roses", "max_results": 3}'
)


def adversarial_inputs(size: int) -> dict[str, str]:
    """Replies built to make a regex backtrack, each about `size` characters long."""
    return {
        "Action + spaces": "Action" + " " * size,
        "Action + spaces + x": "Action" + " " * size + "x",
        "'- ' list prefixes": "- " * (size // 2),
        "'*' run": "*" * size,
        "'**Action' + '*' run": "**Action" + "*" * size + "x:",
        "Thought: + one long line": "Thought:" + "a" * size,
        "lines of 'Action:'": "Action:\n" * (size // 8),
        "lines of 'Thought:'": "Thought:\n" * (size // 9),
        "Action Input '{' run": "Action: search\nAction Input: " + "{" * size,
        "Action Input '{' ... '}'": "Action: search\nAction Input: "
        + "{" * (size // 2)
        + "}" * (size // 2),
        "Action Input nested JSON": 'Action: search\nAction Input: {"a": '
        + "[" * (size // 2)
        + "]" * (size // 2)
        + "}",
        "Action Input big dict": "Action: search\nAction Input: {" + "'k': 1, " * (size // 8) + "}",
        # A Python-style dict just under the parser's `ast.literal_eval` cap (10,000 chars).
        "Action Input Python dict at the ast cap": "Thought: "
        + "a" * (size - 10_000)
        + "\nAction: x\nAction Input: {"
        + "".join(f"'k{i}': [1, {{'a': 'b'}}], " for i in range(400))
        + "}",
        "prose Python dict": "{" + "'k': 1, " * (size // 8) + "}",
        "JSON action blob": '{"action": "search", "action_input": "' + "a" * size + '"}',
        "Action Input huge int": "Action: search\nAction Input: {'a': " + "9" * size + "}",
        "Action Input '```' + text": "Action: search\nAction Input: ```" + "a" * size,
        "Action Input '```' run": "Action: search\nAction Input: " + "```" * (size // 3),
        "'<think>' run": "<think>" * (size // 7),
        "'</think>' run": "</think>" * (size // 8),
        "unclosed <think> + text": "<think>" + "Action: search " * (size // 15),
        "'[' nesting after name": "Action: search" + "[" * size,
        "'[[[[' ... ']]]]' call": "Action: search" + "[" * (size // 2) + "]" * (size // 2),
        "Action: x( + '(' run": "Action: x(" + "(" * size,
        "tool name run": "Action: " + "a" * size + " (",
        "full-width colons": "Action：" + "：" * size,
        "full-width spaces": "\u3000" * size,
        "numbered marker digits": "Action " + "1" * size + "x",
        "Final Answer + newlines": "Final Answer:" + "\n" * size,
        "'Observ' lines": "Observ\n" * (size // 7),
        "CJK prose": "最终答案是什么" * (size // 7),
        # The dialects of other frameworks: markers mid-line, JSON calls, tags, weak markers.
        "one line of '. Action: '": ". Action: " * (size // 10),
        "one line of ' Action Input:'": "Action: x" + " Action Input:" * (size // 14),
        "one line of '. Tool: '": "I need it. " + ". Tool: " * (size // 8),
        "lines of 'Observation:'": "Observation:\n" * (size // 13),
        "lines of 'Answer:'": "Answer: x\n" * (size // 10),
        "'{' at line starts": "{\n" * (size // 2),
        "': {' run": "Thought: t" + ": {" * (size // 3),
        "'[{' run": "[{" * (size // 2),
        "'<tool_call>' run": "<tool_call>" * (size // 11),
        "'<tool>' run": "<tool>" * (size // 6),
        "'<tool_input>' run": "<tool>x</tool>" + "<tool_input>" * (size // 12),
        "JSON call with a long input": '{"name": "search", "arguments": {"query": "'
        + "a" * size
        + '"}}',
        "Action: Finish[ + '[' run": "Action: Finish[" + "[" * size,
        "name of backslashes": "Action: " + "\\" * size + "_",
        "name with '(' glosses": "Action: a" + " (" * (size // 2) + "\nAction Input: x",
        "unclosed block comment": 'Action: search\nAction Input: {"a": 1 /*' + "*" * size,
        "input of quotes": "Action: search\nAction Input: " + '"' * size,
        # The tool-call forms of chat templates, left as text: tags, tokens, lists of calls.
        "'<function=' run": "<function=" * (size // 10),
        "'<parameter=x>' run": "<function=f>" + "<parameter=x>" * (size // 13),
        "'<arg_key>' run": "<tool_call>f" + "<arg_key>a</arg_key><arg_value>" * (size // 31),
        "'to=functions.' run": "to=functions.f " * (size // 15),
        "recipient + '<|x|>' run": "to=functions.f" + "<|x|>" * (size // 5),
        "'[TOOL_CALLS]' run": "[TOOL_CALLS]" * (size // 12),
        "'[TOOL_CALL]' block heads": '[TOOL_CALL]{tool => "f", args => {' * (size // 33),
        "one block of '--a' flags": '[TOOL_CALL]{tool => "f", args => {' + '--a "' * (size // 5),
        "lines of '[f('": "[f(\n" * (size // 4),
        "'<|channel|>analysis' run": "<|channel|>analysis<|message|>" * (size // 30),
    }


ADVERSARIAL_INPUTS = adversarial_inputs(SIZE)


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
    small = adversarial_inputs(SIZE // 10)
    rows = [("typical reply", len(TYPICAL_REPLY), best_ms(TYPICAL_REPLY), None)]
    for name, text in ADVERSARIAL_INPUTS.items():
        ms = best_ms(text)
        rows.append((name, len(text), ms, ms / max(best_ms(small[name]), 1e-3)))
    width = max(len(name) for name, *_ in rows)
    print(f"{'input':<{width}}  {'chars':>7}  {'best ms':>8}  {'x 10 KB':>7}")
    slow = []
    for name, size, ms, growth in rows:
        too_slow = growth is not None and growth > MAX_GROWTH and ms > NOISE_MS
        slow += [name] if too_slow else []
        shown = f"{growth:>7.1f}" if growth is not None else " " * 7
        print(
            f"{name:<{width}}  {size:>7}  {ms:>8.3f}  {shown}{'  SUPERLINEAR' if too_slow else ''}"
        )
    if slow:
        print(f"FAIL: {len(slow)} input(s) grew more than {MAX_GROWTH:.0f}x: {', '.join(slow)}")
        return 1
    print(f"OK: every adversarial input parsed in linear time (best of {REPEATS}).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
