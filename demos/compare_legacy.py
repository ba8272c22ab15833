"""Demo: our agent vs LangChain's legacy `create_react_agent` + `AgentExecutor` (and `create_agent`
when the model returns tool calls), on the same model, tools and questions, side by side.

Runs the comparison harness (`custom_react.compare`) on a few questions from
`questions/default.jsonl`, prints both transcripts of each question in two columns, then the table
(answer, correct, iterations, model calls, tokens, parse failures, time). Offline by default on the
bundled local model. For the whole question set and saved JSON/Markdown reports, run
`python bench/compare_local.py`.

Run from the repository root:  python demos/compare_legacy.py [question ids...]
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from dotenv import find_dotenv, load_dotenv
from langchain_core.language_models import BaseChatModel

from custom_react.compare import Question, load_questions, run_comparison
from custom_react.compare_report import ComparisonReport, render_table, side_by_side
from custom_react.models import ModelSettings, describe, open_chat_model
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
    report = run_comparison(questions, llm, default_tools, model_name=model_name)
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
    with open_chat_model(settings) as llm:
        run(llm, questions, model_name=describe(settings))


if __name__ == "__main__":
    main()

# Expected output (a real run on the bundled local model; `python demos/compare_legacy.py`):
# model: local qwen2.5-coder-1.5b (llama.cpp server on 127.0.0.1)
#
# Question (rose-markup): What is the wholesale price of a rose stem in China, plus a 5% markup?
# == custom ==                                               | == legacy ==
# Thought: I need to find the wholesale price of a rose stem | Thought: To find the wholesale price of a rose stem in
# and then add 5% to it.                                     | China plus a 5% markup, I need to:
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
# Thought: I now know the wholesale price of a rose stem in  | United States: In the United States a dozen long-stemmed
# China.                                                     | red roses from a florist cost about $80 around Valentine's
# Action: calculator                                         | Day 2025 (roughly $60 to $100), while supermarkets sold a
# Action Input: 1 * 1.05                                     | dozen roses for about $20 to $30. (source: US florist and
# Observation: 1.05                                          | retail price surveys)
# Thought: I now know the final answer                       | Thought: To calculate 5% of the wholesale price and add it
# Final Answer: The wholesale price of a rose stem in China  | to the original price, I need to:
# is 1.05 yuan (CNY 1).                                      | 1. Find the current wholesale price of a rose stem in
#                                                            | China.
#                                                            | 2. Calculate 5% of that price and add it to the original
#                                                            | price.
#                                                            |
#                                                            | Action: calculator
#                                                            | Action Input: 1 yuan * (1 + 0.05)
#                                                            | Observation: Cannot calculate '1 yuan * (1 + 0.05)\n':
#                                                            | this is not a valid arithmetic expression. Use numbers
#                                                            | with + - * / // % ** and brackets, percentages such as
#                                                            | '12.5% of 2480', the functions sqrt, round, abs, min, max,
#                                                            | floor, ceil, log, exp and the constants pi and e.
#                                                            | Question: What is the wholesale price of a rose stem in
#                                                            | China, plus a 5% markup?
#                                                            | Thought: Thought: To find the wholesale price of a rose
#                                                            | stem in China plus a 5% markup, I need to:
#                                                            | 1. Search for the current wholesale price of a rose stem
#                                                            | in China.
#                                                            | 2. Calculate 5% of that price and add it to the original
#                                                            | price.
#                                                            |
#                                                            | Action: search
#                                                            | Action Input: wholesale price of roses in Kunming
#                                                            | Observation: [offline snapshot, 2025-03] Wholesale price
#                                                            | of a rose stem at Kunming Dounan flower market: At the
#                                                            | Dounan flower market in Kunming, Yunnan, China's largest
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
# stamps at the early 2025 time.                             | early 2025 price, I need to search for that information.
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
# Thought: I need to calculate the cost of 20 US Forever     | Final Answer: The cost of 20 US Forever stamps at the
# stamps at the early 2025 price.                            | early 2025 price was approximately $1.47 (since July
# Action: calculator                                         | 2024).
# Action Input: 73 * 20                                      |
# Observation: 1460                                          |
# Thought: I now know the final answer                       |
# Final Answer: 20 US Forever stamps cost $1460 at the early |
# 2025 price.                                                |
#
# Model: local qwen2.5-coder-1.5b (llama.cpp server on 127.0.0.1)
#
# question     agent   correct  iter  calls  tokens in/out  parse  time   answer
# -----------  ------  -------  ----  -----  -------------  -----  -----  --------------------------------------------------
# rose-markup  custom  yes      3     3      2302/110       0      25.1s  The wholesale price of a rose stem in China [...]
# stamps       custom  no       3     3      2195/129       0      20.9s  20 US Forever stamps cost $1460 at the early [...]
# rose-markup  legacy  yes      4     4      3324/291       0      67.0s  The wholesale price of a rose stem in China, [...]
# stamps       legacy  no       2     2      1016/102       0      13.5s  The cost of 20 US Forever stamps at the [...]
#
# Totals
# agent   solved  iter  calls  tokens in/out  parse  errors  time
# ------  ------  ----  -----  -------------  -----  ------  -----
# custom  1/2     6     6      4497/239       0      0       46.0s
# legacy  1/2     6     6      4340/393       0      0       80.5s
#
# create_agent skipped: the model returned no tool_calls for a request with tools bound (it wrote the call as text: '```json { "name": "calculator", "arguments": { "expression": "17 * 23" } } ```'), so create_agent would stop at its first reply
