"""The ReAct loop, driven by scripted models: the exact events for each path through the loop."""

from __future__ import annotations

import time
from typing import Any

import pytest
from langchain_core.messages import AIMessage
from langchain_core.tools import BaseTool, tool

from custom_react import CustomReActAgent
from custom_react.formats import TEXT
from tests.conftest import summarize


def run(agent: CustomReActAgent, question: str = "question") -> tuple[list[Any], dict[str, Any]]:
    events = list(agent.stream(question))
    return summarize(events), events[-1].result.to_dict()


def test_direct_final_answer(script, tools, calls):
    model = script("Thought: I know this.\nFinal Answer: Paris")
    events, result = run(CustomReActAgent(model.model, tools))
    assert events == [("final_answer", "Paris"), ("result", "final_answer", 1)]
    assert result["output"] == "Paris" and result["intermediate_steps"] == []
    assert calls.calls == []
    model.assert_consumed()


def test_one_tool_call(script, tools, calls):
    model = script(
        "Thought: compute it\nAction: calculator\nAction Input: 2 * (3 + 4)",
        "Thought: I now know the final answer\nFinal Answer: 14",
    )
    events, result = run(CustomReActAgent(model.model, tools))
    assert events == [
        ("action", "calculator", "2 * (3 + 4)"),
        ("observation", "ok", "14"),
        ("final_answer", "14"),
        ("result", "final_answer", 2),
    ]
    assert calls.calls == [("calculator", "2 * (3 + 4)")]
    ((action, observation),) = result["intermediate_steps"]
    assert (action.tool, action.tool_input, observation) == ("calculator", "2 * (3 + 4)", "14")
    model.assert_consumed()


@pytest.mark.parametrize(
    ("step_format", "reply"),
    [
        ("text", "Thought: compute it\nAction: python\nAction Input: calculator('2 * 7')"),
        ("xml", "<thought>compute it</thought>\n<action>print(calculator('2 * 7'))</action>"),
        (
            "json",
            '{"thought": "compute it", "action": "python", "action_input": "calculator(\'2 * 7\')"}',
        ),
    ],
)
def test_a_call_wrapped_in_code_runs_the_tool_it_calls(script, tools, calls, step_format, reply):
    # Small models wrap a call in code (`python`, `print(...)`): no tool has that name, the call
    # inside names one, so that call is the step, in every format.
    model = script(reply, "Final Answer: 14")
    events, _ = run(CustomReActAgent(model.model, tools, format=step_format))
    assert events[:2] == [("action", "calculator", "2 * 7"), ("observation", "ok", "14")]
    assert calls.calls == [("calculator", "2 * 7")]


def test_several_tool_calls_feed_each_observation_back(script, tools, calls):
    model = script(
        "Thought: find the price\nAction: search\nAction Input: rose price",
        "Thought: add 5%\nAction: calculator\nAction Input: 1.2 * 1.05",
        "Final Answer: 1.26 yuan",
    )
    agent = CustomReActAgent(model.model, tools)
    events, result = run(agent, "rose price plus 5%?")
    assert events == [
        ("action", "search", "rose price"),
        ("observation", "ok", "A rose stem costs 1.2 yuan wholesale in Kunming."),
        ("action", "calculator", "1.2 * 1.05"),
        ("observation", "ok", "1.26"),
        ("final_answer", "1.26 yuan"),
        ("result", "final_answer", 3),
    ]
    assert [type(m).__name__ for m in result["messages"]] == [
        "HumanMessage", "AIMessage", "ToolMessage", "AIMessage", "ToolMessage", "AIMessage",
    ]  # fmt: skip
    model.assert_consumed()


