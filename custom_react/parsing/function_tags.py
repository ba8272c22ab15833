"""Read a tool call written in function tags: `<function=search><parameter=query>rose</parameter>`.

Qwen3-Coder's chat template asks for tool calls in this form, inside `<tool_call>` tags:

    <tool_call>
    <function=execute_shell_command>
    <parameter=command>
    ls -la
    </parameter>
    </function>
    </tool_call>

A server that does not turn it into a provider tool call (an old template, a parser left off)
hands it to the agent as text, sometimes flattened onto one line. `find_function_tags` reads the
first such call: its name and each parameter's value as text (one newline on each side removed,
as the template writes them; a one-line value trimmed). Values stay text: the binding converts
them to the tool's types (`arguments.py`), as it does for every other input. A missing closing
tag is forgiven. Linear time: each search starts where the last one ended. Knows no tools.
"""

from __future__ import annotations

import re

_FUNCTION = re.compile(r"<function=(?P<name>[^>\s]++)[ \t]*+>")
_PARAMETER = re.compile(r"<parameter=(?P<name>[^>\s]++)[ \t]*+>")
_VALUE_END = re.compile(r"</parameter>|<parameter=|</function>")


def find_function_tags(text: str) -> tuple[int, str, dict[str, str]] | None:
    """The first call written in function tags: `(where it starts, name, arguments)`, or None."""
    function = _FUNCTION.search(text)
    if function is None:
        return None
    end = text.find("</function>", function.end())
    body = text[function.end() : end if end >= 0 else len(text)]
    arguments: dict[str, str] = {}
    position = 0
    while (parameter := _PARAMETER.search(body, position)) is not None:
        stop = _VALUE_END.search(body, parameter.end())
        value_end = len(body) if stop is None else stop.start()
        arguments.setdefault(parameter["name"], _value(body[parameter.end() : value_end]))
        position = stop.end() if stop is not None and stop.group() == "</parameter>" else value_end
    return function.start(), function["name"], arguments


def _value(written: str) -> str:
    """A parameter's text: one newline off each side; a value of one line trimmed."""
    value = written.removeprefix("\n").removesuffix("\n")
    return value if "\n" in value else value.strip()
