"""Run crewAI's ReAct parser over texts; used by `bench/peer_parsers.py` under crewAI's own venv.

Reads a JSON list of reply texts on stdin and writes a JSON list with, per text, what
`crewai.agents.parser.parse` made of it: `{"tool", "tool_input"}`, `{"final"}` or `{"error": true}`.
It imports only crewAI, so it runs with an interpreter that has crewAI and not this project:

    echo '["Action: search\\nAction Input: x"]' | /path/to/crewai-venv/bin/python bench/crewai_parse.py
"""

from __future__ import annotations

import json
import sys

from crewai.agents.parser import AgentAction, parse


def parse_one(text: str) -> dict[str, object]:
    """What crewAI's parser returns for one text, as plain JSON."""
    try:
        step = parse(text)
    except Exception:  # crewAI raises OutputParserError, and a bug may raise anything: a refusal
        return {"error": True}
    if isinstance(step, AgentAction):
        return {"tool": step.tool, "tool_input": step.tool_input}
    output = step.output
    return {"final": output if isinstance(output, str) else output.model_dump_json()}


if __name__ == "__main__":
    json.dump([parse_one(text) for text in json.load(sys.stdin)], sys.stdout, ensure_ascii=False)
