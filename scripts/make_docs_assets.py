"""Regenerate the transcripts and sequence diagrams the docs show, from real and scripted runs.

Real runs use the configured model (by default the bundled local model); scripted runs replay
fixed model replies through the real loop and the real tools, so every failure mode can be shown
exactly. Each run is saved as `docs/assets/<name>.txt` (the console transcript), `.md`, `.html`
and `.mmd` (a Mermaid diagram, from `custom_react.export.save_transcript`); a scripted run also
gets `<name>_replies.txt`, the raw replies the scripted model gave. Then every region of
`docs/*.md` marked `<!-- embed: PATH -->` ... `<!-- /embed -->` is refilled with the current
content of PATH (relative to the page; Markdown files go in as they are, other files in a code
fence), so no diagram in the docs is drawn by hand. The side-by-side comparison transcript comes
from the saved results of `custom-react compare --out bench/results/compare`
(`bench/results/compare/compare.json`), and one run of two conditions of each experiment from
`bench/results/experiments/<name>.json` (`bench/experiments/<name>.py`). The Plan-and-Execute
page's run is `demos/plan_execute.py`'s, saved to `docs/assets/real_plan_execute*`. The demos
that answer with the shipped tools end with the output of a real run (`DEMO_OUTPUTS`: each is run
and its output written back as comments), and the pause-and-resume page shows a real command-line
session (`real_pause_resume.txt`).

Never stale: every asset made from a real model run is listed in `docs/assets/provenance.json`
with the fingerprints of the prompts its runs read (`prompt_fingerprints`: for each agent and each
language its runs were in, the hash of what that agent's model reads first, from
`custom_react.compare.runners.fingerprint.agent_fingerprint`: our system prompt in that language
with the tools for our agents, LangChain's own prompt or tool schemas for its two), its date and
model; the saved results it comes from record the same. `--check` recomputes each of them offline
(BFCL's with BFCL's tools: it needs bfcl-eval, as the BFCL tests do) and exits 1, naming each
asset or result, agent and language whose prompt has changed since, and each record that holds no
such fingerprints (`make check` runs it). So a change to the Chinese prompt names only what a
Chinese run made, and a change to ours never names the rows of LangChain's agents.

    flock /tmp/custom-react-model.lock python scripts/make_docs_assets.py   # everything
    python scripts/make_docs_assets.py --scripted                           # no model needed
    flock /tmp/custom-react-model.lock python scripts/make_docs_assets.py --demos  # demos, CLI
    python scripts/make_docs_assets.py --embed                              # only refill docs
    python scripts/make_docs_assets.py --check                              # is anything stale?
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.tools import BaseTool, StructuredTool

from custom_react import ConsolePrinter, CustomReActAgent
from custom_react.compare.runners.custom import question_language
from custom_react.compare.runners.fingerprint import (
    Fingerprint,
    Fingerprints,
    agent_fingerprints,
    changed_fingerprints,
    fingerprint_with,
    is_fingerprints,
)
from custom_react.events import (
    AgentEvent,
    RunFinished,
)
from custom_react.export import save_transcript
from tools import calculator, default_tools, make_search_tool, make_workspace_tools

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
ASSETS = DOCS / "assets"
FORMATS = (".txt", ".md", ".html", ".mmd")
EMBED = re.compile(r"(<!-- embed: (?P<path>\S+) -->\n)(?P<body>.*?)(<!-- /embed -->)", re.DOTALL)
FENCES = {".mmd": "mermaid", ".txt": "text"}
PROVENANCE = ASSETS / "provenance.json"
RESULTS = ROOT / "bench" / "results"
PLAN_EXECUTE_ASSETS = [
    f"real_plan_execute{part}" for part in (".txt", ".mmd", "_react.txt", "_side_by_side.txt")
]
"""What `demos/plan_execute.py --save docs/assets` writes (a real run on the configured model)."""
ENGLISH = {"custom": ("en",)}
DEMO_READS: dict[str, dict[str, tuple[str, ...]]] = {
    "price_question": {"custom": ("en", "zh")},
    "search_question": ENGLISH,
    "compare_legacy": {"custom": ("en",), "legacy": ("en",)},
    "plan_execute": {"plan_execute": ("en",), "custom": ("en",)},
}
"""The demos that end with the output of a real run on the shipped tools: agent -> languages read.
The Plan-and-Execute page's assets are its run; the pause-and-resume session reads `ENGLISH`."""
DEMO_OUTPUTS = tuple(DEMO_READS)
EXPECTED = "# Expected output"
PAUSE_RESUME = "real_pause_resume.txt"
"""A real `ask` / `runs` / `resume` session on the command line (the pause-and-resume page)."""
PAUSE_QUESTION = "Use run_terminal_command to run ls in the workspace, then name the files."
REAL_RESULTS = (
    "compare/compare.json",
    "experiments/*.json",
    "solve_rate/*.json",
    "parallel_slots.json",
    "answer_grammar.json",
    "bfcl/*.json",
)
"""Saved results of real runs that the docs and the README quote (each records its prompts)."""
BFCL_RESULTS = "bfcl/*.json"
"""The BFCL bench's results: its agents read BFCL's tools, not the shipped ones."""
COMPARISON = ROOT / "bench" / "results" / "compare" / "compare.json"
COMPARISON_QUESTION = "rose-markup"
EXPERIMENTS = ROOT / "bench" / "results" / "experiments"
EXPERIMENT_TRANSCRIPTS = {
    "thought_ablation": ("gold-3oz", "ReAct (Thought, Action)", "Action first (no Thought)"),
    "cot_vs_react": ("netflix-year", "Chain-of-Thought (no tools)", "ReAct (search, calculator)"),
    "react_vs_plan": (
        "gold-in-yuan",
        "Plan-and-Execute, replan always",
        "Plan-and-Execute, replan on failure",
    ),
    "loop_defences": ("rose-markup", "all three defences", "no repeated-action guard"),
}
"""For each experiment the docs show: the question and the two conditions shown side by side."""


