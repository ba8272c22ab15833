"""ReAct in 40 lines: a plain `while`, one model call with `stop`, a regex parser, a dict of tools.

    python demos/react_in_40_lines.py --scripted                 # offline: a scripted model
    python demos/react_in_40_lines.py "What is 12.5% of 2480?"   # the bundled model (or your key)

The agent is the first 40 lines of code (the imports, the prompt, the parser and `react`); the
command line after it picks the model. This is the whole idea of an agent. `custom_react/agent.py`
is this loop grown up: a guard for each way it breaks, one record per step, a real LangChain
`Runnable`. docs/react-in-40-lines.md walks from one to the other.
"""

import re
import sys
from contextlib import nullcontext

from custom_react.serving.models import ModelSettings, open_chat_model
from custom_react.testing import Script
from tools import default_tools

PROMPT = """Answer the question. You have these tools:
{tools}
Use this format, repeating Thought, Action, Action Input and Observation as needed:
Thought: what to do next
Action: the tool to use, one of [{names}]
Action Input: the tool's input
Observation: the tool's result
Final Answer: the answer

Question: {question}
"""
ACTION = re.compile(r"Action:\s*(.+?)\s*\nAction Input:\s*(.+)", re.DOTALL)
ANSWER = re.compile(r"Final Answer:\s*(.+)", re.DOTALL)


def react(llm, question, max_steps=8):
    tools = {tool.name: tool for tool in default_tools()}  # name -> tool
    listed = "\n".join(f"{name}: {tool.description}" for name, tool in tools.items())
    transcript = PROMPT.format(tools=listed, names=", ".join(tools), question=question)
    while max_steps > 0:
        max_steps -= 1
        # Thought: the model continues the transcript, and stops before it invents an Observation.
        reply = "Thought:" + llm.invoke(transcript + "Thought:", stop=["\nObservation:"]).text
        print(reply)
        if answer := ANSWER.search(reply):  # Final Answer: the run ends with it
            return answer.group(1).strip()
        if action := ACTION.search(reply):  # Action: run the tool; its result is the Observation
            tool = tools.get(action.group(1).strip())
            observation = tool.invoke(action.group(2).strip()) if tool else "No such tool."
        else:
            observation = "Invalid format: write an Action and its Action Input, or a Final Answer."
        print(f"Observation: {observation}")
        transcript += f"{reply}\nObservation: {observation}\n"
    return "No answer within the step limit."


# The command line, not the agent: which model answers, and the question.
def chat_model():
    """The bundled model (or your key's); with --scripted, two replies written in advance."""
    if "--scripted" not in sys.argv:
        return open_chat_model(ModelSettings.from_env())
    step = " I need 12.5% of 2480.\nAction: calculator\nAction Input: 12.5% of 2480"
    return nullcontext(Script(step, " I know it.\nFinal Answer: 310").model)


if __name__ == "__main__":
    if {"-h", "--help"} & set(sys.argv):  # how to run it, without opening a model
        print(__doc__)
        sys.exit()
    question = " ".join(arg for arg in sys.argv[1:] if arg != "--scripted")
    with chat_model() as llm:
        print("Final Answer:", react(llm, question or "What is 12.5% of 2480?"))
