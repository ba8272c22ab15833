"""The web server of `custom-react ui`: one page, one event stream, four buttons' endpoints.

Why this stack: Starlette is the small, maintained ASGI toolkit FastAPI is built on (Encode; it
is already installed with the `mcp` extra), served by uvicorn, its usual server. Updates go one
way, from the run to the page, so they are Server-Sent Events: plain HTTP that the browser's
built-in `EventSource` reads and reconnects by itself, with no client library. What the learner
does (ask, continue, fork, approve) is a plain `POST`. The page is one HTML file with its script
inline: nothing to build, nothing fetched from elsewhere, so it works offline. It listens on
127.0.0.1 only, with no account and no key.

Routes: `GET /` the page; `GET /events` the stream (`?until_done=1` ends it with the run, for
tests); `GET /items` the same items as JSON; `POST /ask` {question, step}; `POST /step`
{reply?, prompt?}; `POST /fork` {call, step?}; `POST /approve` {approve}.
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator
from importlib.resources import files
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from custom_react.ui.labels import PAGE, SCRIPTED
from custom_react.ui.session import Live, Session

HOST = "127.0.0.1"
POLL = 0.05
"""Seconds between looks for new items while a page listens."""


def make_app(session: Session, *, scripted: bool = False, model: str = "") -> Starlette:
    """The app serving `session`; `scripted` and `model` only change what the page says."""
    question = SCRIPTED[session.language]["question"] if scripted else ""
    page = Endpoints(
        session, {"lang": session.language, "question": question, "scripted": scripted}
    )
    page.settings["model"] = model
    routes = [
        Route("/", page.page),
        Route("/events", page.events),
        Route("/items", page.items),
        Route("/ask", page.ask, methods=["POST"]),
        Route("/step", page.step, methods=["POST"]),
        Route("/fork", page.fork, methods=["POST"]),
        Route("/approve", page.approve, methods=["POST"]),
    ]
    return Starlette(routes=routes)


class Endpoints:
    """What each route does with the session."""

    def __init__(self, session: Session, settings: dict[str, Any]) -> None:
        self.session = session
        self.settings = settings
        """What the page needs to start: language, a first question, which model."""

    async def page(self, request: Request) -> HTMLResponse:
        """The page, its settings and both languages' words written into its script."""
        html = files("custom_react.ui").joinpath("page.html").read_text(encoding="utf-8")
        data = json.dumps({"labels": PAGE, **self.settings}, ensure_ascii=False)
        return HTMLResponse(html.replace("/*SETTINGS*/{}", data.replace("</", "<\\/")))

    async def events(self, request: Request) -> StreamingResponse:
        """The current run's items as server-sent events, from `Last-Event-ID` on."""
        start = _resume_at(request.headers.get("last-event-id", ""), self.session)
        until_done = request.query_params.get("until_done") == "1"
        stream = _items(request, self.session, start, until_done)
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return StreamingResponse(stream, media_type="text/event-stream", headers=headers)

    async def items(self, request: Request) -> JSONResponse:
        """The current run's items as one JSON list (`?since=N`)."""
        return JSONResponse(self.session.since(int(request.query_params.get("since", "0"))))

    async def ask(self, request: Request) -> JSONResponse:
        """Start a run: {question, step}."""
        body = await _body(request)
        question = str(body.get("question", "")).strip()
        if not question:
            return JSONResponse({"error": "a question is needed"}, status_code=400)
        return JSONResponse({"run": self.session.start(question, bool(body.get("step")))})

    async def step(self, request: Request) -> Response:
        """Let the paused call go on: {reply?: the learner's reply, prompt?: its last message}."""
        body = await _body(request)
        choice = {key: body[key] for key in ("reply", "prompt") if body.get(key) is not None}
        return _answered(self.session.answer("step", choice))

    async def fork(self, request: Request) -> JSONResponse:
        """Run again from call k: {call, step}."""
        body = await _body(request)
        try:
            run = self.session.fork(int(body.get("call", 0)), bool(body.get("step", True)))
        except ValueError as error:
            return JSONResponse({"error": str(error)}, status_code=400)
        return JSONResponse({"run": run})

    async def approve(self, request: Request) -> Response:
        """The person's decision about the waiting tool: {approve}."""
        body = await _body(request)
        return _answered(self.session.answer("approval", {"approve": bool(body.get("approve"))}))


async def _items(
    request: Request, session: Session, start: int, until_done: bool
) -> AsyncIterator[str]:
    """Server-sent events: each item once, `id` its number; a comment now and then keeps it open."""
    sent = start
    run = session.run.number if session.run else 0
    quiet = 0.0
    while not await request.is_disconnected():
        if session.run is not None and session.run.number != run:  # a new run: from its start
            run = session.run.number
            sent = 0
        new = session.since(sent)
        for item in new:
            data = json.dumps(item, ensure_ascii=False)
            yield f"id: {item['run']}:{item['seq']}\ndata: {data}\n\n"
        sent += len(new)
        finished = session.run is not None and session.run.finished
        if until_done and finished and not session.since(sent):
            return
        quiet = 0.0 if new else quiet + POLL
        if quiet >= 15:
            quiet = 0.0
            yield ": still here\n\n"
        await asyncio.sleep(POLL)


def _resume_at(last_event_id: str, session: Session) -> int:
    """Where a page that reconnects goes on: after the last item it got, if still this run's."""
    run, _, seq = last_event_id.partition(":")
    current = session.run.number if session.run else 0
    if not seq.isdigit() or run != str(current):
        return 0
    return int(seq) + 1


async def _body(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _answered(given: bool) -> Response:
    """200 when the paused run took the answer; 409 when nothing of that kind was waiting."""
    if given:
        return JSONResponse({"ok": True})
    return JSONResponse({"error": "nothing is waiting for that"}, status_code=409)


def model_answers(llm: BaseChatModel) -> Live:
    """Answer each call with `llm`, sent the loop's own `stop` sequences."""

    def answer(messages: list[BaseMessage], stop: list[str] | None, number: int) -> AIMessage:
        reply = llm.invoke(messages, stop=stop)
        return reply if isinstance(reply, AIMessage) else AIMessage(content=reply.content)

    return answer


def scripted_answers(language: str) -> Live:
    """Answer call n with the scripted reply n (`labels.SCRIPTED`), offline."""
    replies = list(SCRIPTED[language]["replies"])
    no_more = str(SCRIPTED[language]["no_more"])

    def answer(messages: list[BaseMessage], stop: list[str] | None, number: int) -> AIMessage:
        text = replies[number - 1] if number <= len(replies) else no_more.format(n=number)
        return AIMessage(content=text)

    return answer


def scripted_session(language: str, folder: Path, max_iterations: int = 8) -> Session:
    """A session on the scripted model, with the default tools and a workspace in `folder`.

    The workspace brings `run_terminal_command`, which needs approval: the script asks for it.
    """
    from tools import default_tools
    from tools.workspace import make_workspace_tools

    tools = default_tools() + make_workspace_tools(folder)
    return Session(scripted_answers(language), tools, language, max_iterations)


def listen(port: int) -> socket.socket:
    """A socket bound to 127.0.0.1:PORT (0: any free port), before anything slow starts.

    Raises:
        OSError: The port is taken (another server listens there) or not allowed.
    """
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        server.bind((HOST, port))
    except OSError:
        server.close()
        raise
    return server


def serve(app: Starlette, server: socket.socket) -> None:
    """Serve the page on the bound socket until Ctrl-C."""
    import uvicorn

    uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[server])