@dataclass(frozen=True)
class Run:
    """One documented run: the question, and scripted replies (None: ask the real model)."""

    question: str
    replies: list[str] | None = None
    language: str = "en"
    options: dict[str, Any] = field(default_factory=dict)
    workspace: bool = False
    """Give the agent the workspace tools (with a scripted user who refuses `rm` commands)."""
    polling: bool = False
    """Give the agent a render job to poll instead (`render_tools`)."""


REAL_RUNS = {
    "real_percent": Run("What is 12.5% of 2480?"),
    "real_rose": Run("What is the wholesale price of a rose stem in China, plus a 5% markup?"),
    "real_rose_zh": Run("玫瑰在中国的批发价每枝多少钱？加价 5% 以后是多少？", language="zh"),
}
SCRIPTED_RUNS = {
    "made_up_observation": Run(
        "What is 12.5% of 2480?",
        [
            "Thought: I need 12.5% of 2480.\nAction: calculator\nAction Input: 12.5% of 2480\n"
            "Observation: 400\nThought: I now know the final answer\nFinal Answer: 400",
            "Thought: I now know the final answer\nFinal Answer: 12.5% of 2480 is 310.",
        ],
    ),
    "bad_format": Run(
        "What is 17 * 23?",
        [
            "Thought: I should multiply the two numbers.\nAction Input: 17 * 23",
            "Thought: I will use the calculator.\nAction: calculator\nAction Input: 17 * 23",
            "Thought: I now know the final answer\nFinal Answer: 17 * 23 = 391.",
        ],
    ),
    "format_limit": Run(
        "What is 17 * 23?",
        [
            "Thought: Let me think.\nAction Input: 17 * 23",
            "Thought: Still thinking.\nAction Input: 17, 23",
            "Thought: Hmm.\nAction Input: 391",
        ],
    ),
    "unknown_tool": Run(
        "What does a rose cost wholesale in Kunming?",
        [
            "Thought: I will look it up.\nAction: web_browser\nAction Input: rose price Kunming",
            "Thought: I must use a listed tool.\nAction: **Search**\nAction Input: rose wholesale price Kunming",
            "Thought: I now know the final answer\nFinal Answer: About 1 yuan per stem (early 2025).",
        ],
    ),
    "repeated_action": Run(
        "What is 24 * 19.99?",
        [
            "Thought: Multiply.\nAction: calculator\nAction Input: 24 * 19.99",
            "Thought: Let me check that again.\nAction: calculator\nAction Input: 24 * 19.99",
            "Thought: I now know the final answer\nFinal Answer: 24 * 19.99 = 479.76.",
        ],
    ),
    "tool_error": Run(
        "What is 2 to the power of 99999, and then 2 to the power of 10?",
        [
            "Thought: Compute the first power.\nAction: calculator\nAction Input: 2 ** 99999",
            "Thought: That is too large; do the second one.\nAction: calculator\nAction Input: 2 ** 10",
            "Thought: I now know the final answer\nFinal Answer: 2**99999 is too large to compute here; 2**10 = 1024.",
        ],
    ),
    "iteration_limit": Run(
        "What is the price of gold?",
        [
            "Thought: Search.\nAction: search\nAction Input: gold price",
            "Thought: Search again.\nAction: search\nAction Input: gold price per ounce March 2025",
        ],
        options={"max_iterations": 2},
    ),
    "generate_on_limit": Run(
        "What is the price of gold per ounce?",
        [
            "Thought: Search.\nAction: search\nAction Input: gold price per ounce March 2025",
            "Thought: I now know the final answer\nFinal Answer: About 3,100 dollars per ounce (end of March 2025).",
        ],
        options={"max_iterations": 1, "early_stopping_method": "generate"},
    ),
    "approval": Run(
        "Clean up the workspace, then say hello from the terminal.",
        [
            "Thought: Delete everything first.\nAction: run_terminal_command\nAction Input: rm -rf ./*",
            "Thought: The user refused. Just say hello.\nAction: run_terminal_command\nAction Input: echo hello",
            "Thought: I now know the final answer\nFinal Answer: I did not delete anything (not approved); the terminal said hello.",
        ],
        workspace=True,
    ),
    "polling": Run(
        "Render the sunscreen ad (script-1) and give me the link.",
        [
            "Thought: Start the render.\nAction: start_render\nAction Input: script-1",
            "Thought: Check the render.\nAction: render_status\nAction Input: render-1",
            "Thought: Not done yet; check again.\nAction: render_status\nAction Input: render-1",
            "Thought: Not done yet; check again.\nAction: render_status\nAction Input: render-1",
            "Thought: I now know the final answer\nFinal Answer: The ad is ready: https://videos.example.com/render-1.mp4",
        ],
        polling=True,
    ),
}


