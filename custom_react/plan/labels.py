"""Plan-and-Execute's English and Chinese words: the printed plan and the diagram's lanes.

Data only; the language check is `labels.check_language`.
"""

from __future__ import annotations

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
