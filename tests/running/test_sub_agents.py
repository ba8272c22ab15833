"""`agent.as_tool(...)`: a sub-agent's answer is the Observation; its steps nest; its pause pauses."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from langchain_core.tools import tool

from custom_react import (
    ApprovalRequested,
    CustomReActAgent,
    ObservationEvent,
    RunFinished,
    SubAgentEvent,
)
from custom_react.export import to_html, to_markdown
from custom_react.pausing.state import MemoryStore
from custom_react.printing import ConsolePrinter
from tests.running.test_runnable import Recorder, tree

ASK = "Thought: the math agent knows.\nAction: math_agent\nAction Input: What is 17 * 23?"
COMPUTE = "Thought: multiply\nAction: calculator\nAction Input: 17 * 23"


def math_agent(script: Any, tools: list[Any], *replies: str, **options: Any) -> Any:
    inner = CustomReActAgent(script(*replies).model, tools, **options)
    return inner.as_tool(name="math_agent", description="Solves arithmetic questions.")


@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream"])
def test_the_sub_agents_answer_is_the_observation(script, tools, calls, way):
    outer = script(ASK, "Final Answer: 391")
    sub = math_agent(script, tools, COMPUTE, "Final Answer: 391")
    agent = CustomReActAgent(outer.model, [sub])
    question = "What is 17 * 23? Ask the math agent."
    if way == "stream":
        events = list(agent.stream(question))
        nested = [e.event for e in events if isinstance(e, SubAgentEvent)]
        assert [type(e).__name__ for e in nested] == [
            "ActionEvent", "ObservationEvent", "FinalAnswerEvent",
        ]  # fmt: skip
        result = events[-1].result.to_dict()
    else:
        result = agent.invoke(question) if way == "invoke" else asyncio.run(agent.ainvoke(question))
    assert result["intermediate_steps"][0][1] == "391"
    assert result["output"] == "391"
    assert calls.calls == [("calculator", "17 * 23")]
    assert "Observation: 391" in outer.prompts[1][-1].text


def test_the_sub_agents_run_nests_under_the_outer_tool_run(script, tools):
    recorder = Recorder()
    sub = math_agent(script, tools, COMPUTE, "Final Answer: 391")
    agent = CustomReActAgent(script(ASK, "Final Answer: 391").model, [sub])
    agent.invoke("17 * 23?", config={"callbacks": [recorder]})
    (root,) = recorder.roots
    outer_tool = next(child for child in root.child_runs if child.run_type == "tool")
    assert outer_tool.name == "math_agent"
    (inner,) = outer_tool.child_runs
    assert tree(inner)[0] == ("chain", "CustomReActAgent")
    assert [kind for kind, _ in (child[0] for child in tree(inner)[1])] == [
        "llm", "tool", "llm",
    ]  # fmt: skip


def interrupted(script: Any, ran: list[str], *inner_replies: str) -> tuple[Any, Any]:
    @tool
    def delete_file(path: str) -> str:
        """Delete a file in the workspace."""
        ran.append(path)
        return f"deleted {path}"

    delete_file.metadata = {"requires_approval": True}
    inner = CustomReActAgent(script(*inner_replies).model, [delete_file], approval="interrupt")
    sub = inner.as_tool(name="files_agent", description="Manages the workspace's files.")
    return sub, delete_file


def test_a_pause_inside_the_sub_agent_pauses_the_run_and_one_decision_finishes_both(script):
    ran: list[str] = []
    sub, _ = interrupted(
        script,
        ran,
        "Thought: delete it\nAction: delete_file\nAction Input: old.txt",
        "Final Answer: old.txt is deleted.",
    )
    outer = script(
        "Thought: ask the files agent\nAction: files_agent\nAction Input: Delete old.txt.",
        "Final Answer: Done: old.txt is deleted.",
    )
    agent = CustomReActAgent(outer.model, [sub], checkpoint=MemoryStore())
    events = list(agent.stream("Please delete old.txt."))
    paused = events[-1].result
    assert paused.stop_reason == "needs_approval" and ran == []
    request = next(e for e in events if isinstance(e, ApprovalRequested))
    assert (request.call.tool, request.call.args) == ("delete_file", {"path": "old.txt"})
    resumed = list(agent.stream({"resume": paused.state, "decision": {"approve": True}}))
    result = resumed[-1]
    assert isinstance(result, RunFinished) and result.result.output == "Done: old.txt is deleted."
    assert ran == ["old.txt"]  # the tool ran once, after the decision
    observation = next(e for e in resumed if isinstance(e, ObservationEvent))
    assert observation.step.observation == "old.txt is deleted."
    assert any(isinstance(e, SubAgentEvent) for e in resumed)


def test_a_rejection_goes_to_the_sub_agent_which_answers_without_the_tool(script):
    ran: list[str] = []
    sub, _ = interrupted(
        script,
        ran,
        "Thought: delete it\nAction: delete_file\nAction Input: old.txt",
        "Final Answer: I did not delete old.txt.",
    )
    outer = script(
        "Action: files_agent\nAction Input: Delete old.txt.", "Final Answer: It was not deleted."
    )
    agent = CustomReActAgent(outer.model, [sub])
    paused = agent.invoke("Delete old.txt.")
    result = agent.invoke({"resume": paused["state"], "decision": {"reject": "keep it"}})
    assert result["output"] == "It was not deleted." and ran == []
    assert result["intermediate_steps"][-1][1] == "I did not delete old.txt."


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_console_and_the_exports_show_the_sub_agents_steps_indented(script, tools, language):
    sub = math_agent(script, tools, COMPUTE, "Final Answer: 391", language=language)
    agent = CustomReActAgent(script(ASK, "Final Answer: 391").model, [sub], language=language)
    events = list(agent.stream("17 * 23?"))
    lines: list[str] = []
    printer = ConsolePrinter(lines.append, language=language, color=False, stream_tokens=False)
    for event in events:
        printer(event)
    action = "Action" if language == "en" else "行动"
    outer = lines.index(f"{action}: math_agent" if language == "en" else f"{action}：math_agent")
    nested = [line for line in lines[outer:] if line.startswith("    ")]
    assert any("calculator" in line for line in nested)
    assert not lines[-1].startswith(" ")  # the outer answer is not indented
    assert 'style="margin-left: 1.5em"' in to_html("17 * 23?", events, language=language)
    assert "> " in to_markdown("17 * 23?", events, language=language)


def test_in_markdown_a_sub_agents_fenced_observation_is_quoted_on_every_line(script, tools):
    sub = math_agent(script, tools, COMPUTE, "Final Answer: 391")
    agent = CustomReActAgent(script(ASK, "Final Answer: 391").model, [sub])
    lines = to_markdown("17 * 23?", list(agent.stream("17 * 23?"))).splitlines()
    opening = lines.index("> ```text")  # the calculator's Observation, inside the sub-agent
    closing = lines.index("> ```", opening + 1)
    assert all(line.startswith("> ") for line in lines[opening : closing + 1])
    assert "> 391" in lines[opening:closing]
