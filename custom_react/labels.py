"""The core's English and Chinese labels, and the one language check.

The live transcript (`printing.py`) and the environment block (`environment.py`) read their words
from these tables; each add-on keeps its own table beside its code (`export/labels.py`,
`plan/labels.py`), so a third language is one entry per table (and a prompt template in
`custom_react/prompts/`). `check_language` is the only place that decides whether a language is
supported. Data only: nothing here formats a line.
"""

from __future__ import annotations

from custom_react.parsing.markers import CHINESE_MARKERS, MARKERS

LANGUAGES = ("en", "zh")
SEPARATOR = {"en": ": ", "zh": "："}
"""What stands between a label and its text (Chinese uses the full-width colon)."""


def check_language(language: str) -> str:
    """Return `language` if it is supported.

    Raises:
        ValueError: Any language but "en" and "zh", naming those.
    """
    if language not in LANGUAGES:
        raise ValueError(f"Unsupported language {language!r}; choose one of {list(LANGUAGES)}.")
    return language


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


ENVIRONMENT = {
    "en": {
        "heading": "Environment:",
        "system": "Operating system",
        "folder": "Working folder",
        "files": "Files in the working folder",
        "empty": "(empty)",
        "more": "... and {count} more",
    },
    "zh": {
        "heading": "环境信息：",
        "system": "操作系统",
        "folder": "工作文件夹",
        "files": "工作文件夹中的文件",
        "empty": "（空）",
        "more": "……还有 {count} 项",
    },
}
"""The environment block of the prompt (`custom_react.environment`)."""


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
