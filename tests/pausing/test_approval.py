"""Approval that can wait: a run pauses before a tool that needs approval and resumes later.

1. With `approval="interrupt"` the run ends with `stop_reason="needs_approval"` and a state that
   survives `json.dumps`; the tool has not run.
2. A fresh agent object resumes that state with approve, edit or reject; each continues the run
   (the model reads the observation), and the tool runs only when approved or edited.
3. Bad resumes fail with a clear error: no decision, an unknown decision, a state of another
   format version, a finished run.
4. The printer, the Markdown export and the Mermaid diagram show the pause and the decision.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.tools import tool

from custom_react import CustomReActAgent
from custom_react.console.printing import ConsolePrinter
from custom_react.events import ApprovalDecided, ApprovalRequested, ObservationEvent
from custom_react.export.markdown import to_markdown
from custom_react.export.mermaid import to_mermaid
from custom_react.pausing.approval import Decision
from custom_react.pausing.state import run_state
from custom_react.steps import FinalAnswerEvent, ToolStep

QUESTION = "How many files are in the folder?"
ASK = "Thought: I will list the files.\nAction: run_command\nAction Input: ls"


def command_tool(ran: list[str]) -> Any:
    @tool
    def run_command(command: str) -> str:
        """Run a shell command in the workspace."""
        ran.append(command)
        return f"a.txt b.txt (from {command})"

    run_command.metadata = {"requires_approval": True}
    return run_command


def pause(script, ran: list[str]) -> tuple[list[Any], dict[str, Any]]:
    agent = CustomReActAgent(script(ASK).model, [command_tool(ran)], approval="interrupt")
    events = list(agent.stream(QUESTION))
    result = events[-1].result.to_dict()
    return events, json.loads(json.dumps(result["state"]))  # as a web app would keep it


def resume(script, ran, state, decision, *replies: str) -> tuple[list[Any], Any]:
    model = script(*replies)
    agent = CustomReActAgent(model.model, [command_tool(ran)], approval="interrupt")
    return list(agent.stream({"resume": state, "decision": decision})), model


def test_the_run_pauses_before_the_tool_and_returns_its_state_as_json(script):
    ran: list[str] = []
    events, state = pause(script, ran)
    assert ran == []  # never before approval
    assert [type(event).__name__ for event in events] == [
        "ActionEvent",
        "ApprovalRequested",
        "RunFinished",
    ]
    result = events[-1].result
    assert result.stop_reason == "needs_approval" and "run_command needs" in result.output
    assert state["pending"]["tool"] == "run_command" and state["pending"]["args"] == {
        "command": "ls"
    }
    assert state["question"] == QUESTION and state["steps"] == []
    assert events[1].run_id == result.run_id == state["run_id"]


def test_approve_runs_the_call_and_the_run_goes_on(script):
    ran: list[str] = []
    _, state = pause(script, ran)
    events, model = resume(script, ran, state, {"approve": True}, "Final Answer: two files")
    assert ran == ["ls"]
    assert isinstance(events[0], ApprovalDecided) and events[0].decision == Decision("approve")
    observation = next(e for e in events if isinstance(e, ObservationEvent))
    assert observation.step.status == "ok"
    assert observation.step.observation == "a.txt b.txt (from ls)"
    result = events[-1].result
    assert result.stop_reason == "final_answer" and result.output == "two files"
    assert result.iterations == 2 and result.run_id == state["run_id"]
    assert "a.txt b.txt (from ls)" in model.prompts[0][-1].content  # the model read it


def test_edit_runs_the_call_with_the_new_input(script):
    ran: list[str] = []
    _, state = pause(script, ran)
    events, _ = resume(script, ran, state, {"edit": "ls -1"}, "Final Answer: two files")
    assert ran == ["ls -1"]
    step = next(e for e in events if isinstance(e, ObservationEvent)).step
    assert (step.tool_input, step.args, step.status) == ("ls -1", {"command": "ls -1"}, "ok")
    action, _ = events[-1].result.intermediate_steps[0]
    assert action.tool_input == "ls -1"


def test_after_an_edit_the_model_reads_what_ran_instead_of_its_call(script):
    ran: list[str] = []
    _, state = pause(script, ran)
    _, model = resume(script, ran, state, {"edit": "ls -1"}, "Final Answer: two files")
    read = model.prompts[0][-1].content
    assert "Action Input: ls\n" in read  # its own call, as it wrote it
    assert "run_command ran with ls -1 instead. Do not run your first version again." in read
    assert read.rstrip().endswith("a.txt b.txt (from ls -1)\nThought:")


def test_reject_does_not_run_it_and_the_reason_is_the_observation(script):
    ran: list[str] = []
    _, state = pause(script, ran)
    events, model = resume(
        script, ran, state, {"reject": "not on this machine"}, "Final Answer: I may not look."
    )
    assert ran == []
    step = next(e for e in events if isinstance(e, ObservationEvent)).step
    assert step.status == "denied" and "not on this machine" in step.observation
    assert "not on this machine" in model.prompts[0][-1].content
    assert events[-1].result.stop_reason == "final_answer"


def test_the_approve_callback_still_answers_at_once(script):
    ran: list[str] = []
    model = script(ASK, "Final Answer: two files")
    agent = CustomReActAgent(model.model, [command_tool(ran)], approve=lambda name, args: True)
    assert agent.invoke(QUESTION)["stop_reason"] == "final_answer" and ran == ["ls"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda state: {"resume": state}, "waits for a decision about run_command"),
        (lambda state: {"resume": state, "decision": {"maybe": 1}}, "Unknown decision"),
        (lambda state: {"resume": {**state, "version": 99}, "decision": "approve"}, "version 99"),
        (lambda state: {"resume": "run-123", "decision": "approve"}, "needs the checkpoint store"),
        (lambda state: {"resume": {"question": "?"}}, "Not a run state"),
    ],
)
def test_a_bad_resume_says_what_is_wrong(script, change, message):
    _, state = pause(script, [])
    agent = CustomReActAgent(script().model, [command_tool([])], approval="interrupt")
    with pytest.raises(ValueError, match=message):
        agent.invoke(change(state))


def test_a_finished_run_cannot_be_resumed(script):
    ran: list[str] = []
    _, state = pause(script, ran)
    events, _ = resume(script, ran, state, "approve", "Final Answer: two files")
    assert events[-1].result.state is None  # only a paused run returns its state
    steps = [e.step if isinstance(e, ObservationEvent) else e for e in events]
    steps = [s for s in steps if isinstance(s, ToolStep | FinalAnswerEvent)]
    finished = run_state(QUESTION, [], steps, state["run_id"])
    agent = CustomReActAgent(script().model, [command_tool(ran)])
    with pytest.raises(ValueError, match="already ended with its final answer"):
        agent.invoke({"resume": finished})


def test_the_printer_and_the_exports_show_the_pause_and_the_decision(script):
    ran: list[str] = []
    paused, state = pause(script, ran)
    resumed, _ = resume(script, ran, state, {"reject": "no"}, "Final Answer: fine")
    lines: list[str] = []
    printer = ConsolePrinter(lines.append, color=False)
    for event in [*paused, *resumed]:
        printer(event)
    assert any(
        line.startswith("Paused: run_command waits for a person's approval") for line in lines
    )
    assert "Decision: rejected: no" in lines
    assert not any(line.startswith("Final Answer: Paused") for line in lines)
    markdown = to_markdown(QUESTION, [*paused, *resumed])
    assert "**Paused:**" in markdown and "**Decision:** rejected: no" in markdown
    diagram = to_mermaid(QUESTION, [*paused, *resumed])
    assert (
        "Agent->>User: approve run_command?" in diagram and "User-->>Agent: rejected: no" in diagram
    )
    assert isinstance(paused[1], ApprovalRequested)
    zh = ConsolePrinter(lines.append, language="zh", color=False)
    zh(resumed[0])
    assert lines[-1] == "决定：拒绝：no"


def used(tokens: int) -> dict[str, int]:
    return {"input_tokens": tokens, "output_tokens": tokens, "total_tokens": 2 * tokens}


@pytest.mark.parametrize("resumed_by", ["state", "run id"])
def test_a_resumed_run_counts_on_from_the_tokens_used_before_the_pause(script, resumed_by):
    """The usage total and `max_tokens_per_run` cover the whole run, as if it never stopped."""
    from langchain_core.messages import AIMessage

    from custom_react.pausing.store import MemoryStore

    def pause_and_resume(budget: int, *after: AIMessage) -> dict[str, Any]:
        options = {"approval": "interrupt", "max_tokens_per_run": budget, "checkpoint": store}
        before = script(AIMessage(ASK, usage_metadata=used(1000)))
        paused = CustomReActAgent(before.model, [command_tool([])], **options).invoke(QUESTION)
        assert paused["usage"]["total_tokens"] == 2000
        resume = paused["state"] if resumed_by == "state" else paused["run_id"]
        agent = CustomReActAgent(script(*after).model, [command_tool([])], **options)
        return agent.invoke({"resume": resume, "decision": {"approve": True}})

    store = MemoryStore()
    answered = pause_and_resume(9000, AIMessage("Final Answer: 2", usage_metadata=used(1500)))
    assert (answered["usage"]["total_tokens"], answered["stop_reason"]) == (5000, "final_answer")
    stopped = pause_and_resume(1500)  # 2000 used before the pause: no call after it
    assert (stopped["usage"]["total_tokens"], stopped["stop_reason"]) == (2000, "token_budget")


@pytest.mark.parametrize("resumed_by", ["state", "run id"])
def test_a_resumed_run_gives_back_the_question_as_the_message_it_came_in(script, resumed_by):
    """Its id and name survive the pause (JSON, a store): a graph merging by id keeps it once."""
    from langchain_core.messages import HumanMessage

    from custom_react.pausing.store import MemoryStore

    options = {"approval": "interrupt", "checkpoint": MemoryStore()}
    asked = HumanMessage(QUESTION, id="question-1", name="li")
    before = CustomReActAgent(script(ASK).model, [command_tool([])], **options)
    paused = before.invoke({"messages": [("system", "Be brief."), asked]})
    state = json.loads(json.dumps(paused["state"]))
    resume = state if resumed_by == "state" else paused["run_id"]
    agent = CustomReActAgent(script("Final Answer: 2").model, [command_tool([])], **options)
    done = agent.invoke({"resume": resume, "decision": {"approve": True}})
    question = done["messages"][1]
    assert (question.text, question.id, question.name) == (QUESTION, "question-1", "li")


@pytest.mark.parametrize("resumed_by", ["state", "run id"])
def test_a_resumed_runs_messages_merge_by_id_with_the_paused_ones(script, resumed_by):
    """Every message the run made keeps its id from the pause to the resume (JSON, a store).

    A graph that holds the paused result's messages and merges the resumed result's into them
    (`add_messages`) holds each once: the question asked as text, the tool results, the format
    error the model read.
    """
    from langgraph.graph.message import add_messages

    from custom_react.pausing.store import MemoryStore

    options = {"approval": "interrupt", "checkpoint": MemoryStore()}
    first = "Action: calculator\nAction Input: 2 + 2"
    replies = [first, "Action: calculator", ASK]
    before = CustomReActAgent(script(*replies).model, [calculator, command_tool([])], **options)
    paused = before.invoke(QUESTION)
    assert paused["stop_reason"] == "needs_approval"
    assert all(message.id for message in paused["messages"])
    state = json.loads(json.dumps(paused["state"]))
    resume = state if resumed_by == "state" else paused["run_id"]
    agent = CustomReActAgent(
        script("Final Answer: 2").model, [calculator, command_tool([])], **options
    )
    done = agent.invoke({"resume": resume, "decision": {"approve": True}})
    merged = add_messages(paused["messages"], done["messages"])
    assert [m.id for m in merged] == [m.id for m in done["messages"]]
    # The paused run ends on the call waiting for approval; the resume adds its result and the answer.
    assert paused["messages"][-1].tool_calls[0]["name"] == "run_command"
    assert len(merged) == len(done["messages"]) == len(paused["messages"]) + 2


@tool
def calculator(expression: str) -> str:
    """Evaluate an arithmetic expression."""
    return "4"
