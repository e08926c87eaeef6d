"""What the app's WebSockets share: a connection that sends in order and drops a client that
stops reading, the door (a per-address limit on opening sockets) and the message loop (a
per-socket budget of messages), and the shape of an error message.

The tables (``tables/routes.py``) and the duplicate rooms (``duplicate/routes.py``) each say
what a message means; how a socket is opened, read, limited and answered is here, once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

from fastapi import WebSocket

from ..errors import ApiError
from .load import WS_CLOSE_TRY_LATER
from .ratelimit import WS_CLOSE_RATE_LIMITED, RateLimiter, Verdict
from .requests import client_address

__all__ = [
    "SEND_TIMEOUT",
    "WS_CLOSE_TOO_SLOW",
    "SendWatch",
    "WsConnection",
    "answer_messages",
    "error_message",
    "open_socket",
    "refuse_socket",
    "send_watch",
]

log = logging.getLogger("tablero.server")

SEND_TIMEOUT = 5.0
"""Seconds a client may take to accept a state before it is disconnected (it can reconnect)."""
WS_CLOSE_TOO_SLOW = 4408
"""Close code for a client that did not read its messages in time."""
WS_CLOSE_NOT_FOUND = 4404
"""Close code for a socket on a table or room that does not exist (or cannot be opened)."""


class SendWatch:
    """Finds the WebSockets that have not taken a state within ``SEND_TIMEOUT``.

    One task for every socket of the process, waking once a second, rather than a timer for
    each message sent: at 100 moves a second (500 states) the timers of ``asyncio.wait_for``
    kept 2,500 timer handles with their contexts alive at any moment, and the garbage
    collector walked them again and again (``benchmarks/bench_server.py --tables 1000``).
    """

    def __init__(self) -> None:
        self.sending: dict[WsConnection, float] = {}
        """The sockets in the middle of a send, with the loop time it began."""
        self._task: asyncio.Task[None] | None = None

    @contextlib.contextmanager
    def watching(self, conn: WsConnection) -> Iterator[None]:
        loop = asyncio.get_running_loop()
        self.sending[conn] = loop.time()
        if self._task is None:
            self._task = loop.create_task(self._watch())
        try:
            yield
        finally:
            self.sending.pop(conn, None)

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self.sending:
                await asyncio.sleep(1.0)
                now = loop.time()
                for conn, since in list(self.sending.items()):
                    if now - since > SEND_TIMEOUT:
                        self.sending.pop(conn, None)
                        conn.too_slow()
        finally:
            self._task = None


class WsConnection:
    """One WebSocket; sends are serialized (a broadcast and a reply may overlap). ``seat`` is
    None (a spectator) until an ``auth`` message names a seat's token."""

    def __init__(self, websocket: WebSocket, seat: int | None, watch: SendWatch) -> None:
        self.websocket = websocket
        self.seat = seat
        self.awaits_auth = websocket.query_params.get("auth") == "1"
        """The client said it will authenticate (``?auth=1``): no state goes out until its
        first message is answered (``authenticated``, ``stop_holding``). A player's page that
        reconnects would otherwise first get the room as a stranger sees it (no rack) and drop
        what it holds, a placement."""
        self._held_state: str | None = None
        """The latest state offered while the auth is awaited: the stranger's view."""
        self._watch = watch
        self._lock = asyncio.Lock()
        self._pending_state: str | None = None
        self._sending_states: asyncio.Task[None] | None = None
        self._messages: set[asyncio.Task[None]] = set()
        self._too_slow = False

    async def send(self, message: dict[str, Any]) -> None:
        pending = self._sending_states
        if pending is not None:
            # A state offered before this message goes first (an ack follows its move's state).
            await asyncio.shield(pending)
        async with self._lock:
            await self.websocket.send_text(json.dumps(message, ensure_ascii=False))

    def offer_state(self, text: str) -> None:
        if self._too_slow:
            return
        if self.awaits_auth:
            self._held_state = text
            return
        self._pending_state = text
        if self._sending_states is None:
            self._sending_states = asyncio.get_running_loop().create_task(self._send_states())

    def authenticated(self) -> None:
        """The auth succeeded and the viewer's own state is offered next: the stranger's
        state held back is dropped."""
        self.awaits_auth = False
        self._held_state = None

    def stop_holding(self) -> None:
        """The client's first message is answered without an auth that succeeded (a refused
        token, or no auth at all): the stranger's state held back goes out after all."""
        if not self.awaits_auth:
            return
        self.awaits_auth = False
        held, self._held_state = self._held_state, None
        if held is not None:
            self.offer_state(held)

    def offer_message(self, text: str) -> None:
        if self._too_slow:
            return
        task = asyncio.get_running_loop().create_task(self._send_message(text))
        self._messages.add(task)
        task.add_done_callback(self._messages.discard)

    async def _send_message(self, text: str) -> None:
        pending = self._sending_states
        try:
            if pending is not None:
                await asyncio.shield(pending)
            async with self._lock:
                await self.websocket.send_text(text)
        except Exception as e:  # the socket is closing: its reader leaves the table
            log.debug("a WebSocket did not take a message (%s)", type(e).__name__)

    def too_slow(self) -> None:
        """Called by the watch: this socket has not taken its state in ``SEND_TIMEOUT``."""
        self._too_slow = True
        if self._sending_states is not None:
            self._sending_states.cancel()

    async def _send_states(self) -> None:
        """Send the latest state offered until none is left; a socket that does not take one
        within ``SEND_TIMEOUT`` is closed (its reader then ends and leaves the table)."""
        try:
            while self._pending_state is not None:
                text, self._pending_state = self._pending_state, None
                async with self._lock:
                    with self._watch.watching(self):
                        await self.websocket.send_text(text)
        except (Exception, asyncio.CancelledError) as e:
            if isinstance(e, asyncio.CancelledError) and not self._too_slow:
                raise  # the server is stopping
            self._pending_state = None
            log.debug("a WebSocket did not take its state (%s); closing it", type(e).__name__)
            try:
                await asyncio.wait_for(self.websocket.close(code=WS_CLOSE_TOO_SLOW), 1.0)
            except Exception:
                # The close frame cannot get through either: drop the connection, so that its
                # reader sees the disconnection and the socket leaves the table.
                abort(self.websocket)
        finally:
            self._sending_states = None