def say(text: str) -> None:
    """Progress for the person running the script."""
    print(text, file=sys.stderr, flush=True)


def run_and_save(name: str, run: Run, llm: BaseChatModel, out: Path) -> list[AgentEvent]:
    """Run the agent once and write the four asset files for `name` into `out`."""
    with tempfile.TemporaryDirectory() as workspace:
        tools = _tools_for(run, Path(workspace))
        agent = CustomReActAgent(
            llm, tools, language=run.language, examples=True, approve=refuse_rm, **run.options
        )
        events = list(agent.stream(run.question))
    lines: list[str] = []
    printer = ConsolePrinter(lines.append, language=run.language, color=False)
    for event in events:
        printer(event)
    out.mkdir(parents=True, exist_ok=True)
    question_label = "问题：" if run.language == "zh" else "Question: "
    text = "\n".join([question_label + run.question, *lines]) + "\n"
    (out / f"{name}.txt").write_text(text, encoding="utf-8")
    for suffix in FORMATS[1:]:
        save_transcript(out / f"{name}{suffix}", run.question, events, run.language)
    return events


def refuse_rm(tool: str, args: dict[str, Any]) -> bool:
    """The scripted user: approves every command except one that deletes files."""
    return not str(args.get("command", "")).lstrip().startswith("rm")


