"""`AgentSettings`: every option of `CustomReActAgent`, one documented field each.

The agent takes them as keyword-only parameters, each with its type and default in its signature
(`CustomReActAgent(llm, tools, max_iterations=5)`; `tests/core/test_constructor.py` holds the
signature and these fields to the same names, types and defaults), and keeps them as one frozen
value, `AgentSettings.of(locals())`, so the loop in `agent.py` reads as ReAct, not as
configuration. Validation happens here, when the agent is built: a wrong option fails at once,
naming the option and what it takes (each is also held to its annotation, `running.options`). The
limits themselves are checked by the loop, between steps.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, Literal, get_type_hints

from langchain_core.messages import SystemMessage
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.tools import BaseTool

from custom_react.answering import AnswerRules, AnswerSchema, Check
from custom_react.formats import EnvironmentOption, FormatName, ReActFormat, get_format
from custom_react.pausing.approval import Approve
from custom_react.pausing.store import RunStore
from custom_react.prompts import check_language, message
from custom_react.running.options import check_count, check_store, check_types
from custom_react.running.tool_output import MIN_TRUNCATED
from custom_react.toolbox import ToolOptions

__all__ = [  # with the option types the agent's constructor is annotated with
    "DEFAULT_STOP",
    "LIMIT_OPTIONS",
    "AgentSettings",
    "Approve",
    "Check",
    "FormatName",
    "RunStore",
    "check_limits",
]

DEFAULT_STOP = "format"
LIMIT_OPTIONS = {
    "max_iterations": "max_iterations",
    "max_execution_time": "max_execution_time",
    "parse_failures": "max_consecutive_parse_failures",
    "token_budget": "max_tokens_per_run",
}
"""The option behind each limit a run can stop at (`StopReason`)."""


@dataclass(frozen=True)
class AgentSettings:
    """The options of one agent; all have defaults."""

    max_iterations: int | None = 10
    """Most model calls in one run (None: no limit). It is also the cost limit of a run."""
    max_execution_time: float | None = None
    """Most seconds for one run, checked between steps (None: no limit)."""
    early_stopping_method: Literal["force", "generate"] = "force"
    """On a limit, "force" returns a fixed message; "generate" asks the model once more for a
    final answer from what it has."""
    stop: Sequence[str] | Literal["format"] | None = DEFAULT_STOP
    """Stop sequences sent to the model so it halts before inventing an Observation: "format"
    for the format's own, a list of strings, or None for servers that reject `stop`."""
    max_consecutive_parse_failures: int = 3
    """Format errors in a row that end the run."""
    max_observation_chars: int | None = 2000
    """Longer observations are cut with a visible marker (None: never cut)."""
    repeated_action: Literal["warn", "allow"] = "warn"
    """"warn" answers a repeated (tool, input) with the earlier observation and a note instead of
    running it again; "allow" runs it again."""
    max_tool_calls: int | None = None
    """Most calls of any one tool in one run; the next call is answered, not run. A tool's
    `metadata["max_calls"]` overrides it; a `repeatable` tool (a job's status check) gets 10
    when neither is set, so polling cannot go on forever. None: no limit."""
    system_prompt: str | SystemMessage = ""
    """Your instructions for the model (a role, rules, the answer's style): they open the system
    turn, before the tool list, in every format and language."""
    language: str = "en"
    """"en" or "zh": the prompt template and the printed labels."""
    examples: str | bool | None = True
    """Few-shot block for the prompt: True (the bundled example), None or False (none), or your
    own text. On by default: the small bundled models solve more with it (measured:
    `bench/results/solve_rate/tuning_log.md`)."""
    format: FormatName = "text"
    """How the model writes a step: "text" markers, "xml" tags or a "json" object."""
    environment: EnvironmentOption = False
    """Put the OS, working folder and its files in the prompt: True for the current folder, a
    path for another, False for none. Listed once, when the agent is built."""
    approve: Approve | None = None
    """Asked before any tool marked `requires_approval` runs; without it they never run."""
    approval: Literal["callback", "interrupt"] = "callback"
    """"callback": `approve` answers at once. "interrupt": the run pauses before such a tool
    (`stop_reason="needs_approval"`, its `state` in the result) until resumed with a decision."""
    interrupt_before: Sequence[str] = ()
    """Tools, by name, before which the run always pauses for a person's decision (LangGraph's
    `interrupt_before`), whether or not they are marked `requires_approval`."""
    state_key: str | bytes | None = None
    """Signs every paused run's `state` (HMAC-SHA256): a resume from a state that is not signed
    with it, or was changed, is refused before anything runs. Set it when the state travels
    through hands you do not trust (a browser, a chat session); see docs/pause-and-resume.md."""
    tool_timeout: float | None = None
    """Most seconds one tool call may take (a tool's `metadata["timeout"]` overrides it); then
    the Observation says it timed out. `max_execution_time` also bounds a running tool. None:
    no limit."""
    tool_retries: int = 0
    """Tries again a tool call that raised this many times before its error is the Observation,
    waiting `tool_retry_delay` seconds, then twice that, and so on (as LangChain's tool-retry
    middleware). A call that timed out is not tried again: it may still be running. A call that
    failed is never answered as a repeat."""
    tool_retry_delay: float = 0.5
    """Seconds before the first retry of a failed tool call; each next one waits twice as long."""
    checkpoint: RunStore | None = None
    """A checkpoint store (`pausing.checkpoints.SQLiteStore("runs.db")`): every step is written
    when it is recorded, and a run can be resumed by id. None: runs live in memory."""
    verbose: bool = False
    """Print a live transcript to the console, for every way of running."""
    max_prompt_tokens: int | None = None
    """Most tokens in one prompt: a thread's oldest turns go first, then older observations are
    shortened, a tool result handed in after the question first (`running/token_budget.py`). None:
    the model's `metadata["context_window"]` minus room for its reply, when it has one (the
    bundled local model does), else no budget."""
    max_tokens_per_run: int | None = None
    """Most input + output tokens in one run, summed from the replies' usage (None: no limit)."""
    model_retries: int = 2
    """Retries of a transient model failure (connection, timeout, 5xx, 429), with backoff."""
    response_format: Any = None
    """The Final Answer as a validated object: a Pydantic model, a `TypedDict` or a JSON-schema
    dict (or LangChain's `ToolStrategy` / `ProviderStrategy` holding one). The prompt states the schema, the answer is read as JSON and validated, and an invalid
    one goes back to the model like a format error; `result["structured_response"]` holds it."""
    final_answer_checks: Sequence[Check] = ()
    """Checks on the answer, each `check(answer, steps) -> str | None` (`answering.checks`,
    e.g. `grounded_numbers`): a message goes back to the model as the next Observation."""
    max_answer_retries: int = 2
    """How often the checks may send an answer back; then it is returned with
    `result["checks_failed"]`."""

    def __post_init__(self) -> None:
        """Reject options that would fail later, or worse, silently do something else."""
        if self.early_stopping_method not in ("force", "generate"):
            raise ValueError("early_stopping_method must be 'force' or 'generate'.")
        if self.approval not in ("callback", "interrupt"):
            raise ValueError("approval must be 'callback' or 'interrupt'.")
        if self.repeated_action not in ("warn", "allow"):
            raise ValueError("repeated_action must be 'warn' or 'allow'.")
        check_language(self.language)
        if callable(self.final_answer_checks):  # one check given bare
            object.__setattr__(self, "final_answer_checks", (self.final_answer_checks,))
        if not isinstance(self.system_prompt, str | SystemMessage):
            raise TypeError(
                f"system_prompt must be a string or a SystemMessage, not {type(self.system_prompt).__name__}."
            )
        check_limits(self)
        get_format(self.format)  # an unknown format fails here, naming the three
        check_store(self.checkpoint)
        if isinstance(self.stop, str) and self.stop != DEFAULT_STOP:
            raise TypeError(
                f"stop must be a list of strings, not the string {self.stop!r}: "
                f"write stop=[{self.stop!r}] (a bare string would be split into characters)."
            )
        check_types(vars(self), get_type_hints(AgentSettings))  # every option, its type

    @classmethod
    def of(cls, arguments: Mapping[str, Any]) -> AgentSettings:
        """The settings from a constructor's arguments (its `locals()`): each field by its name."""
        return cls(**{field.name: arguments[field.name] for field in fields(cls)})

    def stop_message(self, reason: str, **values: Any) -> str:
        """Why a run stopped without an answer, in the run's language, with the limit it hit."""
        if reason == "model_error":
            return message("model_failed", self.language, **values)
        option = LIMIT_OPTIONS[reason]
        return message(f"stopped_{reason}", self.language, limit=getattr(self, option), **values)

    @property
    def instructions(self) -> str:
        """`system_prompt` as text (a `SystemMessage`'s text)."""
        prompt = self.system_prompt
        return prompt.text if isinstance(prompt, SystemMessage) else prompt

    def answer_rules(self, tools: Sequence[BaseTool] = ()) -> AnswerRules:
        """What a Final Answer must be (`response_format`, `final_answer_checks`; neither: anything).

        Raises:
            TypeError: A check is not a function.
            ValueError: A `return_direct` tool would end the run with an answer nobody checks.
        """
        if self.response_format is None and not self.final_answer_checks:
            return AnswerRules(None, [], self.max_answer_retries, self.language)
        if not all(callable(check) for check in self.final_answer_checks):
            raise TypeError(
                "final_answer_checks takes functions check(answer, steps) -> str | None."
            )
        if direct := [tool.name for tool in tools if tool.return_direct]:
            raise ValueError(
                f"{', '.join(direct)} returns its output as the answer (return_direct), which "
                "response_format and final_answer_checks cannot check: drop one or the other."
            )
        schema = None if self.response_format is None else AnswerSchema(self.response_format)
        checks = self.final_answer_checks
        return AnswerRules(
            schema, checks, self.max_answer_retries, self.language, self.instructions
        )

    def tool_options(self) -> ToolOptions:
        """The options the toolbox reads: approval, budgets, time limits, the output limit."""
        return ToolOptions(
            language=self.language,
            approve=self.approve,
            approval=self.approval,
            interrupt_before=tuple(self.interrupt_before),
            repeated_action=self.repeated_action,
            max_tool_calls=self.max_tool_calls,
            tool_timeout=self.tool_timeout,
            tool_retries=self.tool_retries,
            tool_retry_delay=self.tool_retry_delay,
            max_execution_time=self.max_execution_time,
            max_observation_chars=self.max_observation_chars,
        )

    def prompt(self, tools: Sequence[BaseTool], answers: AnswerRules | None) -> ChatPromptTemplate:
        """The system prompt and the turns: the tools, the step format, the examples, the schema."""
        return self.react_format.build_prompt(
            tools,
            language=self.language,
            examples=self.examples,
            environment=self.environment,
            system_prompt=self.instructions,
            answer_schema=answers.schema if answers else None,
        )

    @property
    def react_format(self) -> ReActFormat:
        """The step format named by `format`."""
        return get_format(self.format)

    def stop_sequences(self, format_stop: tuple[str, ...]) -> list[str] | None:
        """The stop sequences to send: the format's, the caller's, or None."""
        chosen = format_stop if self.stop == DEFAULT_STOP else (self.stop or ())
        return list(chosen) or None


