"""BFCL v4 side by side: our text ReAct (text, XML, JSON steps) against LangChain's agents, scored by BFCL.

The cases, the tools every agent gets and BFCL's verdict are in `bench/bfcl_cases.py` (its note
says how `bfcl-eval` is installed without its provider SDKs), the multi-turn category's runs on
BFCL's executable backends in `bench/bfcl_multi_turn.py`. Scoring, the same for every agent: the
calls the agent let a tool run (after its own validation), in order, within 3 steps (plus one more
per expected call in the parallel categories); the first call for the single-call categories (its
tool has `return_direct`, so the run ends there), all of them for the parallel ones, checked by
BFCL's `ast_checker`; an irrelevance case passes when no tool ran, a live_relevance case when one
did (any arguments, as BFCL's own relevance check); a multi-turn case when BFCL's
`multi_turn_checker` accepts the calls of every turn.

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
`--redo` runs the chosen cases again (the newest run of a case counts; `--ids` narrows the choice
to named cases, such as the runs a change can reach).
Results of an earlier or a rejected prompt (`--tag`, e.g. the runs before the tool list changed,
run from that commit) are moved to `bench/results/bfcl/earlier/`: the record of what was
measured, which the staleness check does not read.

    flock /tmp/custom-react-model.lock python -m bench.bfcl --sample 8 --seed 0 --half even
    python -m bench.bfcl --render        # only remake the .json and .md from the .jsonl
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import sys
from collections.abc import Callable, Collection, Sequence
from functools import cache, partial
from pathlib import Path
from typing import Any

from langchain_core.runnables import RunnableLambda

from bench.bfcl_cases import (
    Calls,
    Case,
    is_multi_turn,
    load_cases,
    pick,
    read_lines,
    recording_tools,
    run_record,
    verdict,
)
from bench.bfcl_multi_turn import run_multi_turn_case
from custom_react.compare import DEFAULT_RUNNERS
from custom_react.compare.runners.custom import custom_runner
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
    "multi_turn_base",
)
AGENTS = ("text", "xml", "json", "legacy", "create_agent", "create_agent_text")
MODELS = ("qwen2.5-coder-1.5b", "qwen2.5-coder-0.5b")
STEPS = 3
MULTI_TURN_WINDOW = {"n_ctx": 16384}
"""The server's context window when a multi-turn case runs (the single-call ones keep 4096)."""


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
    if is_multi_turn(case.category):  # several turns, on BFCL's executable backends
        return run_multi_turn_case(case, agent, runners()[agent], llm)
    calls: Calls = []
    tools = recording_tools(case, calls, one_string=agent == "legacy")
    steps = STEPS + max(0, case.expected_calls - 1)

    def run(transcript: list[str]) -> str:
        outcome = runners()[agent](llm, tools, steps)(case.question, {"run_name": agent})
        transcript += outcome.transcript
        return outcome.output

    return run_record(case, agent, run) | {"calls": calls} | verdict(case, calls)


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
    """The code a run ran: the package's modules as code, its prompts and templates as text, hashed.

    A module counts by its syntax tree without docstrings (`ast`), so an edit of a docstring, a
    comment or the layout does not make a run older; none of them reaches BFCL's model (its
    tools' descriptions are BFCL's).
    """
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            body = _code(path) if path.suffix == ".py" else path.read_bytes()
            digest.update(path.relative_to(package).as_posix().encode("utf-8") + b"\0")
            digest.update(body + b"\0")
    return digest.hexdigest()[:12]


def _code(path: Path) -> bytes:
    """A module's syntax tree without its docstrings (and its comments, which no tree has)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            code = [s for s in body if not (isinstance(s, ast.Expr) and _is_text(s.value))]
            node.body = code or [ast.Pass()]  # type: ignore[attr-defined]
    return ast.dump(tree).encode("utf-8")


def _is_text(value: ast.expr) -> bool:
    return isinstance(value, ast.Constant) and isinstance(value.value, str)


def _stored(path: Path) -> list[dict[str, Any]]:
    return read_lines(path) if path.is_file() else []


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
    parser.add_argument("--ids", default="", help="only these case ids (comma-separated)")
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

        ids = set(filter(None, args.ids.split(",")))
        cases = chosen_cases(args.categories.split(","), args.half, args.sample, args.seed, ids)
        # A multi-turn case's tool docs alone fill a 4096-token window (2-4k tokens, 20-39 tools).
        window = MULTI_TURN_WINDOW if any(is_multi_turn(c.category) for c in cases) else {}
        model = ensure_model_file(args.model)
        with LocalModelServer(model, parallel=args.parallel, **window) as server:
            llm = server.chat_model(temperature=0)
            agents = args.agents.split(",")
            run_all(cases, agents, llm, args.parallel, store, fingerprint, command, redo=args.redo)
    records = current(_stored(store), fingerprint)
    print(save(records, args.out / stem, args.model, BFCL_VERSION, code_fingerprint()))


def chosen_cases(
    categories: list[str], half: str, sample: int | None, seed: int, ids: Collection[str] = ()
) -> list[Case]:
    """The cases to run: per category, `sample` of the half (the live ones are all held out).

    `ids` (if any) narrows them to the cases named. A larger sample with the same seed holds the
    smaller one (up to 21 cases of a half of 86 or more: `random.sample`'s set method draws the
    same first cases), so a sample grows without losing the runs made.
    """
    return [
        case
        for category in categories
        for case in pick(load_cases(category), _half(category, half), sample, seed)
        if not ids or case.id in ids
    ]


def _half(category: str, half: str) -> str:
    return "all" if category.startswith("live") and half != "all" else half


if __name__ == "__main__":
    main()
