"""Plan-and-Execute on top of the ReAct agent: plan, run each step with `CustomReActAgent`, replan.

`PlanAndExecuteAgent` (in `agent.py`) is the loop; `parser.py` reads plans, `prompt.py` builds the
planner and replanner prompts, `events.py` and `memory.py` are its events and records,
`printing.py` teaches the console printer its events and `mermaid.py` draws its lanes.
"""

from custom_react.plan.agent import PlanAndExecuteAgent

__all__ = ["PlanAndExecuteAgent"]
