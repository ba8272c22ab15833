"""Calls and answers whose special tokens a server stripped, or whose tags carry more than a name.

Four forms popular open models write when served without their tool parser (the held-out replies
`wild3/macprovider-743`, `wild3/openclaude-380`, `wild3/vllm-49248`, `wild3/picoclaw-3153` in
`bench/parser_replies_wild.jsonl` showed them): gpt-oss's harmony channels with their tokens
gone (`analysis...assistantfinal...`), Gemma 4's `call:name{...}` without its tokens and string
quotes, GLM's argument value whose opening `<arg_value>` was lost, and tags with attributes
beside `name` (ByteDance Seed's `string="true"`). One table per form, in English and with
Chinese content, each with the prose it must leave alone. Every string here is our own.
"""

from __future__ import annotations

import pytest

from custom_react.parsing.function_tags import find_function_tags
from custom_react.parsing.thinking import strip_channels
from custom_react.parsing.token_calls import find_token_call
from tests.parsing.test_parser import Act, Final, check, kind_params, parse_or_error, variants

# gpt-oss's channels with the tokens stripped: the channel name glued to `assistant` is the joint.
HARMONY = [
    *variants(
        "analysis, then the final channel",
        "analysisThe user asks; answer briefly.assistantfinal{a}",
        Final("{a}"),
        chinese_markers=False,
    ),
    *variants(
        "analysis on lines, then the final channel",
        "analysis{t}\nOnly the answer.assistantfinal{a}",
        Final("{a}"),
        chinese_markers=False,
    ),
    *variants(
        "a call in the commentary channel",
        'analysis{t}assistantcommentary to=functions.search json{"query": "{q}"}',
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    *variants(
        "the recipient without functions., the constraint stripped",
        'analysis{t}assistantcommentary to=search json{"query": "{q}"}',
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    *variants(
        "the word analysis opening prose stays prose",
        "analysis shows that {a}",
        Final("analysis shows that {a}"),
        chinese_markers=False,
    ),
    *variants(
        "analysis with no joint stays prose",
        "analysisThe assistant's final word: {a}",
        Final("analysisThe assistant's final word: {a}"),
        chinese_markers=False,
    ),
]

# Gemma 4's call with `<|tool_call>` and its `<|"|>` quotes stripped: the whole reply or its line.
GEMMA_BARE = [
    *variants(
        "the whole reply",
        "call:search{query:{q}}",
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    *variants(
        "its own line after prose, two arguments",
        "{t}\ncall:write_file{content:{a},path:notes/a.txt}",
        Act("write_file", {"content": "{a}", "path": "notes/a.txt"}, "{t}"),
        chinese_markers=False,
    ),
    *variants(
        "call: inside prose stays prose",
        "Please call:me back. {a}",
        Final("Please call:me back. {a}"),
        chinese_markers=False,
    ),
    *variants(
        "call:name{...} mid-sentence stays prose",
        "Next I will call:search{query:{q}} to check.",
        Final("Next I will call:search{query:{q}} to check."),
        chinese_markers=False,
    ),
]

# GLM's argument tags with the opening `<arg_value>` lost: the value runs to `</arg_value>`.
GLM_LOST_VALUE_TAG = [
    *variants(
        "on one line",
        "<tool_call>search<arg_key>query</arg_key>{q}</arg_value></tool_call>",
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    *variants(
        "on lines, after prose",
        "{t}\n<tool_call>search\n<arg_key>query</arg_key>\n{q}\n</arg_value>\n</tool_call>",
        Act("search", {"query": "{q}"}, "{t}"),
        chinese_markers=False,
    ),
]

# Tags with attributes beside `name` (Seed's `string="true"`), in a namespaced `<tool_call>`.
ATTRIBUTE_TAGS = [
    *variants(
        "Seed's call",
        '<seed:tool_call>\n<function name="search">\n<parameter name="query" string="true">{q}'
        "</parameter>\n</function>\n</seed:tool_call>",
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
    *variants(
        "attributes before and after the name, after prose",
        '{t}\n<function id="1" name="search" type="tool"><parameter type="string" name="query">'
        "{q}</parameter></function>",
        Act("search", {"query": "{q}"}, "{t}"),
        chinese_markers=False,
    ),
    *variants(
        "Seed-OSS's value runs to its namespaced closing tag",
        "<seed:tool_call>\n<function=search>\n<parameter=query>\n{q}\n</seed:tool_call>",
        Act("search", {"query": "{q}"}),
        chinese_markers=False,
    ),
]

KINDS = {
    "harmony-stripped": HARMONY,
    "gemma-bare": GEMMA_BARE,
    "glm-lost-value-tag": GLM_LOST_VALUE_TAG,
    "attribute-tags": ATTRIBUTE_TAGS,
}


@pytest.mark.parametrize(
    ("text", "expected"),
    kind_params(KINDS),
)
def test_kind(text: str, expected: Act | Final) -> None:
    check(parse_or_error(text), expected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("analysisWe need to answer. Nothing else.assistantfinalfour", "four"),
        (
            'analysisUse the tool.assistantcommentary to=functions.get_weather json{"city":"Paris"}',
            'commentary to=functions.get_weather json{"city":"Paris"}',
        ),
        ("analysis of the data shows growth.", "analysis of the data shows growth."),
        ("The assistantfinal token joins two words.", "The assistantfinal token joins two words."),
    ],
)
def test_stripped_channels_drop_the_analysis_only_at_the_joint(text: str, expected: str) -> None:
    assert strip_channels(text) == expected


def test_a_bare_gemma_call_reads_unquoted_values_as_text() -> None:
    text = "call:write_file{content:hello, world,path:a.txt}"
    assert find_token_call(text) == (0, "write_file", {"content": "hello, world", "path": "a.txt"})
    assert find_token_call("call:f{a:{b:1,c:2},d:x y}") == (0, "f", {"a": "{b:1,c:2}", "d": "x y"})
    assert find_token_call("call:search{query:rose} and more words") is None


def test_glm_value_without_its_opening_tag_and_seed_attributes_are_read() -> None:
    glm = "<tool_call>search<arg_key>query</arg_key>rose price</arg_value></tool_call>"
    assert find_function_tags(glm) == (0, "search", {"query": "rose price"})
    seed = '<function name="exec"><parameter name="cmd" string="true">ls</parameter></function>'
    assert find_function_tags(seed) == (0, "exec", {"cmd": "ls"})