def test_the_model_reads_earlier_observations(script, tools):
    model = script("Action: search\nAction Input: rose", "Final Answer: 1.2")
    seen = model.prompts  # every prompt the scripted model was sent
    run(CustomReActAgent(model.model, tools))
    first_call, second_call = seen
    assert [m.type for m in first_call] == [m.type for m in second_call] == ["system", "human"]
    assert first_call[-1].content == "Question: question\nThought: "
    # The model continues one transcript: the question, its earlier reply, the observation.
    assert second_call[-1].content == (
        "Question: question\nThought: Action: search\nAction Input: rose"
        "\nObservation: A rose stem costs 1.2 yuan wholesale in Kunming.\nThought: "
    )


def test_unknown_tool_then_recovery(script, tools, calls):
    model = script(
        "Thought: look it up\nAction: web_browser\nAction Input: rose",
        "Action: **Search**\nAction Input: rose",
        "Final Answer: 1.2 yuan",
    )
    events, _ = run(CustomReActAgent(model.model, tools))
    assert events == [
        ("action", "web_browser", "rose"),
        (
            "observation",
            "unknown_tool",
            "'web_browser' is not a valid tool. Use one of: calculator, search.",
        ),
        ("action", "search", "rose"),
        ("observation", "ok", "A rose stem costs 1.2 yuan wholesale in Kunming."),
        ("final_answer", "1.2 yuan"),
        ("result", "final_answer", 3),
    ]
    assert calls.calls == [("search", "rose")]


def test_tool_that_raises_becomes_an_error_observation(script, tools):
    model = script(
        "Action: calculator\nAction Input: two plus two",
        "Action: calculator\nAction Input: 2 + 2",
        "Final Answer: 4",
    )
    events, result = run(CustomReActAgent(model.model, tools))
    assert events[1] == (
        "observation",
        "error",
        "Error: calculator failed: ValueError: cannot evaluate 'two plus two'",
    )
    assert events[2:] == [
        ("action", "calculator", "2 + 2"),
        ("observation", "ok", "4"),
        ("final_answer", "4"),
        ("result", "final_answer", 3),
    ]
    assert result["messages"][2].status == "error"


def test_parse_failure_is_fed_back_then_recovery(script, tools):
    model = script("Thought: hmm, let me think\nAction Input: 42", "Final Answer: 42")
    agent = CustomReActAgent(model.model, tools)
    events = list(agent.stream("q"))
    assert summarize(events) == [
        ("parse_failure", 1),
        ("final_answer", "42"),
        ("result", "final_answer", 2),
    ]
    result = events[-1].result
    assert result.messages[2].content.startswith("Observation: Invalid format")
    assert result.intermediate_steps[0][0].tool == "_Exception"


@pytest.mark.parametrize(
    ("step_format", "thought", "then"),
    [
        ("text", "Thought: I need the product.", "Action: calculator\nAction Input: 17 * 23"),
        ("xml", "<thought>I need the product.</thought>", '<action>calculator("17 * 23")</action>'),
    ],
)
def test_a_thought_alone_is_shown_back_and_the_model_goes_on(
    script, tools, calls, step_format, thought, then
):
    """A reply that stops after its Thought is no format error: the next call ends with it."""
    model = script(thought, then, "Final Answer: 391")
    events, result = run(CustomReActAgent(model.model, tools, format=step_format))
    assert events[:2] == [("action", "calculator", "17 * 23"), ("observation", "ok", "391")]
    assert events[-1] == ("result", "final_answer", 3)  # the going on was a model call
    assert calls.calls == [("calculator", "17 * 23")] and len(events) == 4  # no parse failure
    shown = model.prompts[1][-1].content  # the thought ends the transcript, with no cue after it
    assert shown.endswith(f"\n{thought}\n")
    assert shown.startswith(model.prompts[0][-1].content.removesuffix("Thought: "))
    ((action, _),) = result["intermediate_steps"]
    assert action.log.startswith(thought) and then.splitlines()[0] in action.log  # one step


