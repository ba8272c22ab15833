"""custom-react: a readable, dependable ReAct agent written the LangChain 1.0 way.

Read the files in this order: `parser.py` (reply -> step), `prompt.py` (what the model reads),
`events.py` (what the loop reports), `toolbox.py` and `history.py` (running tools, remembering
steps), then `agent.py`, the loop itself. `printing.py` is the only module that prints.
"""

from custom_react.agent import CustomReActAgent
from custom_react.events import (
    ActionEvent,
    AgentEvent,
    AgentResult,
    FinalAnswerEvent,
    LimitReached,
    ObservationEvent,
    ParseFailure,
    RunFinished,
)
from custom_react.parser import Action, FinalAnswer, ParseError, parse_llm_response
from custom_react.plan.agent import PlanAndExecuteAgent
from custom_react.printing import ConsolePrinter
from custom_react.prompt import build_react_prompt, render_scratchpad

__all__ = [
    "Action",
    "ActionEvent",
    "AgentEvent",
    "AgentResult",
    "ConsolePrinter",
    "CustomReActAgent",
    "FinalAnswer",
    "FinalAnswerEvent",
    "LimitReached",
    "ObservationEvent",
    "ParseError",
    "ParseFailure",
    "PlanAndExecuteAgent",
    "RunFinished",
    "build_react_prompt",
    "parse_llm_response",
    "render_scratchpad",
]
