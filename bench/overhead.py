"""Loop overhead per tool step: our agent vs `AgentExecutor` vs `create_agent`, in one run.

Every agent gets the same zero-latency scripted model (`GenericFakeChatModel`, given `bind_tools`
so `create_agent` accepts it) and the same script: N tool steps with a tool that returns its input,
then a final answer. The text agents read ReAct text; `create_agent` gets the same steps as
provider tool calls. A callback handler is attached to every run (callbacks on, as with tracing).
The per-step overhead is the slope between a short and a long script, so what a run costs once
(building inputs, the final answer) does not count:

    per_step = (median time of a 2 + N step run - median time of a 2 step run) / N

Repeats are interleaved across agents so machine noise hits all of them alike, and the ratios are
paired: each repeat gives every agent's slope next to AgentExecutor's from the same moment, and the
table shows the median of those per-repeat ratios with its interquartile range (on a shared machine
the speed drifts by a third between seconds; pairing cancels that drift). `AgentExecutor` is
measured twice: as built by default (it streams the model reply) and with `stream_runnable=False`
(no streaming: faster, a stricter baseline); ratios are given to both. The "floor" row is the least
any loop over LangChain's model and tool calls can cost: call, parse, run the tool, nothing else.

Run from the repository root:  python bench/overhead.py  [--steps 20] [--repeats 30] [--json PATH]
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import RunnableConfig, RunnableLambda
from langchain_core.tools import BaseTool, tool

from custom_react import CustomReActAgent
from custom_react.compare.runners import LEGACY_REACT_PROMPT
from custom_react.parser import FinalAnswer, parse_llm_response

SHORT = 2  # tool steps in the short script
BASELINES = ("default", "no streaming")


class ScriptedModel(GenericFakeChatModel):
    """A zero-latency model whose script is reset before each run."""

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Any:
        return self

    def load(self, script: list[AIMessage]) -> None:
        self.messages = iter(script)


class CountingHandler(BaseCallbackHandler):
    """A callback handler that sees every chain, model and tool run (like a tracer would)."""

    def __init__(self) -> None:
        self.events = 0

    def on_chain_start(self, *args: Any, **kwargs: Any) -> None:
        self.events += 1

    def on_chat_model_start(self, *args: Any, **kwargs: Any) -> None:
        self.events += 1

    def on_tool_start(self, *args: Any, **kwargs: Any) -> None:
        self.events += 1


@tool
def echo(text: str) -> str:
    """Return the text unchanged."""
    return text


def text_script(steps: int) -> list[AIMessage]:
    """ReAct text: `steps` tool steps (distinct inputs), then the final answer."""
    replies = [
        AIMessage(f"Thought: step {i}\nAction: echo\nAction Input: value {i}") for i in range(steps)
    ]
    return [*replies, AIMessage("Thought: I now know the final answer\nFinal Answer: done")]


def tool_call_script(steps: int) -> list[AIMessage]:
    """The same steps as provider tool calls, for `create_agent`."""
    replies = [
        AIMessage("", tool_calls=[{"name": "echo", "args": {"text": f"value {i}"}, "id": f"c{i}"}])
        for i in range(steps)
    ]
    return [*replies, AIMessage("done")]


Run = Callable[[int], None]
FLOOR = "floor (model + parse + tool)"


def build_runs(model: ScriptedModel, tools: list[BaseTool]) -> dict[str, Run]:
    """One callable per agent: `run(steps)` answers one question with a `steps`-step script."""
    from langchain.agents import create_agent
    from langchain_classic.agents import AgentExecutor, create_react_agent
    from langchain_classic.agents.agent import RunnableAgent
    from langchain_core.prompts import PromptTemplate

    ours = CustomReActAgent(model, tools, max_iterations=None)
    react = create_react_agent(model, tools, PromptTemplate.from_template(LEGACY_REACT_PROMPT))
    executors = {
        "AgentExecutor (default)": AgentExecutor(agent=react, tools=tools, max_iterations=None),
        "AgentExecutor (no streaming)": AgentExecutor(
            agent=RunnableAgent(runnable=react, stream_runnable=False),
            tools=tools,
            max_iterations=None,
        ),
    }
    graph = create_agent(model, tools)

    def config() -> Any:
        return {"callbacks": [CountingHandler()], "recursion_limit": 10_000}

    def run_ours(steps: int) -> None:
        model.load(text_script(steps))
        assert ours.invoke("go", config=config())["output"] == "done"

    def run_executor(executor: Any) -> Run:
        def run(steps: int) -> None:
            model.load(text_script(steps))
            assert executor.invoke({"input": "go"}, config=config())["output"] == "done"

        return run

    def run_graph(steps: int) -> None:
        model.load(tool_call_script(steps))
        state = graph.invoke({"messages": [HumanMessage("go")]}, config=config())
        assert state["messages"][-1].text == "done"

    floor = RunnableLambda(partial(floor_loop, model, tools[0]))

    def run_floor(steps: int) -> None:
        model.load(text_script(steps))
        assert floor.invoke("go", config=config()) == "done"

    runs = {"custom": run_ours}
    runs |= {name: run_executor(executor) for name, executor in executors.items()}
    return runs | {"create_agent": run_graph, FLOOR: run_floor}


def floor_loop(model: ScriptedModel, tool: BaseTool, question: str, config: RunnableConfig) -> str:
    """The least any LangChain-based ReAct loop does per step: call the model, parse, run the tool.

    Both calls go through LangChain (`BaseChatModel.invoke`, `BaseTool.invoke`) with the config,
    so the callbacks see them, as in every agent measured here. No events, history or checks.
    """
    messages: list[BaseMessage] = [HumanMessage(question)]
    while True:
        reply = model.invoke(messages, config=config, stop=["\nObservation:"])
        step = parse_llm_response(reply.text)
        if isinstance(step, FinalAnswer):
            return step.output
        observation = tool.invoke({"text": step.tool_input}, config=config)
        messages += [AIMessage(reply.text), HumanMessage(f"Observation: {observation}")]


def measure(runs: dict[str, Run], steps: int, repeats: int) -> dict[str, list[float]]:
    """Per-step seconds of each agent in each repeat: (long run - short run) / steps."""
    slopes: dict[str, list[float]] = {name: [] for name in runs}
    for run in runs.values():  # warm up: imports, caches, first-call costs
        run(SHORT)
    for _ in range(repeats):
        seconds: dict[str, dict[int, float]] = {name: {} for name in runs}
        for length in (SHORT, SHORT + steps):
            for name, run in runs.items():
                gc.collect()
                started = time.perf_counter()
                run(length)
                seconds[name][length] = time.perf_counter() - started
        for name, by_length in seconds.items():
            slopes[name].append((by_length[SHORT + steps] - by_length[SHORT]) / steps)
    return slopes


def paired_ratio(mine: list[float], theirs: list[float]) -> dict[str, float]:
    """The median and quartiles of `mine / theirs`, repeat by repeat."""
    ratios = [a / b for a, b in zip(mine, theirs, strict=True)]
    low, middle, high = statistics.quantiles(ratios, n=4)
    return {"ratio": middle, "ratio_q1": low, "ratio_q3": high}


def parse_arguments(description: str) -> argparse.Namespace:
    """The options of the overhead benches: `--steps`, `--repeats`, `--json`."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--steps", type=int, default=20, help="extra tool steps in the long script")
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--json", default=None, help="also write the results to this file")
    return parser.parse_args()


