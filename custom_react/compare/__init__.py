"""The comparison harness: several agents, one model, the same tools, the same questions.

`load_questions` reads a JSONL question file; `check_answer` checks an answer against its expected
number (relative tolerance) or keywords. `run_comparison` runs each agent on each question with
fresh tools and records the answer, correctness, iterations, model calls, tokens (one callback
handler counts them for every agent), parse failures, wall time and a transcript. A crash in one
run is that run's failure, never the harness's. The agents are built in `custom_react.compare.runners`, the
report is rendered in `custom_react.compare.report`; nothing here prints.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models import BaseChatModel
from langchain_core.outputs import LLMResult
from langchain_core.tools import BaseTool

from custom_react.compare.report import ComparisonReport, RunRecord
from custom_react.compare.runners import (
    Runner,
    create_agent_runner,
    custom_runner,
    legacy_runner,
    tool_calling_problem,
)

AGENTS = ("custom", "legacy", "create_agent")
RunnerFactory = Callable[[BaseChatModel, list[BaseTool], int], Runner]
"""Build one agent's runner from (model, fresh tools, max_iterations)."""
_STAND_IN_TOOLS = ("_Exception", "invalid_tool")
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


@dataclass(frozen=True)
class Question:
    """One question and, optionally, what a correct answer contains."""

    question: str
    id: str = ""
    expected: float | str | list[str] | None = None
    """A number, a keyword, or keywords that must all appear (`a|b` accepts either)."""
    tolerance: float = 0.02
    """Relative tolerance for a numeric `expected`."""


def load_questions(path: str | Path) -> list[Question]:
    """Read a JSONL question file: one `{"question": ..., "expected": ...}` object per line.

    Blank lines and lines starting with `#` are skipped; a missing `id` becomes `q<line>`.

    Raises:
        ValueError: A line is not a JSON object with a `question` string (the line is named).
    """
    questions: list[Question] = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            item = json.loads(line)
            identifier, tolerance = str(item.get("id") or f"q{number}"), item.get("tolerance", 0.02)
            questions.append(
                Question(str(item["question"]), identifier, item.get("expected"), float(tolerance))
            )
        except (ValueError, TypeError, KeyError, AttributeError):
            raise ValueError(f'{path}:{number}: expected {{"question": "...", ...}}') from None
    return questions


def check_answer(output: str, question: Question) -> bool | None:
    """Whether `output` holds the expected answer; None when the question has no expectation.

    A number matches when any number in the output, other than those already in the question, is
    within the relative tolerance (thousands separators allowed); keywords match in any case.
    """
    expected = question.expected
    if expected is None:
        return None
    if isinstance(expected, str | list):
        lowered = output.lower()
        keywords = [expected] if isinstance(expected, str) else expected
        return all(any(word.lower() in lowered for word in kw.split("|")) for kw in keywords)
    given = set(_NUMBER.findall(question.question))  # restating the question proves nothing
    numbers = [
        float(text.replace(",", "")) for text in _NUMBER.findall(output) if text not in given
    ]
    margin = abs(float(expected)) * question.tolerance + 1e-9
    return any(abs(number - float(expected)) <= margin for number in numbers)


class MetricsHandler(BaseCallbackHandler):
    """Counts model calls, tool calls and token usage from callbacks, whatever the agent."""

    def __init__(self) -> None:
        self.model_calls = self.tool_calls = self.prompt_tokens = self.completion_tokens = 0
        self._lock = threading.Lock()  # AgentExecutor may call back from worker threads

    def on_chat_model_start(self, serialized: Any, messages: Any, **kwargs: Any) -> None:
        self._add(model_calls=1)

    def on_llm_start(self, serialized: Any, prompts: Any, **kwargs: Any) -> None:
        self._add(model_calls=1)

    def on_tool_start(self, serialized: Any, input_str: str, **kwargs: Any) -> None:
        # AgentExecutor runs a format error and an unknown tool name through stand-in tools.
        if (serialized or {}).get("name") not in _STAND_IN_TOOLS:
            self._add(tool_calls=1)

    def on_llm_end(self, response: LLMResult, **kwargs: Any) -> None:
        for batch in response.generations:
            for generation in batch:
                usage = getattr(getattr(generation, "message", None), "usage_metadata", None) or {}
                self._add(
                    prompt_tokens=int(usage.get("input_tokens") or 0),
                    completion_tokens=int(usage.get("output_tokens") or 0),
                )

    def _add(self, **counts: int) -> None:
        with self._lock:
            for name, count in counts.items():
                setattr(self, name, getattr(self, name) + count)


