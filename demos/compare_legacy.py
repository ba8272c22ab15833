"""Demo: our agent vs LangChain's legacy `create_react_agent` + `AgentExecutor`, on the same model,
tools and questions, side by side.

Runs the comparison harness (`custom_react.compare`) on a few questions from
`questions/default.jsonl`, prints both transcripts of each question in two columns, then the table
(answer, correct, iterations, model calls, tokens, parse failures, time). Offline by default on the
bundled local model. For all four agents (with `create_agent`, natively and with text ReAct) on
the whole question set, with saved JSON/Markdown reports, run
`custom-react compare --out bench/results/compare`.

Run from the repository root:  python demos/compare_legacy.py [question ids...]
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from dotenv import find_dotenv, load_dotenv
from langchain_core.language_models import BaseChatModel

from custom_react.compare import (
    ComparisonReport,
    Question,
    load_questions,
    render_table,
    run_comparison,
    side_by_side,
)
from custom_react.serving.errors import exit_on_model_error
from custom_react.serving.models import ModelSettings, describe, open_chat_model
from tools import default_tools

QUESTION_FILE = Path(__file__).resolve().parents[1] / "questions" / "default.jsonl"
DEFAULT_IDS = ("rose-markup", "stamps")


def run(
    llm: BaseChatModel,
    questions: Sequence[Question],
    write: Callable[[str], object] = print,
    model_name: str = "",
) -> ComparisonReport:
    """Compare the agents on `questions`; write the transcripts side by side, then the table."""
    report = run_comparison(
        questions, llm, default_tools, agents=("custom", "legacy"), model_name=model_name
    )
    for question in questions:
        if {"custom", "legacy"} <= set(report.agents):
            write("\n" + side_by_side(report, question.id, width=58))
    write("\n" + render_table(report, answer_chars=50))
    return report


def main() -> None:
    """Pick the model from the environment / `.env`, then compare on the chosen questions."""
    load_dotenv(find_dotenv(usecwd=True))
    wanted = sys.argv[1:] or DEFAULT_IDS
    questions = [question for question in load_questions(QUESTION_FILE) if question.id in wanted]
    settings = ModelSettings.from_env()
    print(f"model: {describe(settings)}")
    with exit_on_model_error(), open_chat_model(settings) as llm:
        run(llm, questions, model_name=describe(settings))


if __name__ == "__main__":
    main()

# Expected output (a real run on the bundled local model; `python demos/compare_legacy.py`):
# model: local qwen2.5-coder-1.5b (llama.cpp server on 127.0.0.1)
#
# Question (rose-markup): What is the wholesale price of a rose stem in China, plus a 5% markup?
# == custom ==                                               | == legacy ==
# Thought: I need to find the wholesale price of a rose stem | Thought: To find the wholesale price of a rose stem in
# in China and then add 5% to it.                            | China plus a 5% markup, I need to:
# Action: search                                             | 1. Search for the current wholesale price of a rose stem
# Action Input: wholesale price of roses in Kunming          | in China.
# Observation: [offline snapshot, 2025-03] Wholesale price   | 2. Calculate 5% of that price and add it to the original
# of a rose stem at Kunming Dounan flower market: At the     | price.
# Dounan flower market in Kunming, Yunnan, China's largest   |
# fresh-cut flower market, a standard red rose wholesaled    | Action: search
# for about 1 yuan (CNY 1) per stem in early 2025. On        | Action Input: wholesale price of roses in Kunming
# ordinary days the price ranges from about 0.5 to 1.5 yuan  | Observation: [offline snapshot, 2025-03] Wholesale price
# per stem, and it rises in the week before Valentine's Day. | of a rose stem at Kunming Dounan flower market: At the
# (source: Kunming Dounan flower market price reports        | Dounan flower market in Kunming, Yunnan, China's largest
# (Yunnan media))                                            | fresh-cut flower market, a standard red rose wholesaled
# [offline snapshot, 2025-02] Retail price of a rose in      | for about 1 yuan (CNY 1) per stem in early 2025. On
# China around Valentine's Day: Around Valentine's Day (14   | ordinary days the price ranges from about 0.5 to 1.5 yuan
# February) 2025, florists in large Chinese cities such as   | per stem, and it rises in the week before Valentine's Day.
# Beijing and Shanghai sold a single red rose for about 15   | (source: Kunming Dounan flower market price reports
# yuan (typically 10 to 20 yuan per stem), more than ten     | (Yunnan media))
# times the wholesale price. (source: Chinese media reports  | [offline snapshot, 2025-02] Retail price of a rose in
# on Valentine's Day flower prices)                          | China around Valentine's Day: Around Valentine's Day (14
# [offline snapshot, 2025-02] Price of a dozen roses in the  | February) 2025, florists in large Chinese cities such as
# United States: In the United States a dozen long-stemmed   | Beijing and Shanghai sold a single red rose for about 15
# red roses from a florist cost about $80 around Valentine's | yuan (typically 10 to 20 yuan per stem), more than ten
# Day 2025 (roughly $60 to $100), while supermarkets sold a  | times the wholesale price. (source: Chinese media reports
# dozen roses for about $20 to $30. (source: US florist and  | on Valentine's Day flower prices)
# retail price surveys)                                      | [offline snapshot, 2025-02] Price of a dozen roses in the
# Thought: I need to find the wholesale price of a rose stem | United States: In the United States a dozen long-stemmed
# in China and then add 5% to it.                            | red roses from a florist cost about $80 around Valentine's
# Action: search                                             | Day 2025 (roughly $60 to $100), while supermarkets sold a
# Action Input: wholesale price of roses in Kunming          | dozen roses for about $20 to $30. (source: US florist and
# Observation: You already ran search with this input; its   | retail price surveys)
# observation was: [offline snapshot, 2025-03] Wholesale     | Thought: To calculate 5% of the wholesale price and add it
# price of a rose stem at Kunming Dounan flower market: At   | to the original price, I need to:
# the Dounan flower market in Kunming, Yunnan, China's       | 1. Find the current wholesale price of a rose stem in
# largest fresh-cut flower market, a standard red rose       | China.
# wholesaled for about 1 yuan (CNY 1) per stem in early      | 2. Calculate 5% of that price and add it to the original
# 2025. On ordinary days the price ranges from about 0.5 to  | price.
# 1.5 yuan per stem, and it rises in the week before         |
# Valentine's Day. (source: Kunming Dounan flower market     | Action: calculator
# price reports (Yunnan media))                              | Action Input: 1 yuan * (1 + 0.05)
# [offline snapshot, 2025-02] Retail price of a rose in      | Observation: Cannot calculate '1 yuan * (1 + 0.05)\n':
# China around Valentine's Day: Around Valentine's Day (14   | this is not a valid arithmetic expression. Use numbers
# February) 2025, florists in large Chinese cities such as   | with + - * / // % ** and brackets, percentages such as
# Beijing and Shanghai sold a single red rose for about 15   | '12.5% of 2480', the functions sqrt, round, abs, min, max,
# yuan (typically 10 to 20 yuan per stem), more than ten     | floor, ceil, log, exp and the constants pi and e.
# times the wholesale price. (source: Chinese media reports  | Question: What is the wholesale price of a rose stem in
# on Valentine's Day flower prices)                          | China, plus a 5% markup?
# [offline snapshot, 2025-02] Price of a dozen roses in the  | Thought: Thought: To find the wholesale price of a rose
# United States: In the United States a dozen long-stemmed   | stem in China plus a 5% markup, I need to:
# red roses from a florist cost about $80 around Valentine's | 1. Search for the current wholesale price of a rose stem
# Day 2025 (roughly $60 to $100), while supermarkets sold a  | in China.
# dozen roses for about $20 to $30. (source: US florist and  | 2. Calculate 5% of that price and add it to the original
# retail price surveys)                                      | price.
# Do not repeat it: use that result, try a different input,  |
# or write the Final Answer.                                 | Action: search
# Final Answer: The wholesale price of a rose stem in China  | Action Input: wholesale price of roses in Kunming
# is approximately 1 yuan (CNY 1) per stem, and with a 5%    | Observation: [offline snapshot, 2025-03] Wholesale price
# markup, the total cost would be about 1.05 yuan (CNY       | of a rose stem at Kunming Dounan flower market: At the
# 1.05).                                                     | Dounan flower market in Kunming, Yunnan, China's largest
#                                                            | fresh-cut flower market, a standard red rose wholesaled
#                                                            | for about 1 yuan (CNY 1) per stem in early 2025. On
#                                                            | ordinary days the price ranges from about 0.5 to 1.5 yuan
#                                                            | per stem, and it rises in the week before Valentine's Day.
#                                                            | (source: Kunming Dounan flower market price reports
#                                                            | (Yunnan media))
#                                                            | [offline snapshot, 2025-02] Retail price of a rose in
#                                                            | China around Valentine's Day: Around Valentine's Day (14
#                                                            | February) 2025, florists in large Chinese cities such as
#                                                            | Beijing and Shanghai sold a single red rose for about 15
#                                                            | yuan (typically 10 to 20 yuan per stem), more than ten
#                                                            | times the wholesale price. (source: Chinese media reports
#                                                            | on Valentine's Day flower prices)
#                                                            | [offline snapshot, 2025-02] Price of a dozen roses in the
#                                                            | United States: In the United States a dozen long-stemmed
#                                                            | red roses from a florist cost about $80 around Valentine's
#                                                            | Day 2025 (roughly $60 to $100), while supermarkets sold a
#                                                            | dozen roses for about $20 to $30. (source: US florist and
#                                                            | retail price surveys)
#                                                            | Final Answer: The wholesale price of a rose stem in China,
#                                                            | plus a 5% markup, is approximately 1.05 yuan (CNY 1.05).
#
# Question (stamps): How much do 20 US Forever stamps cost at the early 2025 price, in dollars?
# == custom ==                                               | == legacy ==
# Thought: I need to look up the price of 20 US Forever      | Thought: To find the cost of 20 US Forever stamps at the
# stamps at the early 2025 time period.                      | early 2025 price, I need to search for that information.
# Action: search                                             | Action: search
# Action Input: early 2025 price of 20 US Forever stamps     | Action Input: "early 2025 price of 20 US Forever stamps"
# Observation: [offline snapshot, 2025-04] US postage stamp  | Observation: [offline snapshot, 2025-04] US postage stamp
# price: A US first-class Forever stamp cost 73 cents in     | price: A US first-class Forever stamp cost 73 cents in
# early 2025 (since July 2024); the US Postal Service        | early 2025 (since July 2024); the US Postal Service
# planned to raise it to 78 cents in July 2025. (source:     | planned to raise it to 78 cents in July 2025. (source:
# United States Postal Service)                              | United States Postal Service)
# [offline snapshot, 2025-02] Price of a dozen roses in the  | [offline snapshot, 2025-02] Price of a dozen roses in the
# United States: In the United States a dozen long-stemmed   | United States: In the United States a dozen long-stemmed
# red roses from a florist cost about $80 around Valentine's | red roses from a florist cost about $80 around Valentine's
# Day 2025 (roughly $60 to $100), while supermarkets sold a  | Day 2025 (roughly $60 to $100), while supermarkets sold a
# dozen roses for about $20 to $30. (source: US florist and  | dozen roses for about $20 to $30. (source: US florist and
# retail price surveys)                                      | retail price surveys)
# [offline snapshot, 2025-03] US dollar to Japanese yen      | [offline snapshot, 2025-03] US dollar to Japanese yen
# exchange rate: One US dollar bought about 150 Japanese yen | exchange rate: One US dollar bought about 150 Japanese yen
# at the end of March 2025 (USD/JPY about 150), down from    | at the end of March 2025 (USD/JPY about 150), down from
# about 157 yen in early January 2025. (source: Market data) | about 157 yen in early January 2025. (source: Market data)
# Thought: I need to convert the price of 20 US Forever      | Final Answer: The cost of 20 US Forever stamps at the
# stamps from cents to dollars.                              | early 2025 price was approximately $1.47 (since July
# Action: calculator                                         | 2024).
# Action Input: 73 / 100 * 20                                |
# Observation: 14.6                                          |
# Thought: I need to look up the price of 20 US Forever      |
# stamps at the early 2025 time period.                      |
# Action: search                                             |
# Action Input: early 2025 price of 20 US Forever stamps     |
# Observation: You already ran search with this input; its   |
# observation was: [offline snapshot, 2025-04] US postage    |
# stamp price: A US first-class Forever stamp cost 73 cents  |
# in early 2025 (since July 2024); the US Postal Service     |
# planned to raise it to 78 cents in July 2025. (source:     |
# United States Postal Service)                              |
# [offline snapshot, 2025-02] Price of a dozen roses in the  |
# United States: In the United States a dozen long-stemmed   |
# red roses from a florist cost about $80 around Valentine's |
# Day 2025 (roughly $60 to $100), while supermarkets sold a  |
# dozen roses for about $20 to $30. (source: US florist and  |
# retail price surveys)                                      |
# [offline snapshot, 2025-03] US dollar to Japanese yen      |
# exchange rate: One US dollar bought about 150 Japanese yen |
# at the end of March 2025 (USD/JPY about 150), down from    |
# about 157 yen in early January 2025. (source: Market data) |
# Do not repeat it: use that result, try a different input,  |
# or write the Final Answer.                                 |
# Final Answer: The price of 20 US Forever stamps at the     |
# early 2025 time period was approximately $14.60.           |
#
# Model: local qwen2.5-coder-1.5b (llama.cpp server on 127.0.0.1)
#
# question     agent   correct  iter  calls  tokens in/out  parse  time   answer
# -----------  ------  -------  ----  -----  -------------  -----  -----  --------------------------------------------------
# rose-markup  custom  yes      3     3      2662/164       0      38.0s  The wholesale price of a rose stem in China [...]
# stamps       custom  yes      4     4      3389/205       0      28.3s  The price of 20 US Forever stamps at the [...]
# rose-markup  legacy  yes      4     4      3324/291       0      46.7s  The wholesale price of a rose stem in China, [...]
# stamps       legacy  no       2     2      1016/102       0      12.9s  The cost of 20 US Forever stamps at the [...]
#
# Totals
# agent   solved  iter  calls  tokens in/out  parse  errors  time
# ------  ------  ----  -----  -------------  -----  ------  -----
# custom  2/2     7     7      6051/369       0      0       66.2s
# legacy  1/2     6     6      4340/393       0      0       59.6s
#
# create_agent skipped: the model returned no tool_calls for a request with tools bound (it wrote the call as text: '```json { "name": "calculator", "arguments": { "expression": "17 * 23" } } ```'), so create_agent would stop at its first reply
