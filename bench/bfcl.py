"""BFCL v4 side by side: our text ReAct (text, XML, JSON steps) against LangChain's agents, scored by BFCL.

The data and the checker are the pinned `bfcl-eval` package's own (`bfcl_eval/data/BFCL_v4_*.json`,
`data/possible_answer/`, `eval_checker.ast_eval.ast_checker`), never a copy. Install it without
its dependencies: `pip install --no-deps bfcl-eval==2026.3.23`. Why not a `bench` extra: the
package requires every provider SDK it can evaluate (openai, anthropic, mistralai, cohere,
google-genai, boto3, qwen-agent, sentence-transformers with torch, faiss, a pinned numpy 1.26),
and its checker imports its model registry (`bfcl_eval.constants.model_config`), which imports
them all, only to read `MODEL_CONFIG_MAPPING[model].underscore_to_dot` (whether the model wrote a
dotted function name with underscores). The checker itself needs only the standard library. So
`bfcl_checker` puts a small stub of that one registry module in `sys.modules` before importing
the checker, whose answer is "no": every agent here gets tools whose names have `.` replaced by
`_` (OpenAI-style tool names allow no dots), and the calls are recorded under BFCL's own name.

Every agent gets the same tools per case: each BFCL function becomes a LangChain
`StructuredTool` with its JSON schema as `args_schema` (BFCL's `dict`, `float`, `tuple` and
`any` written as JSON Schema's `object`, `number`, `array` and no type), whose function records
the call and returns a neutral "done" text; the legacy `AgentExecutor` passes one string, so its
tool is a one-string tool whose description carries the JSON schema of the arguments and whose
input is read as JSON when it is JSON. Scoring, the same for every agent: the calls the agent let
a tool run (after its own validation), in order, within 3 steps (plus one more per expected call
in the parallel categories); the first call for the single-call categories (its tool has
`return_direct`, so the run ends there), all of them for the parallel ones, checked by BFCL's
`ast_checker`; an irrelevance case passes when no tool ran, a live_relevance case when one did
(any arguments, as BFCL's own relevance check).

Agents: `text`, `xml`, `json` (our `CustomReActAgent` in each step format, bundled examples on),
`legacy` (`create_react_agent` + `AgentExecutor`), `create_agent` (native tool calls on the
shipped chat template), `create_agent_text` (`create_agent` + `TextReActMiddleware`); the
runners are the comparison harness's (`custom_react.compare.runners`). Tune on the even case
ids (`--half even`), report the odd ones (`--half odd`); the live categories are a further
held-out set. Each run is appended to `bench/results/bfcl/<model>.jsonl` under a key: the
fingerprint of what its agent reads first in the case's language (`bfcl_fingerprints`: our prompt
for ours, the XML and JSON formats' own for `xml` and `json`, LangChain's for the legacy agent and
`create_agent`, with BFCL's tools) and the bfcl-eval version, so a rerun skips what is there with
the same key, and a change to one of our prompts redoes only the runs of the agents that read it.
`bfcl/<model>.json` and `.md` are made from it, with each agent's fingerprint per language
(`scripts/make_docs_assets.py --check` names the agents whose prompt changed).
A run also records the code that made it (`code_fingerprint`: the `custom_react` package's files,
hashed). That is not part of the key, or every change to any module would redo every run: the
report counts, per agent, the runs made on the package as it is when the report is made, and
`--redo` runs the chosen cases again (the newest run of a case counts).
Results of an earlier or a rejected prompt (`--tag`, e.g. the runs before the tool list changed,
run from that commit) are moved to `bench/results/bfcl/earlier/`: the record of what was
measured, which the staleness check does not read.

    flock /tmp/custom-react-model.lock python -m bench.bfcl --sample 8 --seed 0 --half even
    python -m bench.bfcl --render        # only remake the .json and .md from the .jsonl
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import sys
import time
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, partial
from importlib import resources
from pathlib import Path
from typing import Any

from langchain_core.runnables import RunnableLambda
from langchain_core.tools import BaseTool, StructuredTool, Tool

from custom_react.compare import DEFAULT_RUNNERS
from custom_react.compare.runners.custom import custom_runner, question_language
from custom_react.compare.runners.fingerprint import (
    Fingerprint,
    agent_fingerprint,
    reads_our_prompt,
)

ROOT = Path(__file__).resolve().parents[1]
BFCL_VERSION = "2026.3.23"
CATEGORIES = (
    "simple_python",
    "multiple",
    "parallel",
    "parallel_multiple",
    "irrelevance",
    "live_simple",
    "live_multiple",
    "live_irrelevance",
    "live_relevance",
)
AGENTS = ("text", "xml", "json", "legacy", "create_agent", "create_agent_text")
MODELS = ("qwen2.5-coder-1.5b", "qwen2.5-coder-0.5b")
STEPS = 3
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
    answer: list[dict[str, Any]]

    @property
    def number(self) -> int:
        """The case's number: the first integer after the category (`live_simple_12-3-0`: 12)."""
        match = re.search(r"(\d+)", self.id[len(self.category) :])
        return int(match.group(1)) if match else 0

    @property
    def expected_calls(self) -> int:
        return len(self.answer)


