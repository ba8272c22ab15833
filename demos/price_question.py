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

# Expected output (a real run on the bundled local model; `python demos/price_question.py`). A 1.5B
# model is not always right: here the Chinese answer leaves out the markup and the gold answer gives
# the price of one ounce, not of three; the transcripts show where each went wrong:
# model: local qwen2.5-coder-1.5b (llama.cpp server on 127.0.0.1)
#
# === What is the wholesale price of a rose stem in China, plus a 5% markup?
# Thought: I need to find the wholesale price of a rose stem in China and then add 5% to it.
# Action: search
# Action Input: wholesale price of roses in Kunming
# Observation: [offline snapshot, 2025-03] Wholesale price of a rose stem at Kunming Dounan flower market: At the Dounan flower market in Kunming, Yunnan, China's largest fresh-cut flower market, a standard red rose wholesaled for about 1 yuan (CNY 1) per stem in early 2025. On ordinary days the price ranges from about 0.5 to 1.5 yuan per stem, and it rises in the week before Valentine's Day. (source: Kunming Dounan flower market price reports (Yunnan media))
# [offline snapshot, 2025-02] Retail price of a rose in China around Valentine's Day: Around Valentine's Day (14 February) 2025, florists in large Chinese cities such as Beijing and Shanghai sold a single red rose for about 15 yuan (typically 10 to 20 yuan per stem), more than ten times the wholesale price. (source: Chinese media reports on Valentine's Day flower prices)
# [offline snapshot, 2025-02] Price of a dozen roses in the United States: In the United States a dozen long-stemmed red roses from a florist cost about $80 around Valentine's Day 2025 (roughly $60 to $100), while supermarkets sold a dozen roses for about $20 to $30. (source: US florist and retail price surveys)
# Thought: I need to find the wholesale price of a rose stem in China and then add 5% to it.
# Action: search
# Action Input: wholesale price of roses in Kunming
# Observation: You already ran search with this input; its observation was: [offline snapshot, 2025-03] Wholesale price of a rose stem at Kunming Dounan flower market: At the Dounan flower market in Kunming, Yunnan, China's largest fresh-cut flower market, a standard red rose wholesaled for about 1 yuan (CNY 1) per stem in early 2025. On ordinary days the price ranges from about 0.5 to 1.5 yuan per stem, and it rises in the week before Valentine's Day. (source: Kunming Dounan flower market price reports (Yunnan media))
# [offline snapshot, 2025-02] Retail price of a rose in China around Valentine's Day: Around Valentine's Day (14 February) 2025, florists in large Chinese cities such as Beijing and Shanghai sold a single red rose for about 15 yuan (typically 10 to 20 yuan per stem), more than ten times the wholesale price. (source: Chinese media reports on Valentine's Day flower prices)
# [offline snapshot, 2025-02] Price of a dozen roses in the United States: In the United States a dozen long-stemmed red roses from a florist cost about $80 around Valentine's Day 2025 (roughly $60 to $100), while supermarkets sold a dozen roses for about $20 to $30. (source: US florist and retail price surveys)
# Do not repeat it: use that result, try a different input, or write the Final Answer.
# Final Answer: The wholesale price of a rose stem in China is approximately 1 yuan (CNY 1) per stem, and with a 5% markup, the total cost would be about 1.05 yuan (CNY 1.05).
# --> The wholesale price of a rose stem in China is approximately 1 yuan (CNY 1) per stem, and with a 5% markup, the total cost would be about 1.05 yuan (CNY 1.05).  (3 model calls, final_answer)
#
# === 中国玫瑰每枝的批发价是多少？加价5%之后是多少？
# 思考：我需要知道中国玫瑰的批发价，然后计算加5%后的价格。
# 行动：search
# 行动输入：中国玫瑰批发价
# 观察：[offline snapshot, 2025-03] 昆明斗南花卉市场玫瑰批发价: 2025年初，昆明斗南花卉市场普通红玫瑰的批发价约为每枝1元人民币，平时一般在每枝0.5元到1.5元之间，情人节前会上涨。斗南是中国最大的鲜切花交易市场。 (source: 云南本地媒体对斗南花卉市场行情的报道)
# [offline snapshot, 2025-02] 情人节玫瑰零售价: 2025年情人节前后，北京、上海等大城市花店的单枝红玫瑰零售价约为15元（一般每枝10到20元），是批发价的十倍以上。 (source: 国内媒体对情人节鲜花价格的报道)
# [offline snapshot, 2025-01] 2024年中国GDP和人口: 国家统计局数据显示，2024年中国国内生产总值（GDP）为1349084亿元，比上年增长5.0%；2024年末全国人口为140828万人。 (source: 国家统计局)
# 思考：我现在知道最终答案了
# 最终答案：中国玫瑰每枝的批发价是1元人民币。
# --> 中国玫瑰每枝的批发价是1元人民币。  (2 model calls, final_answer)
#
# === How much would 3 ounces of gold cost at the end-of-March 2025 price?
# Thought: I need to look up the price of gold at the end-of-March 2025.
# Action: search
# Action Input: gold price end of march 2025
# Observation: [offline snapshot, 2025-03] Gold price per ounce: Gold passed $3,000 per troy ounce for the first time on 14 March 2025 and traded at about $3,100 per ounce at the end of March 2025, up from about $2,600 at the start of the year. (source: Reuters market reports)
# [offline snapshot, 2025-03] Silver price per ounce: Silver traded at about $34 per troy ounce at the end of March 2025. (source: Reuters market reports)
# [offline snapshot, 2025-03] Bitcoin price: Bitcoin first passed $100,000 on 5 December 2024, reached a record of about $109,000 on 20 January 2025, and traded at about $82,000 at the end of March 2025. (source: Reuters market reports)
# Thought: I need to look up the price of gold at the end-of-March 2025.
# Action: search
# Action Input: gold price end of march 2025
# Observation: You already ran search with this input; its observation was: [offline snapshot, 2025-03] Gold price per ounce: Gold passed $3,000 per troy ounce for the first time on 14 March 2025 and traded at about $3,100 per ounce at the end of March 2025, up from about $2,600 at the start of the year. (source: Reuters market reports)
# [offline snapshot, 2025-03] Silver price per ounce: Silver traded at about $34 per troy ounce at the end of March 2025. (source: Reuters market reports)
# [offline snapshot, 2025-03] Bitcoin price: Bitcoin first passed $100,000 on 5 December 2024, reached a record of about $109,000 on 20 January 2025, and traded at about $82,000 at the end of March 2025. (source: Reuters market reports)
# Do not repeat it: use that result, try a different input, or write the Final Answer.
# Final Answer: The price of 3 ounces of gold at the end-of-March 2025 would be approximately $3,100 per ounce.
# --> The price of 3 ounces of gold at the end-of-March 2025 would be approximately $3,100 per ounce.  (3 model calls, final_answer)
