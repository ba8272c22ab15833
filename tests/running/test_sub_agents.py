"""`agent.as_tool(...)`: a sub-agent's answer is the Observation; its steps nest; its pause pauses."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.tools import tool
from langchain_core.tracers.context import collect_runs

from custom_react import (
    ApprovalRequested,
    CustomReActAgent,
    ObservationEvent,
    SubAgentEvent,
)
from custom_react.console.printing import ConsolePrinter
from custom_react.export import to_html, to_markdown
from custom_react.integrations.create_agent import TextReActMiddleware
from custom_react.pausing.store import MemoryStore, ResumeRefused
from custom_react.testing import ScriptedError
from tests.conftest import run_by
from tests.running.test_runnable import Recorder, tree

ASKS = {
    "en": "Thought: the math agent knows.\nAction: math_agent\nAction Input: What is 17 * 23?",
    "zh": "思考：数学助手知道。\n行动：math_agent\n行动输入：17 * 23 是多少？",
}
COMPUTES = {
    "en": "Thought: multiply\nAction: calculator\nAction Input: 17 * 23",
    "zh": "思考：相乘\n行动：calculator\n行动输入：17 * 23",
}
FINAL = {"en": "Final Answer: ", "zh": "最终答案："}
SUB_ANSWERS = {"en": "17 * 23 = 391", "zh": "17 乘 23 等于 391。"}
QUESTIONS = {"en": "What is 17 * 23? Ask the math agent.", "zh": "17 * 23 是多少？问数学助手。"}
WAYS = pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream"])
LANGUAGES = pytest.mark.parametrize("language", ["en", "zh"])


def asked(script: Any, tools: list[Any], language: str) -> tuple[Any, Any, CustomReActAgent]:
    """The inner and outer scripts, and the outer agent with the math agent as its tool."""
    inner = script(COMPUTES[language], FINAL[language] + SUB_ANSWERS[language])
    sub = CustomReActAgent(inner.model, tools, language=language).as_tool(
        name="math_agent", description="Solves arithmetic questions."
    )
    outer = script(ASKS[language], FINAL[language] + "391")
    return inner, outer, CustomReActAgent(outer.model, [sub], language=language)


@LANGUAGES
@WAYS
def test_the_sub_agents_answer_is_the_observation(script, tools, calls, way, language):
    inner, outer, agent = asked(script, tools, language)
    result, events = run_by(agent, way, QUESTIONS[language])
    if way == "stream":
        nested = [e.event for e in events if isinstance(e, SubAgentEvent)]
        assert [type(e).__name__ for e in nested] == [
            "ActionEvent", "ObservationEvent", "FinalAnswerEvent",
        ]  # fmt: skip
    assert result["intermediate_steps"][0][1] == SUB_ANSWERS[language]
    assert (result["output"], result["iterations"]) == ("391", 2)
    assert calls.calls == [("calculator", "17 * 23")]
    assert (len(inner.prompts), len(outer.prompts)) == (2, 2)
    assert f"\nObservation: {SUB_ANSWERS[language]}\nThought: " in outer.prompts[1][-1].text


@LANGUAGES
@WAYS
def test_the_sub_agents_run_nests_under_the_outer_tool_run(script, tools, way, language):
    recorder = Recorder()
    _, _, agent = asked(script, tools, language)
    run_by(agent, way, QUESTIONS[language], callbacks=[recorder])
    (root,) = recorder.roots
    llm = [("llm", "RecordingChatModel"), []]
    inner = [("chain", "CustomReActAgent"), [llm, [("tool", "calculator"), []], llm]]
    assert tree(root) == [
        ("chain", "CustomReActAgent"),
        [llm, [("tool", "math_agent"), [inner]], llm],
    ]


@WAYS
def test_the_sub_agents_run_nests_under_the_tool_run_in_collect_runs(script, tools, way):
    # `collect_runs` adds its handler from a context variable to each manager made from a config,
    # never to a child manager: a run started on one directly would be a root of its own.
    _, _, agent = asked(script, tools, "en")
    with collect_runs() as collector:
        run_by(agent, way, QUESTIONS["en"])
    (root,) = collector.traced_runs
    (tool_run,) = [run for run in root.child_runs if run.run_type == "tool"]
    (sub_agent,) = tool_run.child_runs
    assert tree(sub_agent)[0] == ("chain", "CustomReActAgent")
    assert [tree(run)[0] for run in sub_agent.child_runs] == [
        ("llm", "RecordingChatModel"), ("tool", "calculator"), ("llm", "RecordingChatModel"),
    ]  # fmt: skip


# The files agent deletes a file that needs approval; the outer agent asks it to.
DELETES = {
    "en": "Thought: delete it\nAction: delete_file\nAction Input: old.txt",
    "zh": "思考：删除它\n行动：delete_file\n行动输入：old.txt",
}
DELETED = {"en": "old.txt is deleted.", "zh": "old.txt 已删除。"}
ASK_FILES = {
    "en": "Thought: ask the files agent\nAction: files_agent\nAction Input: Delete old.txt.",
    "zh": "思考：问文件助手\n行动：files_agent\n行动输入：删除 old.txt。",
}
DONE = {"en": "Done: old.txt is deleted.", "zh": "完成：old.txt 已删除。"}
PLEASE_DELETE = {"en": "Please delete old.txt.", "zh": "请删除 old.txt。"}


def interrupted(
    script: Any, ran: list[str], *inner_replies: str, language: str = "en"
) -> tuple[Any, Any]:
    """The files agent as a tool and its script; its `delete_file` needs approval, runs in `ran`."""

    @tool
    def delete_file(path: str) -> str:
        """Delete a file in the workspace."""
        ran.append(path)
        return f"deleted {path}"

    delete_file.metadata = {"requires_approval": True}
    model = script(*inner_replies)
    inner = CustomReActAgent(model.model, [delete_file], approval="interrupt", language=language)
    return inner.as_tool(name="files_agent", description="Manages the workspace's files."), model


@LANGUAGES
@WAYS
def test_a_pause_inside_the_sub_agent_pauses_the_run_and_one_decision_finishes_both(
    script, way, language
):
    ran: list[str] = []
    final = FINAL[language]
    sub, inner = interrupted(
        script, ran, DELETES[language], final + DELETED[language], language=language
    )
    outer = script(ASK_FILES[language], final + DONE[language])
    agent = CustomReActAgent(outer.model, [sub], checkpoint=MemoryStore(), language=language)
    paused, events = run_by(agent, way, PLEASE_DELETE[language])
    assert paused["stop_reason"] == "needs_approval" and ran == []
    pending = paused["state"]["pending"]
    assert (pending["tool"], pending["inner_state"]["pending"]["args"]) == (
        "files_agent",
        {"path": "old.txt"},
    )
    if way == "stream":
        request = next(e for e in events if isinstance(e, ApprovalRequested))
        assert (request.call.tool, request.call.args) == ("delete_file", {"path": "old.txt"})
    decision = {"resume": paused["state"], "decision": {"approve": True}}
    result, resumed = run_by(agent, way, decision)
    assert result["output"] == DONE[language]
    assert ran == ["old.txt"]  # the tool ran once, after the decision
    steps = [(action.tool, seen) for action, seen in result["intermediate_steps"]]
    assert steps == [("files_agent", DELETED[language])]  # the outer step, once
    assert (len(inner.prompts), len(outer.prompts)) == (2, 2)  # neither run started over
    if way == "stream":
        observation = next(e for e in resumed if isinstance(e, ObservationEvent))
        assert observation.step.observation == DELETED[language]
        assert any(isinstance(e, SubAgentEvent) for e in resumed)


@pytest.mark.parametrize("bound_to", ["the sub-agent call", "the call the person saw"])
def test_a_decision_bound_by_digest_finishes_a_sub_agents_pause(script, bound_to):
    """Either digest names this pause: it is checked once, where the run resumes."""
    ran: list[str] = []
    sub, _ = interrupted(script, ran, DELETES["en"], "Final Answer: " + DELETED["en"])
    outer = script(ASK_FILES["en"], "Final Answer: " + DONE["en"])
    agent = CustomReActAgent(outer.model, [sub])
    paused = agent.invoke(PLEASE_DELETE["en"])
    pending = paused["state"]["pending"]
    inner = pending["inner_state"]["pending"]
    digest = pending["digest"] if bound_to == "the sub-agent call" else inner["digest"]
    decision = {"approve": True, "digest": digest}
    result = agent.invoke({"resume": paused["state"], "decision": decision})
    assert (result["output"], ran) == (DONE["en"], ["old.txt"])
    assert result["intermediate_steps"][-1][1] == DELETED["en"]


def test_a_decision_about_another_call_is_refused_before_the_sub_agent_resumes(script):
    ran: list[str] = []
    sub, _ = interrupted(script, ran, DELETES["en"])
    outer = script(ASK_FILES["en"])
    agent = CustomReActAgent(outer.model, [sub])
    paused = agent.invoke(PLEASE_DELETE["en"])
    with pytest.raises(ResumeRefused, match="its digest does not match"):
        agent.invoke({"resume": paused["state"], "decision": {"approve": True, "digest": "0" * 64}})
    assert ran == []


def test_a_refused_resume_inside_a_tool_reaches_the_caller_not_the_model(script):
    @tool
    def resumer(question: str) -> str:
        """Resumes a paused run."""
        raise ResumeRefused("run r1 was resumed elsewhere")

    model = script("Action: resumer\nAction Input: go")
    with pytest.raises(ResumeRefused, match="resumed elsewhere"):
        CustomReActAgent(model.model, [resumer]).invoke("go on")


def test_langgraphs_interrupt_in_a_tool_reaches_the_graph_through_a_sub_agent(script):
    """A tool that asks its graph for input (`interrupt`) pauses the graph, as in `create_agent`."""
    from langchain.agents import create_agent
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.types import interrupt

    sent: list[str] = []

    @tool
    def send_email(to: str) -> str:
        """Send an email once a person says yes."""
        if interrupt({"question": f"send to {to}?"}) != "yes":
            return "not sent"
        sent.append(to)
        return f"sent to {to}"

    inner = script("Action: send_email\nAction Input: boss")
    mailer = CustomReActAgent(inner.model, [send_email]).as_tool(
        name="mailer", description="Sends mail."
    )
    outer = script("Action: mailer\nAction Input: mail the boss")
    graph = create_agent(
        outer.model, [mailer], middleware=[TextReActMiddleware()], checkpointer=InMemorySaver()
    )
    state = graph.invoke(
        {"messages": [("user", "Mail the boss")]}, {"configurable": {"thread_id": "m"}}
    )
    (waiting,) = state["__interrupt__"]
    assert waiting.value == {"question": "send to boss?"} and sent == []


@LANGUAGES
def test_a_sub_agent_that_stops_without_its_answer_is_a_failed_call_tried_again(script, language):
    """Its stop message is an "error" Observation, so the same question may be asked again."""
    inner = script(ScriptedError("model overloaded", 400), FINAL[language] + SUB_ANSWERS[language])
    sub = CustomReActAgent(inner.model, [], model_retries=0, language=language).as_tool(
        name="math_agent", description="Solves arithmetic questions."
    )
    outer = script(ASKS[language], ASKS[language], FINAL[language] + "391")
    result = CustomReActAgent(outer.model, [sub], language=language).invoke(QUESTIONS[language])
    statuses = [m.status for m in result["messages"] if m.type == "tool"]
    assert statuses == ["error", "success"]
    assert [seen for _, seen in result["intermediate_steps"]][1] == SUB_ANSWERS[language]
    assert len(inner.prompts) == 2  # asked again, not answered from the failed call


@pytest.mark.parametrize(
    ("args", "kwargs", "named"),
    [
        ((dict,), {}, "args_schema"),
        ((), {"return_direct": True}, "return_direct"),
        ((), {"arg_types": {"q": str}}, "arg_types"),
    ],
)
def test_langchains_other_as_tool_options_are_refused_not_ignored(script, args, kwargs, named):
    agent = CustomReActAgent(script().model, [])
    with pytest.raises(TypeError, match=f"as_tool takes name= and description= only, not {named}"):
        agent.as_tool(*args, name="helper", **kwargs)


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


@LANGUAGES
def test_the_console_and_the_exports_show_the_sub_agents_steps_indented(script, tools, language):
    _, _, agent = asked(script, tools, language)
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
    _, _, agent = asked(script, tools, "en")
    lines = to_markdown("17 * 23?", list(agent.stream("17 * 23?"))).splitlines()
    opening = lines.index("> ```text")  # the calculator's Observation, inside the sub-agent
    closing = lines.index("> ```", opening + 1)
    assert all(line.startswith("> ") for line in lines[opening : closing + 1])
    assert "> 391" in lines[opening:closing]


@pytest.mark.parametrize("way", ["invoke", "ainvoke"])
def test_a_sub_agent_that_pauses_under_create_agent_fails_loudly(way: str) -> None:
    """`create_agent` cannot pause with it: an error, never an Observation the model talks past."""
    import asyncio

    from langchain.agents import create_agent
    from langchain_core.tools import tool

    from custom_react.integrations.create_agent import TextReActMiddleware
    from custom_react.running.sub_agents import SubAgentCannotPause
    from custom_react.testing import Script

    deleted: list[str] = []

    @tool
    def delete_file(path: str) -> str:
        """Delete a file."""
        deleted.append(path)
        return "deleted"

    delete_file.metadata = {"requires_approval": True}
    sub = CustomReActAgent(
        Script("Action: delete_file\nAction Input: old.txt").model,
        [delete_file],
        approval="interrupt",
    )
    janitor = sub.as_tool(name="janitor", description="Cleans up files.")
    model = Script("Action: janitor\nAction Input: delete old.txt", "Final Answer: Done.")
    outer = create_agent(model.model, [janitor], middleware=[TextReActMiddleware()])
    given = {"messages": [("user", "Delete old.txt")]}
    with pytest.raises(SubAgentCannotPause, match="janitor paused for a person's approval"):
        if way == "invoke":
            outer.invoke(given)
        else:
            asyncio.run(outer.ainvoke(given))
    assert deleted == []


def janitor_under_create_agent(checkpointer: Any, replies: tuple[str, ...]) -> tuple[Any, list]:
    """A sub-agent that deletes files (approval by pause) under `create_agent` + the middleware."""
    from langchain.agents import create_agent
    from langchain_core.tools import tool

    from custom_react.integrations.create_agent import TextReActMiddleware
    from custom_react.testing import Script

    deleted: list[str] = []
    listed: list[str] = []

    @tool
    def list_files(folder: str) -> str:
        """List a folder."""
        listed.append(folder)
        return "old.txt, new.txt"

    @tool
    def delete_file(path: str) -> str:
        """Delete a file."""
        deleted.append(path)
        return f"deleted {path}"

    delete_file.metadata = {"requires_approval": True}
    sub = CustomReActAgent(Script(*replies).model, [list_files, delete_file], approval="interrupt")
    janitor = sub.as_tool(name="janitor", description="Cleans up files.")
    model = Script("Action: janitor\nAction Input: clean up", "Final Answer: Cleaned up.")
    outer = create_agent(
        model.model, [janitor], middleware=[TextReActMiddleware()], checkpointer=checkpointer
    )
    return outer, [deleted, listed]


@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream"])
def test_a_sub_agent_pause_under_create_agent_is_langgraphs_interrupt(way: str) -> None:
    """Paused with `__interrupt__`; resumed with `Command(resume=...)`; every tool runs once."""
    import asyncio

    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.types import Command

    replies = (
        "Action: list_files\nAction Input: .",
        "Action: delete_file\nAction Input: old.txt",
        "Action: delete_file\nAction Input: new.txt",
        "Final Answer: Deleted old.txt; new.txt was kept.",
    )
    outer, (deleted, listed) = janitor_under_create_agent(InMemorySaver(), replies)
    config = {"configurable": {"thread_id": f"t-{way}"}}

    def run(given: Any) -> dict[str, Any]:
        if way == "ainvoke":
            return asyncio.run(outer.ainvoke(given, config))
        if way == "stream":
            *_, last = outer.stream(given, config, stream_mode="values")
            state = outer.get_state(config)
            return {**last, "__interrupt__": [i for t in state.tasks for i in t.interrupts]}
        return outer.invoke(given, config)

    first = run({"messages": [("user", "Clean up the folder")]})
    (waiting,) = first["__interrupt__"]
    assert waiting.value["tool"] == "delete_file" and waiting.value["args"] == {"path": "old.txt"}
    assert deleted == [] and listed == ["."]
    second = run(Command(resume={"approve": True}))
    (again,) = second["__interrupt__"]  # the sub-agent's next call waits too
    assert again.value["args"] == {"path": "new.txt"}
    assert deleted == ["old.txt"] and listed == ["."]
    third = run(Command(resume={"reject": "keep it"}))
    assert "__interrupt__" not in third or third["__interrupt__"] == []
    assert deleted == ["old.txt"] and listed == ["."]  # every tool ran once, the rejected none
    assert third["messages"][-1].content == "Cleaned up."
    tool_message = [m for m in third["messages"] if m.type == "tool"][-1]
    assert tool_message.content == "Deleted old.txt; new.txt was kept."


def live_agents(language: str) -> tuple[CustomReActAgent, list[str]]:
    """An outer agent whose sub-agent's tool records when it runs."""
    from custom_react.testing import Script

    ran: list[str] = []

    @tool
    def calculator(expression: str) -> str:
        """Evaluate arithmetic."""
        ran.append(expression)
        return "391"

    inner = Script(COMPUTES[language], FINAL[language] + SUB_ANSWERS[language])
    sub = CustomReActAgent(inner.model, [calculator], language=language).as_tool(
        name="math_agent", description="Solves arithmetic questions."
    )
    outer = Script(ASKS[language], FINAL[language] + "391")
    return CustomReActAgent(outer.model, [sub], language=language), ran


