"""Find the ReAct markers in a reply and split it into sections: the text scan of the text parser.

`split_sections` returns the text before any marker and one `Section` per marker, up to the first
step: `Thought:`, `Action:`, `Action Input:`, `Observation:`, `Final Answer:` in any case, in Chinese,
numbered, in markdown, with full-width colons; the marker words of other frameworks (Haystack's
`Tool:` / `Tool Input:`, LangChain's XML agent tags `<tool>` / `<tool_input>` / `<final_answer>`);
and weak final-answer markers (LlamaIndex's `Answer:`, a conversational `AI:`, `Final Answer` with no
colon) that count only when the reply has no real step. A marker opens a line; in the middle of a
line only an `Action Input:` right after its `Action:`, a tag, or a capitalised `Action:` / `Final
Answer:` after the end of a sentence or right after an empty `Thought:` count, so a word like
"answer" in a thought never does. After the first step only its Action Input may follow: any other
ReAct marker ends the scan (the model made up the rest; an `Action:` that names no tool, `None`,
is no step yet, so the answer after it is read), and so does a new turn after an action
or an `AI:` answer, the template's `Question:` or a conversation's `Human:` (text elsewhere: a
Final Answer may be a quiz or a dialogue). A `Question:` that opens the reply is the question
restated, as the template's first line: a section of its own, which the parser skips as it skips
an echoed Observation. `reply_sections` reads a reply that is
still being written. What a section means is `parser`'s job. This module is the one home of the
marker words: `MARKERS` (how the prompts and the rewritten log spell them), `CHINESE_MARKERS` (how
the Chinese console shows them) and every word read. Linear time: anchored patterns whose
quantifiers never give back what they matched (`*+`).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from custom_react.parsing.tool_name import names_no_tool

MARKERS = {
    "thought": "Thought",
    "action": "Action",
    "action_input": "Action Input",
    "observation": "Observation",
    "final_answer": "Final Answer",
}
"""Each marker as the prompt teaches it and the rewritten log (`Action.log`) spells it."""
CHINESE_MARKERS = {
    "thought": "思考",
    "action": "行动",
    "action_input": "行动输入",
    "observation": "观察",
    "final_answer": "最终答案",
}
"""Each marker as the Chinese console shows it and a Chinese reply may write it (the Chinese prompt
keeps the English markers)."""
MARKER_WORDS = (
    *(word.lower() for word in MARKERS.values()),
    *CHINESE_MARKERS.values(),
    *("想法", "动作", "动作输入", "操作", "操作输入", "最终回答"),
)
"""Every ReAct marker word read at the start of a line, as a lower-case word (the Chinese ones
too): a line that may still grow into one is held back while a reply is written."""

# Each marker kind and its words; aliases (other frameworks' words) and weak markers are read as
# the kind in `_ALIASES`. Action Input is tried before Action, Tool Input before Tool.
_WORDS = {
    "thought": r"thoughts?+|思考|想法",
    "action_input": r"action[ \t\d_-]*+input|行动输入|动作输入|操作输入",
    "action": r"action|行动|动作|操作",
    "observation": r"observation|观察",
    "final_answer": r"final[ \t_-]*+answer|最终答案|最终回答",
    "question": r"question",
    "new_turn": r"human",
    "tool_input": r"(?:tool|function)[ \t_-]*+(?:input|arguments|args)|工具输入",
    "tool": r"tool(?:[ \t_-]*+(?:name|call))?+|(?:action|function)[ \t_-]*+name"
    r"|function[ \t_-]*+call|工具",
    "answer": r"answer|ai|assistant|答案|回答|so[ \t]++the[ \t]++final[ \t]++answer[ \t]++is",
}
_ALIASES = {"tool_input": "action_input", "tool": "action", "answer": "weak_answer"}
_GROUPS = "|".join(f"(?P<{kind}>{words})" for kind, words in _WORDS.items())
# List/heading/quote/markdown noise before a marker at the start of a line, and a step number.
# Space is `\s` throughout, which is what `str.strip` removes, so a rewritten log reads the same.
_NOISE = r"\s*+(?:[-#>*_`]\s*+)*+(?:\d++[.)]\s*+)?+"
# After the word: a step number, closing markdown, an ASCII or full-width colon, markdown closing
# after the colon (`**Action:**`) but not opening a value (`Action: **search**`).
_COLON = r"\s*+(?:\d++\s*+)?+(?:[*_`]++\s*+)?+[:：](?:[*_`]++(?=\s|$))?+\s*+"
# `Final Answer 42`, `Final Answer - 42`: no colon, so a weak marker, and only in the case shown.
_BARE = (
    r"(?-i:(?P<weak_answer>Final Answer|FINAL ANSWER|最终答案))(?=\s|$)"
    r"\s*+(?:[-–—=>]++\s*+)?+"
)
_LINE = re.compile(_NOISE + f"(?:(?:{_GROUPS}){_COLON}|{_BARE})", re.IGNORECASE)
# Semantic Kernel's stepwise planner: `[THOUGHT]`, `[ACTION]`, `[OBSERVATION]`, `[FINAL ANSWER]`
# (`[FINALANSWER]`, `[FINAL_ANSWER]`, `[FINAL-ANSWER]`) open a line; a markdown link's text does not.
_BRACKETED = re.compile(
    r"\s*+\[(?:(?P<thought>thought)|(?P<action>action)|(?P<observation>observation)"
    r"|(?P<final_answer>final[ _-]?+answer))\](?!\()[ \t]*+(?:[:：][ \t]*+)?+",
    re.IGNORECASE,
)
_INLINE = re.compile(
    r"(?:(?P<stop>(?<=[.!?。！？])\s*+)|(?<=[\s,;:>，；：]))"
    r"(?:(?P<action_input>action[ \t_-]*+input|行动输入|动作输入)|(?P<tool_input>tool[ \t_-]*+input|工具输入)"
    r"|(?P<action>action|行动)|(?P<tool>tool)|(?P<final_answer>final[ \t_-]*+answer|最终答案))"
    + _COLON
    + r"|(?P<tag><(?P<close>/?+)[ \t]*+(?P<tag_name>tool_input|tool|final_answer)[ \t]*+>)",
    re.IGNORECASE,
)
_MAY_HOLD_INLINE = re.compile(r"[:：<]")  # every marker in the middle of a line has one
_MAY_HOLD_MARKER = re.compile(r"[:：<\[]|Final Answer|FINAL ANSWER|最终答案")
_TAG_KINDS = {"tool": "action", "tool_input": "action_input", "final_answer": "final_answer"}
STEPS = ("action", "final_answer")
_LIVE_KINDS = {"weak_answer": "final_answer"}
"""The section kinds that are a step; `weak_answer` is one only when a reply has neither."""
# LangChain's conversational Thought, `Do I need to use a tool? Yes` (or `No`), as the whole reply,
# its marker left out or garbled (`No I need to use a tool? No`): a Thought with no step after it.
_SELF_QUESTION = re.compile(
    r"(?i)[\s*_]*+(?:[\w']++[ \t]++){0,3}need[ \t]++to[ \t]++use[ \t]++a[ \t]++tool[ \t]*+\?"
    r"[\s*_]*+(?:yes|no)[\s*_.!]*+"
)


@dataclass(frozen=True)
class Section:
    """One marker and the text after it, up to the next marker."""

    kind: str
    """thought, action, action_input, observation, final_answer, weak_answer, or question (the
    question restated where the reply opens: an echo of the prompt, like an echoed Observation)."""
    text: str
    written: str = ""
    """The marker as the model wrote it (kept in the log for a weak marker that was not the step)."""


@dataclass
class _Scan:
    preamble: list[str] = field(default_factory=list)
    sections: list[tuple[str, str, bool, list[str]]] = field(default_factory=list)
    target: list[str] = field(default_factory=list)
    stepped: bool = False
    done: bool = False

    def decide(self, kind: str, alias: bool) -> str:
        """Whether to `open` a section, read the marker as `text`, or `stop` (a made-up rest)."""
        if kind == "question" and not self.sections and not "".join(self.preamble).strip():
            return "open"  # the reply opens by restating the question: an echo, as an Observation
        if kind in ("question", "new_turn"):  # the next `Question:` or `Human:`: made up after an
            # action or an `AI:` answer; text before them, and in a Final Answer (a quiz, a dialogue)
            current = self.sections[-1][0] if self.sections else ""
            return "stop" if current in ("action", "action_input", "weak_answer") else "text"
        if not self.stepped or self.named_no_tool():
            return "open"
        if (kind, self.sections[-1][0]) == ("action_input", "action"):
            return "open"
        return "text" if alias or kind == "weak_answer" else "stop"

    def named_no_tool(self) -> bool:
        """Whether the one step so far is an `Action:` naming no tool (`None`): no step yet.

        Only a written word counts: an action's text on the marker's own line is not in yet.
        """
        steps = [(kind, parts) for kind, _, _, parts in self.sections if kind in STEPS]
        if len(steps) != 1 or steps[0][0] != "action":
            return False
        written = "".join(steps[0][1]).strip()
        return bool(written) and names_no_tool(written)

    def close(self, kind: str) -> str:
        """A closing tag ends the open section of its kind ("close"); a stray one is "text"."""
        open_kind = self.sections[-1][0] if self.sections else ""
        open_kind = "final_answer" if open_kind == "weak_answer" else open_kind  # as in the log
        return "close" if open_kind == kind and self.target is self.sections[-1][3] else "text"

    def open(self, kind: str, written: str, tagged: bool) -> None:
        self.stepped = self.stepped or kind in STEPS
        self.target = []
        self.sections.append((kind, written.strip(), tagged, self.target))


def split_sections(text: str) -> tuple[str, list[Section]]:
    """Split a reply into the text before any marker and its sections (see the module docstring)."""
    if _SELF_QUESTION.fullmatch(text):  # the conversational template's Thought alone
        return "", [Section("thought", text.strip())]
    scan = _Scan()
    scan.target = scan.preamble
    lines = text.rstrip().splitlines()
    leaked = lines[-1].strip().lower() if len(lines) > 1 else ""
    if len(leaked) >= 3 and "observation:".startswith(leaked):
        lines.pop()  # a partial stop word the server let through, such as `Observ`
    for line in lines:
        _scan_line(scan, line)
        if scan.done:
            break
        scan.target.append("\n")
    if [kind for kind, *_ in scan.sections] == ["question"]:
        return text.strip(), []  # a question alone is no echo (it may ask the user): the text
    sections = []
    for kind, written, tagged, parts in scan.sections:
        body = _without_closing_fence("".join(parts).strip())
        sections.append(Section(kind, html.unescape(body) if tagged else body, written))
    return "".join(scan.preamble).strip(), sections


def _without_closing_fence(body: str) -> str:
    """A section's text without the fence that closed a step written in a code block.

    That is its last line, a lone ```, when the text holds no other fence (the fence opened
    before the step's first marker).
    """
    head, newline, last = body.rpartition("\n")
    return head.rstrip() if newline and last.strip() == "```" and "```" not in head else body


def _scan_line(scan: _Scan, line: str) -> None:
    if _MAY_HOLD_MARKER.search(line) is None:  # most lines: no colon, no tag, no bare answer
        scan.target.append(line)
        return
    position = 0
    if (head := _LINE.match(line) or _BRACKETED.match(line)) is not None:
        word = head.lastgroup or ""
        kind = _ALIASES.get(word, word)
        decision = scan.decide(kind, alias=word in _ALIASES)
        if decision == "stop":
            scan.done = True
            return
        if decision == "open":
            scan.open(kind, line[head.start(word) : head.end()], tagged=False)
            position = head.end()
    inline = _INLINE.finditer(line, position) if _MAY_HOLD_INLINE.search(line, position) else ()
    for marker in inline:
        found = _inline_marker(scan, marker, line, line[position : marker.start()])
        if found is None:
            continue
        kind, start, alias = found
        decision = scan.close(kind) if marker.group("close") else scan.decide(kind, alias)
        if decision == "text":
            continue
        scan.target.append(line[position:start])
        position = marker.end()
        if decision == "stop":
            scan.done = True
            return
        if decision == "close":  # the tag's section ends; text up to the next marker is dropped
            scan.target = []
        else:
            scan.open(kind, marker.group(), tagged=marker.group("tag") is not None)
    scan.target.append(line[position:])


def _inline_marker(
    scan: _Scan, marker: re.Match[str], line: str, before: str
) -> tuple[str, int, bool] | None:
    """(kind, start, alias) of a marker in the middle of a line, or None when it is just text.

    `before` is the line's text between the section opened last and this marker.
    """
    if marker.group("tag"):
        return _TAG_KINDS[marker.group("tag_name").lower()], marker.start(), False
    word = marker.lastgroup or ""
    kind = _ALIASES.get(word, word)
    start = marker.start(word)
    current = scan.sections[-1][0] if scan.sections else ""
    if kind == "action_input" and current == "action":
        return kind, start, word in _ALIASES
    # A step right after an empty `Thought:` (`Thought: Final Answer: 2`) is how the transcript
    # shows a step written without a thought (`scratchpad.with_cue`), and the model copies it.
    opens_thought = current == "thought" and not before.strip() and not "".join(scan.target).strip()
    sentence_ended = marker.group("stop") is not None or opens_thought
    if kind in STEPS and sentence_ended and not scan.stepped and not line[start].islower():
        return kind, start, word in _ALIASES
    return None


def reply_sections(text: str) -> list[tuple[str, str]]:
    """The reply so far as (kind, text) pairs, as the parser reads it: cut at a made-up rest.

    The text before any marker is the Thought (the prompt ends with `Thought: `). A last line
    that may be the start of a marker (`Obs`, `Final Ans`, `最终`) is held back until it is
    complete. Kinds: thought, action, action_input, observation, final_answer.
    """
    lines = text.split("\n")
    last = lines[-1].strip().lstrip("*#`> ").lower()
    if last and any(word.startswith(last) for word in MARKER_WORDS):
        text = "\n".join(lines[:-1])
    preamble, sections = split_sections(text)
    found = [("thought", preamble)] if preamble else []
    return found + [
        (_LIVE_KINDS.get(section.kind, section.kind), section.text)
        for section in sections
        if section.kind != "question"  # the question restated: an echo, not the model's step
    ]


def answer_so_far(reply: str) -> str:
    """The Final Answer's text in a reply so far ("" when the reply's step is an action).

    A tag still arriving at its end (`</final_ans`) is held back until it is whole: it may end
    the answer, not belong to it.
    """
    sections = reply_sections(reply)
    answers = [text for kind, text in sections if kind == "final_answer"]
    steps = [kind for kind, _ in sections if kind in ("action", "final_answer")]
    answer = answers[0] if answers and steps[0] == "final_answer" else ""
    return _TAG_ARRIVING.sub("", answer)


_TAG_ARRIVING = re.compile(r"<[^<>\s]*+\Z")
