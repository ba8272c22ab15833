"""What `parser.py` uses to read replies in the wild; a learner may skip this folder at first.

`markers.py` finds the ReAct markers (in any case, language or markdown) and splits a reply into
sections, and is the one home of the marker words; `thinking.py` takes out what is not the step
(`<think>` blocks, gpt-oss's analysis channel, a chat template's end-of-turn token); `action.py`
reads the action a reply spells (a JSON call, function tags, `tool(args)`, the paper's
`tool[input]`, a name and its input), with `call_wrappers.py` saying what the tags around a JSON
call mean (`<tool_call>`, LM Studio's `[TOOL_REQUEST]`); `tool_name.py` turns a name as written
into the name meant
(or none: `Action: None`);
`action_input.py` reads an Action Input (text, or a JSON object of arguments); `call_syntax.py`
reads a call written like Python, `function_tags.py` one in tags (`<function=...>`, GLM's),
`token_calls.py` one between a model's tool-call tokens; `json_repair.py` reads the JSON small
models write. Three readers are told the tools, and the step formats put them after their parser:
`prose_calls.py` (a call of one of them in Cline's tags ending a reply with no marker),
`answer_calls.py` (one written like Python as the whole of an `<answer>` block) and
`placeholder_action.py` (an Action line that copied the prompt's list of tools, the tool named
where the input starts). All pure, all linear time.
"""