def test_a_thought_alone_twice_in_a_row_is_a_format_error(script, tools, calls):
    model = script("Thought: hmm", "Thought: still hmm", "Final Answer: 391")
    events, result = run(CustomReActAgent(model.model, tools))
    assert events == [("parse_failure", 1), ("final_answer", "391"), ("result", "final_answer", 3)]
    failure = result["messages"][1]
    assert failure.content == "Thought: hmm\nThought: still hmm"  # the two calls' reply, as one
    assert model.prompts[2][-1].content.endswith(
        "Thought: still hmm\nObservation: Invalid format:"
        " after 'Thought:' write either 'Action:' with 'Action Input:' or 'Final Answer:'.\nThought: "
    )


def test_a_thought_cut_off_at_the_token_limit_is_not_gone_on_from(script, tools):
    cut = AIMessage(
        "Thought: let me work it out: 17 * 23 is", response_metadata={"finish_reason": "length"}
    )
    model = script(cut, "Final Answer: 391")
    events, _ = run(CustomReActAgent(model.model, tools))
    assert events[0] == ("parse_failure", 1)  # asked for a shorter step, as before


CUT_BY_PROVIDER = [  # how each provider's LangChain package says a reply hit its token limit
    {"finish_reason": "length"},  # OpenAI, Mistral
    {"finish_reason": "model_length"},  # Mistral: the context window is full
    {"stop_reason": "max_tokens"},  # Anthropic, ChatBedrock
    {"finish_reason": "MAX_TOKENS"},  # Google GenAI
    {"done_reason": "length"},  # Ollama
    {"stopReason": "max_tokens"},  # Bedrock Converse
]


@pytest.mark.parametrize("metadata", CUT_BY_PROVIDER, ids=lambda m: "=".join(*m.items()))
def test_a_final_answer_cut_at_any_providers_token_limit_is_not_taken(script, tools, metadata):
    cut = AIMessage("Thought: I know it.\nFinal Answer: signed in 17", response_metadata=metadata)
    model = script(cut, "Final Answer: signed in 1783")
    events, result = run(CustomReActAgent(model.model, tools))
    assert events[0] == ("parse_failure", 1)  # asked for a shorter step, not answered "17"
    assert result["output"] == "signed in 1783"


def test_a_reply_that_ended_on_its_own_is_not_cut(script, tools):
    done = AIMessage("Final Answer: 391", response_metadata={"stop_reason": "end_turn"})
    events, _ = run(CustomReActAgent(script(done).model, tools))
    assert events[0] == ("final_answer", "391")


def test_a_json_object_with_only_a_thought_stays_a_format_error(script, tools):
    model = script('{"thought": "hmm"}', '{"final_answer": "391"}')
    events, _ = run(CustomReActAgent(model.model, tools, format="json"))
    assert events[0] == ("parse_failure", 1)  # one object is one step: nothing to go on from


def test_consecutive_parse_failures_are_capped(script, tools):
    model = script("Thought:\nAction Input: 1", "Action Input: 2", "Thought: more\nAction Input: 3")
    agent = CustomReActAgent(model.model, tools, max_consecutive_parse_failures=3)
    events, result = run(agent)
    assert events == [
        ("parse_failure", 1),
        ("parse_failure", 2),
        ("parse_failure", 3),
        ("limit_reached", "parse_failures", 3),
        ("result", "parse_failures", 3),
    ]
    stopped = "Agent stopped at max_consecutive_parse_failures=3: the replies broke the step format"
    assert result["output"] == result["error"] == stopped + ", so no final answer was read."
    model.assert_consumed()


def test_parse_failure_count_resets_after_a_good_step(script, tools):
    model = script(
        "Thought: a\nAction Input: 1",
        "Action: calculator\nAction Input: 1 + 1",
        "Thought: b\nAction Input: 2",
        "Final Answer: 2",
    )
    events, _ = run(CustomReActAgent(model.model, tools, max_consecutive_parse_failures=2))
    assert events[-1] == ("result", "final_answer", 4)


