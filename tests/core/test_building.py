"""What the agent takes when it is built: plain functions as tools, wrapped models, and refusals.

A wrong option fails when the agent is built, naming what it takes, never mid-run: a
`response_format` that is not a JSON object, a tool named like the Final Answer, two tools with one
name, something that is not a tool. Scripted models.
"""

from __future__ import annotations

from typing import Annotated, Any

import pytest
from langchain.agents import create_agent
from langchain.tools import ToolRuntime
from langchain_core.language_models.fake import FakeListLLM
from langchain_core.output_parsers import StrOutputParser
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import InjectedToolArg, InjectedToolCallId, tool
from langgraph.prebuilt import InjectedState, InjectedStore
from pydantic import BaseModel

from custom_react import CustomReActAgent
from custom_react.integrations.create_agent import TextReActMiddleware
from custom_react.testing import Script, ScriptExhausted
from tests.conftest import run_by


def add(a: int, b: int) -> int:
    """Add two whole numbers."""
    return a + b


@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream"])
def test_a_plain_function_is_a_tool(script: Any, way: str) -> None:
    model = script('Action: add\nAction Input: {"a": 2, "b": 3}', "Final Answer: 5")
    agent = CustomReActAgent(model.model, [add])
    result, _ = run_by(agent, way, "What is 2 + 3?")
    assert result["intermediate_steps"][0][1] == "5" and result["output"] == "5"
    assert "add" in model.prompts[0][0].content  # listed to the model with its docstring


@pytest.mark.parametrize(
    "wrap",
    [
        lambda model: model.with_retry(),
        lambda model: model.bind(stop=["\nObservation:"]),
        lambda model: model.with_fallbacks([model]),
        lambda model: model.with_config(tags=["wrapped"]),
    ],
    ids=["with_retry", "bind", "with_fallbacks", "with_config"],
)
def test_any_wrapped_chat_model_is_accepted(script: Any, wrap: Any) -> None:
    model = script("Final Answer: 4")
    assert CustomReActAgent(wrap(model.model), []).invoke("2 + 2?")["output"] == "4"


STEPS = ('Action: add\nAction Input: {"a": 2, "b": 3}', "Final Answer: 5")


def text_models() -> list[Any]:
    """A completion model (`BaseLLM`), and a chat model piped into `StrOutputParser`: text out."""
    return [FakeListLLM(responses=list(STEPS)), Script(*STEPS).model | StrOutputParser()]


@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream"])
def test_a_model_that_returns_text_is_read_as_its_reply(way: str) -> None:
    for llm in text_models():
        result, _ = run_by(CustomReActAgent(llm, [add]), way, "2 + 3?")
        assert (result["output"], result["stop_reason"]) == ("5", "final_answer")


def test_a_model_that_streams_text_is_read_as_its_reply() -> None:
    for llm in text_models():
        assert "".join(CustomReActAgent(llm, [add]).stream_final_answer("2 + 3?")) == "5"


def test_a_model_that_returns_neither_a_message_nor_text_is_a_clear_error() -> None:
    llm = Script("Final Answer: 4").model | (lambda message: {"text": message.text})
    with pytest.raises(TypeError, match=r"The model returned dict .* not a message or text"):
        CustomReActAgent(llm, []).invoke("2 + 2?")


def test_a_script_that_runs_out_of_replies_fails_the_test_not_the_run() -> None:
    agent = CustomReActAgent(Script("Action: add\nAction Input: 2, 3").model, [add])
    with pytest.raises(ScriptExhausted, match="no reply for call 2"):
        agent.invoke("2 + 3?")


class Price(BaseModel):
    item: str
    yuan: float


@pytest.mark.parametrize(
    ("response_format", "kind"),
    [
        (list[int], "'array'"),
        (int, "'integer'"),
        (str, "'string'"),
        ({"type": "array", "items": {"type": "number"}}, "'array'"),
    ],
)
def test_a_response_format_that_is_not_an_object_is_refused_when_built(
    response_format: Any, kind: str
) -> None:
    with pytest.raises(TypeError, match=f"not one of type {kind}"):
        CustomReActAgent(Script().model, [], response_format=response_format)
    CustomReActAgent(Script().model, [], response_format=Price)  # an object is fine


