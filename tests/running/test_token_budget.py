"""Long runs on a small window, and nothing lost when the model fails (scripted models).

The scripted model behaves like a real server where it matters: it refuses a prompt over its
context window by its own token count, answers 400 to a `stop` it does not support, fails with a
dropped connection, reports usage, or stops at its token limit.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import tool

from custom_react import CustomReActAgent
from custom_react.prompts import message
from custom_react.steps import ParseFailure
from custom_react.testing import Script, ScriptedError, count_tokens


@tool
def read_page(page: str) -> str:
    """Read one page of the report."""
    return f"[page {page}] " + " ".join(f"word{n}-{page}" for n in range(200))[:1790]


def step(page: int) -> str:
    return f"Thought: I need page {page}.\nAction: read_page\nAction Input: {page}"


def test_twenty_long_steps_fit_a_4096_token_window_and_keep_every_observation(script):
    model = script(
        *(step(n) for n in range(1, 21)), "Final Answer: all 20 pages read", context_window=4096
    )
    agent = CustomReActAgent(model.model, [read_page], max_prompt_tokens=3500, max_iterations=25)
    result = agent.invoke("Read pages 1 to 20 of the report.")
    assert result["stop_reason"] == "final_answer" and result["iterations"] == 21
    assert max(count_tokens(prompt) for prompt in model.prompts) <= 3500
    observations = [m.content for m in result["messages"] if isinstance(m, ToolMessage)]
    assert observations == [read_page.invoke(str(n)) for n in range(1, 21)]  # kept in full
    last = model.prompts[-1][-1].text
    assert "[observation shortened to fit the prompt" in last
    assert read_page.invoke("20") in last  # the newest step is whole
    assert last.count("Action: read_page") == 20  # no step lost its place, only text


def test_without_a_budget_the_same_run_overflows_and_keeps_its_steps(script):
    model = script(*(step(n) for n in range(1, 21)), context_window=4096)
    result = CustomReActAgent(model.model, [read_page], max_iterations=25, model_retries=0).invoke(
        "q"
    )
    assert result["stop_reason"] == "model_error"
    assert "context window" in result["error"]
    finished = len(result["intermediate_steps"])
    assert 1 < finished < 20  # the steps done before the overflow are all there
    model.replies = model.replies[:finished]  # the rest of the script was never reached


def test_a_model_that_fails_for_good_at_its_fourth_call_keeps_three_steps(script, monkeypatch):
    waits: list[float] = []
    monkeypatch.setattr("custom_react.running.calls.time.sleep", waits.append)
    failures = [ConnectionError("connection reset by peer")] * 3
    model = script(step(1), step(2), step(3), *failures)
    result = CustomReActAgent(model.model, [read_page], model_retries=2).invoke("q")
    assert result["stop_reason"] == "model_error"
    assert result["error"] == "ConnectionError: connection reset by peer"
    assert [action.tool_input for action, _ in result["intermediate_steps"]] == ["1", "2", "3"]
    assert waits == [1.0, 2.0]  # two retries, with backoff, then it gives up
    assert result["output"].startswith("The model could not answer")


def test_a_transient_failure_is_retried_and_the_run_succeeds(script, monkeypatch):
    monkeypatch.setattr("custom_react.running.calls.time.sleep", lambda seconds: None)
    model = script(step(1), ScriptedError("Internal Server Error", 503), "Final Answer: done")
    result = CustomReActAgent(model.model, [read_page]).invoke("q")
    assert (result["stop_reason"], result["output"], result["iterations"]) == (
        "final_answer",
        "done",
        2,
    )


def provider_errors() -> list[Exception]:
    """What langchain-openai raises when the server cannot be reached or does not answer in time."""
    import httpx
    from langchain_openai.chat_models.base import OpenAIConnectionError, OpenAITimeoutError

    request = httpx.Request("POST", "http://127.0.0.1:9/v1/chat/completions")
    return [OpenAIConnectionError(request=request), OpenAITimeoutError(request=request)]


@pytest.mark.parametrize("error", provider_errors(), ids=lambda error: type(error).__name__)
def test_a_providers_connection_error_or_timeout_is_retried(script, monkeypatch, error):
    """LangChain marks them retryable (`ModelError.is_retryable`): they are tried again."""
    waits: list[float] = []
    monkeypatch.setattr("custom_react.running.calls.time.sleep", waits.append)
    model = script(error, "Final Answer: done")
    result = CustomReActAgent(model.model, [read_page]).invoke("q")
    assert (result["stop_reason"], result["output"], waits) == ("final_answer", "done", [1.0])


def test_a_bad_request_is_not_retried(script, monkeypatch):
    monkeypatch.setattr("custom_react.running.calls.time.sleep", lambda s: pytest.fail("retried"))
    model = script(ScriptedError("model not found", 404))
    result = CustomReActAgent(model.model, [read_page]).invoke("q")
    assert (result["stop_reason"], result["error"]) == (
        "model_error",
        "ScriptedError: model not found",
    )


def test_a_reply_cut_at_the_token_limit_is_fed_back_as_its_own_observation(script):
    cut = AIMessage(
        content="Thought: I will read page 1 and then",
        response_metadata={"finish_reason": "length"},
    )
    model = script(cut, "Final Answer: done")
    events = list(CustomReActAgent(model.model, [read_page]).stream("q"))
    failure = next(e for e in events if isinstance(e, ParseFailure))
    assert failure.error == message("cut_off") and failure.consecutive == 1
    assert message("cut_off") in model.prompts[1][-1].text


def test_a_cut_reply_that_ran_past_its_step_is_read(script):
    long = AIMessage(
        content=step(1) + "\nObservation: made up\nThought: and on and on",
        response_metadata={"finish_reason": "length"},
    )
    model = script(long, "Final Answer: done")
    events = list(CustomReActAgent(model.model, [read_page]).stream("q"))
    assert [e.type for e in events][:2] == ["action", "observation"]


def test_a_server_that_rejects_stop_is_asked_again_without_it_for_the_rest_of_the_run(script):
    model = script(step(1), "Final Answer: done", rejects_stop=True)
    result = CustomReActAgent(model.model, [read_page]).invoke("q")
    assert result["stop_reason"] == "final_answer"
    assert model.stops == [["\nObservation:"], None, None]


def test_the_token_budget_stops_the_run(script):
    def used(text: str, tokens: int) -> AIMessage:
        usage: Any = {"input_tokens": tokens - 10, "output_tokens": 10, "total_tokens": tokens}
        return AIMessage(content=text, usage_metadata=usage)

    model = script(used(step(1), 600), used(step(2), 700))
    result = CustomReActAgent(model.model, [read_page], max_tokens_per_run=1000).invoke("q")
    assert (result["stop_reason"], result["iterations"]) == ("token_budget", 2)
    assert result["usage"]["total_tokens"] == 1300


def test_think_blocks_never_come_back_to_the_model(script):
    model = script(
        "<think>secret plan A</think>\nThought: hmm",  # a format error, thinking included
        "<think>secret plan B</think>\n" + step(1),
        "Final Answer: done",
    )
    CustomReActAgent(model.model, [read_page]).invoke("q")
    assert all("secret plan" not in prompt[-1].text for prompt in model.prompts)
    assert "Thought: hmm" in model.prompts[2][-1].text


def test_the_local_factory_budget_comes_from_the_context_window():
    llm = Script(context_window=4096).model
    llm.metadata = {"context_window": 4096}
    agent = CustomReActAgent(llm, [read_page])
    assert agent.budget is not None and agent.budget.limit == 4096 - 512
    budget = CustomReActAgent(llm, [read_page], max_prompt_tokens=1000).budget
    assert budget is not None and budget.limit == 1000
    assert CustomReActAgent(Script().model, [read_page]).budget is None


CUT = {"finish_reason": "length"}
WRITTEN_ON = {  # a whole step, then the next ones until the token limit cut one of them
    "text": 'Thought: page 1.\nAction: read_page\nAction Input: {"page": "1"}\n'
    'Thought: then page 2.\nAction: read_page\nAction Input: {"page": "2',
    "xml": '<thought>page 1.</thought>\n<action>read_page(page="1")</action>\n'
    '<thought>then page 2.</thought>\n<action>read_page(page="2',
    "json": '{"thought": "page 1.", "action": "read_page", "action_input": {"page": "1"}}\n'
    '{"thought": "then page 2.", "action": "read_page", "action_input": {"page": "2',
}
CUT_INSIDE = {  # the step runs to the cut: its input may be cut short (it reads, repaired)
    "text": 'Thought: page 3.\nAction: read_page\nAction Input: {"page": "3',
    "xml": '<thought>page 3.</thought>\n<action>read_page(page="3',
    "json": '{"thought": "page 3.", "action": "read_page", "action_input": {"page": "3',
}
ANSWER = {"text": "Final Answer: done", "xml": "<final_answer>done</final_answer>"}


@pytest.mark.parametrize("step_format", ["text", "xml", "json"])
def test_a_cut_reply_counts_when_its_step_ended_before_the_cut(script, step_format):
    model = script(
        AIMessage(WRITTEN_ON[step_format], response_metadata=CUT),
        AIMessage(CUT_INSIDE[step_format], response_metadata=CUT),
        ANSWER.get(step_format, '{"final_answer": "done"}'),
    )
    agent = CustomReActAgent(model.model, [read_page], format=step_format)
    events = list(agent.stream("Read pages 1 and 2."))
    ran = [e.step.tool_input for e in events if e.type == "action"]
    assert ran == [{"page": "1"}]  # page 1's step was whole; page 3's ran to the cut
    failures = [e.error for e in events if isinstance(e, ParseFailure)]
    assert failures == [message("cut_off")] and events[-1].result.output == "done"


def test_room_freed_by_shortening_observations_goes_back_to_the_newest_turns():
    from custom_react.pausing.store import MemoryStore

    store, thread = MemoryStore(), {"configurable": {"thread_id": "t"}}
    said = [("My name is Li.", "Hello, Li."), ("I live in Kunming.", "Noted."), ("Roses?", "Yes.")]
    for question, answer in said:
        CustomReActAgent(Script(f"Final Answer: {answer}").model, [], checkpoint=store).invoke(
            question, thread
        )

    @tool
    def search(query: str) -> str:
        """Search."""
        return "result " + "x " * 400

    model = Script(
        "Action: search\nAction Input: rose price",
        "Action: search\nAction Input: rose price Kunming",
        "Final Answer: ok",
    )
    agent = CustomReActAgent(model.model, [search], checkpoint=store, max_prompt_tokens=600)
    agent.invoke("What do roses cost where I live?", thread)
    last = model.prompts[-1]
    assert count_tokens(last) <= 600
    assert "I live in Kunming." in [m.text for m in last]  # the newest turns came back


def test_a_long_tool_result_handed_in_after_the_question_is_shortened_to_fit(script):
    """Handed in after the question, a result is the oldest observation: it is cut first."""
    call = {"name": "read_page", "args": {"page": "1"}, "id": "call_1"}
    page = read_page.invoke("1") * 3  # about 1,500 tokens
    handed = [AIMessage("", tool_calls=[call]), ToolMessage(page, tool_call_id="call_1")]
    model = script(step(2), "Final Answer: read", context_window=4096)
    agent = CustomReActAgent(model.model, [read_page], max_prompt_tokens=900)
    result = agent.invoke({"messages": [("user", "Read pages 1 and 2."), *handed]})
    assert result["stop_reason"] == "final_answer"
    assert max(count_tokens(prompt) for prompt in model.prompts) <= 900
    for prompt in model.prompts:
        assert "[observation shortened to fit the prompt" in prompt[-1].text
    assert read_page.invoke("2") in model.prompts[-1][-1].text  # the run's newest step is whole
    assert result["messages"][2].content == page  # the handed message itself is unchanged