def test_repeated_action_is_answered_from_memory_not_rerun(script, tools, calls):
    model = script(
        "Action: search\nAction Input: rose",
        "Action: search\nAction Input:  rose ",
        "Final Answer: 1.2",
    )
    events, _ = run(CustomReActAgent(model.model, tools))
    assert events[3][0:2] == ("observation", "repeated")
    assert "already ran search" in events[3][2] and "1.2 yuan" in events[3][2]
    assert calls.calls == [("search", "rose")]


def test_a_failed_call_asked_again_runs_again(script, tools, calls):
    model = script(
        "Action: calculator\nAction Input: price * 2",
        "Action: calculator\nAction Input: price * 2",
        "Final Answer: unknown",
    )
    events, _ = run(CustomReActAgent(model.model, tools))
    # A failure may pass (a network error, a busy service): the call is not a "repeat".
    assert [event[1] for event in events if event[0] == "observation"] == ["error", "error"]
    assert "cannot evaluate 'price * 2'" in events[3][2]
    assert calls.calls == [("calculator", "price * 2")] * 2


@pytest.mark.parametrize(
    ("tool_name", "written"),
    [
        ("calculator", "expression (string) as plain text"),
        ("calculator", "the expression itself, as plain text"),
        ("calculator", "'expression'"),
        ("search", "the query itself"),
        ("search", "Query"),
        ("search", "the input for the tool"),
        # the argument's schema, as a tool list or a framework printed it
        ("search", 'query: {"title": "Query", "type": "string"}'),
        ("search", "{'query': AttributedDict([('title', 'Query'), ('type', 'string')])}"),
    ],
)
def test_an_input_copied_from_the_tool_list_is_not_run(script, tools, calls, tool_name, written):
    model = script(f"Action: {tool_name}\nAction Input: {written}", "Final Answer: x")
    events, _ = run(CustomReActAgent(model.model, tools))
    assert events[1][0:2] == ("observation", "placeholder_input")
    assert "describes the" in events[1][2] and "Write the actual" in events[1][2]
    assert calls.calls == []


def test_an_input_refused_as_a_placeholder_runs_when_the_model_writes_it_again(
    script, tools, calls
):
    word = "Thought: look the word up\nAction: search\nAction Input: query"
    again = 'Thought: I do mean it\nAction: search\nAction Input: {"query": "query"}'
    model = script(word, again, word, "Final Answer: a question")
    events, result = run(CustomReActAgent(model.model, tools))
    statuses = [event[1] for event in events if event[0] == "observation"]
    # Refused once, run when written again (the model read why), then an ordinary repeat.
    assert statuses == ["placeholder_input", "ok", "repeated"]
    assert calls.calls == [("search", "query")] and result["output"] == "a question"


def test_a_placeholder_is_still_refused_when_the_model_writes_another_one(script, tools, calls):
    model = script(
        "Action: search\nAction Input: the query itself",
        "Action: search\nAction Input: Query",
        "Final Answer: x",
    )
    events, _ = run(CustomReActAgent(model.model, tools))
    statuses = [event[1] for event in events if event[0] == "observation"]
    assert statuses == ["placeholder_input", "placeholder_input"] and calls.calls == []


@pytest.mark.parametrize(
    "written",
    [
        "the expression 2 + 2",
        "2 + 2",
        "expressions of joy",
        'json schema "type": "string" example',  # a schema's words without the argument's name
    ],
)
def test_a_real_input_that_mentions_the_argument_runs(script, tools, calls, written):
    model = script(f"Action: search\nAction Input: {written}", "Final Answer: x")
    run(CustomReActAgent(model.model, tools))
    assert calls.calls == [("search", written)]


def test_repeated_action_allowed_runs_again(script, tools, calls):
    model = script(
        "Action: search\nAction Input: rose",
        "Action: search\nAction Input: rose",
        "Final Answer: x",
    )
    run(CustomReActAgent(model.model, tools, repeated_action="allow"))
    assert calls.calls == [("search", "rose"), ("search", "rose")]


