"""The exports' English and Chinese words, on top of the live transcript's (`labels.REACT`).

`EXPORT` holds the saved transcripts' extra words (Markdown and HTML), `MERMAID` the sequence
diagram's lanes and notes. Data only.
"""

from __future__ import annotations

EXPORT = {
    "en": {
        "colon": ":",
        "title": "ReAct transcript",
        "question": "Question",
        "step": "Step {n}",
        "model_calls": "model calls",
        "unfinished": "(the run did not finish)",
        "stopped": "Stopped",
        "status_error": "error",
        "status_timed_out": "timed_out",
        "status_denied": "denied",
        "status_unknown_tool": "unknown_tool",
        "status_invalid_input": "invalid_input",
        "status_placeholder_input": "placeholder_input",
        "status_repeated": "repeated",
        "status_over_budget": "over_budget",
    },
    "zh": {
        "colon": "：",
        "title": "ReAct 运行记录",
        "question": "问题",
        "step": "第 {n} 步",
        "model_calls": "模型调用次数",
        "unfinished": "（运行没有结束）",
        "stopped": "已停止",
        "status_error": "出错",
        "status_timed_out": "超时",
        "status_denied": "被拒绝",
        "status_unknown_tool": "未知工具",
        "status_invalid_input": "输入无效",
        "status_placeholder_input": "抄了占位",
        "status_repeated": "重复",
        "status_over_budget": "超出预算",
    },
}
"""The saved transcripts' extra words (`export.markdown`, `export.html`), on top of `REACT`."""

MERMAID = {
    "en": {
        "user": "User",
        "agent": "Agent loop",
        "model": "Model",
        "tool": "Tool",
        "call": "call {n}: question + steps so far ({steps})",
        "nudge": "no steps left: write the Final Answer now",
        "unknown_tool": "unknown tool, not run",
        "placeholder_input": "input copied from the tool list, not run",
        "repeated": "repeated action, not run",
        "over_budget": "call budget used up, not run",
        "approve": "approve {tool}?",
        "no": "no",
    },
    "zh": {
        "user": "用户",
        "agent": "智能体循环",
        "model": "模型",
        "tool": "工具",
        "call": "第 {n} 次调用：问题 + 已有步骤（{steps}）",
        "nudge": "步数用完：现在写出最终答案",
        "unknown_tool": "未知工具，未运行",
        "placeholder_input": "输入抄自工具说明，未运行",
        "repeated": "重复行动，未运行",
        "over_budget": "调用次数已用完，未运行",
        "approve": "批准运行 {tool}？",
        "no": "否",
    },
}
"""The sequence diagram's lanes and notes (`export.mermaid`)."""
