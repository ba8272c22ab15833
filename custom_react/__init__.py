"""custom-react: a readable, dependable ReAct agent written the LangChain 1.0 way.

Follow one step through these files (a test traces a step and holds this list to it): `agent.py`
(the loop), `scratchpad.py` (what the model reads of earlier steps), `running/model_call.py` (the
model's reply), `parser.py` (reply -> step) with `parsing/markers.py`, `parsing/action.py` and
`parsing/action_input.py` (replies as models really write them), `toolbox.py` (facts about
tools), `arguments.py` (the Action Input bound to the tool's arguments), `acting.py` (whether the
tool runs, and its Observation), `events.py` (the step's record and the events), `memory.py` (the
run's records) with `running/inputs.py` (what the agent takes), and `running/runnable.py` with
`running/calls.py` (how `invoke` drives the loop and makes the calls it asks for). Next to them:
`prompt.py` (the system prompt), `settings.py` (every option), `printing.py` with
`live_reply.py` (the only printing), `labels.py`, `environment.py`, `testing.py` (scripted
models) and `prompts/` (templates).

The rest of the core's folders: `parsing/` (the parser's helpers), `running/` (one generator
serves `invoke` and `ainvoke`; retries, the prompt budget, sub-agents), `pausing/` (approval that
waits, runs as JSON, stores that make a resume exactly-once), `answering/` (a schema for the
Final Answer and checks on it) and `formats/` (what the loop needs of a step format; the text
format and its wiring live there). The add-ons, never loaded by `import custom_react`: the XML and JSON step
formats (`formats/xml_format.py`, `formats/json_format.py`), `plan/` (Plan-and-Execute),
`export/` (Markdown, HTML, Mermaid transcripts), `serving/` (the models, the bundled local
server), `compare/` and `experiments/` (measurements), `integrations/` (`create_agent`
middleware, MCP tools) and `cli/` (the `custom-react` command).
"""

from custom_react.agent import CustomReActAgent
from custom_react.answering import grounded_numbers
from custom_react.events import (
    ActionEvent,
    AgentEvent,
    AnswerRejected,
    ApprovalDecided,
    ApprovalRequested,
    FinalAnswerEvent,
    LimitReached,
    ObservationEvent,
    ParseFailure,
    ReplyToken,
    RunFinished,
    SubAgentEvent,
    ToolStep,
)
from custom_react.memory import AgentResult
from custom_react.parser import Action, FinalAnswer, ParseError, parse_llm_response
from custom_react.pausing.approval import Decision
from custom_react.printing import ConsolePrinter
from custom_react.prompt import build_react_prompt
from custom_react.scratchpad import render_scratchpad
from custom_react.toolbox import ActionRequest

__all__ = [
    "Action",
    "ActionEvent",
    "ActionRequest",
    "AgentEvent",
    "AgentResult",
    "AnswerRejected",
    "ApprovalDecided",
    "ApprovalRequested",
    "ConsolePrinter",
    "CustomReActAgent",
    "Decision",
    "FinalAnswer",
    "FinalAnswerEvent",
    "LimitReached",
    "ObservationEvent",
    "ParseError",
    "ParseFailure",
    "ReplyToken",
    "RunFinished",
    "SubAgentEvent",
    "ToolStep",
    "build_react_prompt",
    "grounded_numbers",
    "parse_llm_response",
    "render_scratchpad",
]