def render_tools() -> list[BaseTool]:
    """A render job to poll: `start_render` gives a task id, `render_status` says done on call 3."""
    polls: list[str] = []

    def start_render(script_id: str) -> str:
        """Start rendering a script's video; returns a task id at once."""
        return "Render started: task id render-1. Check it with render_status."

    def render_status(task_id: str) -> str:
        """Check a render task: queued, rendering with its progress, or done with the link."""
        polls.append(task_id)
        steps = ["queued", "rendering 50%", "done: https://videos.example.com/render-1.mp4"]
        return steps[min(len(polls), 3) - 1]

    status = {"repeatable": True, "max_calls": 6, "poll_interval": 0.0}
    return [
        StructuredTool.from_function(start_render),
        StructuredTool.from_function(render_status, metadata=status),
    ]


def _tools_for(run: Run, workspace: Path) -> list[BaseTool]:
    if run.replies is None:
        return default_tools()
    if run.polling:
        return render_tools()
    tools = [make_search_tool(tavily_api_key=None), calculator]
    return [*tools, *make_workspace_tools(workspace)] if run.workspace else tools


def scripted_model(run: Run) -> GenericFakeChatModel:
    """A model that answers with the run's replies, in order (and fails if asked once more)."""
    return GenericFakeChatModel(messages=iter(run.replies or []))


def make_scripted(out: Path = ASSETS) -> None:
    """Write the assets of every scripted run."""
    for name, run in SCRIPTED_RUNS.items():
        run_and_save(name, run, scripted_model(run), out)
        replies = [
            f"--- model reply {n} ---\n{reply}" for n, reply in enumerate(run.replies or [], 1)
        ]
        (out / f"{name}_replies.txt").write_text("\n".join(replies) + "\n", encoding="utf-8")
        say(f"scripted: {name}")


def make_real(out: Path = ASSETS) -> None:
    """Write the assets of the real runs, on the model the environment configures."""
    from custom_react.serving.models import ModelSettings, describe, open_chat_model

    settings = ModelSettings.from_env()
    model = describe(settings)
    say(f"model: {model}")
    with open_chat_model(settings) as llm:
        for name, run in REAL_RUNS.items():
            events = run_and_save(name, run, llm, out)
            final = events[-1]
            reason = final.result.stop_reason if isinstance(final, RunFinished) else "?"
            made = provenance(model, shipped({"custom": (run.language,)}))
            record(out, [f"{name}{suffix}" for suffix in FORMATS], made)
            say(f"real: {name} ({reason})")
    make_demos(out, model)


def make_demos(out: Path = ASSETS, model: str | None = None) -> None:
    """Rerun the demos and the command-line session; each starts its own model, one at a time."""
    from custom_react.serving.models import ModelSettings, describe

    model = model or describe(ModelSettings.from_env())
    for name, reads in DEMO_READS.items():
        # The Plan-and-Execute demo also writes the Plan-and-Execute page's assets into `out`.
        arguments = ["--save", str(out)] if name == "plan_execute" else []
        remake_demo_output(name, arguments)
        record(out, [f"demos/{name}.py"], provenance(model, shipped(reads)))
        say(f"real: demos/{name}.py")
    record(out, PLAN_EXECUTE_ASSETS, provenance(model, shipped(DEMO_READS["plan_execute"])))
    make_pause_resume(out)
    record(out, [PAUSE_RESUME], provenance(model, shipped(ENGLISH)))
    say(f"real: {PAUSE_RESUME}")


