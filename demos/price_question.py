"""Demo: price questions answered with search + calculator, with the live ReAct transcript.

The rose question (the wholesale price of a rose stem in China, then a 5% markup), in English and in
Chinese, and a gold question. Offline by default: the bundled local model on a loopback server and
the offline search snapshot. With OPENAI_API_KEY / DEEPSEEK_API_KEY / OPENAI_BASE_URL set (in the
environment or `.env`) it uses that model; with TAVILY_API_KEY, live web search.

Run from the repository root:  python demos/price_question.py ["your own price question"]
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from dotenv import find_dotenv, load_dotenv
from langchain_core.language_models import BaseChatModel

from custom_react import ConsolePrinter, CustomReActAgent, RunFinished
from custom_react.serving.errors import exit_on_model_error
from custom_react.serving.models import ModelSettings, describe, open_chat_model
from tools import default_tools

QUESTIONS = [
    ("en", "What is the wholesale price of a rose stem in China, plus a 5% markup?"),
    ("zh", "中国玫瑰每枝的批发价是多少？加价5%之后是多少？"),
    ("en", "How much would 3 ounces of gold cost at the end-of-March 2025 price?"),
]


def run(
    llm: BaseChatModel,
    questions: list[tuple[str, str]] = QUESTIONS,
    write: Callable[[str], object] = print,
) -> list[str]:
    """Answer each (language, question) with the live transcript; return the final answers."""
    answers = []
    for language, question in questions:
        agent = CustomReActAgent(llm, default_tools(), language=language, examples=True)
        printer = ConsolePrinter(write, language=language, color=False)
        write(f"\n=== {question}")
        for event in agent.stream(question):
            printer(event)
            if isinstance(event, RunFinished):
                result = event.result
                write(
                    f"--> {result.output}  ({result.iterations} model calls, {result.stop_reason})"
                )
                answers.append(result.output)
    return answers


def main() -> None:
    """Pick the model from the environment / `.env`, then run the demo questions."""
    load_dotenv(find_dotenv(usecwd=True))  # TAVILY_API_KEY and friends, if you keep them in .env
    questions = [("en", text) for text in sys.argv[1:]] or QUESTIONS
    settings = ModelSettings.from_env()
    print(f"model: {describe(settings)}")
    with exit_on_model_error(), open_chat_model(settings) as llm:
        run(llm, questions)


if __name__ == "__main__":
    main()

# Expected output (a real run on the bundled local model; `python demos/price_question.py`),
# remade by `python scripts/make_docs_assets.py --demos`, which records its prompt and
# date in docs/assets/provenance.json:
# model: local qwen2.5-coder-1.5b (llama.cpp server on 127.0.0.1)
#
# === What is the wholesale price of a rose stem in China, plus a 5% markup?
# Thought: I need to find the wholesale price of a rose stem in China and then add a 5% markup to it.
# Action: search
# Action Input: wholesale price of rose stem in China
# Observation: [offline snapshot, 2025-03] Wholesale price of a rose stem at Kunming Dounan flower market: At the Dounan flower market in Kunming, Yunnan, China's largest fresh-cut flower market, a standard red rose wholesaled for about 1 yuan (CNY 1) per stem in early 2025. On ordinary days the price ranges from about 0.5 to 1.5 yuan per stem, and it rises in the week before Valentine's Day. (source: Kunming Dounan flower market price reports (Yunnan media))
# [offline snapshot, 2025-02] Retail price of a rose in China around Valentine's Day: Around Valentine's Day (14 February) 2025, florists in large Chinese cities such as Beijing and Shanghai sold a single red rose for about 15 yuan (typically 10 to 20 yuan per stem), more than ten times the wholesale price. (source: Chinese media reports on Valentine's Day flower prices)
# [offline snapshot, 2025-02] Price of a dozen roses in the United States: In the United States a dozen long-stemmed red roses from a florist cost about $80 around Valentine's Day 2025 (roughly $60 to $100), while supermarkets sold a dozen roses for about $20 to $30. (source: US florist and retail price surveys)
# Thought: I need to find the wholesale price of a rose stem in China and then add a 5% markup to it.
# Action: search
# Action Input: wholesale price of rose stem in China
# Observation: You already ran search with this input; its observation was: [offline snapshot, 2025-03] Wholesale price of a rose stem at Kunming Dounan flower market: At the Dounan flower market in Kunming, Yunnan, China's largest fresh-cut flower market, a standard red rose wholesaled for about 1 yuan (CNY 1) per stem in early 2025. On ordinary days the price ranges from about 0.5 to 1.5 yuan per stem, and it rises in the week before Valentine's Day. (source: Kunming Dounan flower market price reports (Yunnan media))
# [offline snapshot, 2025-02] Retail price of a rose in China around Valentine's Day: Around Valentine's Day (14 February) 2025, florists in large Chinese cities such as Beijing and Shanghai sold a single red rose for about 15 yuan (typically 10 to 20 yuan per stem), more than ten times the wholesale price. (source: Chinese media reports on Valentine's Day flower prices)
# [offline snapshot, 2025-02] Price of a dozen roses in the United States: In the United States a dozen long-stemmed red roses from a florist cost about $80 around Valentine's Day 2025 (roughly $60 to $100), while supermarkets sold a dozen roses for about $20 to $30. (source: US florist and retail price surveys)
# Do not repeat it: use that result, try a different input, or write the Final Answer.
# Final Answer: The wholesale price of a rose stem in China is approximately 1 yuan (CNY 1) per stem, and with a 5% markup, the final price would be about 1.05 yuan (CNY 1.05) per stem.
# --> The wholesale price of a rose stem in China is approximately 1 yuan (CNY 1) per stem, and with a 5% markup, the final price would be about 1.05 yuan (CNY 1.05) per stem.  (3 model calls, final_answer)
#
# === 中国玫瑰每枝的批发价是多少？加价5%之后是多少？
# 思考：我需要知道中国玫瑰的批发价，然后计算加价5%后的价格。
# 行动：calculator
# 行动输入：100 * 1.05
# 观察：105
# 思考：我现在知道最终答案了
# 最终答案：中国玫瑰每枝的批发价是 100 元，加价 5% 后是 105 元。
# --> 中国玫瑰每枝的批发价是 100 元，加价 5% 后是 105 元。  (2 model calls, final_answer)
#
# === How much would 3 ounces of gold cost at the end-of-March 2025 price?
# Thought: I need to look up the price of gold at the end-of-March 2025.
# Action: search
# Action Input: gold price end of march 2025
# Observation: [offline snapshot, 2025-03] Gold price per ounce: Gold passed $3,000 per troy ounce for the first time on 14 March 2025 and traded at about $3,100 per ounce at the end of March 2025, up from about $2,600 at the start of the year. (source: Reuters market reports)
# [offline snapshot, 2025-03] Silver price per ounce: Silver traded at about $34 per troy ounce at the end of March 2025. (source: Reuters market reports)
# [offline snapshot, 2025-03] Brent crude oil price: Brent crude oil traded at about $74 per barrel at the end of March 2025, after averaging about $80 per barrel in 2024. (source: Reuters market reports; US EIA)
# Thought: I now know the final answer
# Final Answer: The price of 3 ounces of gold at the end-of-March 2025 would be approximately $3,100 per ounce.
# --> The price of 3 ounces of gold at the end-of-March 2025 would be approximately $3,100 per ounce.  (2 model calls, final_answer)
