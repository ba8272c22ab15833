"""`PlanAndExecuteAgent`: plan, carry out one step with a ReAct agent, replan; one visible loop.

Plan-and-Solve (Wang et al., 2023) and LangChain's plan-and-execute split a task in two: a planner
writes the steps, an executor agent (here a `CustomReActAgent`) carries out the first step, and a
replanner reads the question, the plan and the past steps and writes either the steps still to do
or the final answer (the response); with `replan="on_failure"` it is asked only to repair a failed
step. The loop is a generator that yields its own events (`custom_react.plan.events`) and, between
`StepStarted` and `StepResult`, the executor's ReAct step events, so one printer shows each step's
transcript; `StepRunnable` makes it a `Runnable`. Not here: reading replies (`parser.py`), filling
the templates (`prompt.py`, `repair.py`), running a step (`execute.py`), the run's memory
(`memory.py`) and printing (`printing.py`).
"""

from __future__ import annotations

import warnings
from collections.abc import AsyncIterator, Callable, Generator, Iterator
from functools import partial
from typing import Any, Literal, TypeVar, get_args

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import Runnable, RunnableConfig

from custom_react.agent import CustomReActAgent
from custom_react.events import (
    RunFinished,
)
from custom_react.parser import FinalAnswer, ParseError
from custom_react.pausing.state import read_state
from custom_react.plan.events import (
    FinalResponse,
    PlanMade,
    PlanParseFailure,
    PlanRunEvent,
    PlanStage,
    Replanned,
    StepLimitReached,
)
from custom_react.plan.execute import execute_step
from custom_react.plan.memory import PlanRun, read_paused
from custom_react.plan.parser import Plan, parse_plan, parse_replan
from custom_react.plan.printing import PlanConsolePrinter
from custom_react.plan.prompt import (
    PLANNER_VARIABLES,
    REPAIR_VARIABLES,
    REPLANNER_VARIABLES,
    build_plan_prompt,
    conversation,
    replan_variables,
    system_turn,
)
from custom_react.plan.repair import finished_steps, plan_repaired, repair_variables
from custom_react.prompts import load_template, message
from custom_react.running.calls import Call, invoking
from custom_react.running.inputs import AgentInput, read_input
from custom_react.running.runnable import StepRunnable

T = TypeVar("T")
Replan = Literal["always", "on_failure"]
PlanLoop = Generator[PlanRunEvent | Call[Any], Any, T]
"""The plan-and-execute loop's generators: events (its own and the executor's) and calls."""