def test_max_iterations_force(script, tools):
    model = script(
        "Action: calculator\nAction Input: 1 + 1", "Action: calculator\nAction Input: 2 + 2"
    )
    events, result = run(CustomReActAgent(model.model, tools, max_iterations=2))
    assert events == [
        ("action", "calculator", "1 + 1"),
        ("observation", "ok", "2"),
        ("action", "calculator", "2 + 2"),
        ("observation", "ok", "4"),
        ("limit_reached", "max_iterations", 2),
        ("result", "max_iterations", 2),
    ]
    stopped = "Agent stopped at max_iterations=2, before a final answer."
    assert result["output"] == result["error"] == stopped
    model.assert_consumed()


def test_max_iterations_generate_asks_once_more(script, tools):
    model = script(
        "Action: calculator\nAction Input: 1 + 1",
        "Thought: I must answer now.\nFinal Answer: It is 2.",
    )
    agent = CustomReActAgent(model.model, tools, max_iterations=1, early_stopping_method="generate")
    events, result = run(agent)
    # The limit came at 1 call; the answer of one more is recorded as any answer is.
    assert events[-3:] == [
        ("limit_reached", "max_iterations", 1),
        ("final_answer", "It is 2."),
        ("result", "max_iterations", 2),
    ]
    assert result["output"] == "It is 2."
    model.assert_consumed()


def test_an_answer_generated_at_a_limit_ends_the_messages_with_its_reply(script, tools):
    # `messages[-1]` is how LangChain reads an agent's answer: the generated one, with the id
    # and the token usage of the reply that wrote it, so the usage on the messages adds up.
    usage = {"input_tokens": 10, "output_tokens": 1, "total_tokens": 11}
    model = script(
        AIMessage("Action: calculator\nAction Input: 1 + 1", id="r1", usage_metadata=usage),
        AIMessage("Final Answer: It is 2.", id="r2", usage_metadata=usage),
    )
    agent = CustomReActAgent(model.model, tools, max_iterations=1, early_stopping_method="generate")
    result = agent.invoke("question")
    last = result["messages"][-1]
    assert (last.type, last.text, last.id) == ("ai", "It is 2.", "r2")
    on_messages = sum(
        m.usage_metadata["total_tokens"] for m in result["messages"] if m.type == "ai"
    )
    assert on_messages == result["usage"]["total_tokens"] == 22
    assert result["iterations"] == 2 and result["stop_reason"] == "max_iterations"


def test_generate_prompt_tells_the_model_to_answer(script, tools):
    model = script("Action: calculator\nAction Input: 1 + 1", "Final Answer: 2")
    prompts = model.prompts  # every prompt the scripted model was sent
    run(CustomReActAgent(model.model, tools, max_iterations=1, early_stopping_method="generate"))
    assert prompts[-1][-1].content.endswith(f"\n{TEXT.nudge('en')}\nThought: ")


def test_max_execution_time(script, calls):
    @tool
    def slow(text: str) -> str:
        """Sleep a little."""
        time.sleep(0.2)
        return "done"

    model = script("Action: slow\nAction Input: x")
    events, _ = run(CustomReActAgent(model.model, [slow], max_execution_time=0.1))
    # The time limit also bounds the running tool: the loop stops waiting for it at 0.1 s.
    assert events[0] == ("action", "slow", "x")
    assert events[1][:2] == ("observation", "timed_out")
    assert "slow did not finish within 0.0" in events[1][2]  # what was left of the 0.1 s
    assert events[2:] == [
        ("limit_reached", "max_execution_time", 1),
        ("result", "max_execution_time", 1),
    ]
    model.assert_consumed()


def test_made_up_observation_is_not_believed(script, tools, calls):
    model = script(
        "Thought: search\nAction: search\nAction Input: rose\n"
        "Observation: roses cost 99 yuan\nThought: done\nFinal Answer: 99 yuan",
        "Final Answer: 1.2 yuan",
    )
    events, result = run(CustomReActAgent(model.model, tools))
    assert events[:2] == [
        ("action", "search", "rose"),
        ("observation", "ok", "A rose stem costs 1.2 yuan wholesale in Kunming."),
    ]
    assert result["output"] == "1.2 yuan"
    assert "99" not in result["messages"][1].content  # the made-up text is cut from the history
    assert calls.calls == [("search", "rose")]


