"""Plan-and-Execute on top of the ReAct agent: plan, run each step with `CustomReActAgent`, replan.

`PlanAndExecuteAgent` (in `agent.py`) is the loop; `schema.py` is what a plan is (its steps and
their dependencies), `parser.py` reads plans, `prompt.py` builds the planner and replanner
prompts, `repair.py` the repair replanner's (`replan="on_failure"`), `execute.py` runs one step,
`events.py` and `memory.py` are its events and records, `printing.py` teaches the console printer
its events and `mermaid.py` draws its lanes.
"""

from custom_react.plan.agent import PlanAndExecuteAgent

__all__ = ["PlanAndExecuteAgent"]
