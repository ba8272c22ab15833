"""`custom-react chat`: a conversation with the agent, one question after another, in one thread.

Each question is one run of `CustomReActAgent` with `config={"configurable": {"thread_id":
THREAD}}` and a checkpoint store, so it sees the thread's earlier questions and answers (not their
tool steps) as chat history. With `--checkpoint chat.db` the thread is kept in the file, and a
later `chat --thread THREAD` on the same file goes on with it; without, the thread lives in memory
until the command ends. A tool that needs approval asks at the prompt. An empty line, `exit`,
Ctrl-D or Ctrl-C ends the conversation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import typer

from custom_react.agent import CustomReActAgent
from custom_react.cli.support import answer, warn_unchecked
from custom_react.console.labels import REACT, SEPARATOR
from custom_react.events import RunFinished

ENDS = frozenset({"", "exit", "quit", "退出"})
"""What ends the conversation when typed as a question."""


def converse(
    agent: CustomReActAgent,
    thread: str,
    *,
    lang: str,
    quiet: bool,
    stream_tokens: bool,
    read: Callable[[str], str] = input,
) -> int:
    """Ask `read` for questions until the conversation ends; return how many were answered."""
    prompt = REACT[lang]["you"] + SEPARATOR[lang]
    config: Any = {"configurable": {"thread_id": thread}}
    answered = 0
    while True:
        try:
            question = read(prompt).strip()
        except (EOFError, KeyboardInterrupt):
            typer.echo("", err=True)
            return answered
        if question.lower() in ENDS:
            return answered
        events = answer(
            agent, question, lang=lang, quiet=quiet, stream_tokens=stream_tokens, config=config
        )
        last = events[-1]
        if quiet and isinstance(last, RunFinished):
            typer.echo(last.result.output)
        if isinstance(last, RunFinished):
            warn_unchecked(last.result)
        answered += isinstance(last, RunFinished) and last.result.answered