DEFAULT_RUNNERS: dict[str, RunnerFactory] = {
    "custom": custom_runner,
    "legacy": legacy_runner,
    "create_agent": create_agent_runner,
}


def run_comparison(
    questions: Sequence[Question],
    llm: BaseChatModel,
    tools_factory: Callable[[], Sequence[BaseTool]],
    agents: Sequence[str] = AGENTS,
    *,
    max_iterations: int = 8,
    model_name: str = "",
    runners: Mapping[str, RunnerFactory] | None = None,
    probe_tool_calling: bool = True,
    on_record: Callable[[RunRecord], None] | None = None,
) -> ComparisonReport:
    """Run each agent on each question with the same model and fresh tools; never raises for a run.

    Args:
        questions: The questions, e.g. from `load_questions`.
        llm: The chat model every agent uses.
        tools_factory: Makes a fresh tool list for each run (so no agent's settings leak).
        agents: Names from `runners` to run, in order.
        max_iterations: The step limit every agent gets.
        model_name: Shown in the report.
        runners: Agent name -> runner factory (default `DEFAULT_RUNNERS`).
        probe_tool_calling: First ask the model once whether it returns tool calls, and skip
            `create_agent` (with the reason) when it does not.
        on_record: Called with each finished record (e.g. to print progress).

    Raises:
        KeyError: An agent name has no runner.
    """
    factories = dict(DEFAULT_RUNNERS if runners is None else runners)
    if missing := [name for name in agents if name not in factories]:
        raise KeyError(f"no runner for {missing}; known: {sorted(factories)}")
    report = ComparisonReport(model_name, [], [], settings={"max_iterations": max_iterations})
    for agent in agents:
        probe = agent == "create_agent" and probe_tool_calling
        if probe and (reason := tool_calling_problem(llm, tools_factory())) is not None:
            report.skipped[agent] = reason
            continue
        report.agents.append(agent)
        for question in questions:
            record = run_one(agent, factories[agent], question, llm, tools_factory, max_iterations)
            report.records.append(record)
            if on_record is not None:
                on_record(record)
    return report


def run_one(
    agent: str,
    factory: RunnerFactory,
    question: Question,
    llm: BaseChatModel,
    tools_factory: Callable[[], Sequence[BaseTool]],
    max_iterations: int,
) -> RunRecord:
    """One agent on one question; a crash (building or running) becomes the record's `error`."""
    record = RunRecord(agent=agent, question_id=question.id, question=question.question)
    metrics = MetricsHandler()
    started = time.perf_counter()
    try:
        runner = factory(llm, list(tools_factory()), max_iterations)
        outcome = runner(question.question, {"callbacks": [metrics], "run_name": agent})
    except Exception as error:  # a broken agent is a result of the comparison, not our crash
        record.error, record.stop_reason = f"{type(error).__name__}: {error}", "error"
        record.correct = False if question.expected is not None else None
    else:
        record.answer, record.iterations = outcome.output, outcome.iterations
        record.stop_reason, record.parse_failures = outcome.stop_reason, outcome.parse_failures
        record.transcript = outcome.transcript
        record.correct = check_answer(outcome.output, question)
    record.wall_time = round(time.perf_counter() - started, 3)
    for counter in ("model_calls", "tool_calls", "prompt_tokens", "completion_tokens"):
        setattr(record, counter, getattr(metrics, counter))
    return record
