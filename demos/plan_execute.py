"""Demo: plan-and-execute vs plain ReAct on a question with two parts.

"Who won the 2025 Australian Open men's singles, and what is his hometown?" is answered twice on
the same model and tools: first by `PlanAndExecuteAgent` (a planner writes the steps, a
`CustomReActAgent` executes one step at a time, a replanner revises the plan or answers), printing
the plans, each step's ReAct transcript and the answer; then by a plain `CustomReActAgent`. Last,
both outcomes side by side (model calls, seconds, stop reason, answer). Offline by default
(bundled local model, offline search snapshot); a hosted model and Tavily when their keys are set.

Run from the repository root:  python demos/plan_execute.py [--save DIR] ["your own question"]
(`--save docs/assets` writes the transcripts and the Mermaid diagram the docs page embeds.)
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dotenv import find_dotenv, load_dotenv
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models import BaseChatModel

from custom_react import CustomReActAgent, RunFinished
from custom_react.plan.agent import PlanAndExecuteAgent
from custom_react.plan.mermaid import plan_to_mermaid
from custom_react.plan.printing import PlanConsolePrinter
from custom_react.serving.errors import exit_on_model_error
from custom_react.serving.models import ModelSettings, describe, open_chat_model
from tools import default_tools

QUESTION = "Who won the 2025 Australian Open men's singles, and what is his hometown?"
MAX_STEPS = 4  # plan-and-execute: most steps; each step is a ReAct run of at most ...
MAX_ITERATIONS = 4  # ... this many model calls
REACT_MAX_ITERATIONS = 8  # plain ReAct: most model calls


class ModelCalls(BaseCallbackHandler):
    """Counts chat model calls (planner, replanner and executor calls alike)."""

    def __init__(self) -> None:
        self.count = 0

    def on_chat_model_start(self, *args: Any, **kwargs: Any) -> None:
        self.count += 1


class Outcome:
    """How one approach did: its answer, stop reason, model calls, time, transcript and events."""

    def __init__(self, approach: str) -> None:
        self.approach, self.output, self.stop_reason = approach, "", ""
        self.model_calls, self.seconds = 0, 0.0
        self.lines: list[str] = []
        self.events: list[Any] = []


def answer(approach: str, agent: Any, question: str, write: Callable[[str], object]) -> Outcome:
    """Stream one agent's run, printing its transcript as it happens."""
    outcome, calls = Outcome(approach), ModelCalls()

    def show(line: str) -> None:
        outcome.lines.append(line)
        write(line)

    printer = PlanConsolePrinter(show, color=False)
    write(f"\n=== {approach}: {question}")
    started = time.monotonic()
    for event in agent.stream(question, config={"callbacks": [calls]}):
        printer(event)
        outcome.events.append(event)
        if isinstance(event, RunFinished):
            outcome.output, outcome.stop_reason = event.result.output, event.result.stop_reason
    outcome.seconds, outcome.model_calls = time.monotonic() - started, calls.count
    return outcome


def run(
    llm: BaseChatModel,
    question: str = QUESTION,
    write: Callable[[str], object] = print,
    save: Path | None = None,
) -> list[Outcome]:
    """Answer with plan-and-execute, then with plain ReAct; print both and a side-by-side."""
    tools = default_tools()
    executor = CustomReActAgent(llm, tools, examples=True, max_iterations=MAX_ITERATIONS)
    planned = PlanAndExecuteAgent(llm, executor, max_steps=MAX_STEPS)
    react = CustomReActAgent(llm, tools, examples=True, max_iterations=REACT_MAX_ITERATIONS)
    outcomes = [
        answer("plan-and-execute", planned, question, write),
        answer("ReAct", react, question, write),
    ]
    summary: list[str] = []
    for outcome in outcomes:
        summary.append(
            f"{outcome.approach}: {outcome.model_calls} model calls, {outcome.seconds:.0f} s, "
            f"{outcome.stop_reason}"
        )
        summary.append(f"  --> {outcome.output}")
    write("\n=== side by side")
    for line in summary:
        write(line)
    if save is not None:
        files = {
            "real_plan_execute.txt": "\n".join(outcomes[0].lines) + "\n",
            "real_plan_execute.mmd": plan_to_mermaid(question, outcomes[0].events),
            "real_plan_execute_react.txt": "\n".join(outcomes[1].lines) + "\n",
            "real_plan_execute_side_by_side.txt": "\n".join(summary) + "\n",
        }
        save.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (save / name).write_text(text, encoding="utf-8")
    return outcomes


