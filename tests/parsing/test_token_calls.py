"""Tool calls written with a model's own tool-call tokens, or as a list of Python calls, as text."""

from __future__ import annotations

import pytest

from custom_react.parser import Action, FinalAnswer, parse_llm_response
from custom_react.parsing.call_syntax import find_call_list
from custom_react.parsing.thinking import strip_channels
from custom_react.parsing.token_calls import find_token_call

ARGS = '{"city": "Dalian", "days": 3}'
TOKEN_CALLS = [
    f"[TOOL_CALLS]get_weather[ARGS]{ARGS}",
    f"Let me check.[TOOL_CALLS]get_weather{ARGS}",  # older Mistral templates: no [ARGS]
    f"<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{ARGS}<｜tool▁call▁end｜>",
    "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n"
    f"{ARGS}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
    "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0"
    f"<|tool_call_argument_begin|>{ARGS}<|tool_call_end|><|tool_calls_section_end|>",
    "<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>" + ARGS,
    f"<|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{ARGS}<|call|>",
    # the recipient without `functions.`
    f"<|start|>assistant<|channel|>commentary to=get_weather<|message|>{ARGS}<|call|>",
]


@pytest.mark.parametrize("text", TOKEN_CALLS)
def test_a_call_between_tool_call_tokens_is_read(text: str) -> None:
    found = find_token_call(text)
    assert found is not None and found[1:] == ("get_weather", {"city": "Dalian", "days": 3})
    step = parse_llm_response(text)
    assert isinstance(step, Action)
    assert (step.tool, step.tool_input) == ("get_weather", {"city": "Dalian", "days": 3})


def test_the_words_of_a_recipient_in_prose_are_no_call() -> None:
    text = "gpt-oss writes to=functions.get_weather (or to=get_weather) before the arguments."
    assert find_token_call(text) is None
    assert parse_llm_response(text) == FinalAnswer(output=text, log=text)


def test_a_marker_with_no_object_after_it_is_a_call_without_arguments() -> None:
    assert find_token_call("[TOOL_CALLS]current_date[ARGS]") == (0, "current_date", {})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[get_weather(city="Dalian", days=3)]', ("get_weather", {"city": "Dalian", "days": 3})),
        ('[f(a=1), g(b=2)]', ("f", {"a": 1})),
        ('<|python_start|>[get_weather(city="Dalian")]<|python_end|>',
         ("get_weather", {"city": "Dalian"})),
        # Liquid's LFM2: the list between its own tool-call tokens.
        ('<|tool_call_start|>[get_weather(city="Dalian")]<|tool_call_end|>',
         ("get_weather", {"city": "Dalian"})),
        ('```tool_code\nget_weather(city="Dalian")\n```', ("get_weather", {"city": "Dalian"})),
        ('The call:\n[get_weather(city="Dalian")]', ("get_weather", {"city": "Dalian"})),
    ],
)  # fmt: skip
def test_a_list_of_python_calls_gives_its_first_call(text: str, expected: tuple) -> None:
    found = find_call_list(text)
    assert found is not None and found[1:] == expected


@pytest.mark.parametrize(
    "text",
    [
        "See [the fares](https://example.com/fares) for more.",  # a markdown link
        'get_weather(city="Dalian")',  # a bare call: prose, the parser knows no tools
        "I think [get_weather(x)] would do it.",  # not at a line's start
        "[1, 2, 3]",
    ],
)
def test_text_that_opens_no_list_of_calls_is_not_one(text: str) -> None:
    assert find_call_list(text) is None
    assert isinstance(parse_llm_response(text), FinalAnswer)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (  # the analysis is thinking (dropped, as <think> is); the final channel is the answer
            "<|channel|>analysis<|message|>The user wants the capital.<|end|>"
            "<|start|>assistant<|channel|>final<|message|>Paris is the capital.<|return|>",
            FinalAnswer(output="Paris is the capital.", log="Paris is the capital."),
        ),
        (  # the final channel may hold a ReAct step
            "<|channel|>final<|message|>Thought: done\nFinal Answer: 42<|return|>",
            FinalAnswer(output="42", thought="done", log="Thought: done\nFinal Answer: 42"),
        ),
    ],
)
def test_gpt_oss_channels_leave_the_answer(text: str, expected: FinalAnswer) -> None:
    assert parse_llm_response(text) == expected


def test_gpt_oss_analysis_before_a_call_is_not_its_thought() -> None:
    step = parse_llm_response(
        "<|channel|>analysis<|message|>Need the weather; Action: none yet.<|end|>"
        "<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json"
        f"<|message|>{ARGS}<|call|>"
    )
    assert isinstance(step, Action)
    assert (step.tool, step.tool_input, step.thought) == (
        "get_weather",
        {"city": "Dalian", "days": 3},
        "",
    )


def test_a_reply_of_analysis_alone_keeps_its_text_without_the_tokens() -> None:
    text = "<|channel|>analysis<|message|>Thinking, then cut off"
    assert strip_channels(text) == "Thinking, then cut off"
    text = "<|start|>assistant<|channel|>analysis<|message|>result<|end|>"
    assert strip_channels(text) == "result"


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (
            '--path "a.py" --content "X = {\\"debug\\": True}"',
            {"path": "a.py", "content": 'X = {"debug": True}'},
        ),
        ('--command "cp src/{a,b}.txt dst/"', {"command": "cp src/{a,b}.txt dst/"}),
        ('--text "line one\nline two"', {"text": "line one\nline two"}),
        ('--command "ls --all x" --n 2', {"command": "ls --all x", "n": "2"}),
        ('"command": "grep --count 5 f"', {"command": "grep --count 5 f"}),  # JSON arguments
        ('--recursive --path "src"', {"recursive": True, "path": "src"}),
        ("--query 玫瑰 价格", {"query": "玫瑰 价格"}),
        ('--data {"a": [1, 2]}', {"data": {"a": [1, 2]}}),
        ('--path "C:\\temp\\x"', {"path": "C:\\temp\\x"}),
        ('--note "ends in }}"', {"note": "ends in }}"}),
    ],
)
def test_minimax_block_flags_keep_every_value_whole(arguments: str, expected: dict) -> None:
    text = '[TOOL_CALL]\n{tool => "f", args => {' + arguments + "}}\n[/TOOL_CALL]"
    step = parse_llm_response(text)
    assert isinstance(step, Action) and (step.tool, step.tool_input) == ("f", expected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[TOOL_CALL]\n{tool => "f", args => {--query "rose"}}\nThen done.', {"query": "rose"}),
        ('[TOOL_CALL]{tool => "f", args => {--n 2}}\nI will wait for it.', {"n": "2"}),
        (
            '[TOOL_CALL]{tool => "f", args => {--q "a"}}\n[TOOL_CALL]{tool => "g", args => {--r "b"}}',
            {"q": "a"},
        ),
        (
            '[TOOL_CALL]{tool => "f", args => {--q "see [/TOOL_CALL] here"}}[/TOOL_CALL]',
            {"q": "see [/TOOL_CALL] here"},
        ),
        ('[TOOL_CALL]{tool => "f", args => {--q "rose"}}\n</TOOL_CALL>', {"q": "rose"}),
    ],
)
def test_a_minimax_block_without_its_closing_tag_reads_nothing_after_it(
    text: str, expected: dict
) -> None:
    step = parse_llm_response(text)
    assert isinstance(step, Action) and (step.tool, step.tool_input) == ("f", expected)
