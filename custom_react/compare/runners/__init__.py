"""The agents the comparison harness runs: ours, and LangChain's own, built the way their docs show.

One module per agent: `custom.py` runs our `CustomReActAgent` (its English or Chinese prompt, by
the question); `legacy.py` builds the classic `create_react_agent` (the `hwchase17/react` hub
prompt, inlined: the hub needs the network) in `AgentExecutor(handle_parsing_errors=True,
return_intermediate_steps=True)`; `create_agent.py` builds LangChain 1.x `create_agent`, which
needs provider tool calls, and `tool_calling_problem` asks the model once whether it makes them;
`text_react.py` builds `create_agent` with `TextReActMiddleware` (text ReAct, no tool calls needed).
`fingerprint.py` says what each of them reads first (`agent_fingerprint`), the key of its runs.
`outcome.py` holds what they share: a runner answers one question with a `RunOutcome` (answer,
iterations, stop reason, parse failures, transcript), and LangChain's agents get
`handle_tool_error=True` tools, so a `ToolException` is an observation, as every tool error is in
our loop. Timing, tokens and crashes are the harness's job (`custom_react.compare`); nothing here
prints.
"""

from custom_react.compare.runners.create_agent import (
    CREATE_AGENT_SYSTEM_PROMPT,
    create_agent_outcome,
    create_agent_runner,
    tool_calling_problem,
)
from custom_react.compare.runners.custom import custom_runner
from custom_react.compare.runners.legacy import LEGACY_REACT_PROMPT, legacy_outcome, legacy_runner
from custom_react.compare.runners.outcome import Runner, RunOutcome, with_tool_errors_handled
from custom_react.compare.runners.text_react import react_lines, text_react_runner
from custom_react.steps import PARSE_ERROR_TOOL

__all__ = [
    "CREATE_AGENT_SYSTEM_PROMPT",
    "LEGACY_REACT_PROMPT",
    "PARSE_ERROR_TOOL",
    "RunOutcome",
    "Runner",
    "create_agent_outcome",
    "create_agent_runner",
    "custom_runner",
    "legacy_outcome",
    "legacy_runner",
    "react_lines",
    "text_react_runner",
    "tool_calling_problem",
    "with_tool_errors_handled",
]
