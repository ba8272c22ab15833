"""httpx transports for the local server's clients: blame a dead server, not the network.

When the llama.cpp server dies, a request to it fails with openai's bare "Connection error."
``WatchedTransport`` and ``AsyncWatchedTransport`` ask the server's owner first (a ``check``
callable that raises when the process has exited), so the caller sees the exit code and the log
tail instead. ``watched_clients`` builds the pair of clients ``ChatOpenAI`` takes. Nothing here
knows about processes or starts anything: the check is injected by
``LocalModelServer``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import httpx

LOCAL_TIMEOUT = 900.0
"""Seconds one request to the local server may take. A CPU model writes about 5 tokens/s on one
core, so a 1,500-token reply (a source file) takes five minutes; a server that dies is caught at
once by these transports, so the timeout only guards against one that hangs."""

Check = Callable[[float], None]
"""``check(grace)`` raises if the server has exited (waiting up to ``grace`` s for an exit in
progress) and returns if it still runs."""


class WatchedTransport(httpx.HTTPTransport):
    """An httpx transport that blames a dead server, not the network, when a request fails."""

    def __init__(self, check: Check) -> None:
        """Wrap the default transport; ``check`` runs before each request and after a failure."""
        super().__init__()
        self._check = check

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        """Send ``request`` unless the server is gone; let ``check`` explain a transport error.

        A dead server raises ``check``'s error (before sending, or after the failed request);
        a server that still runs leaves the original ``httpx.TransportError`` to propagate.
        """
        self._check(0.0)
        try:
            return super().handle_request(request)
        except httpx.TransportError:
            self._check(1.0)  # a server killed mid-request closes the socket just before exiting
            raise


class AsyncWatchedTransport(httpx.AsyncHTTPTransport):
    """The asynchronous twin of ``WatchedTransport``."""

    def __init__(self, check: Check) -> None:
        """Wrap the default transport; ``check`` runs before each request and after a failure."""
        super().__init__()
        self._check = check

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Send ``request`` as ``WatchedTransport.handle_request`` does, without blocking the loop.

        The one-second wait for an exit in progress runs in a worker thread.
        """
        self._check(0.0)
        try:
            return await super().handle_async_request(request)
        except httpx.TransportError:
            await asyncio.to_thread(self._check, 1.0)
            raise


def watched_clients(check: Check) -> dict[str, Any]:
    """Return ``ChatOpenAI``'s ``http_client`` and ``http_async_client``, both watched by ``check``.

    Both ignore proxy variables (``trust_env=False``): loopback traffic must not go through an
    ``HTTP(S)_PROXY``.
    """
    return {
        "http_client": httpx.Client(transport=WatchedTransport(check), trust_env=False),
        "http_async_client": httpx.AsyncClient(
            transport=AsyncWatchedTransport(check), trust_env=False
        ),
    }
