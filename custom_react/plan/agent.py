"""`PlanAndExecuteAgent`: plan, carry out one step with a ReAct agent, replan; one visible loop.

Plan-and-Solve (Wang et al., 2023) and LangChain's plan-and-execute split a task in two: a planner
writes the steps, an executor agent (here a `CustomReActAgent`) carries out the first step, and a
replanner reads the question, the plan and the past steps and writes either the steps still to do
or the final answer (the response). The loop is a generator that yields its own events
(`custom_react.plan.events`) and, between `StepStarted` and `StepResult`, the executor's ReAct step
events, so one printer shows each step's transcript; `StepRunnable` makes it a `Runnable`. Not
here: reading replies (`plan_parser.py`), filling the templates (`plan_prompt.py`, `custom_react/prompts/`),
the run's memory (`plan_memory.py`) and printing (`printing.py`).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from functools import partial
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import Runnable, RunnableConfig

from custom_react import events as ev
from custom_react.agent import CustomReActAgent
from custom_react.calls import Steps, invoking, next_event
from custom_react.parser import FinalAnswer, ParseError
from custom_react.plan.events import (
    FinalResponse,
    PlanMade,
    PlanParseFailure,
    PlanStage,
    Replanned,
    StepLimitReached,
    StepResult,
    StepStarted,
    StepStatus,
)
from custom_react.plan.memory import PlanRun
from custom_react.plan.parser import Plan, parse_plan, parse_replan
from custom_react.plan.printing import PlanConsolePrinter
from custom_react.plan.prompt import (
    PLANNER_VARIABLES,
    REPLANNER_VARIABLES,
    build_plan_prompt,
    render_past_steps,
    render_plan,
    step_task,
)
from custom_react.prompts import load_template
from custom_react.runnable import AgentInput, StepRunnable, read_input

STOPPED_MESSAGE = "Plan-and-execute stopped at the step limit before a final answer."
_Ask = Steps[Plan | FinalAnswer | None]


class PlanAndExecuteAgent(StepRunnable):
    """Plan-and-execute over any chat model, with a `CustomReActAgent` carrying out each step.

    Args:
        llm: The chat model that plans and replans (plain text in, plain text out).
        executor: The ReAct agent that carries out one step at a time; its tools are listed in the
            planner's and replanner's prompts.
        max_steps: Most steps executed in one run; then the run stops with `max_iterations`.
        planner_prompt: A template for the planner instead of `custom_react/prompts/planner_<language>.txt`.
            It must contain `{input}` and may contain `{tools}` and `{tool_names}`.
        replanner_prompt: A template for the replanner instead of the bundled one. It must contain
            `{input}`, `{plan}` and `{past_steps}` and may contain `{tools}` and `{tool_names}`.
        max_consecutive_parse_failures: Unreadable replies in a row that end a planning stage.
        language: "en" or "zh": the bundled templates and the printed labels.
        verbose: Print the plans, each step's ReAct transcript and the answer to the console.
    """

    printer_type = PlanConsolePrinter

    def __init__(
        self,
        llm: BaseChatModel,
        executor: CustomReActAgent,
        *,
        max_steps: int = 6,
        planner_prompt: str | None = None,
        replanner_prompt: str | None = None,
        max_consecutive_parse_failures: int = 2,
        language: str = "en",
        verbose: bool = False,
    ) -> None:
        if max_steps < 1 or max_consecutive_parse_failures < 1:
            raise ValueError("max_steps and max_consecutive_parse_failures must be at least 1.")
        self.llm, self.executor, self.max_steps, self.language = llm, executor, max_steps, language
        self.max_consecutive_parse_failures = max_consecutive_parse_failures
        planner = planner_prompt or load_template("planner", language)
        replanner = replanner_prompt or load_template("replanner", language)
        tools = executor.tools
        prompt = build_plan_prompt(planner, PLANNER_VARIABLES, tools, "planner")
        self.planner = (prompt | llm).with_config(run_name="planner")
        prompt = build_plan_prompt(replanner, REPLANNER_VARIABLES, tools, "replanner")
        self.replanner = (prompt | llm).with_config(run_name="replanner")
        self.watch(verbose, language)

    # -- The plan-and-execute loop --------------------------------------------------------------

    def _loop(self, agent_input: AgentInput, config: RunnableConfig) -> Steps[None]:
        """The loop: plan, then execute a step and replan until an answer; ends with `RunFinished`."""
        run = PlanRun(*read_input(agent_input))
        # Plan: the planner reads the question and writes the steps.
        plan = yield from self._ask("planner", self.planner, parse_plan, {}, run, config)
        if not isinstance(plan, Plan):  # no readable plan: the one step is the question itself
            plan = Plan((run.question,))
        yield PlanMade(plan.steps, plan.thought)
        while True:
            if len(run.past_steps) >= self.max_steps:
                yield StepLimitReached(len(run.past_steps))
                yield ev.RunFinished(run.result(STOPPED_MESSAGE, "max_iterations", plan.steps))
                return
            # Execute: the ReAct executor carries out the first step; its result is a past step.
            yield from self._execute(plan.steps[0], run, config)
            # Replan: the replanner reads the finished steps and the steps left, then answers or
            # writes the steps still to do.
            reply = yield from self._replan(plan, run, config)
            if isinstance(reply, FinalAnswer):
                yield FinalResponse(reply.output, reply.thought)
                yield ev.RunFinished(run.result(reply.output, "final_answer", []))
                return
            if reply is None:  # no readable reply: the last step's result is the best answer
                output = run.past_steps[-1][1]
                yield ev.RunFinished(run.result(output, "parse_failures", plan.steps[1:]))
                return
            plan = reply
            yield Replanned(plan.steps, plan.thought, plan.repeated)

    def _replan(self, plan: Plan, run: PlanRun, config: RunnableConfig) -> _Ask:
        """Ask the replanner; steps of its new plan that are already done are dropped."""
        variables = {
            "plan": render_plan(plan.steps[1:], self.language),
            "past_steps": render_past_steps(run.past_steps, self.language),
        }
        read = partial(parse_replan, done=[step for step, _ in run.past_steps])
        return (yield from self._ask("replanner", self.replanner, read, variables, run, config))

    def _ask(
        self,
        stage: PlanStage,
        chain: Runnable[dict[str, Any], BaseMessage],
        parse: Callable[[str], Plan | FinalAnswer],
        variables: dict[str, str],
        run: PlanRun,
        config: RunnableConfig,
    ) -> _Ask:
        """Ask the planner or replanner; an unreadable reply goes back to it with the error."""
        feedback: list[BaseMessage] = []
        inputs = {"input": run.question, "chat_history": run.chat_history, **variables}
        for attempt in range(1, self.max_consecutive_parse_failures + 1):
            reply = yield invoking(chain, {**inputs, "feedback": feedback}, config)
            run.add_reply(stage, reply)
            try:
                return parse(reply.text)
            except ParseError as error:
                run.add_parse_failure(str(error))
                yield PlanParseFailure(stage, reply.text, str(error), attempt)
                feedback += [AIMessage(content=reply.text), HumanMessage(content=str(error))]
        return None

    def _execute(self, step: str, run: PlanRun, config: RunnableConfig) -> Steps[None]:
        """Run the executor on one step: its step events, then the `StepResult`."""
        number = len(run.past_steps) + 1
        task = step_task(step, run.question, run.past_steps, self.language)
        yield StepStarted(number, step, task)
        result: ev.AgentResult | None = None
        status: StepStatus = "ok"
        # The executor's events, one at a time: `stream` under `invoke`, `astream` under `ainvoke`.
        step_events = next_event(
            self.executor.stream(task, config), self.executor.astream(task, config)
        )
        try:
            while (event := (yield step_events)) is not None:
                if isinstance(event, ev.RunFinished):
                    result = event.result  # the step's end, not the run's: it becomes StepResult
                else:
                    yield event
        except Exception as error:  # the executor is this loop's tool: its failure is a result
            text, status = f"Error: the step failed: {type(error).__name__}: {error}", "error"
        else:
            text, status = step_outcome(result)
        run.add_step(step, text, result)
        yield StepResult(number, step, text, status)


def step_outcome(result: ev.AgentResult | None) -> tuple[str, StepStatus]:
    """The text the replanner reads for one executor run, and whether the step finished."""
    if result is None:
        raise RuntimeError("The executor's stream ended without a RunFinished event.")
    if result.stop_reason == "final_answer":
        return result.output, "ok"
    last = result.intermediate_steps[-1][1] if result.intermediate_steps else ""
    seen = f" Last observation: {textwrap.shorten(last, 500)}" if last else ""
    return f"{result.output} (stop reason: {result.stop_reason}).{seen}", "stopped"