def abort(websocket: WebSocket) -> None:
    """Drop a WebSocket's TCP connection at once, unsent data and all.

    ASGI has no such call; uvicorn's protocol object, whose ``receive`` the socket holds,
    has the transport. If another server runs the app, nothing happens here, and the socket
    goes when the client or the keep-alive ping gives up."""
    protocol = getattr(getattr(websocket, "_receive", None), "__self__", None)
    transport = getattr(protocol, "transport", None)
    if isinstance(transport, asyncio.Transport):
        transport.abort()


def send_watch(websocket: WebSocket) -> SendWatch:
    state = websocket.app.state
    watch: SendWatch | None = getattr(state, "send_watch", None)
    if watch is None:
        watch = state.send_watch = SendWatch()
    return watch


def error_message(msg_id: Any, e: ApiError) -> dict[str, Any]:
    return {"type": "error", "id": msg_id, **e.body()}


async def open_socket(websocket: WebSocket) -> str | None:
    """Accept a WebSocket unless its address has opened too many lately (then it is closed
    with the rate-limit code); the address, or None when refused."""
    limiter: RateLimiter = websocket.app.state.limiter
    address = client_address(websocket)
    try:
        limiter.check("connect", address)
    except ApiError:
        await websocket.close(code=WS_CLOSE_RATE_LIMITED)
        return None
    await websocket.accept()
    return address


async def refuse_socket(websocket: WebSocket, e: ApiError) -> None:
    """Tell an accepted socket why it cannot go on (the error, then the close: ``try later``
    when the server is busy, else not found)."""
    await websocket.send_text(json.dumps(error_message(None, e)))
    await websocket.close(code=WS_CLOSE_TRY_LATER if e.code == "busy" else WS_CLOSE_NOT_FOUND)


async def answer_messages(
    websocket: WebSocket,
    address: str,
    handle: Callable[[str | None], Awaitable[dict[str, Any] | None]],
    send: Callable[[dict[str, Any]], Awaitable[None]],
) -> None:
    """Read the socket's messages until it closes, each counted against the address's
    budget: within it, ``handle`` answers the message's text (None: nothing to send back);
    over it, a ``rate_limited`` error, and a client that keeps on is closed."""
    limiter: RateLimiter = websocket.app.state.limiter
    budget = limiter.socket(address)
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            verdict = budget.hit()
            if verdict is Verdict.CLOSE:
                await websocket.close(code=WS_CLOSE_RATE_LIMITED)
                break
            if verdict is Verdict.LIMITED:
                reply: dict[str, Any] | None = error_message(
                    None,
                    ApiError(
                        429,
                        "rate_limited",
                        f"too many messages (at most {budget.describe()}); slow down",
                    ),
                )
            else:
                reply = await handle(message.get("text"))
            if reply is not None:
                await send(reply)
    finally:
        budget.close()
