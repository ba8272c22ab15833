"""Deep and huge inputs: an Action Input nested past `MAX_INPUT_DEPTH` is a format error.

In every format, with and without a store, for a tool that pauses for approval and one that
does not, at depths just past the cap and far past it: the run records a `ParseFailure`, the
tool never runs, and no `RecursionError` (or any error) leaves the run. Depth at the cap runs.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.tools import StructuredTool

from custom_react import CustomReActAgent
from custom_react.parsing.action_input import MAX_INPUT_DEPTH
from custom_react.pausing.checkpoints import SQLiteStore
from custom_react.pausing.store import MemoryStore
from custom_react.testing import Script
from tests.security.common import FORMATS, final_reply


def nested(depth: int, kind: str) -> str:
    """A JSON value `depth` levels deep: objects, lists, or both in turn."""
    if kind == "objects":
        return '{"payload": ' * depth + '"x"' + "}" * depth
    if kind == "lists":  # inside an object: a bare list is text in the text format
        return '{"payload": ' + "[" * depth + '"x"' + "]" * depth + "}"
    opened = "".join('{"payload": ' if i % 2 else "[" for i in range(depth))
    closed = "".join("}" if i % 2 else "]" for i in reversed(range(depth)))
    return '{"payload": ' + opened + '"x"' + closed + "}"


def reply(fmt: str, tool_input: str) -> str:
    if fmt == "text":
        return f"Thought: t\nAction: store_data\nAction Input: {tool_input}"
    if fmt == "xml":
        return f"<thought>t</thought><action>store_data</action><action_input>{tool_input}</action_input>"
    return '{"thought": "t", "action": "store_data", "action_input": ' + tool_input + "}"


def data_tool(ran: list[Any], approval: bool) -> Any:
    def store_data(payload: Any = None) -> str:
        """Store a piece of data."""
        ran.append(payload)
        return "stored"

    return StructuredTool.from_function(
        func=store_data,
        name="store_data",
        description="Store a piece of data.",
        metadata={"requires_approval": approval},
    )


STORES = {
    "none": lambda p: None,
    "memory": lambda p: MemoryStore(),
    "sqlite": lambda p: SQLiteStore(p / "r.db"),
}
DEPTHS = [MAX_INPUT_DEPTH + 1, 500, 3_000]


def deep_cases() -> list[Any]:
    cases = []
    for fmt in FORMATS:
        for depth in DEPTHS:
            for kind in ("objects", "lists", "mixed"):
                for store in STORES if kind == "objects" else ["none"]:
                    for approval in ("callback", "interrupt"):
                        cases.append(pytest.param(fmt, depth, kind, store, approval))
    return cases


@pytest.mark.parametrize(("fmt", "depth", "kind", "store", "approval"), deep_cases())
def test_a_too_deep_input_is_a_format_error(tmp_path, fmt, depth, kind, store, approval):
    ran: list[Any] = []
    options = (
        {"approve": lambda n, a: True} if approval == "callback" else {"approval": "interrupt"}
    )
    model = Script(reply(fmt, nested(depth, kind)), final_reply(fmt))
    agent = CustomReActAgent(
        model.model,
        [data_tool(ran, True)],
        format=fmt,
        checkpoint=STORES[store](tmp_path),
        **options,
    )
    events = list(agent.stream("Store it."))
    result = events[-1].result
    assert ran == [] and result.stop_reason == "final_answer"
    assert [type(e).__name__ for e in events].count("ParseFailure") == 1
    if store != "none":
        stored = agent.store.load(result.run_id)
        assert [s["kind"] for s in stored["steps"]] == ["parse_failure", "final_answer"]
    json.dumps(result.to_dict(), default=str)  # the result itself is not too deep to write


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_input_at_the_cap_runs_and_pauses_and_resumes(tmp_path, fmt):
    """The control: `MAX_INPUT_DEPTH` levels are kept, paused, stored and resumed."""
    ran: list[Any] = []
    store = SQLiteStore(tmp_path / "r.db")
    # a one-key object is bound to the tool's only argument: one level less once bound
    first = Script(reply(fmt, nested(MAX_INPUT_DEPTH - 1, "objects")))
    agent = CustomReActAgent(
        first.model, [data_tool(ran, True)], format=fmt, checkpoint=store, approval="interrupt"
    )
    paused = agent.invoke("Store it.")
    assert paused["stop_reason"] == "needs_approval" and ran == []
    again = CustomReActAgent(
        Script(final_reply(fmt)).model,
        [data_tool(ran, True)],
        format=fmt,
        checkpoint=store,
        approval="interrupt",
    )
    result = again.invoke(
        {"resume": json.loads(json.dumps(paused["state"])), "decision": "approve"}
    )
    assert result["stop_reason"] == "final_answer" and len(ran) == 1


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("size", [1_000_000, 5_000_000])
def test_a_huge_flat_input_is_bounded_in_what_the_model_reads(fmt, size):
    ran: list[Any] = []
    big = json.dumps({"payload": "x" * size})
    model = Script(reply(fmt, big), final_reply(fmt))
    agent = CustomReActAgent(model.model, [data_tool(ran, False)], format=fmt)
    result = agent.invoke("Store it.")
    assert result["stop_reason"] == "final_answer" and len(ran) == 1 and len(ran[0]) == size
    assert len(result["output"]) < 100


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_deep_decision_edit_is_refused_before_anything_runs(tmp_path, fmt):
    ran: list[Any] = []
    store = MemoryStore()
    agent = CustomReActAgent(
        Script(reply(fmt, '{"payload": "x"}')).model,
        [data_tool(ran, True)],
        format=fmt,
        checkpoint=store,
        approval="interrupt",
    )
    paused = agent.invoke("Store it.")
    deep: dict[str, Any] = {"payload": "x"}
    for _ in range(5_000):  # built in a loop: json.loads itself gives up at this depth
        deep = {"payload": deep}
    again = CustomReActAgent(
        Script(final_reply(fmt)).model,
        [data_tool(ran, True)],
        format=fmt,
        checkpoint=store,
        approval="interrupt",
    )
    try:
        again.invoke({"resume": paused["state"], "decision": {"edit": deep}})
    except ValueError:
        pass  # refused: fine
    except RecursionError as error:  # pragma: no cover - the defect this guards against
        raise AssertionError("a deep edit raised RecursionError") from error
    assert ran == [] or all(isinstance(r, dict) for r in ran)
