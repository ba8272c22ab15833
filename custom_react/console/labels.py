"""The console's English and Chinese labels: the words of the live transcript (`printing.py`).

Each add-on keeps its own table beside its code (`export/labels.py`, `plan/labels.py`); what the
model reads is in the message tables of `custom_react/prompts/`, which also decide which
languages exist (`prompts.check_language`). Data only: nothing here formats a line.
"""

from __future__ import annotations

from custom_react.parsing.markers import CHINESE_MARKERS, MARKERS

SEPARATOR = {"en": ": ", "zh": "："}
"""What stands between a label and its text (Chinese uses the full-width colon)."""


REACT = {
    "en": {
        **MARKERS,  # Thought, Action, Action Input, Observation, Final Answer
        "parse_failure": "Format error",
        "reply": "Model wrote",
        "limit": "Stopped",
        "stop_reason": "stop reason",
        "denied": "not run",
        "thinking": "thinking…",
        "paused": "Paused",
        "waits": "{tool} waits for a person's approval; resume run {run_id} with a decision",
        "decision": "Decision",
        "approve_decision": "approved",
        "edit_decision": "edited, runs with {value}",
        "reject_decision": "rejected: {value}",
        "rejected": "Answer sent back",
        "why": "Why",
        "returned_by": "the output of {tool}",
        "aside": " ({text})",
        "you": "You",
    },
    "zh": {
        **CHINESE_MARKERS,  # 思考, 行动, 行动输入, 观察, 最终答案
        "parse_failure": "格式错误",
        "reply": "模型输出",
        "limit": "已停止",
        "stop_reason": "停止原因",
        "denied": "未运行",
        "thinking": "思考中…",
        "paused": "已暂停",
        "waits": "{tool} 需要人批准；用一个决定恢复运行 {run_id}",
        "decision": "决定",
        "approve_decision": "批准",
        "edit_decision": "修改后运行，输入为 {value}",
        "reject_decision": "拒绝：{value}",
        "rejected": "答案被退回",
        "why": "原因",
        "returned_by": "{tool} 的输出",
        "aside": "（{text}）",
        "you": "你",
    },
}
"""The live transcript's words (`printing.ConsolePrinter`)."""


PROMPTS = {
    "en": {
        "prompt": "Prompt of call {n}",
        "role": "[{role}]",
        "same_message": "(as in call {n})",
        "same_lines": "… {lines} line(s) as in call {n}; new from here …",
        "new": "new since call {n}",
        "raw_reply": "Reply of call {n}, raw",
        "failed": "Call {n} failed",
        "seconds": "{seconds:.1f} s",
        "tokens": "{tokens} tokens",
    },
    "zh": {
        "prompt": "第 {n} 次调用的提示词",
        "role": "[{role}]",
        "same_message": "（与第 {n} 次调用相同）",
        "same_lines": "…… 前 {lines} 行与第 {n} 次调用相同；以下是新的 ……",
        "new": "自第 {n} 次调用以来新增",
        "raw_reply": "第 {n} 次调用的原始回复",
        "failed": "第 {n} 次调用失败",
        "seconds": "{seconds:.1f} 秒",
        "tokens": "{tokens} 个词元",
    },
}
"""Each model call's exact prompt and raw reply (`printing.ConsolePrinter(show_prompts=True)`,
the saved transcripts, the web page). The role is the LangChain message type, as the model got it."""