def announced_before_it_ran(event: Any, ran: list[str], seen: list[str]) -> None:
    """At the sub-agent's Action, its tool has not run yet: the event came live."""
    if isinstance(event, SubAgentEvent):
        seen.append(type(event.event).__name__)
        if type(event.event).__name__ == "ActionEvent":
            assert ran == [], "the sub-agent's Action arrived only after its tool ran"


@LANGUAGES
@pytest.mark.parametrize("way", ["stream", "astream"])
def test_a_sub_agents_steps_stream_as_they_happen(way, language):
    import asyncio

    agent, ran = live_agents(language)
    seen: list[str] = []
    if way == "stream":
        for event in agent.stream(QUESTIONS[language]):
            announced_before_it_ran(event, ran, seen)
    else:

        async def consume() -> None:
            async for event in agent.astream(QUESTIONS[language]):
                announced_before_it_ran(event, ran, seen)

        asyncio.run(consume())
    assert seen == ["ActionEvent", "ObservationEvent", "FinalAnswerEvent"]
    assert ran == ["17 * 23"]


def test_a_sub_agents_steps_reach_astream_events_before_its_answer():
    import asyncio

    agent, ran = live_agents("en")

    async def names() -> list[str]:
        order = []
        async for event in agent.astream_events(QUESTIONS["en"], version="v2"):
            chunk = event["data"].get("chunk")
            if event["event"] == "on_chain_stream" and isinstance(chunk, SubAgentEvent):
                order.append(f"sub:{type(chunk.event).__name__}")
            elif event["event"] in ("on_tool_start", "on_tool_end"):
                order.append(f"{event['event']}:{event['name']}")
        return order

    order = asyncio.run(names())
    assert order == [
        "on_tool_start:math_agent",
        "sub:ActionEvent",
        "on_tool_start:calculator",
        "on_tool_end:calculator",
        "sub:ObservationEvent",
        "sub:FinalAnswerEvent",
        "on_tool_end:math_agent",
    ]
    assert ran == ["17 * 23"]


@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream"])
def test_a_sub_agent_runs_within_the_tools_time_limit(way):
    """Run live inside the step, a sub-agent still gets only the tool's `tool_timeout`."""
    import time

    from custom_react.testing import Script

    ran: list[str] = []

    @tool
    def slow(job: str) -> str:
        """A slow job."""
        time.sleep(0.4)
        ran.append(job)
        return "done"

    step = "Action: slow\nAction Input: a"
    inner = Script(step, "Action: slow\nAction Input: b", "Final Answer: both done")
    sub = CustomReActAgent(inner.model, [slow]).as_tool(name="worker", description="Works.")
    outer = Script("Action: worker\nAction Input: do a and b", "Final Answer: it took too long")
    agent = CustomReActAgent(outer.model, [sub], tool_timeout=0.6)
    result, _ = run_by(agent, way, "Run the jobs.")
    observation = result["intermediate_steps"][0][1]
    assert "worker" in observation and "0.6" in observation  # the tool_timed_out message
    assert result["messages"][2].status == "error"
    assert result["output"] == "it took too long"
    assert len(ran) <= 2
