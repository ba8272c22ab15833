"""Read a tool call written in tags: `<function=search><parameter=query>rose</parameter>` and kin.

Some chat templates ask for tool calls as a name and its arguments in tags, not JSON. Qwen3-Coder
(and Seed-OSS) write, inside `<tool_call>` tags:

    <function=execute_shell_command>
    <parameter=command>
    ls -la
    </parameter>
    </function>

Llama 3.1 to 3.3 write the arguments of a tool of their own as one JSON object instead:
`<function=search>{"query": "rose"}</function>`. GLM-4.5 writes
`<tool_call>search<arg_key>query</arg_key><arg_value>rose</arg_value>` (an opening `<arg_value>`
may be lost: `<arg_key>query</arg_key>rose</arg_value>`). MiniMax-M2 (and models
that learned Claude's `<function_calls>` text) name both in attributes, inside their own tags:

    <minimax:tool_call>
    <invoke name="search">
    <parameter name="query">rose</parameter>
    </invoke>
    </minimax:tool_call>

DeepSeek V3.2 and V4 write the same tags with the prefix of their DSML markup, in
`<｜DSML｜tool_calls>` (V3.2: `function_calls`; some servers double the full-width bars,
`<｜｜DSML｜｜invoke ...>`), and mark each value `string="true"` (text) or `string="false"`
(JSON: `15` is the number; a value that is not JSON stays text):

    <｜DSML｜invoke name="read">
    <｜DSML｜parameter name="path" string="true">notes.md</｜DSML｜parameter>
    <｜DSML｜parameter name="limit" string="false">15</｜DSML｜parameter>
    </｜DSML｜invoke>

MiniCPM5 writes `<function name="search"><param name="query">rose</param></function>`, ByteDance
Seed the same with `<parameter name="query" string="true">` in `<seed:tool_call>` (a tag may carry
attributes beside its `name`, in any order; a namespaced `<tool_call>` is one); DeepSeek V4
names the call in an attribute of its `<tool_call>` tag and writes the arguments as one JSON object
(`<tool_call id="call_0" name="search">{"query": "rose"}</tool_call>`); dspy-go's ReAct prompt
asks for `<action><tool_name>search</tool_name><arguments><arg key="query">rose</arg>...`. Roo
Code shows a model its earlier calls as `[Tool Use: search]` on a line of its own, and models
write that marker as their call, followed by MiniMax's `<parameter name=...>` tags (closed by
`</invoke>`, `</minimax:tool_call>` or nothing) or by a JSON object of the arguments; the marker
followed by prose is no call. A
server that does not turn them into provider tool calls (an old template, a parser left off)
hands them to the agent as text, sometimes flattened onto one line. `find_function_tags` reads the
first such call: its name and each argument's value as text (one newline on each side removed,
as the templates write them; a one-line value trimmed), or the JSON object it holds. Values stay
text unless their tag says `string="false"`: the binding converts them to the tool's types
(`arguments.py`), as it does for every other input. A missing closing tag is forgiven. Linear
time: each search starts where the last one ended. Knows no tools.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from custom_react.parsing.json_repair import read_json_object


@dataclass(frozen=True)
class _TagForm:
    head: re.Pattern[str]  # the call's name, in its `name` group
    end: re.Pattern[str]  # what closes the call
    argument: re.Pattern[str]  # an argument's name (`name` group); its value starts after it
    value_end: re.Pattern[str]  # what ends a value: its closing tag (`close`), the next argument


# A name in an attribute, any quotes or none: `name="search"`, `key='query'`.
_QUOTED_NAME = r"(?P<q>[\"']?+)(?P<name>[^\"'<>\s]++)(?P=q)"
# `<tool_call>` or a namespaced one (`<seed:tool_call>`, `<minimax:tool_call>`).
_TOOL_CALL = r"(?:[\w-]++:)?+tool_call"
_DSML = "｜++DSML｜++"  # DeepSeek's tag prefix, its full-width bars doubled by some servers
# A parameter tag that says its value is not a string (DSML's, Seed's): the value is JSON.
_NOT_STRING = re.compile(r"\sstring=[\"']?+false\b", re.IGNORECASE)


def _named_tag(tags: str) -> re.Pattern[str]:
    """An opening tag (one of `tags`) whose `name` attribute names it, other attributes anywhere.

    `_named_tag("parameter")` reads `<parameter name="query" string="true">` (Seed) and
    `<parameter type="string" name="query">` alike.
    """
    return re.compile(r"<(?:" + tags + r")\s[^<>]*?(?<=\s)name=" + _QUOTED_NAME + r"[^<>]*+>")


_FORMS = (
    _TagForm(  # Qwen3-Coder, Seed-OSS
        re.compile(r"<function=(?P<name>[^<>\s]++)[ \t]*+>"),
        re.compile("</function>"),
        re.compile(r"<parameter=(?P<name>[^<>\s]++)[ \t]*+>"),
        re.compile(r"(?P<close></parameter>)|<parameter=|</function>|</" + _TOOL_CALL + ">"),
    ),
    _TagForm(  # GLM-4.5; a value whose opening `<arg_value>` was lost runs to its `</arg_value>`
        re.compile(r"<tool_call>\s*+(?P<name>[A-Za-z_][\w.-]*+)\s*+(?=<arg_key>|</tool_call>)"),
        re.compile("</tool_call>"),
        re.compile(r"<arg_key>\s*+(?P<name>[^<\s]++)\s*+</arg_key>(?:\s*+<arg_value>)?+"),
        re.compile(r"(?P<close></arg_value>)|<arg_key>|</tool_call>"),
    ),
    _TagForm(  # MiniMax-M2, Claude's `<function_calls>` as text
        _named_tag("invoke"),
        re.compile("</invoke>"),
        _named_tag("parameter"),
        re.compile(r"(?P<close></parameter>)|<parameter\s|</invoke>"),
    ),
    _TagForm(  # DeepSeek V3.2 and V4: MiniMax's tags with DSML's prefix
        _named_tag(_DSML + "invoke"),
        re.compile("</" + _DSML + "invoke>"),
        _named_tag(_DSML + "parameter"),
        re.compile(f"(?P<close></{_DSML}parameter>)|<{_DSML}parameter\\s|</{_DSML}invoke>"),
    ),
    _TagForm(  # MiniCPM5 (`<param>`), ByteDance Seed (`<parameter ... string="true">`)
        _named_tag("function"),
        re.compile("</function>"),
        _named_tag("param|parameter"),
        re.compile(r"(?P<close></param(?:eter)?+>)|<param(?:eter)?+\s|</function>"),
    ),
    _TagForm(  # the name an attribute of <tool_call>, the arguments JSON (DeepSeek V4)
        _named_tag("tool_call"),
        re.compile("</tool_call>"),
        _named_tag("parameter"),
        re.compile(r"(?P<close></parameter>)|<parameter\s|</tool_call>"),
    ),
    _TagForm(  # Roo Code's history marker, then MiniMax's parameter tags or a JSON object
        re.compile(
            r"^[ \t]*+\[Tool Use:[ \t]*+(?P<name>[A-Za-z_][\w.-]*+)[ \t]*+\]"
            r"(?=\s*+(?:<parameter\s|\{|</|\Z))",
            re.MULTILINE,
        ),
        re.compile(r"</invoke>|</" + _TOOL_CALL + ">"),
        _named_tag("parameter"),
        re.compile(r"(?P<close></parameter>)|<parameter\s|</invoke>|</" + _TOOL_CALL + ">"),
    ),
    _TagForm(  # dspy-go's ReAct XML
        re.compile(r"(?:<action>\s*+)?+<tool_name>\s*+(?P<name>[^<>\s]++)\s*+</tool_name>"),
        re.compile("</action>"),
        re.compile(r"<arg\s++key=" + _QUOTED_NAME + r"\s*+>"),
        re.compile(r"(?P<close></arg>)|<arg\s|</arguments>|</action>"),
    ),
)


def find_function_tags(text: str) -> tuple[int, str, dict[str, Any]] | None:
    """The first call written in tags: `(where it starts, name, arguments)`, or None."""
    found = [(head, form) for form in _FORMS if (head := form.head.search(text)) is not None]
    if not found:
        return None
    head, form = min(found, key=lambda pair: pair[0].start())
    end = form.end.search(text, head.end())
    body = text[head.end() : len(text) if end is None else end.start()]
    arguments: dict[str, Any] = {}
    position = 0
    while (argument := form.argument.search(body, position)) is not None:
        stop = form.value_end.search(body, argument.end())
        value_end = len(body) if stop is None else stop.start()
        not_string = _NOT_STRING.search(argument[0]) is not None
        value = _value(body[argument.end() : value_end], json_value=not_string)
        arguments.setdefault(argument["name"], value)
        position = stop.end() if stop is not None and stop["close"] else value_end
    if not arguments and body.lstrip().startswith("{"):  # Llama's `<function=name>{...}`
        written = read_json_object(body, len(body) - len(body.lstrip()))
        arguments = written if isinstance(written, dict) else {}
    return head.start(), head["name"], arguments


def _value(written: str, *, json_value: bool = False) -> Any:
    """An argument's text: one newline off each side; a value of one line trimmed (blank lines too).

    A `json_value` (its tag said `string="false"`) is the JSON it holds; text that is not JSON
    stays text.
    """
    value = written.removeprefix("\n").removesuffix("\n")
    if json_value:
        try:
            return json.loads(value)
        except (ValueError, RecursionError):
            pass
    return value if "\n" in value.strip() else value.strip()