def _read_lines(path: Any) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def load_cases(category: str) -> list[Case]:
    """Every case of a category, from the installed `bfcl-eval`'s data."""
    data = resources.files("bfcl_eval") / "data"
    items = _read_lines(data / f"BFCL_v4_{category}.json")
    answers: dict[str, list[dict[str, Any]]] = {}
    if "relevance" not in category:  # (ir)relevance cases have no answer file: any call or none
        answer_file = data / "possible_answer" / f"BFCL_v4_{category}.json"
        answers = {item["id"]: item["ground_truth"] for item in _read_lines(answer_file)}
    return [
        Case(
            item["id"],
            category,
            question_text(item["question"]),
            item["function"],
            answers.get(item["id"], []),
        )
        for item in items
    ]


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
    tools: list[BaseTool] = []
    for function in case.functions:
        schema = json_schema(function["parameters"])
        name, real = tool_name(function["name"]), function["name"]
        returns = DONE.format(name=name)

        def record(real: str = real, returns: str = returns, **args: Any) -> str:
            calls.append({real: args})
            return returns

        direct = case.expected_calls <= 1
        if one_string:
            tools.append(_one_string_tool(name, function["description"], schema, record, direct))
            continue
        tools.append(
            StructuredTool.from_function(
                func=record,
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


def runners() -> dict[str, Callable[..., Any]]:
    """Agent name -> the comparison harness's runner factory `(llm, tools, max_iterations)`."""
    return {
        "text": partial(custom_runner, format="text"),
        "xml": partial(custom_runner, format="xml"),
        "json": partial(custom_runner, format="json"),
        "legacy": DEFAULT_RUNNERS["legacy"],
        "create_agent": DEFAULT_RUNNERS["create_agent"],
        "create_agent_text": DEFAULT_RUNNERS["create_agent_text"],
    }


def run_case(case: Case, agent: str, llm: Any) -> dict[str, Any]:
    """One agent on one case: the calls it let run, BFCL's verdict, the transcript; never raises."""
    calls: Calls = []
    tools = recording_tools(case, calls, one_string=agent == "legacy")
    steps = STEPS + max(0, case.expected_calls - 1)
    started = time.perf_counter()
    record: dict[str, Any] = {"id": case.id, "category": case.category, "agent": agent}
    record["language"] = question_language(case.question)  # the prompt ours read (`custom_runner`)
    try:
        outcome = runners()[agent](llm, tools, steps)(case.question, {"run_name": agent})
        record |= {"answer": outcome.output, "transcript": outcome.transcript}
    except Exception as error:  # a crash is this run's result
        record |= {"error": f"{type(error).__name__}: {error}"[:500], "transcript": []}
    record["seconds"] = round(time.perf_counter() - started, 1)
    record["calls"] = calls
    record |= verdict(case, calls)
    return record


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


def run_all(
    cases: Sequence[Case],
    agents: Sequence[str],
    llm: Any,
    parallel: int,
    store: Path,
    fingerprint: Fingerprint,
    command: str = "",
    *,
    redo: bool = False,
) -> list[dict[str, Any]]:
    """Every agent on every case, `parallel` at a time; each run appended to `store` as it ends.

    A case already stored under its agent's current key is skipped, unless `redo`.
    """
    done = set() if redo else {(r["id"], r["agent"]) for r in current(_stored(store), fingerprint)}
    todo = [(c, a) for a in agents for c in cases if (c.id, a) not in done]
    code = code_fingerprint()

    def work(job: tuple[Case, str]) -> dict[str, Any]:
        record = run_case(job[0], job[1], llm)
        key = run_key(fingerprint, job[1], record["language"])
        return record | {"key": key, "command": command, "code": code}

    config: Any = {"max_concurrency": max(1, parallel)}
    for _, record in RunnableLambda(work).batch_as_completed(todo, config):
        append(store, record)
        print(
            f"{record['agent']:<18} {record['id']:<26} {record['passed']!s:<5} "
            f"{record['miss'][:90]}",
            file=sys.stderr,
            flush=True,
        )
    return current(_stored(store), fingerprint)


def append(store: Path, record: dict[str, Any]) -> None:
    """Write one run as a line of `store`, on disk before returning.

    The file is opened for each run, never held open: a file replaced while the bench runs (a
    `git checkout` of the results, say) gets the next run, not a deleted copy of itself.
    """
    with store.open("a", encoding="utf-8") as out:
        out.write(json.dumps(record, ensure_ascii=False) + "\n")
        out.flush()
        os.fsync(out.fileno())


def run_key(fingerprint: Fingerprint, agent: str, language: str) -> str:
    """The key a run is stored under: what its agent reads (`fingerprint`), the bfcl-eval version."""
    return f"{fingerprint(agent, language)}:{BFCL_VERSION}"


def current(records: list[dict[str, Any]], fingerprint: Fingerprint) -> list[dict[str, Any]]:
    """The stored runs whose agent read what it reads now, on this bfcl-eval, one per case and agent.

    A case can be stored twice under one key (`--redo`, or two benches at once on one file): the
    newest run counts, so no case weighs twice in a table.
    """
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for r in records:
        if "language" in r and r.get("key") == run_key(fingerprint, r["agent"], r["language"]):
            found[(r["id"], r["agent"])] = r  # a newer run of the case takes the older one's place
    return list(found.values())


def code_fingerprint(package: Path = ROOT / "custom_react") -> str:
    """The `custom_react` package's files (source, prompts, templates) hashed: the code of a run."""
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(package).as_posix().encode("utf-8") + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def _stored(path: Path) -> list[dict[str, Any]]:
    return _read_lines(path) if path.is_file() else []


def bfcl_fingerprints() -> Fingerprint:
    """(agent, language) -> what the agent reads first on BFCL, each made once.

    That is `agent_fingerprint` with the first case's tools as the agent gets them (the legacy
    agent's one-string tools); ours add how the three step formats render them (`-` and 8 hex
    digits), which their prompt fingerprint alone does not show.
    """
    from custom_react.formats import get_format

    case = load_cases("simple_python")[0]

    @cache
    def fingerprint(agent: str, language: str) -> str:
        tools = recording_tools(case, [], one_string=agent == "legacy")
        read = agent_fingerprint(agent, tools, language)
        if not reads_our_prompt(agent):
            return read
        shown = [get_format(name).render_tools(tools) for name in ("text", "xml", "json")]
        digest = hashlib.sha256("\n\0".join(shown).encode("utf-8")).hexdigest()[:8]
        return f"{read}-{digest}"

    return fingerprint


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default=MODELS[0], choices=MODELS)
    parser.add_argument("--agents", default=",".join(AGENTS))
    parser.add_argument("--categories", default=",".join(CATEGORIES))
    parser.add_argument("--half", choices=("even", "odd", "all"), default="even")
    parser.add_argument("--sample", type=int, help="cases per category (default: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--parallel", type=int, default=1, help="server slots and runs at a time")
    parser.add_argument("--tag", default="", help="a name for this variant's results file")
    parser.add_argument("--redo", action="store_true", help="run stored cases again")
    parser.add_argument("--render", action="store_true", help="only remake the .json and .md")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "bfcl")
    args = parser.parse_args()
    from bench.bfcl_report import save  # the tables (a module of their own)

    stem = args.model + (f"_{args.tag}" if args.tag else "")
    store = args.out / f"{stem}.jsonl"
    fingerprint = bfcl_fingerprints()
    args.out.mkdir(parents=True, exist_ok=True)
    command = "flock /tmp/custom-react-model.lock python -m bench.bfcl " + " ".join(sys.argv[1:])
    if not args.render:
        from custom_react.serving.server import LocalModelServer
        from custom_react.serving.weights import ensure_model_file

        cases = [
            case
            for category in args.categories.split(",")
            for case in pick(
                load_cases(category), _half(category, args.half), args.sample, args.seed
            )
        ]
        with LocalModelServer(ensure_model_file(args.model), parallel=args.parallel) as server:
            llm = server.chat_model(temperature=0)
            agents = args.agents.split(",")
            run_all(cases, agents, llm, args.parallel, store, fingerprint, command, redo=args.redo)
    records = current(_stored(store), fingerprint)
    print(save(records, args.out / stem, args.model, BFCL_VERSION, code_fingerprint()))


def _half(category: str, half: str) -> str:
    return "all" if category.startswith("live") and half != "all" else half


if __name__ == "__main__":
    main()
