"""Demo: a multi-step search question, with the live ReAct transcript.

"Who won the 2025 Australian Open men's singles, and where is he from?" needs two lookups: the
winner, then where he comes from. Offline by default (bundled local model, offline search
snapshot); uses a hosted model and Tavily web search when their keys are set (environment or `.env`).

Run from the repository root:  python demos/search_question.py ["your own question"]
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

QUESTION = "Who won the 2025 Australian Open men's singles, and where is he from?"


def run(
    llm: BaseChatModel, question: str = QUESTION, write: Callable[[str], object] = print
) -> str:
    """Answer `question` with the live transcript; return the final answer."""
    agent = CustomReActAgent(llm, default_tools(), examples=True, max_iterations=8)
    printer = ConsolePrinter(write, color=False)
    write(f"=== {question}")
    output = ""
    for event in agent.stream(question):
        printer(event)
        if isinstance(event, RunFinished):
            result = event.result
            output = result.output
            write(f"--> {output}  ({result.iterations} model calls, {result.stop_reason})")
    return output


def main() -> None:
    """Pick the model from the environment / `.env`, then run the demo question."""
    load_dotenv(find_dotenv(usecwd=True))
    settings = ModelSettings.from_env()
    print(f"model: {describe(settings)}")
    with exit_on_model_error(), open_chat_model(settings) as llm:
        run(llm, " ".join(sys.argv[1:]) or QUESTION)


if __name__ == "__main__":
    main()

# Expected output (a real run on the bundled local model; `python demos/search_question.py`),
# remade by `python scripts/make_docs_assets.py --demos`, which records its prompt and
# date in docs/assets/provenance.json:
# model: local qwen2.5-coder-1.5b (llama.cpp server on 127.0.0.1)
# === Who won the 2025 Australian Open men's singles, and where is he from?
# Thought: I need to find the winner of the 2025 Australian Open men's singles and their country of origin.
# Action: search
# Action Input: Australian Open 2025 men's singles winner
# Observation: [offline snapshot, 2025-01] 2025 Australian Open men's singles final: Jannik Sinner of Italy won the 2025 Australian Open men's singles title, beating Alexander Zverev of Germany 6-3, 7-6(4), 6-3 in the final in Melbourne on 26 January 2025. It was his second Australian Open title in a row and his third Grand Slam title. (source: Australian Open (ausopen.com))
# [offline snapshot, 2025-01] 2025 Australian Open women's singles final: Madison Keys of the United States won the 2025 Australian Open women's singles title, beating world No. 1 Aryna Sabalenka 6-3, 2-6, 7-5 in the final on 25 January 2025. It was Keys's first Grand Slam title. (source: Australian Open (ausopen.com))
# [offline snapshot, 2024-09] 2024 US Open tennis singles champions: Jannik Sinner won the 2024 US Open men's singles title, beating Taylor Fritz 6-3, 6-4, 7-5. Aryna Sabalenka won the women's singles title, beating Jessica Pegula 7-5, 7-5. (source: US Open (usopen.org))
# Thought: I now know the final answer
# Final Answer: Jannik Sinner of Italy won the 2025 Australian Open men's singles.
# --> Jannik Sinner of Italy won the 2025 Australian Open men's singles.  (2 model calls, final_answer)