@pytest.mark.parametrize(
    ("tools", "error", "problem"),
    [
        ([None], TypeError, r"tools\[0\] is NoneType"),
        ([add, "add"], TypeError, r"tools\[1\] is str"),
        ([lambda x: x], TypeError, r"tools\[0\] \(<lambda>\) cannot be a tool"),
        ([add, tool(add)], ValueError, "Two tools are named 'add'"),
        (tool(add), TypeError, "must be a list of tools"),
    ],
)
def test_what_is_not_a_tool_is_refused_when_built(tools: Any, error: Any, problem: str) -> None:
    with pytest.raises(error, match=problem):
        CustomReActAgent(Script().model, tools)


def test_the_middleware_checks_its_language_and_names_only_the_agents_tools() -> None:
    with pytest.raises(ValueError, match="Unsupported language 'fr'"):
        TextReActMiddleware(language="fr")
    model = Script("Action: weather\nAction Input: Paris", "Final Answer: no weather tool")
    agent = create_agent(model.model, [tool(add)], middleware=[TextReActMiddleware()])
    messages = agent.invoke({"messages": [("user", "Weather in Paris?")]})["messages"]
    observation = messages[2].text
    assert observation == "'weather' is not a valid tool. Use one of: add."
    assert "_Exception" not in observation
    model.assert_consumed()


@pytest.mark.parametrize(
    ("options", "error", "problem"),
    [
        ({"max_iterations": "5"}, TypeError, "max_iterations must be a whole number"),
        ({"max_iterations": 0}, ValueError, "max_iterations must be at least 1"),
        ({"max_tool_calls": 2.5}, TypeError, "max_tool_calls must be a whole number"),
        ({"max_execution_time": -1}, ValueError, "max_execution_time must be a number"),
        ({"tool_timeout": "30"}, ValueError, "tool_timeout must be a number"),
        ({"approve": True}, TypeError, "approve must be a function"),
        ({"state_key": "short"}, ValueError, "state_key must be a secret"),
        ({"final_answer_checks": ["not a check"]}, TypeError, "final_answer_checks takes"),
        ({"system_prompt": 42}, TypeError, "system_prompt must be a string or a SystemMessage"),
    ],
)
def test_a_wrong_option_fails_when_built_naming_it(
    options: dict[str, Any], error: Any, problem: str
) -> None:
    with pytest.raises(error, match=problem):
        CustomReActAgent(Script().model, [], **options)


def test_a_system_message_and_a_bare_check_are_taken(script: Any) -> None:
    from langchain_core.messages import SystemMessage

    def short(answer: str, steps: Any) -> str | None:
        return "Answer in one word." if " " in answer else None

    model = script("Final Answer: Paris, France", "Final Answer: Paris")
    agent = CustomReActAgent(
        model.model, [], system_prompt=SystemMessage("Be brief."), final_answer_checks=short
    )
    assert agent.invoke("Capital of France?")["output"] == "Paris"
    assert model.prompts[0][0].content.startswith("Be brief.")


def test_return_direct_with_a_checked_answer_is_refused_when_built() -> None:
    @tool(return_direct=True)
    def lookup(query: str) -> str:
        """Look it up; the result is the answer."""
        return "Paris"

    with pytest.raises(ValueError, match="lookup returns its output as the answer"):
        CustomReActAgent(Script().model, [lookup], response_format=Price)


def flaky(failures: int, ran: list[str]) -> Any:
    @tool
    def quote(item: str) -> str:
        """Today's price of an item."""
        ran.append(item)
        if len(ran) <= failures:
            raise ConnectionError("the price service is busy")
        return f"{item}: 1.2 yuan"

    return quote


@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream"])
def test_tool_retries_retry_a_failing_call_before_its_observation(script: Any, way: str) -> None:
    ran: list[str] = []
    model = script("Action: quote\nAction Input: rose", "Final Answer: 1.2 yuan")
    agent = CustomReActAgent(model.model, [flaky(2, ran)], tool_retries=2, tool_retry_delay=0.01)
    result, _ = run_by(agent, way, "Price of a rose?")
    assert ran == ["rose"] * 3  # failed twice, worked the third time: one step
    assert result["intermediate_steps"][0][1] == "rose: 1.2 yuan"