def remake_demo_output(name: str, arguments: list[str]) -> None:
    """Run `demos/<name>.py` and put what it printed at the end of the file, as comments."""
    path = ROOT / "demos" / f"{name}.py"
    printed = subprocess.run(
        [sys.executable, str(path), *arguments],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout
    text = path.read_text(encoding="utf-8")
    head = text[: text.index(EXPECTED)] if EXPECTED in text else text.rstrip("\n") + "\n\n"
    lines = [
        f"{EXPECTED} (a real run on the bundled local model; `python demos/{name}.py`),",
        "# remade by `python scripts/make_docs_assets.py --demos`, which records its prompt and",
        "# date in docs/assets/provenance.json:",
        *(("# " + line).rstrip() for line in printed.rstrip().splitlines()),
    ]
    path.write_text(head + "\n".join(lines) + "\n", encoding="utf-8")


def make_pause_resume(out: Path) -> None:
    """A real session: `ask` pauses before the terminal tool, `runs` lists it, `resume` approves."""
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder) / "work"
        work.mkdir()
        (work / "notes.txt").write_text("Buy roses.\n", encoding="utf-8")
        (work / "report.md").write_text("# Report\n", encoding="utf-8")
        store = ["--checkpoint", "runs.db"]
        transcript = _command(["ask", PAUSE_QUESTION, "--workspace", "work", *store], folder)
        run_id = re.search(r"resume (run-\w+)", transcript)
        if run_id is None:
            raise RuntimeError(f"the run did not pause:\n{transcript}")
        transcript += _command(["runs", *store], folder)
        resume = ["resume", run_id[1], *store, "--workspace", "work", "--approve"]
        transcript += _command(resume, folder)
        transcript += _command(["runs", *store], folder)
    (out / PAUSE_RESUME).write_text(transcript, encoding="utf-8")