def save_results(args: argparse.Namespace, results: dict[str, Any], **more: Any) -> None:
    """Write the results (with the steps and repeats that made them) to `--json`, if given."""
    if args.json:
        data = {"steps": args.steps, "repeats": args.repeats, "results": results, **more}
        Path(args.json).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def main() -> None:
    """Measure, print a table with ratios to both AgentExecutor variants, optionally save JSON."""
    args = parse_arguments(__doc__.split("\n\n")[0])

    model = ScriptedModel(messages=iter([]))
    slopes = measure(build_runs(model, [echo]), args.steps, args.repeats)
    baselines = [f"AgentExecutor ({kind})" for kind in BASELINES]
    print(
        f"Loop overhead per tool step, callbacks on; slope of {SHORT} vs {SHORT + args.steps} "
        f"tool steps, {args.repeats} interleaved repeats; ratios paired per repeat (median)"
    )
    print(f"{'agent':<30} {'per step':>10} {'vs default':>11} {'vs no-stream':>13}")
    results: dict[str, dict[str, Any]] = {}
    for name, per_repeat in slopes.items():
        ratios = [paired_ratio(per_repeat, slopes[baseline]) for baseline in baselines]
        results[name] = {
            "per_step_us": statistics.median(per_repeat) * 1e6,
            "ratio_to_default": ratios[0],
            "ratio_to_no_streaming": ratios[1],
        }
        print(
            f"{name:<30} {results[name]['per_step_us']:>7.0f} us "
            f"{ratios[0]['ratio']:>10.2f}x {ratios[1]['ratio']:>12.2f}x"
        )
    ours = results["custom"]
    default, strict = ours["ratio_to_default"], ours["ratio_to_no_streaming"]
    print(
        f"\nours / AgentExecutor: {default['ratio']:.2f}x (default; quartiles "
        f"{default['ratio_q1']:.2f}-{default['ratio_q3']:.2f}), {strict['ratio']:.2f}x (no "
        f"streaming; {strict['ratio_q1']:.2f}-{strict['ratio_q3']:.2f}); target <= 0.2x"
    )
    to_floor = paired_ratio(slopes["custom"], slopes[FLOOR])
    print(
        f"ours / floor: {to_floor['ratio']:.2f}x (quartiles {to_floor['ratio_q1']:.2f}-"
        f"{to_floor['ratio_q3']:.2f}); target <= 1.10x"
    )
    save_results(args, results, ours_to_floor=to_floor)


if __name__ == "__main__":
    main()
