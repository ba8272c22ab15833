"""Calls and thoughts a chat template leaves in the text, read as forms.

Five forms the tune misses of the fourth wild batch showed (`wild4/model-runner-1045`,
`wild4/typeclaw-344`, `wild4/llxprt-code-749`, `wild4/geektime-ai-course-7` and
`wild4/langchain-10572` in `bench/parser_replies_wild.jsonl`), and one a held-out reply showed
that we wrote from DeepSeek's template alone: FunctionGemma's `<start_function_call>`, Kimi K2's
call with its begin tokens stripped, a call's tokens written inside `<think>` with nothing after
them, LangChain's conversational self-question alone (a Thought, no step), and DeepSeek V4's DSML
tags. One table per form, in English and with Chinese content, each with the prose it must leave
alone. Every string here is our own.
"""

from __future__ import annotations

import pytest

from custom_react.parser import ParseError, parse_llm_response
from custom_react.parsing.function_tags import find_function_tags
from custom_react.parsing.thinking import strip_think
from custom_react.parsing.token_calls import find_token_call
from tests.parsing.test_parser import (
    Act,
    Error,
    Final,
    check,
    kind_params,
    parse_or_error,
    variants,
)

# FunctionGemma: `call:name{...}` between its own tokens, strings between `<escape>` tokens.
FUNCTIONGEMMA = [
    *variants(
        "one call",
        "<start_function_call>call:search{query:<escape>{q}<escape>}<end_function_call>",
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    *variants(
        "repeated until the limit: the first call",
        "<start_function_call>call:current_date{}<end_function_call>call:current_date{}"
        "<end_function_call>call:current_da",
        Act("current_date", ""),
        chinese_markers=False,
    ),
    *variants(
        "after prose, a number and a quote in a string",
        '{t}\n<start_function_call>call:send{text:<escape>"{q}"<escape>,copies:2}'
        "<end_function_call>",
        Act("send", {"text": '"{q}"', "copies": 2}, "{t}"),
        chinese_markers=False,
    ),
    *variants(
        "the token named in prose stays prose",
        "A call opens with <start_function_call>. {a}",
        Final("A call opens with <start_function_call>. {a}"),
        chinese_markers=False,
    ),
]

# Kimi K2's call with `<|tool_calls_section_begin|>` and `<|tool_call_begin|>` stripped: the name
# and its index, then the argument token, are the evidence.
KIMI_STRIPPED = [
    *variants(
        "the whole reply, two calls",
        'search:0<|tool_call_argument_begin|>{"query": "{q}"}<|tool_calls_section_end|>\n'
        'search:1<|tool_call_argument_begin|>{"query": "x"}<|tool_calls_section_end|>',
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    *variants(
        "functions. and spaces, after prose",
        '{t}\nfunctions.search:0 <|tool_call_argument_begin|> {"query": "{q}"} <|tool_call_end|>',
        Act("search", {"query": "{q}"}, "{t}"),
        chinese_markers=False,
    ),
    *variants(
        "the argument token named in prose stays prose",
        "Kimi writes <|tool_call_argument_begin|> before the arguments. {a}",
        Final("Kimi writes <|tool_call_argument_begin|> before the arguments. {a}"),
        chinese_markers=False,
    ),
    *variants(
        "a name and an index without the token stay prose",
        'The score was Shanghai:0, {"fans": 3}. {a}',
        Final('The score was Shanghai:0, {"fans": 3}. {a}'),
        chinese_markers=False,
    ),
]

KIMI_SECTION = (
    "<|tool_calls_section_begin|><|tool_call_begin|>functions.search:0"
    '<|tool_call_argument_begin|>{"query": "{q}"}<|tool_call_end|><|tool_calls_section_end|>'
)
# A call's tokens written inside the thinking, with nothing after it: the call is the step.
INSIDE_THINK = [
    *variants(
        "Kimi's section",
        "<think>{t} " + KIMI_SECTION + "</think>",
        Act("search", {"query": "{q}"}, "{t}"),
        chinese_markers=False,
    ),
    *variants(
        "FunctionGemma's call",
        "<think>{t}\n<start_function_call>call:search{query:<escape>{q}<escape>}"
        "<end_function_call></think>",
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    *variants(
        "Mistral's call",
        '<think>{t}[TOOL_CALLS]search[ARGS]{"query": "{q}"}</think>',
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    *variants(
        "a call inside the thinking, then an answer: the answer",
        "<think>Maybe " + KIMI_SECTION + " -- no.</think>\n{a}",
        Final("{a}"),
        chinese_markers=False,
    ),
    *variants(
        "thinking with no call stays refused",
        "<think>{t}</think>",
        Error(),
        chinese_markers=False,
    ),
]

# LangChain's conversational template writes its Thought as `Do I need to use a tool? Yes|No`.
# That line alone (its marker left out, or garbled) is a Thought with no step; with an answer after
# it, it is no rule at all.
SELF_QUESTION = [
    pytest.param("Do I need to use a tool? No", Error(), id="no, alone"),
    pytest.param("Do I need to use a tool? Yes\n", Error(), id="yes, alone"),
    pytest.param("No I need to use a tool? No", Error(), id="garbled"),
    pytest.param("**Do I need to use a tool?** no.", Error(), id="in bold"),
    *variants(
        "then an AI answer",
        "Do I need to use a tool? No\nAI: {a}",
        Final("{a}"),
        chinese_markers=False,
    ),
    *variants(
        "then the answer in prose",
        "Do I need to use a tool? No. {a}",
        Final("Do I need to use a tool? No. {a}"),
        chinese_markers=False,
    ),
    *variants(
        "a question about tools in prose",
        "Why would you need to use a tool? No idea. {a}",
        Final("Why would you need to use a tool? No idea. {a}"),
        chinese_markers=False,
    ),
]

# DeepSeek V4's DSML: MiniMax's invoke/parameter tags with the `｜DSML｜` prefix (its bars doubled by
# some servers); `string="false"` marks a JSON value.
DSML = [
    *variants(
        "in its wrapper",
        '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="search">\n<｜DSML｜parameter name="query" '
        'string="true">{q}</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>',
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    *variants(
        "after prose, a JSON value, doubled bars",
        '{t}\n\n<｜｜DSML｜｜tool_calls>\n<｜｜DSML｜｜invoke name="read">\n<｜｜DSML｜｜parameter '
        'name="path" string="true">{q}.md</｜｜DSML｜｜parameter>\n<｜｜DSML｜｜parameter '
        'name="limit" string="false">15</｜｜DSML｜｜parameter>\n</｜｜DSML｜｜invoke>\n'
        "</｜｜DSML｜｜tool_calls>",
        Act("read", {"path": "{q}.md", "limit": 15}, "{t}"),
        chinese_markers=False,
    ),
    *variants(
        "a value that is not JSON keeps its text",
        '<｜DSML｜tool_calls><｜DSML｜invoke name="calculator"><｜DSML｜parameter '
        'name="expression" string="false">2 ** 10</｜DSML｜parameter></｜DSML｜invoke>'
        "</｜DSML｜tool_calls>",
        Act("calculator", {"expression": "2 ** 10"}),
        chinese_markers=False,
    ),
    *variants(
        "the wrapper named in prose stays prose",
        "DeepSeek wraps calls in <｜DSML｜tool_calls>. {a}",
        Final("DeepSeek wraps calls in <｜DSML｜tool_calls>. {a}"),
        chinese_markers=False,
    ),
]

KINDS = {
    "functiongemma": FUNCTIONGEMMA,
    "kimi-stripped": KIMI_STRIPPED,
    "inside-think": INSIDE_THINK,
    "self-question": SELF_QUESTION,
    "dsml": DSML,
}


@pytest.mark.parametrize(
    ("text", "expected"),
    kind_params(KINDS),
)
def test_kind(text: str, expected: Act | Final | Error) -> None:
    check(parse_or_error(text), expected)


def test_functiongemma_and_stripped_kimi_calls_are_token_calls() -> None:
    gemma = '<start_function_call>call:f{a:<escape>x, "y"<escape>,b:[1,2]}<end_function_call>'
    assert find_token_call(gemma) == (0, "f", {"a": 'x, "y"', "b": [1, 2]})
    kimi = 'ok\nfunctions.f:3<|tool_call_argument_begin|>{"a": 1}<|tool_call_end|>'
    assert find_token_call(kimi) == (3, "f", {"a": 1})
    assert find_token_call("see f:3 and <|tool_call_argument_begin|> later") is None
    assert find_token_call('x.f:0<|tool_call_argument_begin|>{"a": 1}') is None


def test_a_step_in_call_tokens_inside_the_thinking_is_kept() -> None:
    assert strip_think("<think>a " + KIMI_SECTION + "</think>") == "a " + KIMI_SECTION
    dsml = '<think>a <｜DSML｜tool_calls><｜DSML｜invoke name="f"></think>'
    assert strip_think(dsml) == 'a <｜DSML｜tool_calls><｜DSML｜invoke name="f">'
    assert strip_think("<think>a</think>") == ""


@pytest.mark.parametrize(
    "reply",
    ["Do I need to use a tool? No", "No I need to use a tool? No", "Do I need to use a tool? yes."],
)
def test_the_self_question_alone_is_a_thought_the_loop_goes_on_from(reply: str) -> None:
    with pytest.raises(ParseError) as raised:
        parse_llm_response(reply)
    assert raised.value.thought_only
    assert "Thought" in str(raised.value)


def test_dsml_values_marked_not_string_are_json() -> None:
    text = (
        '<｜DSML｜invoke name="f"><｜DSML｜parameter name="n" string="false">15</｜DSML｜parameter>'
        '<｜DSML｜parameter name="s" string="true">15</｜DSML｜parameter>'
        '<｜DSML｜parameter name="o" string="false">{"k": [true, null]}</｜DSML｜parameter>'
        '<｜DSML｜parameter name="t" string="false">not json</｜DSML｜parameter></｜DSML｜invoke>'
    )
    expected = {"n": 15, "s": "15", "o": {"k": [True, None]}, "t": "not json"}
    assert find_function_tags(text) == (0, "f", expected)
    doubled = (
        '<｜｜DSML｜｜invoke name="f"><｜｜DSML｜｜parameter name="a">x</｜｜DSML｜｜parameter>'
    )
    assert find_function_tags(doubled) == (0, "f", {"a": "x"})
