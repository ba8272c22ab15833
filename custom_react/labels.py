"""Every English and Chinese label the package shows, and the one language check.

The printer, the exporters, the Mermaid diagrams, Plan-and-Execute and the environment block all
read their words from these tables, so a third language is one entry per table (and a prompt
template in `custom_react/prompts/`). `check_language` is the only place that decides whether a
language is supported. Data only: nothing here formats a line.
"""

from __future__ import annotations

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
        "thought": "Thought",
        "action": "Action",
        "action_input": "Action Input",
        "observation": "Observation",
        "final_answer": "Final Answer",
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
    },
    "zh": {
        "thought": "思考",
        "action": "行动",
        "action_input": "行动输入",
        "observation": "观察",
        "final_answer": "最终答案",
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
    },
}
"""The live transcript's words (`printing.ConsolePrinter`)."""

EXPORT = {
    "en": {
        "colon": ":",
        "title": "ReAct transcript",
        "question": "Question",
        "step": "Step {n}",
        "model_calls": "model calls",
        "unfinished": "(the run did not finish)",
    },
    "zh": {
        "colon": "：",
        "title": "ReAct 运行记录",
        "question": "问题",
        "step": "第 {n} 步",
        "model_calls": "模型调用次数",
        "unfinished": "（运行没有结束）",
    },
}
"""The saved transcripts' extra words (`custom_react.export`), on top of `REACT`."""

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
        "repeated": "重复动作，未运行",
        "over_budget": "调用次数已用完，未运行",
        "approve": "批准运行 {tool}？",
        "no": "否",
    },
}
"""The sequence diagram's lanes and notes (`custom_react.export.mermaid`)."""

PLAN = {
    "en": {
        "plan": "Plan",
        "replan": "New plan",
        "step": "Step {n}",
        "step_result": "Step {n} result",
        "response": "Answer",
        "planner": "Planner wrote",
        "replanner": "Replanner wrote",
        "step_limit": "step limit reached after {n} steps",
        "repeated": "already done, dropped",
        "result": "Result: ",
        "none": "(none)",
        "repair": "Repair replanner wrote",
        "repaired": "Repaired plan",
        "inserted": "inserted",
        "replaced": "replaces the failed step",
        "retried": "tries the failed step again",
        "dropped": "drops the failed step",
        "removed": "removed",
    },
    "zh": {
        "plan": "计划",
        "replan": "新计划",
        "step": "第 {n} 步",
        "step_result": "第 {n} 步结果",
        "response": "答案",
        "planner": "规划器输出",
        "replanner": "重新规划器输出",
        "step_limit": "已执行 {n} 步，达到步数上限",
        "repeated": "已经做过，已去掉",
        "result": "结果：",
        "none": "（无）",
        "repair": "修复规划器输出",
        "repaired": "修复后的计划",
        "inserted": "新加的步骤",
        "replaced": "取代失败的步骤",
        "retried": "重试失败的步骤",
        "dropped": "放弃失败的步骤",
        "removed": "去掉的步骤",
    },
}
"""Plan-and-Execute's words (`custom_react.plan`)."""

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

PLAN_MERMAID = {
    "en": {
        "user": "User",
        "planner": "Planner",
        "executor": "Executor (ReAct)",
        "replanner": "Replanner",
    },
    "zh": {
        "user": "用户",
        "planner": "规划器",
        "executor": "执行器（ReAct）",
        "replanner": "重新规划器",
    },
}
"""The Plan-and-Execute diagram's lanes (`custom_react.plan.mermaid`)."""
