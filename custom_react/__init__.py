"""custom-react: a readable, dependable ReAct agent written the LangChain 1.0 way.

Follow one step in five files: `agent.py` (the loop), `scratchpad.py` (what the model reads of
earlier steps), `parser.py` (reply -> step), `toolbox.py` (running the tool), `events.py` (the
step's record, kept by `memory.py`). `printing.py` is the only module that prints. This package
root loads the core only; the add-ons are sub-packages: `formats`, `plan`, `export`, `serving`,
`compare`.
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
    ToolStep,
)
from custom_react.parser import Action, FinalAnswer, ParseError, parse_llm_response
from custom_react.printing import ConsolePrinter
from custom_react.prompt import build_react_prompt
from custom_react.scratchpad import render_scratchpad
from custom_react.tokens import ReplyToken

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
    "ReplyToken",
    "RunFinished",
    "ToolStep",
    "build_react_prompt",
    "parse_llm_response",
    "render_scratchpad",
]