def test_retries_that_run_out_leave_the_error_as_the_observation(script: Any) -> None:
    ran: list[str] = []
    model = script("Action: quote\nAction Input: rose", "Final Answer: no price")
    agent = CustomReActAgent(model.model, [flaky(5, ran)], tool_retries=1, tool_retry_delay=0)
    result = agent.invoke("Price of a rose?")
    assert ran == ["rose"] * 2
    assert "the price service is busy" in result["intermediate_steps"][0][1]


def test_a_retry_of_an_approved_call_is_not_asked_about_again(script: Any) -> None:
    ran: list[str] = []
    asked: list[tuple[str, Any]] = []
    quote = flaky(2, ran)
    quote.metadata = {"requires_approval": True}
    model = script("Action: quote\nAction Input: rose", "Final Answer: 1.2 yuan")
    agent = CustomReActAgent(
        model.model,
        [quote],
        tool_retries=2,
        tool_retry_delay=0,
        approve=lambda name, args: asked.append((name, args)) or True,
    )
    agent.invoke("Price of a rose?")
    assert ran == ["rose"] * 3 and asked == [("quote", {"item": "rose"})]


def test_a_transient_failure_can_be_tried_again_by_the_model(script: Any) -> None:
    ran: list[str] = []
    model = script(
        "Action: quote\nAction Input: rose",
        "Action: quote\nAction Input: rose",  # the model tries again: not a "repeat"
        "Final Answer: 1.2 yuan",
    )
    result = CustomReActAgent(model.model, [flaky(1, ran)]).invoke("Price of a rose?")
    assert ran == ["rose", "rose"]
    assert result["intermediate_steps"][1][1] == "rose: 1.2 yuan"


@pytest.mark.parametrize("way", ["invoke", "ainvoke", "stream"])
def test_interrupt_before_pauses_before_a_tool_named_there(script: Any, way: str) -> None:
    ran: list[str] = []

    @tool
    def refund(order: str) -> str:
        """Refund an order."""
        ran.append(order)
        return f"refunded {order}"

    model = script("Action: refund\nAction Input: A-17")
    agent = CustomReActAgent(model.model, [refund], interrupt_before=["refund"])
    paused, _ = run_by(agent, way, "Refund order A-17.")
    assert paused["stop_reason"] == "needs_approval" and ran == []
    again = CustomReActAgent(
        script("Final Answer: refunded").model, [refund], interrupt_before=["refund"]
    )
    done, _ = run_by(again, way, {"resume": paused["state"], "decision": {"approve": True}})
    assert ran == ["A-17"] and done["output"] == "refunded"


@pytest.mark.parametrize(
    ("names", "error", "problem"),
    [
        (["refnud"], ValueError, r"interrupt_before names \['refnud'\]"),
        ("add", TypeError, "interrupt_before takes a list of tool names"),
    ],
)
def test_interrupt_before_names_must_be_tools(names: Any, error: Any, problem: str) -> None:
    with pytest.raises(error, match=problem):
        CustomReActAgent(Script().model, [add], interrupt_before=names)


@tool
def count_messages(query: str, state: Annotated[dict, InjectedState]) -> str:
    """How many messages the conversation has."""
    return str(len(state["messages"]))


@tool
def remember(query: str, store: Annotated[Any, InjectedStore()]) -> str:
    """Look something up in the long-term store."""
    return "stored"


@tool
def for_user(query: str, user_id: Annotated[str, InjectedToolArg]) -> str:
    """Look up the user's order."""
    return f"order of {user_id}"


@pytest.mark.parametrize(
    ("made", "parameter"),
    [(count_messages, "state"), (remember, "store"), (for_user, "user_id")],
)
def test_a_tool_whose_parameter_a_graph_injects_is_refused_naming_it(made, parameter):
    with pytest.raises(ValueError, match=rf"takes \['{parameter}'\].*ToolRuntime"):
        CustomReActAgent(Script().model, [made])


def test_the_parameters_this_loop_fills_are_taken(script):
    @tool
    def whoami(
        query: str,
        call_id: Annotated[str, InjectedToolCallId],
        runtime: ToolRuntime,
        config: RunnableConfig,
    ) -> str:
        """Who is asking."""
        return f"{runtime.tool_call_id == call_id} via {config['configurable'] is not None}"

    model = script("Action: whoami\nAction Input: me", "Final Answer: done")
    result = CustomReActAgent(model.model, [whoami]).invoke("who?")
    assert result["intermediate_steps"][0][1] == "True via True"
