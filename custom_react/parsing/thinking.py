"""What a reply holds that is not for reading as its step: the model's thinking, and the like.

`strip_think` drops `<think>` blocks (the reasoning a thinking model writes first), gpt-oss's
analysis channel with its harmony headers, or with its tokens stripped (`strip_channels`:
`analysis...assistantfinalfour` is `four`), and everything from a chat
template's end-of-turn token on (`end_of_turn`: a server that does not remove `<|im_end|>` or
`<|eot_id|>` leaves them in the text, often with a turn the model made up after them). Every step
format reads a reply through it, and a transcript shows a model its earlier replies without
their thinking. Pure functions, linear time.
"""

from __future__ import annotations

import re

_THINK_TAG = re.compile(r"<(/?)think>", re.IGNORECASE)
# A step a model wrote inside its thinking, with nothing after it (a chat template that ends the
# turn at the call): a tool-call tag (LM Studio's `[TOOL_REQUEST]` or `[END_TOOL_REQUEST]` too), a
# function tag, Roo Code's `[Tool Use: name]` line, or an `Action:` line; or a token that opens a
# call (`token_calls.py`, `call_syntax.py`): Kimi's, DeepSeek's (and its DSML tags), Mistral's,
# Gemma 4's and FunctionGemma's, LFM2's, Llama's.
_STEP_INSIDE = re.compile(
    r"<(?:[\w-]++:)?+tool_call\b|\[(?:END_)?+TOOL_REQUEST\]|<function[=\s]|<invoke\s"
    r"|^[ \t*]*+Action[ \t*]*+:|^[ \t]*+\[Tool Use:"
    r"|<\|tool_call(?:s_section|_argument)?+_begin\|>|<｜tool▁calls?+▁begin｜>|<｜++DSML｜++"
    r"|\[TOOL_CALLS\]|<\|tool_call>|<start_function_call>|<\|tool_call_start\|>|<\|python_start\|>",
    re.IGNORECASE | re.MULTILINE,
)
# gpt-oss's harmony format left as text: the analysis channel is its thinking; the final channel
# is the answer; a commentary channel may hold a tool call (`token_calls.py` reads what is left).
_ANALYSIS_HEADER = "<|channel|>analysis<|message|>"
_ANALYSIS = re.compile(
    re.escape(_ANALYSIS_HEADER) + r".*?(?:<\|end\|>|(?=<\|start\|>)|\Z)", re.DOTALL
)
_HARMONY_TOKENS = re.compile(
    r"<\|start\|>assistant|<\|channel\|>(?:final|commentary)(?:<\|message\|>)?+"
    r"|<\|(?:end|return|call)\|>"
)
# The same channels with the special tokens stripped by the server: `analysis` opens the reply and
# a later message's role and channel run together, `assistantfinal` or `assistantcommentary`. That
# joint is the evidence: a reply that only opens with the word "analysis" is prose.
_BARE_ANALYSIS = re.compile(r"\s*+analysis")
_BARE_JOINT = re.compile(r"assistant(?=final|commentary)")
# A chat template's end of a turn, or the start of the next one, left in the text by a server that
# did not remove it; what follows is a turn the model made up. `</s>` only at the very end:
# elsewhere it may be HTML. (gpt-oss's `<|start|>` and `<|end|>` are `strip_channels`'.)
_END_OF_TURN = re.compile(
    r"<\|(?:im_end|eot_id|eom_id|endoftext|end_of_text|END_OF_TURN_TOKEN)\|>|<end_of_turn>"
    r"|<｜end▁of▁sentence｜>|</s>\s*+\Z"
    r"|<\|(?:im_start|user|system|start_header_id|end_header_id)\|>|<start_of_turn>|\[/?INST\]"
)


def strip_think(text: str) -> str:
    """Drop the model's thinking from a reply.

    That is `<think>...</think>` blocks, the text before a `</think>` that comes first (the chat
    template opened the block), and all after an unclosed `<think>` -- unless that leaves nothing
    and no block was closed (the reply was all thinking, cut off) or the thinking holds a step (a
    tool call, an `Action:` line): then its text is kept. In
    gpt-oss's channels (`strip_channels`), the analysis goes and the answer or call stays. A chat
    template's end-of-turn token ends the reply (`end_of_turn`).
    """
    text = strip_channels(end_of_turn(text))
    tags = list(_THINK_TAG.finditer(text))
    inside = bool(tags) and tags[0].group(1) == "/"
    kept: list[str] = []
    position = 0
    for tag in tags:
        if not inside:
            kept.append(text[position : tag.start()])
        inside = tag.group(1) == ""
        position = tag.end()
    result = "".join(kept) + ("" if inside else text[position:])
    closed = any(tag.group(1) for tag in tags)
    if result.strip() or (closed and not _STEP_INSIDE.search(text)):
        return result  # the reply outside its thinking (nothing: thinking, then no step)
    return _THINK_TAG.sub("", text)  # all thinking: cut off, or the step written inside it


def end_of_turn(text: str) -> str:
    """The reply up to the first token that ends a turn or starts the next one.

    That is `<|im_end|>`, `<|eot_id|>`, `<|im_start|>`, `[INST]`, `</s>` at the very end and kin.
    A server that does not remove them leaves them in the text, often with a turn the model made
    up after them. A reply with nothing before the token keeps its text, the tokens taken out.
    """
    found = _END_OF_TURN.search(text)
    if found is None:
        return text
    before = text[: found.start()]
    return before if before.strip() else _END_OF_TURN.sub("", text)


def strip_channels(text: str) -> str:
    """A reply in gpt-oss's harmony channels, as plain text: without its analysis and headers.

    `<|channel|>analysis<|message|>...<|end|><|start|>assistant<|channel|>final<|message|>Paris`
    -> `Paris`. A reply that is only analysis (cut off while thinking) keeps its text, without
    the format's tokens. With the tokens stripped, see `strip_bare_channels`.
    """
    if "<|channel|>" not in text:
        return strip_bare_channels(text)
    stripped = _HARMONY_TOKENS.sub("", _ANALYSIS.sub("", text))
    if stripped.strip():
        return stripped
    return _HARMONY_TOKENS.sub("", text.replace(_ANALYSIS_HEADER, ""))


def strip_bare_channels(text: str) -> str:
    """gpt-oss's channels with their tokens stripped: the reply from its first answer or call on.

    `analysisThe user wants 2+2.assistantfinalfour` -> `four`;
    `analysisNeed the weather.assistantcommentary to=functions.get_weather json{"city":"Paris"}`
    -> `commentary to=functions.get_weather json{...}` (`token_calls.py` reads the call). Only a
    reply that opens with `analysis` and has the joint is cut; any other text is kept as it is.
    """
    joint = _BARE_JOINT.search(text) if _BARE_ANALYSIS.match(text) else None
    if joint is None:
        return text
    return text[joint.end() :].removeprefix("final")  # `commentary ...` stays: it names the call