def main() -> None:
    """Pick the model from the environment / `.env`, then run the demo question."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("question", nargs="*", help="your own question (default: the demo's)")
    parser.add_argument("--save", type=Path, help="also save the transcripts to this folder")
    args = parser.parse_args()
    load_dotenv(find_dotenv(usecwd=True))
    settings = ModelSettings.from_env()
    print(f"model: {describe(settings)}")
    with exit_on_model_error(), open_chat_model(settings) as llm:
        run(llm, " ".join(args.question) or QUESTION, save=args.save)


if __name__ == "__main__":
    main()

# Expected output (a real run on the bundled local model; `python demos/plan_execute.py`),
# remade by `python scripts/make_docs_assets.py --demos`, which records its prompt and
# date in docs/assets/provenance.json:
# model: local qwen2.5-coder-1.5b (llama.cpp server on 127.0.0.1)
#
# === plan-and-execute: Who won the 2025 Australian Open men's singles, and what is his hometown?
# Plan:
#   1. Search for the 2025 Australian Open men's singles winner.
#   2. Search for the hometown of that player.
#   3. Calculate the winner's age.
# Step 1: Search for the 2025 Australian Open men's singles winner.
# Thought: I need to search for the 2025 Australian Open men's singles winner.
# Action: search
# Action Input: Australian Open 2025 men's singles winner
# Observation: [offline snapshot, 2025-01] 2025 Australian Open men's singles final: Jannik Sinner of Italy won the 2025 Australian Open men's singles title, beating Alexander Zverev of Germany 6-3, 7-6(4), 6-3 in the final in Melbourne on 26 January 2025. It was his second Australian Open title in a row and his third Grand Slam title. (source: Australian Open (ausopen.com))
# [offline snapshot, 2025-01] 2025 Australian Open women's singles final: Madison Keys of the United States won the 2025 Australian Open women's singles title, beating world No. 1 Aryna Sabalenka 6-3, 2-6, 7-5 in the final on 25 January 2025. It was Keys's first Grand Slam title. (source: Australian Open (ausopen.com))
# [offline snapshot, 2024-09] 2024 US Open tennis singles champions: Jannik Sinner won the 2024 US Open men's singles title, beating Taylor Fritz 6-3, 6-4, 7-5. Aryna Sabalenka won the women's singles title, beating Jessica Pegula 7-5, 7-5. (source: US Open (usopen.org))
# Thought: I now know the final answer
# Final Answer: Jannik Sinner of Italy won the 2025 Australian Open men's singles title.
# Step 1 result: Jannik Sinner of Italy won the 2025 Australian Open men's singles title.
# New plan:
#   1. Search for the hometown of Jannik Sinner.
#   2. Calculate Jannik Sinner's age.
# Step 2: Search for the hometown of Jannik Sinner.
# Thought: I need to find Jannik Sinner's hometown.
# Action: search
# Action Input: Jannik Sinner
# Observation: [offline snapshot, 2025-02] Jannik Sinner's 2025 suspension: In February 2025 Jannik Sinner accepted a three-month suspension, from 9 February to 4 May 2025, in a settlement with the World Anti-Doping Agency (WADA) over two positive tests for clostebol in 2024. (source: WADA statement, February 2025)
# [offline snapshot, 2025-03] Jannik Sinner (tennis player): Jannik Sinner is an Italian tennis player born on 16 August 2001 in San Candido (Innichen), South Tyrol, Italy; he grew up in nearby Sexten (Sesto). He became world No. 1 in June 2024 and won the Australian Open in 2024 and 2025 and the US Open in 2024. (source: ATP Tour (atptour.com))
# [offline snapshot, 2024-09] 2024 US Open tennis singles champions: Jannik Sinner won the 2024 US Open men's singles title, beating Taylor Fritz 6-3, 6-4, 7-5. Aryna Sabalenka won the women's singles title, beating Jessica Pegula 7-5, 7-5. (source: US Open (usopen.org))
# Thought: I now know the final answer
# Final Answer: Jannik Sinner's hometown is San Candido, South Tyrol, Italy.
# Step 2 result: Jannik Sinner's hometown is San Candido, South Tyrol, Italy.
# New plan:
#   1. Calculate Jannik Sinner's age.
#   2. Search for Jannik Sinner's birth date.
#   3. Calculate the difference between the current date and Jannik Sinner's birth date to get his age.
# Step 3: Calculate Jannik Sinner's age.
# Thought: To calculate Jannik Sinner's age, I need to know his current date of birth. I can use the current_date tool to get this information.
# Action: current_date
# Action Input: none
# Observation: Today is Saturday, 2026-12-05; local time 10:37 UTC.
# Thought: I now know the final answer
# Final Answer: Jannik Sinner is 26 years old.
# Step 3 result: Jannik Sinner is 26 years old.
# New plan:
#   1. Search for Jannik Sinner's birth date.
#   2. Calculate the difference between the current date and Jannik Sinner's birth date to get his age.
# Step 4: Search for Jannik Sinner's birth date.
# Thought: I need to search for Jannik Sinner's birth date.
# Action: search
# Action Input: Jannik Sinner
# Observation: [offline snapshot, 2025-02] Jannik Sinner's 2025 suspension: In February 2025 Jannik Sinner accepted a three-month suspension, from 9 February to 4 May 2025, in a settlement with the World Anti-Doping Agency (WADA) over two positive tests for clostebol in 2024. (source: WADA statement, February 2025)
# [offline snapshot, 2025-03] Jannik Sinner (tennis player): Jannik Sinner is an Italian tennis player born on 16 August 2001 in San Candido (Innichen), South Tyrol, Italy; he grew up in nearby Sexten (Sesto). He became world No. 1 in June 2024 and won the Australian Open in 2024 and 2025 and the US Open in 2024. (source: ATP Tour (atptour.com))
# [offline snapshot, 2024-09] 2024 US Open tennis singles champions: Jannik Sinner won the 2024 US Open men's singles title, beating Taylor Fritz 6-3, 6-4, 7-5. Aryna Sabalenka won the women's singles title, beating Jessica Pegula 7-5, 7-5. (source: US Open (usopen.org))
# Thought: I now know the final answer
# Final Answer: Jannik Sinner was born on 16 August 2001 in San Candido, South Tyrol, Italy.
# Step 4 result: Jannik Sinner was born on 16 August 2001 in San Candido, South Tyrol, Italy.
# New plan:
#   1. Calculate the difference between the current date and Jannik Sinner's birth date to get his age.
# Stopped: step limit reached after 4 steps
# Final Answer: Plan-and-execute stopped at the step limit before a final answer.
#
# === ReAct: Who won the 2025 Australian Open men's singles, and what is his hometown?
# Thought: I need to find the winner of the 2025 Australian Open men's singles and their hometown.
# Action: search
# Action Input: Australian Open 2025 men's singles winner
# Observation: [offline snapshot, 2025-01] 2025 Australian Open men's singles final: Jannik Sinner of Italy won the 2025 Australian Open men's singles title, beating Alexander Zverev of Germany 6-3, 7-6(4), 6-3 in the final in Melbourne on 26 January 2025. It was his second Australian Open title in a row and his third Grand Slam title. (source: Australian Open (ausopen.com))
# [offline snapshot, 2025-01] 2025 Australian Open women's singles final: Madison Keys of the United States won the 2025 Australian Open women's singles title, beating world No. 1 Aryna Sabalenka 6-3, 2-6, 7-5 in the final on 25 January 2025. It was Keys's first Grand Slam title. (source: Australian Open (ausopen.com))
# [offline snapshot, 2024-09] 2024 US Open tennis singles champions: Jannik Sinner won the 2024 US Open men's singles title, beating Taylor Fritz 6-3, 6-4, 7-5. Aryna Sabalenka won the women's singles title, beating Jessica Pegula 7-5, 7-5. (source: US Open (usopen.org))
# Thought: I need to find Jannik Sinner's hometown.
# Action: search
# Action Input: Jannik Sinner hometown
# Observation: [offline snapshot, 2025-03] Jannik Sinner (tennis player): Jannik Sinner is an Italian tennis player born on 16 August 2001 in San Candido (Innichen), South Tyrol, Italy; he grew up in nearby Sexten (Sesto). He became world No. 1 in June 2024 and won the Australian Open in 2024 and 2025 and the US Open in 2024. (source: ATP Tour (atptour.com))
# [offline snapshot, 2025-02] Jannik Sinner's 2025 suspension: In February 2025 Jannik Sinner accepted a three-month suspension, from 9 February to 4 May 2025, in a settlement with the World Anti-Doping Agency (WADA) over two positive tests for clostebol in 2024. (source: WADA statement, February 2025)
# [offline snapshot, 2024-09] 2024 US Open tennis singles champions: Jannik Sinner won the 2024 US Open men's singles title, beating Taylor Fritz 6-3, 6-4, 7-5. Aryna Sabalenka won the women's singles title, beating Jessica Pegula 7-5, 7-5. (source: US Open (usopen.org))
# Thought: I need to find the winner of the 2025 Australian Open men's singles and their hometown.
# Action: search
# Action Input: Australian Open 2025 men's singles winner
# Observation: You already ran search with this input; its observation was: [offline snapshot, 2025-01] 2025 Australian Open men's singles final: Jannik Sinner of Italy won the 2025 Australian Open men's singles title, beating Alexander Zverev of Germany 6-3, 7-6(4), 6-3 in the final in Melbourne on 26 January 2025. It was his second Australian Open title in a row and his third Grand Slam title. (source: Australian Open (ausopen.com))
# [offline snapshot, 2025-01] 2025 Australian Open women's singles final: Madison Keys of the United States won the 2025 Australian Open women's singles title, beating world No. 1 Aryna Sabalenka 6-3, 2-6, 7-5 in the final on 25 January 2025. It was Keys's first Grand Slam title. (source: Australian Open (ausopen.com))
# [offline snapshot, 2024-09] 2024 US Open tennis singles champions: Jannik Sinner won the 2024 US Open men's singles title, beating Taylor Fritz 6-3, 6-4, 7-5. Aryna Sabalenka won the women's singles title, beating Jessica Pegula 7-5, 7-5. (source: US Open (usopen.org))
# Do not repeat it: use that result, try a different input, or write the Final Answer.
# Final Answer: Jannik Sinner won the 2025 Australian Open men's singles, and his hometown is San Candido (Innichen), South Tyrol, Italy.
#
# === side by side
# plan-and-execute: 13 model calls, 68 s, max_iterations
#   --> Plan-and-execute stopped at the step limit before a final answer.
# ReAct: 4 model calls, 28 s, final_answer
#   --> Jannik Sinner won the 2025 Australian Open men's singles, and his hometown is San Candido (Innichen), South Tyrol, Italy.