def check_limits(settings: AgentSettings) -> None:
    """Fail early when a limit, the approval callback or the state key is of the wrong kind.

    Raises:
        TypeError: A count that is not a whole number, an `approve` that is not a function.
        ValueError: A limit out of range, or a `state_key` too short to be a secret.
    """
    for name in ("max_iterations", "max_tool_calls", "max_tokens_per_run", "max_prompt_tokens"):
        check_count(name, getattr(settings, name), minimum=1, optional=True)
    check_count("max_consecutive_parse_failures", settings.max_consecutive_parse_failures, 1)
    check_count("max_observation_chars", settings.max_observation_chars, MIN_TRUNCATED, True)
    check_count("model_retries", settings.model_retries, 0)
    check_count("max_answer_retries", settings.max_answer_retries, 0)
    check_count("tool_retries", settings.tool_retries, 0)
    if isinstance(settings.interrupt_before, str):
        raise TypeError(
            f"interrupt_before takes a list of tool names: write [{settings.interrupt_before!r}]."
        )
    for name in ("max_execution_time", "tool_timeout"):
        value = getattr(settings, name)
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int | float) or value <= 0
        ):
            raise ValueError(
                f"{name} must be a number of seconds above 0 (or None), not {value!r}."
            )
    if not isinstance(settings.tool_retry_delay, int | float) or settings.tool_retry_delay < 0:
        raise ValueError(
            f"tool_retry_delay must be seconds, 0 or more, not {settings.tool_retry_delay!r}."
        )
    if settings.approve is not None and not callable(settings.approve):
        raise TypeError(
            f"approve must be a function (name, args) -> bool, not {settings.approve!r}."
        )
    if settings.state_key is not None and (
        not isinstance(settings.state_key, str | bytes) or len(settings.state_key) < 16
    ):
        raise ValueError("state_key must be a secret str or bytes of at least 16 characters.")
