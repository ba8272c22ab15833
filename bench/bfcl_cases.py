"""BFCL's cases, the tools every agent gets for them, and BFCL's verdict: what `bench/bfcl.py` runs.

The data and the checker are the pinned `bfcl-eval` package's own (`bfcl_eval/data/BFCL_v4_*.json`,
`data/possible_answer/`, `eval_checker.ast_eval.ast_checker`), never a copy. Install it without
its dependencies: `pip install --no-deps bfcl-eval==2026.3.23 mpmath==1.3.0 "filelock>=3.12"`
(the last two for the multi-turn backends and loader). Why not a `bench` extra: the
package requires every provider SDK it can evaluate (openai, anthropic, mistralai, cohere,
google-genai, boto3, qwen-agent, sentence-transformers with torch, faiss, a pinned numpy 1.26),
and its checker imports its model registry (`bfcl_eval.constants.model_config`), which imports
them all, only to read `MODEL_CONFIG_MAPPING[model].underscore_to_dot` (whether the model wrote a
dotted function name with underscores). The checker itself needs only the standard library. So
`bfcl_checker` puts a small stub of that one registry module in `sys.modules` before importing
the checker, whose answer is "no": every agent here gets tools whose names have `.` replaced by
`_` (OpenAI-style tool names allow no dots), and the calls are recorded under BFCL's own name.

Every agent gets the same tools per case (`case_tools`): each BFCL function becomes a LangChain
`StructuredTool` with its JSON schema as `args_schema` (BFCL's `dict`, `float`, `tuple` and
`any` written as JSON Schema's `object`, `number`, `array` and no type); the legacy
`AgentExecutor` passes one string, so its tool is a one-string tool whose description carries the
JSON schema of the arguments and whose input is read as JSON when it is JSON. In the single-call
categories the tool records the call and returns a neutral "done" text (`recording_tools`);
`verdict` is BFCL's on the calls. The multi-turn category runs its calls on BFCL's executable
backends instead (`bench/bfcl_multi_turn.py`).
"""

from __future__ import annotations

import json
import random
import re
import sys
import time
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from langchain_core.tools import BaseTool, StructuredTool, Tool

from custom_react.compare.runners.custom import question_language

DONE = "Done: {name} ran with these arguments."
"""What every recording tool returns: neutral, so the run can end either way."""


_TYPES = {"dict": "object", "float": "number", "tuple": "array", "integer": "integer"}


def bfcl_checker() -> Callable[..., dict[str, Any]]:
    """BFCL's `ast_checker`, imported with a stub of its model registry (see the module note)."""
    name = "bfcl_eval.constants.model_config"
    if name not in sys.modules:
        stub = types.ModuleType(name)
        stub.__doc__ = "Stub: the checker reads only `underscore_to_dot`, False here."

        class Registry(dict[str, Any]):
            def __missing__(self, key: str) -> Any:
                return types.SimpleNamespace(underscore_to_dot=False)

        stub.MODEL_CONFIG_MAPPING = Registry()  # type: ignore[attr-defined]
        sys.modules[name] = stub
    from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker

    return ast_checker  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Case:
    """One BFCL case: the question, its functions and the allowed answers."""

    id: str
    category: str
    question: str
    functions: list[dict[str, Any]]
    answer: list[Any]
    """The allowed calls (a multi-turn case: the ground truth's calls of each turn)."""
    entry: dict[str, Any] = field(default_factory=dict, repr=False)
    """BFCL's test entry as read (a multi-turn case's turns, classes and their first state)."""

    @property
    def number(self) -> int:
        """The case's number: the first integer after the category (`live_simple_12-3-0`: 12)."""
        match = re.search(r"(\d+)", self.id[len(self.category) :])
        return int(match.group(1)) if match else 0

    @property
    def expected_calls(self) -> int:
        return len(self.answer)


def read_lines(path: Any) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def newest_runs(path: Any) -> dict[tuple[str, str], dict[str, Any]]:
    """The newest run of each (case, agent) in a results file, whatever prompt it read."""
    return {(run["id"], run["agent"]): run for run in read_lines(path)}


def is_multi_turn(category: str) -> bool:
    """Whether a category's cases are conversations of several turns (`bench/bfcl_multi_turn.py`)."""
    return category.startswith("multi_turn")


def load_cases(category: str) -> list[Case]:
    """Every case of a category, from the installed `bfcl-eval`'s data.

    A multi-turn case names its backends' classes, not its functions: BFCL's own loader
    (`populate_test_cases_with_predefined_functions`) fills them in from the classes' docs.
    """
    data = resources.files("bfcl_eval") / "data"
    items = read_lines(data / f"BFCL_v4_{category}.json")
    if is_multi_turn(category):
        from bfcl_eval.utils import populate_test_cases_with_predefined_functions

        items = populate_test_cases_with_predefined_functions(items)
    answers: dict[str, list[Any]] = {}
    if "relevance" not in category:  # (ir)relevance cases have no answer file: any call or none
        answer_file = data / "possible_answer" / f"BFCL_v4_{category}.json"
        answers = {item["id"]: item["ground_truth"] for item in read_lines(answer_file)}
    return [
        Case(
            item["id"],
            category,
            question_text(item["question"]),
            item["function"],
            answers.get(item["id"], []),
            item,
        )
        for item in items
    ]


@cache
def cases_by_id(category: str) -> dict[str, Case]:
    """Every case of a category by its id, read once (`load_cases`): for reading stored runs."""
    return {case.id: case for case in load_cases(category)}


