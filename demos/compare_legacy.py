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

# Expected output (a real run on the bundled local model; `python demos/compare_legacy.py`),
# remade by `python scripts/make_docs_assets.py --demos`, which records its prompt and
# date in docs/assets/provenance.json:
# model: local qwen2.5-coder-1.5b (llama.cpp server on 127.0.0.1)
#
# Question (rose-markup): What is the wholesale price of a rose stem in China, plus a 5% markup?
# == custom ==                                               | == legacy ==
# Thought: I need to find the wholesale price of a rose stem | Thought: To find the wholesale price of a rose stem in
# in China and then add a 5% markup to it.                   | China plus a 5% markup, I need to follow these steps:
# Action: search                                             | 1. Search for the wholesale price of a rose stem in China.
# Action Input: wholesale price of rose stem in China        | 2. Calculate the 5% markup on the wholesale price.
# Observation: [offline snapshot, 2025-03] Wholesale price   | 3. Add the markup to the wholesale price to get the final
# of a rose stem at Kunming Dounan flower market: At the     | price.
# Dounan flower market in Kunming, Yunnan, China's largest   | Action: search
# fresh-cut flower market, a standard red rose wholesaled    | Action Input: wholesale price of a rose stem in China
# for about 1 yuan (CNY 1) per stem in early 2025. On        | Observation: [offline snapshot, 2025-03] Wholesale price
# ordinary days the price ranges from about 0.5 to 1.5 yuan  | of a rose stem at Kunming Dounan flower market: At the
# per stem, and it rises in the week before Valentine's Day. | Dounan flower market in Kunming, Yunnan, China's largest
# (source: Kunming Dounan flower market price reports        | fresh-cut flower market, a standard red rose wholesaled
# (Yunnan media))                                            | for about 1 yuan (CNY 1) per stem in early 2025. On
# [offline snapshot, 2025-02] Retail price of a rose in      | ordinary days the price ranges from about 0.5 to 1.5 yuan
# China around Valentine's Day: Around Valentine's Day (14   | per stem, and it rises in the week before Valentine's Day.
# February) 2025, florists in large Chinese cities such as   | (source: Kunming Dounan flower market price reports
# Beijing and Shanghai sold a single red rose for about 15   | (Yunnan media))
# yuan (typically 10 to 20 yuan per stem), more than ten     | [offline snapshot, 2025-02] Retail price of a rose in
# times the wholesale price. (source: Chinese media reports  | China around Valentine's Day: Around Valentine's Day (14
# on Valentine's Day flower prices)                          | February) 2025, florists in large Chinese cities such as
# [offline snapshot, 2025-02] Price of a dozen roses in the  | Beijing and Shanghai sold a single red rose for about 15
# United States: In the United States a dozen long-stemmed   | yuan (typically 10 to 20 yuan per stem), more than ten
# red roses from a florist cost about $80 around Valentine's | times the wholesale price. (source: Chinese media reports
# Day 2025 (roughly $60 to $100), while supermarkets sold a  | on Valentine's Day flower prices)
# dozen roses for about $20 to $30. (source: US florist and  | [offline snapshot, 2025-02] Price of a dozen roses in the
# retail price surveys)                                      | United States: In the United States a dozen long-stemmed
# Thought: I need to find the wholesale price of a rose stem | red roses from a florist cost about $80 around Valentine's
# in China and then add a 5% markup to it.                   | Day 2025 (roughly $60 to $100), while supermarkets sold a
# Action: search                                             | dozen roses for about $20 to $30. (source: US florist and
# Action Input: wholesale price of rose stem in China        | retail price surveys)
# Observation: You already ran search with this input; its   | Thought: To calculate the 5% markup on the wholesale
# observation was: [offline snapshot, 2025-03] Wholesale     | price, I need to follow these steps:
# price of a rose stem at Kunming Dounan flower market: At   | 1. Identify the wholesale price of a rose stem in China.
# the Dounan flower market in Kunming, Yunnan, China's       | 2. Calculate 5% of the wholesale price.
# largest fresh-cut flower market, a standard red rose       | 3. Add the markup to the wholesale price to get the final
# wholesaled for about 1 yuan (CNY 1) per stem in early      | price.
# 2025. On ordinary days the price ranges from about 0.5 to  | Action: calculator
# 1.5 yuan per stem, and it rises in the week before         | Action Input: 1 * 0.05
# Valentine's Day. (source: Kunming Dounan flower market     | Observation: 0.05
# price reports (Yunnan media))                              | Final Answer: The wholesale price of a rose stem in China,
# [offline snapshot, 2025-02] Retail price of a rose in      | plus a 5% markup, is approximately 1.05 yuan (CNY 1.05).
# China around Valentine's Day: Around Valentine's Day (14   |
# February) 2025, florists in large Chinese cities such as   |
# Beijing and Shanghai sold a single red rose for about 15   |
# yuan (typically 10 to 20 yuan per stem), more than ten     |
# times the wholesale price. (source: Chinese media reports  |
# on Valentine's Day flower prices)                          |
# [offline snapshot, 2025-02] Price of a dozen roses in the  |
# United States: In the United States a dozen long-stemmed   |
# red roses from a florist cost about $80 around Valentine's |
# Day 2025 (roughly $60 to $100), while supermarkets sold a  |
# dozen roses for about $20 to $30. (source: US florist and  |
# retail price surveys)                                      |
# Do not repeat it: use that result, try a different input,  |
# or write the Final Answer.                                 |
# Final Answer: The wholesale price of a rose stem in China  |
# is approximately 1 yuan (CNY 1) per stem, and with a 5%    |
# markup, the final price would be about 1.05 yuan (CNY      |
# 1.05) per stem.                                            |
#
# Question (stamps): How much do 20 US Forever stamps cost at the early 2025 price, in dollars?
# == custom ==                                               | == legacy ==
# Thought: To find the cost of 20 US Forever stamps at the   | Thought: To find the cost of 20 US Forever stamps at the
# early 2025 price, I need to look up the current price of a | early 2025 price, I need to search for that information.
# single US Forever stamp and then multiply it by 20.        | Action: search
# Action: search                                             | Action Input: "20 US Forever stamps early 2025 price"
# Action Input: US Forever stamp price early 2025            | Observation: [offline snapshot, 2025-04] US postage stamp
# Observation: [offline snapshot, 2025-04] US postage stamp  | price: A US first-class Forever stamp cost 73 cents in
# price: A US first-class Forever stamp cost 73 cents in     | early 2025 (since July 2024); the US Postal Service
# early 2025 (since July 2024); the US Postal Service        | planned to raise it to 78 cents in July 2025. (source:
# planned to raise it to 78 cents in July 2025. (source:     | United States Postal Service)
# United States Postal Service)                              | [offline snapshot, 2025-03] US dollar to Japanese yen
# [offline snapshot, 2025-03] US dollar to Japanese yen      | exchange rate: One US dollar bought about 150 Japanese yen
# exchange rate: One US dollar bought about 150 Japanese yen | at the end of March 2025 (USD/JPY about 150), down from
# at the end of March 2025 (USD/JPY about 150), down from    | about 157 yen in early January 2025. (source: Market data)
# about 157 yen in early January 2025. (source: Market data) | [offline snapshot, 2025-02] Price of a dozen roses in the
# [offline snapshot, 2025-03] US gasoline price: The US      | United States: In the United States a dozen long-stemmed
# national average price of regular gasoline was about $3.10 | red roses from a florist cost about $80 around Valentine's
# per gallon in March 2025. (source: AAA fuel price data)    | Day 2025 (roughly $60 to $100), while supermarkets sold a
# Thought: I now know the final answer                       | dozen roses for about $20 to $30. (source: US florist and
# Final Answer: The cost of 20 US Forever stamps at the      | retail price surveys)
# early 2025 price was approximately 14.85 dollars.          | Final Answer: The cost of 20 US Forever stamps at the
#                                                            | early 2025 price was approximately 1.47 dollars.
#
# Model: local qwen2.5-coder-1.5b (llama.cpp server on 127.0.0.1)
#
# question     agent   correct  iter  calls  tokens in/out  parse  time   answer
# -----------  ------  -------  ----  -----  -------------  -----  -----  --------------------------------------------------
# rose-markup  custom  yes      3     3      2513/151       0      26.7s  The wholesale price of a rose stem in China [...]
# stamps       custom  yes      2     2      1205/108       0      10.3s  The cost of 20 US Forever stamps at the [...]
# rose-markup  legacy  yes      3     3      1900/212       0      23.0s  The wholesale price of a rose stem in China, [...]
# stamps       legacy  no       2     2      974/94         0      9.8s   The cost of 20 US Forever stamps at the [...]
#
# Totals
# agent   solved  iter  calls  tokens in/out  parse  errors  time
# ------  ------  ----  -----  -------------  -----  ------  -----
# custom  2/2     5     5      3718/259       0      0       37.0s
# legacy  1/2     5     5      2874/306       0      0       32.8s
#
# Where they differ
# - stamps: solved by custom; missed by legacy (answered 'The cost of 20 US Forever stamps at the early 2025 price was [...]' after 1 tool calls)
# - prompt tokens: each call resends the whole prompt (tool list, example, steps so far), so extra calls and a longer system prompt both add up; fewest: legacy (2874), most: custom (3718)
# - time: about 5 tokens/s written and 10 tokens/s read on the CPU, so it follows the tokens; fewest: legacy (33 s), most: custom (37 s)
