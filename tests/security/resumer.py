"""A resumer process for the exactly-once tests: resumes paused runs from an SQLite store.

    python resumer.py once DB LOG RUN [DECISION_JSON]   # one resume; CRASH_AT may kill it
    python resumer.py race DB LOG DIR ROUNDS WHO        # one resume per round, at a barrier

The tool (`deploy`) writes one line to LOG per call: the side effect the tests count. With the
environment variable CRASH_AT the process kills itself (SIGKILL, no cleanup) at that point:
`before_claim`, `after_claim`, `after_tool` (the line is written, no step recorded yet) or
`after_record` (the tool's step is recorded, the run has not finished). Each resume prints one
JSON line: {"outcome": "final_answer" | "refused" | "ended" | ..., "message": ...}.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

from langchain_core.tools import tool

from custom_react import CustomReActAgent
from custom_react.pausing.checkpoints import SQLiteStore
from custom_react.pausing.store import ResumeRefused
from custom_react.testing import Script

CRASH_AT = os.environ.get("CRASH_AT", "")
SLEEP = float(os.environ.get("TOOL_SLEEP", "0"))


def say(outcome: dict[str, Any]) -> None:
    """Tell the test what happened: one JSON line on standard output."""
    sys.stdout.write(json.dumps(outcome) + "\n")
    sys.stdout.flush()


def crash(point: str) -> None:
    """Die here, as `kill -9` would, when CRASH_AT names this point."""
    if point == CRASH_AT:
        sys.stdout.flush()
        os.kill(os.getpid(), signal.SIGKILL)


class CrashingStore(SQLiteStore):
    """The real store, with kill points around the claim and the tool's recorded step."""

    def claim(self, run_id: str, call_id: str) -> Any:
        crash("before_claim")
        claim = super().claim(run_id, call_id)
        crash("after_claim")
        return claim

    def add_step(self, run_id: str, index: int, step: dict[str, Any]) -> None:
        super().add_step(run_id, index, step)
        if step.get("kind") == "tool_step":
            crash("after_record")


def agent(db: str, log: Path) -> CustomReActAgent:
    @tool
    def deploy(target: str) -> str:
        """Deploy the build to a target."""
        with log.open("a", encoding="utf-8") as out:
            out.write(f"{target} {os.getpid()}\n")
        crash("after_tool")
        time.sleep(SLEEP)
        return f"deployed to {target}"

    deploy.metadata = {"requires_approval": True}
    model = Script("Final Answer: deployed")
    return CustomReActAgent(
        model.model, [deploy], checkpoint=CrashingStore(db), approval="interrupt"
    )


def resume(db: str, log: Path, saved: Any, decision: Any) -> dict[str, Any]:
    """One resume, and how it ended."""
    given = {"resume": saved} if decision is None else {"resume": saved, "decision": decision}
    try:
        result = agent(db, log).invoke(given)
    except ResumeRefused as error:
        return {"outcome": "refused", "message": str(error)}
    except ValueError as error:
        ended = "already ended" in str(error)
        return {"outcome": "ended" if ended else "invalid", "message": str(error)}
    return {"outcome": result["stop_reason"], "message": result["output"]}


def main(argv: list[str]) -> None:
    mode, db, log = argv[0], argv[1], Path(argv[2])
    if mode == "once":
        decision = json.loads(argv[4]) if len(argv) > 4 else None
        say(resume(db, log, argv[3], decision))
        return
    folder, rounds, who = Path(argv[3]), int(argv[4]), argv[5]
    for round_ in range(rounds):
        (folder / f"ready-{round_}-{who}").touch()
        go = folder / f"go-{round_}"
        deadline = time.monotonic() + 30
        while not go.exists():
            if time.monotonic() > deadline:
                raise SystemExit(f"no go for round {round_}")
            time.sleep(0.001)
        spec = json.loads(go.read_text(encoding="utf-8"))
        outcome = resume(db, log, spec["resume"], {"approve": True})
        say({"round": round_, **outcome})


if __name__ == "__main__":
    main(sys.argv[1:])
