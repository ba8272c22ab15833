"""Text ReAct for LangChain 1.x `create_agent`: the bridge for models without native tool calls.

`create_agent` runs a graph: a model node, then a tools node for each `tool_calls` entry of the
model's reply, until a reply calls no tool. It parses no text, so a model that cannot return
provider `tool_calls` (a small local model, a server without a tool-calling chat format) stops it
at its first reply. `TextReActMiddleware` wraps every model call:

1. before: the model gets this project's ReAct prompt instead of bound tools: the tools described
   in the system turn, the question, and the steps so far as the text transcript
   (`Thought / Action / Action Input / Observation`), rebuilt from the graph's messages;
2. after: the reply is read by the same parser as `CustomReActAgent`'s
   (`parse_llm_response`, or the XML / JSON format's), and becomes an `AIMessage` whose
   `tool_calls` name the tool and its arguments, so `create_agent`'s own tools node runs it. A
   Final Answer becomes an `AIMessage` with the answer as its text and no call: the graph ends.
   With `create_agent(..., response_format=Schema)` the schema is stated in the prompt instead of
   bound as a tool, and the Final Answer is read into it (`structured_response`).
   A reply that breaks the format (or names no tool of the agent, or an answer that does not fit
   the schema) is kept as it was written, with no tool call, followed by a user turn holding the
   error, as `CustomReActAgent` keeps a format error; both are marked `FORMAT_ERROR` in
   `response_metadata`. `after_model` then sends the graph back to the model, which reads the
   error as the next Observation and tries again (each try is one model call, counted by
   `create_agent`'s limits), at most `max_consecutive_parse_failures` times in a row (then the
   run ends with a message saying why). A Thought alone is no error: the model goes on from it
   (once), as in `CustomReActAgent`. A reply that carries provider tool calls (a model bound to
   tools, a server that turns `<tool_call>` text into calls) is read as the agent reads it: its
   first call is the step (`model_call.as_reply`). No name of the middleware's own reaches the
   model or the messages.

    from langchain.agents import create_agent
    agent = create_agent(llm, tools, middleware=[TextReActMiddleware()])
    agent.invoke({"messages": [("user", "What is 17 * 23?")]})

It needs the `legacy` extra (`langchain`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, cast, get_type_hints

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse, hook_config
from langchain_core.messages import (
    AIMessage,
    AnyMessage,
    BaseMessage,
    SystemMessage,
)
from langchain_core.tools import BaseTool
from langgraph.runtime import Runtime

from custom_react.answering import AnswerInvalid, AnswerSchema
from custom_react.answering.echo import repeats_loop_message
from custom_react.formats import FormatName, ReActFormat, get_format
from custom_react.integrations.react_messages import (
    failures_in_a_row,
    format_error,
    gone_on,
    last_human,
    said_to_model,
    step_exchanges,
    stopped,
    with_call,
)
from custom_react.integrations.text_calls import CopiedCall, tool_call
from custom_react.parser import Action, ParseError, parse_step
from custom_react.prompts import check_language, load_messages, message
from custom_react.running.inputs import system_texts
from custom_react.running.model_call import as_reply, rejects_stop, was_cut_off
from custom_react.running.options import check_types
from custom_react.scratchpad import is_format_error, readable_history, render_transcript
from custom_react.steps import REACT_LOG


class TextReActMiddleware(AgentMiddleware):  # type: ignore[type-arg]
    """Give `create_agent` text ReAct: tools in the prompt, tool calls parsed from the reply.

    Args:
        format: "text" (Thought / Action / Action Input), "xml" or "json" step format.
        language: "en" or "zh" prompt.
        examples: The bundled few-shot example (True, as for `CustomReActAgent`), none (None),
            or your own text.
    """

    def __init__(
        self,
        *,
        format: FormatName = "text",
        language: str = "en",
        examples: str | bool | None = True,
        max_consecutive_parse_failures: int = 3,
    ) -> None:
        """Choose the step format, the language and the few-shot example of the prompt.

        `max_consecutive_parse_failures`: replies in a row that break the format before the run
        ends (with a message saying so), as `CustomReActAgent`'s option of the same name.

        Raises:
            TypeError: An option of the wrong type, named.
            ValueError: An unknown format or language, naming the ones there are.
        """
        super().__init__()
        options: dict[str, Any] = {"format": format, "language": language, "examples": examples}
        options["max_consecutive_parse_failures"] = max_consecutive_parse_failures
        check_types(options, get_type_hints(TextReActMiddleware.__init__))
        if max_consecutive_parse_failures < 1:
            raise ValueError("max_consecutive_parse_failures must be at least 1.")
        self.step_format: ReActFormat = get_format(format)
        self.language = check_language(language)
        self.examples = examples
        self.max_failures = max_consecutive_parse_failures
        self.send_stop = True
        """False once the model rejected `stop` (`ask`)."""

    @hook_config(can_jump_to=["model"])
    def after_model(self, state: Any, runtime: Runtime[Any]) -> dict[str, Any] | None:
        """After a reply that broke the format, back to the model: it reads the error next.

        After `max_consecutive_parse_failures` such replies in a row the run ends instead, its
        last message saying why (no tool call: the graph ends there).
        """
        messages = state["messages"]
        if not messages or not is_format_error(messages[-1]):
            return None
        if failures_in_a_row(messages) < self.max_failures:
            return {"jump_to": "model"}
        why = message("stopped_parse_failures", self.language, limit=self.max_failures)
        return {"messages": [stopped(why, "parse_failures")]}

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ModelResponse:
        """Ask the model in text ReAct, then turn its reply into a tool call or the answer."""
        tools = request_tools(request)
        schema = answer_schema(request)
        reply = self.ask(handler, self.text_request(request, tools, schema))
        if self.stopped_after_thought(reply):  # shown its Thought, the model goes on (once)
            more = self.ask(handler, self.text_request(request, tools, schema, reply.text))
            reply = gone_on(reply, more)
        return self.read_reply(reply, tools, schema, request.messages)

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
    ) -> ModelResponse:
        """`wrap_model_call` under `ainvoke` / `astream`."""
        tools = request_tools(request)
        schema = answer_schema(request)
        reply = await self.aask(handler, self.text_request(request, tools, schema))
        if self.stopped_after_thought(reply):
            more = await self.aask(handler, self.text_request(request, tools, schema, reply.text))
            reply = gone_on(reply, more)
        return self.read_reply(reply, tools, schema, request.messages)

    def ask(
        self, handler: Callable[[ModelRequest], ModelResponse], request: ModelRequest
    ) -> AIMessage:
        """The model's reply, read as `CustomReActAgent` reads one (`model_call.as_reply`).

        A model that rejects `stop` is asked again without it, and never sent `stop` again, as
        in `CustomReActAgent`: the parser cuts made-up observations itself.
        """
        try:
            return as_reply(handler(request).result[-1], self.step_format.parse)
        except Exception as error:
            if not (self.send_stop and rejects_stop(error)):
                raise
        self.send_stop = False
        return as_reply(handler(without_stop(request)).result[-1], self.step_format.parse)

    async def aask(
        self, handler: Callable[[ModelRequest], Awaitable[ModelResponse]], request: ModelRequest
    ) -> AIMessage:
        """`ask` under `ainvoke` / `astream`."""
        try:
            return as_reply((await handler(request)).result[-1], self.step_format.parse)
        except Exception as error:
            if not (self.send_stop and rejects_stop(error)):
                raise
        self.send_stop = False
        return as_reply((await handler(without_stop(request))).result[-1], self.step_format.parse)

    def stopped_after_thought(self, reply: AIMessage) -> bool:
        """Whether the reply is a Thought and nothing after it, not cut off (as in `agent.py`)."""
        if was_cut_off(reply, self.step_format.stop):
            return False
        try:
            self.step_format.parse(reply.text, self.language)
        except ParseError as error:
            return error.thought_only
        return False

    def text_request(
        self,
        request: ModelRequest,
        tools: Sequence[BaseTool],
        schema: AnswerSchema | None = None,
        unfinished: str = "",
    ) -> ModelRequest:
        """The same request with the ReAct prompt as its messages and no tools bound.

        The question is the last human turn; the steps after it become the transcript; the
        turns before it are the chat history as `CustomReActAgent` shows it
        (`readable_history`: questions and answers, a `return_direct` tool's result as its
        turn's answer, no steps). The input's system messages, then a system prompt given to
        `create_agent`, open the one system turn.
        `unfinished`: a reply that stopped after its Thought ends the transcript, for the model to
        go on from.
        """
        start = last_human(request.messages)
        question = request.messages[start].text if start is not None else ""
        history = request.messages[:start] if start is not None else []
        steps = request.messages[start + 1 :] if start is not None else request.messages
        prompt = self.step_format.build_prompt(
            tools, language=self.language, examples=self.examples, answer_schema=schema
        )
        system, *turns = prompt.format_messages(
            input=question,
            chat_history=readable_history(history),
            agent_scratchpad=self.scratchpad(steps, unfinished),
        )
        given = [request.system_message.text] if request.system_message is not None else []
        system = SystemMessage("\n\n".join([*system_texts(history), *given, system.text]))
        settings = {**request.model_settings, "stop": list(self.step_format.stop)}
        if not self.send_stop:
            settings.pop("stop")
        return request.override(
            messages=cast(list[AnyMessage], turns),
            system_message=system,
            tools=[],
            tool_choice=None,
            response_format=None,  # the answer's schema is in the prompt; read here, not bound
            model_settings=settings,
        )

    def scratchpad(self, steps: Sequence[BaseMessage], unfinished: str = "") -> str:
        """The steps so far as the transcript the model continues (`scratchpad.py` writes it)."""
        observe = self.step_format.render_observation
        exchanges = step_exchanges(steps)
        return render_transcript(exchanges, observe, self.step_format.cue, "", unfinished)

    def read_reply(
        self,
        message: AIMessage,
        tools: Sequence[BaseTool],
        schema: AnswerSchema | None = None,
        messages: Sequence[BaseMessage] = (),
    ) -> ModelResponse:
        """The model's text reply as `create_agent` needs it: a tool call, the answer, or an error.

        A format error (so is a call `text_calls.tool_call` refuses, and an answer repeating an
        error the run wrote in `messages`) is `format_error`'s two messages (`after_model` then
        goes back). A step's message keeps the reply's text (what
        the model reads later); an answer's holds the answer, the step in its `react_log`
        metadata. With a `schema` (`response_format`) the answer is read into it, or is an error.
        """
        text = message.text
        try:
            cut_off = was_cut_off(message, self.step_format.stop)  # at the token limit: inside it?
            parse = self.step_format.reading_calls_of(tools).parse  # and the tools' calls in prose
            step = parse_step(text, parse, self.language, cut_off=cut_off)
            if isinstance(step, Action):  # checked as the loop checks it: else a format error
                name, args = tool_call(step, tools, messages, self.language)
                return ModelResponse(result=[with_call(message, step.log, name, args)])
            if repeats_loop_message(step.output, said_to_model(messages)):  # an error, copied
                raise ParseError(load_messages(self.language)["answer_echo"], text)
            structured, output = (
                schema.read(step.output, self.language) if schema else (None, step.output)
            )
        except (ParseError, AnswerInvalid) as error:
            refused = error.call if isinstance(error, CopiedCall) else None
            return ModelResponse(result=format_error(message, str(error), refused))
        metadata = {**message.response_metadata, REACT_LOG: step.log}
        answer = message.model_copy(
            update={"content": output, "tool_calls": [], "response_metadata": metadata}
        )
        return ModelResponse(result=[answer], structured_response=structured)


def answer_schema(request: ModelRequest) -> AnswerSchema | None:
    """The schema of create_agent's `response_format` (a strategy's, or given raw), if any."""
    given = request.response_format
    return None if given is None else AnswerSchema(given)  # a strategy: its schema


def request_tools(request: ModelRequest) -> list[BaseTool]:
    """The tools the model may call: the agent's (and other middleware's)."""
    return [t for t in request.tools if isinstance(t, BaseTool)]


def without_stop(request: ModelRequest) -> ModelRequest:
    """The same request without the `stop` setting, for a model that rejects it."""
    settings = {key: value for key, value in request.model_settings.items() if key != "stop"}
    return request.override(model_settings=settings)
