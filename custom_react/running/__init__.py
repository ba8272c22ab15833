"""How the loop meets the outside world: `invoke` and `ainvoke`, the model call, the prompt budget.

The loop in `agent.py` yields a `Call` wherever it needs the model or a tool, and events for
whoever watches (`Loop`). `calls.py` holds the `Call` and the two drivers that make the calls
(plainly, or awaited), with their time limits; `runnable.py` turns a loop into a LangChain
`Runnable` (`invoke`, `ainvoke`, `stream`, `astream`) and `inputs.py` reads what it takes;
`model_call.py` is the model call made dependable (retries, a refused `stop`, streamed tokens);
`token_budget.py` keeps every prompt within the model's window (`tokens.py` counts,
`first_fit.py` finds the first shortening that fits); `answer_stream.py` yields the Final Answer
alone as it is written; `sub_agents.py` is the one home of sub-agents: an agent as a tool of
another, its events nested as they happen, its pause the caller's. `traced.py` makes a streamed
run one chain run in callbacks that ends with the result dict, as `invoke`'s does;
`chat_model.py` takes the model an agent is given (a "provider:model" string too); `options.py`
checks options against their annotated types when an agent is built; `context.py` gives tools
the run's context; `prompt_log.py` keeps each model call's exact prompt and raw reply (a
callback handler the loop never sees). Import from the modules themselves: this file re-exports
nothing.
"""
