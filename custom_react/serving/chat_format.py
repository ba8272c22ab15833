"""Native tool calls from the bundled model: the chat format the local server is started with.

llama-cpp-python's server answers a request in the model's own chat template (the GGUF's Jinja
template) by default, and returns whatever the model writes as text: asked with `tools`, Qwen2.5-
Coder writes its call as a JSON block, so an agent that needs OpenAI `tool_calls` (LangChain 1.x
`create_agent`) stops at its first reply. llama-cpp-python ships one format for any ChatML model
that returns real `tool_calls`, `chatml-function-calling`: a grammar makes the model begin with
`message:` or `functions.<name>:` and then write arguments that match the tool's JSON schema. Used
as it comes it has two gaps (measured in `bench/results/tool_calling_formats.md`):

- it looks at `tools` only when the request also names `tool_choice`; OpenAI's default (and
  LangChain's `bind_tools`) sends none, meaning "auto", so every reply is a plain message;
- its template shows system, user and assistant turns only: a `tool` message (the tool's result)
  is dropped, so the model never sees what its call returned and calls again;
- when the model chooses `message:` over a call, the grammar it then writes under allows only
  another call or the end of the turn, so every answer comes back empty.

`TOOL_CHAT_FORMAT` closes both and changes nothing else: a request without tools goes to the
model's own template, byte for byte as before (our text ReAct agent sends none); a request with
tools goes to `chatml-function-calling` with `tool_choice` "auto" unless one is named, each tool
result shown as a user turn naming its tool, and a system turn added when there is none (the tool
list is written into it); when that returns no call, the message is written again without the
grammar (a ChatML turn without the tool list: the prompt it shares is cached). `register()` adds it to llama-cpp-python's registry; the server launcher
(`custom_react.serving.process`) runs this file by path before the server starts, so it imports
nothing of ours and nothing heavier than llama-cpp-python itself.
"""

from __future__ import annotations

from typing import Any

TOOL_CHAT_FORMAT = "custom-react-tools"
"""The name the local server is started with (`--chat_format`)."""
MODEL_TEMPLATE = "chat_template.default"
"""The handler llama-cpp-python builds from the GGUF's own chat template."""


def show_tool_results(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return the messages with each `tool` turn as a user turn the ChatML template shows.

    The tool is named from the assistant turn that called it (by `tool_call_id`); a system turn
    is put first when there is none, since the template writes the tool list into it.
    """
    names = {
        call.get("id"): call.get("function", {}).get("name", "tool")
        for message in messages
        for call in message.get("tool_calls") or []
    }
    shown: list[dict[str, Any]] = []
    for message in messages:
        if message.get("role") == "tool":
            name = names.get(message.get("tool_call_id"), "tool")
            shown.append(
                {"role": "user", "content": f"functions.{name} returned:\n{message_text(message)}"}
            )
        else:
            shown.append(message)
    if not shown or shown[0].get("role") != "system":
        shown.insert(0, {"role": "system", "content": "You are a helpful assistant."})
    return shown


def message_text(message: dict[str, Any]) -> str:
    """The text of a message whose content is a string or a list of text parts."""
    content = message.get("content") or ""
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content if isinstance(part, dict))


def tool_calling_handler(
    llama: Any,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]] | None = None,
    tool_choice: Any = None,
    **kwargs: Any,
) -> Any:
    """Answer a chat request: in the model's own template without tools, with `tool_calls` with."""
    from llama_cpp import llama_chat_format

    if not tools or tool_choice == "none":
        own_template = llama._chat_handlers[MODEL_TEMPLATE]
        return own_template(
            llama=llama, messages=messages, tools=tools, tool_choice=tool_choice, **kwargs
        )
    shown = show_tool_results(messages)
    chatml = llama_chat_format.chatml_function_calling
    choice = tool_choice or "auto"
    reply = chatml(llama=llama, messages=shown, tools=tools, tool_choice=choice, **kwargs)
    if kwargs.get("stream") or reply["choices"][0]["message"].get("tool_calls"):
        return reply
    return chatml(llama=llama, messages=shown, **kwargs)  # the message, free of the call grammar


def register() -> None:
    """Add `TOOL_CHAT_FORMAT` to llama-cpp-python's chat handlers (in the server's process)."""
    from llama_cpp import llama_chat_format

    llama_chat_format.register_chat_completion_handler(TOOL_CHAT_FORMAT)(tool_calling_handler)