def test_chinese_run(script, tools):
    model = script(
        "Thought：我需要查一下玫瑰的批发价。\nAction：search\nAction Input：玫瑰 批发价",
        "思考：我知道答案了。\n最终答案：每枝 1.2 元。",
    )
    events, result = run(CustomReActAgent(model.model, tools, language="zh"), "玫瑰批发价多少？")
    assert events == [
        ("action", "search", "玫瑰 批发价"),
        ("observation", "ok", "玫瑰批发价每枝 1.2 元。"),
        ("final_answer", "每枝 1.2 元。"),
        ("result", "final_answer", 2),
    ]
    assert result["input"] == "玫瑰批发价多少？"


def test_long_observation_is_truncated_with_a_marker(script):
    @tool
    def dump(text: str) -> str:
        """Return a lot of text."""
        return "x" * 500

    model = script("Action: dump\nAction Input: a", "Final Answer: ok")
    events, _ = run(CustomReActAgent(model.model, [dump], max_observation_chars=100))
    assert events[1][2] == "x" * 72 + "\n…[truncated 428 characters]"


def test_usage_is_summed_over_model_calls(script, tools):
    usage = {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15}
    model = script(
        AIMessage(content="Action: calculator\nAction Input: 1 + 1", usage_metadata=usage),
        AIMessage(content="Final Answer: 2", usage_metadata=usage),
    )
    _, result = run(CustomReActAgent(model.model, tools))
    assert result["usage"]["total_tokens"] == 30 and result["usage"]["input_tokens"] == 20