def _command(arguments: list[str], folder: str) -> str:
    """Run `custom-react ARGUMENTS` in `folder`: the command, what it printed, its exit code."""
    done = subprocess.run(
        [sys.executable, "-c", "from custom_react.cli.app import app; app()", *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # in the order a terminal shows them
        text=True,
        cwd=folder,
    )
    shown = " ".join(f'"{a}"' if " " in a else a for a in arguments)
    printed = done.stdout.rstrip()
    return f"$ custom-react {shown}\n{printed}\n(exit code {done.returncode})\n"


def provenance(model: str, read: Fingerprints, day: str | None = None) -> dict[str, Any]:
    """What made an asset: what each agent read per language (`prompt_fingerprints`), date, model."""
    return {"prompt_fingerprints": read, "date": day or date.today().isoformat(), "model": model}


def shipped(reads: dict[str, tuple[str, ...]]) -> Fingerprints:
    """What the agents `reads` names read now in their languages, with the shipped tools."""
    pairs = [(agent, language) for agent, languages in reads.items() for language in languages]
    return agent_fingerprints(pairs, fingerprint_with(default_tools()))


def shown_runs(recorded: Any, agents: Sequence[str], language: str) -> Fingerprints:
    """What `agents` read in `language`, from a saved result's `prompt_fingerprints` ("?": none)."""
    known = recorded if isinstance(recorded, dict) else {}
    return {agent: {language: known.get(agent, {}).get(language, "?")} for agent in agents}


def record(out: Path, names: list[str], made: dict[str, Any]) -> None:
    """Note in `provenance.json` which prompt, day and model made the assets `names`."""
    path = out / PROVENANCE.name
    known = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    known.update({name: made for name in names})
    path.write_text(json.dumps(dict(sorted(known.items())), indent=1) + "\n", encoding="utf-8")


def real_assets() -> list[str]:
    """The files in `docs/assets/` made from real model runs: each must record its prompt."""
    real = [f"{name}{suffix}" for name in REAL_RUNS for suffix in FORMATS]
    real += [f"experiment_{name}.txt" for name in EXPERIMENT_TRANSCRIPTS]
    real += [f"demos/{name}.py" for name in DEMO_OUTPUTS]
    return [
        *real,
        *PLAN_EXECUTE_ASSETS,
        PAUSE_RESUME,
        f"compare_{COMPARISON_QUESTION}.txt",
        "compare_local.md",
    ]


def stale(assets: Path = ASSETS, results: Path = RESULTS) -> list[str]:
    """Each asset and saved result whose runs read another prompt than the shipped one, and why.

    A record's `prompt_fingerprints` (agent -> language -> fingerprint) is compared, agent by
    agent and language by language, with what that agent reads now (`agent_fingerprint` with the
    shipped tools; BFCL's results with BFCL's tools). A record without them, of another shape, or
    silent about an agent its runs hold is named too: a format this check does not know fails.
    """
    current = fingerprint_with(default_tools())
    path = assets / PROVENANCE.name
    known = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    found = [
        f"{_asset(name)} (no record of its prompt)" for name in real_assets() if name not in known
    ]
    for name, made in known.items():
        found += changed(_asset(name), made, current)
    for pattern in REAL_RESULTS:
        for path in sorted(results.glob(pattern)):
            data = json.loads(path.read_text(encoding="utf-8"))
            runs = data.get("records", data.get("runs", []))
            agents = [run["agent"] for run in runs if isinstance(run, dict) and "agent" in run]
            try:
                now = bfcl_fingerprints() if pattern == BFCL_RESULTS else current
            except ImportError as error:  # bfcl-eval is missing: say so, do not pass
                found.append(f"{_shown(path)} (cannot recompute BFCL's prompts: {error})")
                continue
            found += changed(_shown(path), data.get("settings", data), now, agents)
    return found


def changed(
    name: str, made: dict[str, Any], current: Fingerprint, agents: Sequence[str] = ()
) -> list[str]:
    """Why the record `made` of `name` is stale: each agent and language whose prompt changed.

    Also an agent among `agents` (those its runs hold) that it records nothing for, and a record
    without `prompt_fingerprints` of the known shape (agent -> "en"/"zh" -> fingerprint).
    """
    recorded = made.get("prompt_fingerprints") if isinstance(made, dict) else None
    if not is_fingerprints(recorded):
        return [f"{name} (no record of each agent's prompt, per language)"]
    found = [
        f"{name} (no record of agent {agent!r}'s prompt)"
        for agent in dict.fromkeys(agents)
        if agent not in recorded
    ]
    return found + [
        f"{name} (agent {agent!r}, {language}: prompt {old}, shipped {new}; made {made.get('date')})"
        for agent, language, old, new in changed_fingerprints(recorded, current)
    ]


def bfcl_fingerprints() -> Fingerprint:
    """`bench.bfcl.bfcl_fingerprints`: what each agent reads on BFCL (needs bfcl-eval installed)."""
    if str(ROOT) not in sys.path:  # run as a script, the checkout's root is not on the path
        sys.path.insert(0, str(ROOT))
    from bench.bfcl import bfcl_fingerprints as with_bfcl_tools

    return with_bfcl_tools()


def _asset(name: str) -> str:
    """Where a recorded asset is, from the checkout's root (a demo records its own path)."""
    return name if name.startswith("demos/") else f"docs/assets/{name}"


def _shown(path: Path) -> str:
    """`path` as the person running the script reads it: from the checkout's root if inside."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def make_comparison(out: Path = ASSETS) -> None:
    """Copy the saved comparison results into the docs: one question side by side, the tables.

    The docs embed these copies, not `bench/results/` itself, so rerunning the benchmark does not
    change a page until this script is run again (and the text around the tables is reread).
    """
    from custom_react.compare.report import ComparisonReport, RunRecord, side_by_side

    if not COMPARISON.is_file():
        say(f"skipped: {COMPARISON.relative_to(ROOT)} is missing (run custom-react compare)")
        return
    data = json.loads(COMPARISON.read_text(encoding="utf-8"))
    data.pop("totals", None)
    data["records"] = [RunRecord(**record) for record in data["records"]]
    report = ComparisonReport(**data)
    made, day = data["settings"].get("prompt_fingerprints"), data["settings"].get("date")
    question = next(r.question for r in report.records if r.question_id == COMPARISON_QUESTION)
    shown = {"": ("custom", "legacy"), "_create_agent": ("create_agent", "create_agent_text")}
    for suffix, agents in shown.items():
        name = f"compare_{COMPARISON_QUESTION}{suffix}.txt"
        text = side_by_side(report, COMPARISON_QUESTION, *agents)
        (out / name).write_text(text + "\n", encoding="utf-8")
        read = shown_runs(made, agents, question_language(question))
        record(out, [name], provenance(report.model, read, day))
    tables = COMPARISON.with_suffix(".md").read_text(encoding="utf-8")
    (out / "compare_local.md").write_text(tables, encoding="utf-8")
    record(out, ["compare_local.md"], provenance(report.model, made or {}, day))
    say(f"comparison: compare_{COMPARISON_QUESTION}.txt, _create_agent.txt, compare_local.md")


def make_experiments(out: Path = ASSETS) -> None:
    """Copy one real run of two conditions of each saved experiment into the docs, side by side."""
    from custom_react.compare.report import ComparisonReport, RunRecord, side_by_side

    fields = set(RunRecord.__dataclass_fields__)
    for name, (question, left, right) in EXPERIMENT_TRANSCRIPTS.items():
        saved = EXPERIMENTS / f"{name}.json"
        if not saved.is_file():
            say(f"skipped: {saved.relative_to(ROOT)} is missing (run bench/experiments/{name}.py)")
            continue
        data = json.loads(saved.read_text(encoding="utf-8"))
        records = [
            RunRecord(**{k: v for k, v in r.items() if k in fields}) for r in data["records"]
        ]
        report = ComparisonReport(data["model"], [left, right], records)
        text = side_by_side(report, question, left, right, width=58)
        (out / f"experiment_{name}.txt").write_text(text + "\n", encoding="utf-8")
        asked = next(r.question for r in records if r.question_id == question)
        read = shown_runs(data.get("prompt_fingerprints"), (left, right), question_language(asked))
        record(out, [f"experiment_{name}.txt"], provenance(data["model"], read, data.get("date")))
        say(f"experiment: experiment_{name}.txt")


def refilled(page: Path) -> str:
    """The text of doc `page` with every embed region holding its file's current content."""
    text = page.read_text(encoding="utf-8")
    return EMBED.sub(lambda match: match[1] + fenced_file(page, match["path"]) + match[4], text)


def fenced_file(page: Path, relative: str) -> str:
    """The file `relative` (to `page`'s folder) in a code fence that fits its kind."""
    path = (page.parent / relative).resolve()
    text = path.read_text(encoding="utf-8").rstrip("\n")
    if path.suffix == ".md":  # Markdown goes in as it is, its headings two levels down
        return re.sub(r"^#", "###", text, flags=re.MULTILINE) + "\n"
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{FENCES.get(path.suffix, 'text')}\n{text}\n{fence}\n"


def embed_all(docs: Path = DOCS) -> None:
    """Refill every embed region of `docs/*.md` with its file's current content."""
    for page in sorted(docs.glob("*.md")):
        updated = refilled(page)
        if updated != page.read_text(encoding="utf-8"):
            page.write_text(updated, encoding="utf-8")
            say(f"embedded: {page.relative_to(ROOT)}")


def main() -> None:
    """Parse the arguments and regenerate what they ask for."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument("--scripted", action="store_true", help="only the scripted runs")
    choice.add_argument("--embed", action="store_true", help="only refill the docs' embeds")
    choice.add_argument(
        "--demos",
        action="store_true",
        help="only the demos' outputs and the command-line session (real runs), then the embeds",
    )
    choice.add_argument(
        "--check",
        action="store_true",
        help="only say (offline) which assets a changed prompt made stale",
    )
    args = parser.parse_args()
    if args.check:
        found = stale()
        for line in found:
            say(f"stale: {line}: remake it on the shipped prompt (see the docstring)")
        raise SystemExit(1 if found else 0)
    if args.demos:
        make_demos()
    elif not args.embed:
        make_scripted()
        make_comparison()
        make_experiments()
    if not (args.embed or args.scripted or args.demos):
        make_real()
    embed_all()


if __name__ == "__main__":
    main()