class PlanAndExecuteAgent(StepRunnable):
    """Plan-and-execute over any chat model, with a `CustomReActAgent` carrying out each step.

    Args:
        llm: The chat model that plans and replans (plain text in, plain text out).
        executor: The ReAct agent that carries out one step at a time; its tools are listed in the
            planner's and replanner's prompts.
        max_steps: Most steps executed in one run; then the run stops with `max_iterations`.
            Every step counts, retried and inserted ones too, so it also bounds the repairs.
        replan: "always": the replanner reads every step's result and answers or writes the
            steps still to do. "on_failure": after a step that worked the next planned step runs
            with no replanner call, and when the plan runs out the last step's result is the
            answer (`stop_reason` "final_answer"); a failed step (status "stopped" or "error")
            goes to the repair replanner, which answers or writes the steps still to do.
        planner_prompt: A template for the planner instead of `custom_react/prompts/planner_<language>.txt`.
            It must contain `{input}` and may contain `{tools}` and `{tool_names}`.
        replanner_prompt: A template for the replanner instead of the bundled one. It must contain
            `{input}`, `{plan}` and `{past_steps}` and may contain `{tools}` and `{tool_names}`.
        repair_prompt: A template for the repair replanner instead of `repair_<language>.txt`. It
            must contain `{input}`, `{past_steps}`, `{failed_step}`, `{error}` and `{plan}`.
        max_consecutive_parse_failures: Unreadable replies in a row that end a planning stage.
        language: "en" or "zh": the bundled templates and the printed labels.
        system_prompt: Your instructions for the planner and the replanners, as their system
            turn (the executor, a `CustomReActAgent`, takes its own `system_prompt`).
        verbose: Print the plans, each step's ReAct transcript and the answer to the console.
    """

    printer_type = PlanConsolePrinter
    announces_steps = False  # its executor's runs tell their own steps

    def __init__(
        self,
        llm: BaseChatModel,
        executor: CustomReActAgent,
        *,
        max_steps: int = 6,
        replan: Replan = "always",
        planner_prompt: str | None = None,
        replanner_prompt: str | None = None,
        repair_prompt: str | None = None,
        max_consecutive_parse_failures: int = 2,
        language: str = "en",
        system_prompt: str = "",
        verbose: bool = False,
    ) -> None:
        if max_steps < 1 or max_consecutive_parse_failures < 1:
            raise ValueError("max_steps and max_consecutive_parse_failures must be at least 1.")
        if replan not in get_args(Replan):
            raise ValueError(f"replan must be 'always' or 'on_failure', not {replan!r}.")
        self.llm = llm
        self.executor = executor
        self.max_steps = max_steps
        self.language = language
        self.system_prompt = system_prompt
        self.replan = replan
        self.max_consecutive_parse_failures = max_consecutive_parse_failures
        self.planner = self._chain("planner", planner_prompt, PLANNER_VARIABLES)
        self.replanner = self._chain("replanner", replanner_prompt, REPLANNER_VARIABLES)
        self.repair = self._chain("repair", repair_prompt, REPAIR_VARIABLES)
        self.watch(verbose, language)

    def _chain(
        self, name: str, template: str | None, variables: frozenset[str]
    ) -> Runnable[dict[str, Any], BaseMessage]:
        """The prompt and the model for one stage, named after it in callbacks."""
        text = template or load_template(name, self.language)
        tools = self.executor.tools
        prompt = build_plan_prompt(text, variables, tools, name, self.system_prompt, self.language)
        return (prompt | self.llm).with_config(run_name=name)

    def stream_final_answer(
        self, input: AgentInput, config: RunnableConfig | None = None
    ) -> Iterator[str]:
        """The run's answer, whole, once the replanner gives it (a step's answer is not it)."""
        for event in self.stream(input, config):
            if isinstance(event, RunFinished) and event.result.stop_reason == "final_answer":
                yield event.result.output

    async def astream_final_answer(
        self, input: AgentInput, config: RunnableConfig | None = None
    ) -> AsyncIterator[str]:
        """Async `stream_final_answer`."""
        async for event in self.astream(input, config):
            if isinstance(event, RunFinished) and event.result.stop_reason == "final_answer":
                yield event.result.output

    # -- The plan-and-execute loop --------------------------------------------------------------

    def _loop(
        self, agent_input: AgentInput, config: RunnableConfig, stream_tokens: bool
    ) -> PlanLoop[None]:
        """The loop: plan, then execute steps and replan until an answer; ends with `RunFinished`.

        A step whose executor pauses for a person's approval pauses the run: its `state` holds
        the plan and the executor's paused run, and `{"resume": state, "decision": ...}` carries
        that step on with the decision, then the plan as before (one resume finishes both).
        """
        run, plan, done, resume = yield from self._start(agent_input, config)
        while True:
            if len(run.past_steps) >= self.max_steps:
                yield StepLimitReached(len(run.past_steps))
                left = plan.steps[done:]  # the steps still planned
                stopped = message("plan_stopped", self.language)
                yield RunFinished(run.result(stopped, "max_iterations", left))
                return
            # Execute: the ReAct executor carries out the next step; its result is a past step.
            status = yield from execute_step(
                self.executor, plan, done, run, self.language, config, stream_tokens, resume
            )
            resume = None
            if status == "paused":  # a person decides first: the run ends here, resumable
                yield RunFinished(run.paused(plan, done, self.executor.settings.state_key))
                return
            done += 1
            if self.replan == "always" or status != "ok":
                # Replan: the replanner (after a failed step, the repair replanner) reads the
                # finished steps and the steps left, then answers or writes the steps to do.
                reply = yield from self._replan(plan.steps[done:], run, config)
            elif done < len(plan.steps):
                continue  # replan="on_failure" and the step worked: on to the next, no replanner
            else:  # ... and it was the plan's last step: its result is the answer
                reply = FinalResponse(run.past_steps[-1][1], source="last_step")
            if isinstance(reply, FinalResponse):
                yield reply
                yield RunFinished(run.result(reply.output, "final_answer", []))
                return
            if reply is None:  # no readable reply: the last step's result is the best answer
                output = run.past_steps[-1][1]
                yield RunFinished(run.result(output, "parse_failures", plan.steps[done:]))
                return
            yield self._replanned(plan.steps[done:], reply, run)
            plan = reply
            done = 0

    def _start(
        self, agent_input: AgentInput, config: RunnableConfig
    ) -> PlanLoop[tuple[PlanRun, Plan, int, dict[str, Any] | None]]:
        """The run, its plan, the steps of it done, and a paused step's decision, if resumed.

        A new question is planned first (`PlanMade`); a resumed run's state is checked first.
        """
        if isinstance(agent_input, dict) and "resume" in agent_input:
            key = (
                self.executor.settings.state_key
            )  # the whole state is checked before anything runs
            run, plan, done, waiting = read_paused(agent_input["resume"], key)
            read_state(waiting, key)
            return run, plan, done, {"resume": waiting, "decision": agent_input.get("decision")}
        question, chat_history, asked, handed = read_input(agent_input)
        if handed:  # the planner plans from the question and the conversation before it
            warnings.warn(
                f"The {len(handed)} messages after the question are left out: Plan-and-Execute "
                "plans from the question; give them to CustomReActAgent, or before the question.",
                stacklevel=2,
            )
        run = PlanRun(question, chat_history, asked=asked)
        # Plan: the planner reads the question and writes the steps.
        written = yield from self._ask("planner", self.planner, parse_plan, {}, run, config)
        # No readable plan: the one step is the question itself.
        plan = written if isinstance(written, Plan) else Plan((run.question,))
        yield PlanMade(plan.steps, plan.thought)
        return run, plan, 0, None

    def _replan(
        self, planned: tuple[str, ...], run: PlanRun, config: RunnableConfig
    ) -> PlanLoop[Plan | FinalResponse | None]:
        """Ask the replanner, or with `replan="on_failure"` the repair replanner about a failed step.

        Steps of its new plan that are already done are dropped (a failed step may come again).
        """
        if self.replan == "on_failure":
            variables = repair_variables(run.past_steps, planned, self.language)
            read = partial(parse_replan, done=finished_steps(run.past_steps))
            reply = yield from self._ask("repair", self.repair, read, variables, run, config)
        else:
            variables = replan_variables(run.past_steps, planned, self.language)
            read = partial(parse_replan, done=[step for step, _ in run.past_steps])
            reply = yield from self._ask("replanner", self.replanner, read, variables, run, config)
        if isinstance(reply, FinalAnswer):  # its message in the run reads as the answer
            return run.answered(FinalResponse(reply.output, reply.thought))
        return reply

    def _replanned(self, planned: tuple[str, ...], plan: Plan, run: PlanRun) -> Replanned:
        """The new plan's event: `Replanned`, or `PlanRepaired` saying what the repair changed."""
        if self.replan == "on_failure":
            return plan_repaired(run.past_steps[-1][0], planned, plan)
        return Replanned(plan.steps, plan.thought, plan.repeated)

    def _ask(
        self,
        stage: PlanStage,
        chain: Runnable[dict[str, Any], BaseMessage],
        parse: Callable[..., Plan | FinalAnswer],
        variables: dict[str, str],
        run: PlanRun,
        config: RunnableConfig,
    ) -> PlanLoop[Plan | FinalAnswer | None]:
        """Ask the planner or replanner; an unreadable reply goes back to it with the error.

        `parse(reply, language=...)` reads the reply; its error is in the run's language.
        """
        feedback: list[BaseMessage] = []
        inputs = {
            "input": run.question,
            "chat_history": conversation(run.chat_history),  # its system messages open `system`
            "system": system_turn(run.chat_history, self.system_prompt),
            **variables,
        }
        for attempt in range(1, self.max_consecutive_parse_failures + 1):
            reply = yield invoking(chain, {**inputs, "feedback": feedback}, config)
            run.add_reply(stage, reply)
            try:
                return parse(reply.text, language=self.language)
            except ParseError as error:
                run.add_parse_failure(str(error))
                yield PlanParseFailure(stage, reply.text, str(error), attempt)
                feedback += [AIMessage(content=reply.text), HumanMessage(content=str(error))]
        return None