def run_record(case: Case, agent: str, run: Callable[[list[str]], str]) -> dict[str, Any]:
    """One run's record: the case, the agent, its prompt's language, the answer, the seconds.

    `run` writes the transcript into the list it is given and returns the answer; a crash is
    the run's result (`error`), with the transcript written before it.
    """
    record: dict[str, Any] = {"id": case.id, "category": case.category, "agent": agent}
    record["language"] = question_language(case.question)  # the prompt ours read (`custom_runner`)
    started, transcript = time.perf_counter(), []
    try:
        record["answer"] = run(transcript)
    except Exception as error:  # a crash is this run's result
        record["error"] = f"{type(error).__name__}: {error}"[:500]
    record["transcript"] = transcript
    record["seconds"] = round(time.perf_counter() - started, 1)
    return record


def question_text(turns: list[list[dict[str, str]]]) -> str:
    """The first turn's messages as one question (a system message first, as its context)."""
    return "\n\n".join(message["content"] for message in turns[0] if message.get("content"))


def pick(cases: Sequence[Case], half: str, sample: int | None, seed: int) -> list[Case]:
    """The cases of one half (by the parity of the case number), `sample` of them by `seed`."""
    kept = [c for c in cases if half == "all" or (c.number % 2 == 0) == (half == "even")]
    if sample is not None and sample < len(kept):
        kept = sorted(random.Random(seed).sample(kept, sample), key=lambda c: c.number)
    return kept


def json_schema(schema: Any) -> Any:
    """A BFCL parameter schema as JSON Schema (`dict` -> `object`, `float` -> `number`, ...)."""
    if isinstance(schema, list):
        return [json_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    converted = {key: json_schema(value) for key, value in schema.items()}
    if isinstance(schema.get("type"), str):
        kind = schema["type"]
        if kind == "any":
            del converted["type"]
        else:
            converted["type"] = _TYPES.get(kind, kind)
    if "properties" in schema:  # a property named "type" or "items" is a name, not a keyword
        converted["properties"] = {k: json_schema(v) for k, v in schema["properties"].items()}
    return converted


def tool_name(name: str) -> str:
    """An OpenAI-style tool name for a BFCL function name (`math.factorial` -> `math_factorial`)."""
    return re.sub(r"[^a-zA-Z0-9_-]", "_", name)[:64]


Calls = list[dict[str, dict[str, Any]]]


def recording_tools(case: Case, calls: Calls, *, one_string: bool = False) -> list[BaseTool]:
    """The case's functions as tools that record each call under BFCL's own function name."""

    def record(real: str, args: dict[str, Any]) -> str:
        calls.append({real: args})
        return DONE.format(name=tool_name(real))

    direct = case.expected_calls <= 1
    return case_tools(case.functions, record, direct=direct, one_string=one_string)


def case_tools(
    functions: Sequence[dict[str, Any]],
    call: Callable[[str, dict[str, Any]], str],
    *,
    direct: bool,
    one_string: bool = False,
) -> list[BaseTool]:
    """BFCL's functions as tools; each call goes to `call(BFCL's name, arguments)`.

    `direct`: the run ends with the first call (`return_direct`); `one_string`: the legacy
    agent's one-string tools.
    """
    tools: list[BaseTool] = []
    for function in functions:
        schema = json_schema(function["parameters"])
        name, real = tool_name(function["name"]), function["name"]

        def run(real: str = real, **args: Any) -> str:
            return call(real, args)

        if one_string:
            tools.append(_one_string_tool(name, function["description"], schema, run, direct))
            continue
        tools.append(
            StructuredTool.from_function(
                func=run,
                name=name,
                description=function["description"],
                args_schema=schema,
                return_direct=direct,
            )
        )
    return tools


def _one_string_tool(
    name: str, description: str, schema: dict[str, Any], record: Callable[..., str], direct: bool
) -> BaseTool:
    """A legacy-agent tool: one string in, read as JSON arguments when it is JSON."""
    required = schema.get("required") or list(schema.get("properties", {}))[:1]

    def run(text: str) -> str:
        try:
            args = json.loads(text)
        except json.JSONDecodeError:
            args = text.strip().strip("'\"")
        if not isinstance(args, dict):
            args = {required[0]: args} if required else {}
        return record(**args)

    written = f"{description} Input: a JSON object of the arguments: {json.dumps(schema)}"
    return Tool(name=name, description=written, func=run, return_direct=direct)


def verdict(case: Case, calls: Calls) -> dict[str, Any]:
    """BFCL's verdict on the calls: the first one, or all of them for a parallel category."""
    if "irrelevance" in case.category:
        return {"passed": not calls, "miss": "called a tool" if calls else ""}
    if "relevance" in case.category:  # BFCL's relevance check: some tool ran, any arguments
        return {"passed": bool(calls), "miss": "" if calls else "no call"}
    if not calls:
        return {"passed": False, "miss": "no call"}
    output = calls if "parallel" in case.category else calls[:1]
    from bfcl_eval.constants.enums import Language

    checked = bfcl_checker()(
        case.functions, output, case.answer, Language.PYTHON, case.category, "custom-react"
    )
    return {"passed": bool(checked["valid"]), "miss": "" if checked["valid"] else _miss(checked)}


def _miss(checked: dict[str, Any]) -> str:
    error = checked.get("error") or [""]
    return f"{checked.get('error_type', '')}: {str(error[0])[:200]}"
