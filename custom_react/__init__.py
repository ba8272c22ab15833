"""custom-react: a readable, dependable ReAct agent written the LangChain 1.0 way.

Follow one step through these files (a test traces a step and holds this list to it): `agent.py`
(the loop), `scratchpad.py` (what the model reads of earlier steps), `running/model_call.py` (the
model's reply), `parser.py` (reply -> step) with `parsing/thinking.py`, `parsing/markers.py`,
`parsing/action.py`, `parsing/tool_name.py` and `parsing/action_input.py` (replies as models
really write them), read through `formats/__init__.py` (the step format, whose parser also reads
a call of one of the tools written in prose),
`toolbox.py` (the step bound to its tool, once; the tool-call budget), `arguments.py` (the
Action Input bound to the tool's arguments) with `tool_schemas.py` (what the tool's schema says), `acting.py` (every guard in order, then the tool and
its Observation) with `argument_checks.py` (whether the bound arguments fit the tool's schema,
and the Observation when not) and `running/tool_output.py` (what the tool returned, as text),
`running/context.py` (the run's context, for a tool that asks for it),
`pausing/approval.py` (whether the tool waits for a person: approval's one home),
`answering/rules.py` with `answering/checks.py` and `answering/echo.py` (the verdict on a Final
Answer: as written, unless it repeats a message the loop wrote to the model, or held to a schema
and checks), `steps.py` (the
step's one record, `ToolStep`, from the parsed Action to the stored step), `events.py` (the events
that carry it), `memory.py` (the run's records and counters) with `running/inputs.py` (what the
agent takes) and `pausing/threads.py` (the run's thread, if any), and `running/runnable.py` with `running/calls.py` (how `invoke` drives the loop and
makes the calls it asks for), `pausing/graph_pause.py` (whether the run is a LangGraph graph's task,
which a pause would pause) and `running/traced.py` (each Action and Final Answer told to the
callback handlers, as `AgentExecutor` tells them). Next to them: `prompt.py` (the system prompt), `settings.py` (every
option), `parsing/prose_calls.py` (a tool's call in Cline's tags, ending a reply with no
marker), `environment.py` (facts about the machine for the prompt), `testing.py` (scripted
models), `console/` (the only printing) and `prompts/` (templates and message tables, EN + ZH).

The rest of the core's folders: `parsing/` (the parser's helpers), `running/` (the calls and their
drivers, retries, the prompt budget, sub-agents' one home in `sub_agents.py`), `pausing/`
(approval, runs as JSON, stores that make a resume exactly-once), `answering/` (verdicts on a
Final Answer: a schema and checks) and `formats/` (what the loop needs of a step format; the text
format, the default, is wired in its `__init__`). The add-ons, never loaded by `import
custom_react`: the XML and JSON step formats (`formats/xml_format.py`, `formats/json_format.py`),
`plan/` (Plan-and-Execute), `export/` (Markdown, HTML, Mermaid transcripts), `serving/` (the
models, the bundled local server), `compare/` and `experiments/` (measurements), `integrations/`
(`create_agent` middleware, MCP tools) and `cli/` (the `custom-react` command). The layers and
their order are import contracts in `pyproject.toml`.
"""

from custom_react.agent import CustomReActAgent
from custom_react.answering import grounded_numbers
from custom_react.console.printing import ConsolePrinter
from custom_react.events import (
    ActionEvent,
    AgentEvent,
    AgentResult,
    ApprovalDecided,
    ApprovalRequested,
    LimitReached,
    ObservationEvent,
    ReplyToken,
    RunFinished,
    SubAgentEvent,
)
from custom_react.parser import Action, FinalAnswer, ParseError, parse_llm_response
from custom_react.pausing.approval import Decision
from custom_react.prompt import build_react_prompt
from custom_react.scratchpad import render_scratchpad
from custom_react.steps import AnswerRejected, FinalAnswerEvent, ParseFailure, ToolStep

__all__ = [
    "Action",
    "ActionEvent",
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