def approval_tool(ran: list[Any]) -> BaseTool:
    @tool
    def run_terminal_command(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return "ran"

    run_terminal_command.metadata = {"requires_approval": True}
    return run_terminal_command


@pytest.mark.parametrize(
    ("approve", "expected_runs", "status"),
    [
        (None, 0, "denied"),
        (lambda name, args: False, 0, "denied"),
        (lambda name, args: True, 1, "ok"),
    ],
    ids=["no-callback", "user-says-no", "user-says-yes"],
)
def test_tools_that_need_approval(script, approve, expected_runs, status):
    ran: list[Any] = []
    model = script("Action: run_terminal_command\nAction Input: ls", "Final Answer: done")
    events, _ = run(CustomReActAgent(model.model, [approval_tool(ran)], approve=approve))
    assert len(ran) == expected_runs
    assert events[1][1] == status
    if expected_runs == 0:
        assert "nothing was run" in events[1][2]


@pytest.mark.parametrize("approve", [None, lambda name, args: False], ids=["no-callback", "no"])
def test_real_terminal_tool_never_runs_without_approval(script, tmp_path, approve):
    from tools import make_workspace_tools

    terminal = next(t for t in make_workspace_tools(tmp_path) if t.name == "run_terminal_command")
    model = script(
        "Action: run_terminal_command\nAction Input: touch pwned.txt", "Final Answer: no"
    )
    CustomReActAgent(model.model, [terminal], approve=approve).invoke("q")
    assert not (tmp_path / "pwned.txt").exists()


def test_a_caller_cannot_pre_approve_through_the_config(script, tmp_path):
    from tools import make_workspace_tools

    terminal = next(t for t in make_workspace_tools(tmp_path) if t.name == "run_terminal_command")
    terminal.metadata = {}  # even if the approval marker is lost, the tool's own check holds
    model = script(
        "Action: run_terminal_command\nAction Input: touch pwned.txt", "Final Answer: no"
    )
    smuggled = {"configurable": {"custom_react_approved": True}}
    events, _ = run_with_config(CustomReActAgent(model.model, [terminal]), smuggled)
    assert not (tmp_path / "pwned.txt").exists()
    assert events[1][1] == "error" and "CommandNotApprovedError" in events[1][2]


def run_with_config(agent: CustomReActAgent, config: Any) -> tuple[list[Any], Any]:
    events = list(agent.stream("q", config=config))
    return summarize(events), events[-1].result


def test_real_terminal_tool_runs_once_approved(script, tmp_path):
    from tools import make_workspace_tools

    asked: list[Any] = []
    terminal = next(t for t in make_workspace_tools(tmp_path) if t.name == "run_terminal_command")
    model = script("Action: run_terminal_command\nAction Input: touch made.txt", "Final Answer: ok")
    approve = lambda name, args: asked.append((name, args)) or True  # noqa: E731
    CustomReActAgent(model.model, [terminal], approve=approve).invoke("q")
    assert (tmp_path / "made.txt").exists()
    assert asked == [("run_terminal_command", {"command": "touch made.txt"})]


@pytest.mark.parametrize("step_format", ["text", "xml", "json"])
@pytest.mark.parametrize("words", ["Let me compute that.", ""])
def test_a_native_tool_call_in_a_reply_is_its_step(script, tools, calls, step_format, words):
    """A model bound to tools (`llm.bind_tools(...)`) answers with a provider tool call."""
    call = {
        "name": "calculator",
        "args": {"expression": "17 * 23"},
        "id": "c1",
        "type": "tool_call",
    }
    final = {"text": "Final Answer: 391", "xml": "<final_answer>391</final_answer>"}
    final["json"] = '{"final_answer": "391"}'
    model = script(AIMessage(content=words, tool_calls=[call]), final[step_format])
    result = CustomReActAgent(model.model, tools, format=step_format).invoke("17 * 23?")
    assert calls.calls == [("calculator", "17 * 23")] and result["output"] == "391"
    assert "tool_calls" not in str(model.prompts[1])  # the transcript holds it as text


@pytest.mark.parametrize(
    ("words", "ran", "answer"),
    [
        (
            "Thought: I add.\nAction: calculator\nAction Input: 2 + 2",
            [("calculator", "2 + 2")],
            "4",
        ),
        ("Thought: I know it.\nFinal Answer: 391", [], "391"),
    ],
    ids=["action", "final_answer"],
)
def test_a_reply_whose_words_hold_a_step_keeps_that_step_not_its_provider_call(
    script, tools, calls, words, ran, answer
):
    # The call is not read into the written Action Input or answer: the first step wins.
    call = {"name": "calculator", "args": {"expression": "17 * 23"}, "id": "c1"}
    replies = [AIMessage(content=words, tool_calls=[call]), f"Final Answer: {answer}"]
    model = script(*replies[: 1 + len(ran)])
    result = CustomReActAgent(model.model, tools).invoke("What is 2 + 2?")
    assert calls.calls == ran and result["output"] == answer
    assert "17 * 23" not in str(result["messages"]) and "17 * 23" not in str(model.prompts)


@pytest.mark.parametrize(
    ("thought", "again"),
    [
        ("Thought: I need the product.", "Thought: I need the product."),
        ("思考：我需要乘积。", "思考：我需要乘积。"),
        ("Thought: I need the product.", "I need the product."),
    ],
)
def test_a_thought_the_model_writes_again_when_it_goes_on_is_kept_once(
    script, tools, thought, again
):
    model = script(
        thought, f"{again}\nAction: calculator\nAction Input: 17 * 23", "Final Answer: 391"
    )
    result = CustomReActAgent(model.model, tools).invoke("What is 17 * 23?")
    ((action, _),) = result["intermediate_steps"]
    core = thought.split(":")[-1].split("：")[-1].strip()
    assert action.log.count(core) == 1 and "Action: calculator" in action.log
    assert model.prompts[2][-1].content.count(core) == 1  # the model reads its Thought once
