"""The web page's English and Chinese words, and the scripted run's replies. Data only.

`PAGE` is what the page shows (the browser switches language without a reload: both tables are
sent); `SCRIPTED` is the question and the model replies `custom-react ui --scripted` plays, one
per model call, with English markers in both languages because that is what the model writes.
"""

from __future__ import annotations

PAGE = {
    "en": {
        "title": "custom-react: watch the ReAct loop",
        "question": "Question",
        "ask": "Ask",
        "step_mode": "Step mode: pause before each model call",
        "scripted": "scripted model (offline)",
        "call": "Model call {n}",
        "prompt": "The exact prompt",
        "prompt_note": "grey: as in call {n}; highlighted: new since then",
        "same_message": "(as in call {n})",
        "reply": "The reply, raw",
        "replayed": "replayed from the run before the fork",
        "edited": "written by you, not the model",
        "prompt_edited": "the prompt was edited for this call",
        "seconds": "{seconds:.2f} s",
        "tokens": "{tokens} tokens",
        "parsed": "The parser read",
        "rewritten": "The parser rewrote the reply as",
        "observation": "Observation",
        "status": "status",
        "parse_failure": "Format error (goes back to the model as the Observation)",
        "rejected": "Answer sent back",
        "limit": "Stopped by a limit",
        "final_answer": "Final Answer",
        "stop_reason": "stop reason",
        "model_calls": "model calls",
        "waiting": "Paused before this call. Continue, or change what happens:",
        "your_reply": "Your reply instead of the model's (leave empty to ask the model)",
        "edit_prompt": "Edit the last message of the prompt, for this call only",
        "continue": "Continue",
        "fork": "Fork: run again from this call",
        "approval": "{tool} needs your approval to run with",
        "approve": "Approve",
        "reject": "Reject",
        "approved": "approved",
        "refused": "rejected",
        "thinking": "the model is thinking…",
        "idle": "Ask a question to start a run.",
        "model": "Model",
    },
    "zh": {
        "title": "custom-react：看 ReAct 循环如何工作",
        "question": "问题",
        "ask": "提问",
        "step_mode": "单步模式：每次调用模型前暂停",
        "scripted": "脚本模型（离线）",
        "call": "第 {n} 次模型调用",
        "prompt": "模型读到的完整提示词",
        "prompt_note": "灰色：与第 {n} 次调用相同；高亮：此后新增的部分",
        "same_message": "（与第 {n} 次调用相同）",
        "reply": "模型的原始回复",
        "replayed": "分叉前那次运行的回复，原样重放",
        "edited": "由你写的，不是模型写的",
        "prompt_edited": "本次调用的提示词被你修改过",
        "seconds": "{seconds:.2f} 秒",
        "tokens": "{tokens} 个词元",
        "parsed": "解析器读出的内容",
        "rewritten": "解析器把回复改写为",
        "observation": "观察",
        "status": "状态",
        "parse_failure": "格式错误（作为观察返回给模型）",
        "rejected": "答案被退回",
        "limit": "因达到限制而停止",
        "final_answer": "最终答案",
        "stop_reason": "停止原因",
        "model_calls": "模型调用次数",
        "waiting": "已在本次调用前暂停。可以直接继续，也可以改变接下来发生的事：",
        "your_reply": "用你写的回复代替模型的回复（留空则让模型回答）",
        "edit_prompt": "修改提示词的最后一条消息（只对本次调用有效）",
        "continue": "继续",
        "fork": "分叉：从这次调用起重新运行",
        "approval": "{tool} 需要你的批准才能运行，输入为",
        "approve": "批准",
        "reject": "拒绝",
        "approved": "已批准",
        "refused": "已拒绝",
        "thinking": "模型正在思考……",
        "idle": "输入一个问题，开始一次运行。",
        "model": "模型",
    },
}
"""The page's words; `{n}`, `{tool}`, `{seconds}` and `{tokens}` are filled in by the page."""

SCRIPTED = {
    "en": {
        "question": "What is the wholesale price of a rose in Kunming plus 5%? Echo it in the terminal.",
        "replies": [
            "Thought: I need the wholesale price first.\nAction: search\n"
            "Action Input: rose wholesale price Kunming",
            "Thought: About 1 yuan a stem wholesale. Now add 5%.\nAction: calculator\n"
            "Action Input: 1 * 1.05",
            "Thought: Now echo it in the terminal.\nAction: run_terminal_command\n"
            "Action Input: echo 1.05 yuan a stem",
            "Thought: I now know the final answer\n"
            "Final Answer: About 1.05 yuan a stem: the wholesale price (about 1 yuan) plus 5%.",
        ],
        "no_more": "Final Answer: (the scripted model has no reply for call {n})",
    },
    "zh": {
        "question": "昆明玫瑰的批发价加价 5% 是多少？请在终端里输出它。",
        "replies": [
            "Thought: 我需要先查批发价。\nAction: search\nAction Input: 昆明 玫瑰 批发价",
            "Thought: 批发价约每枝 1 元。现在加上 5%。\nAction: calculator\nAction Input: 1 * 1.05",
            "Thought: 现在在终端里输出它。\nAction: run_terminal_command\n"
            "Action Input: echo 每枝 1.05 元",
            "Thought: 我现在知道最终答案了\nFinal Answer: 每枝约 1.05 元：批发价（约 1 元）加价 5%。",
        ],
        "no_more": "Final Answer: （脚本模型没有第 {n} 次调用的回复）",
    },
}
"""`custom-react ui --scripted`: the first question offered, and reply n answers model call n."""
