"""A real tablero server (uvicorn in a thread, on a real socket) and small clients for it.

Tests talk to it the way a browser does: HTTP with httpx2 and WebSockets with the
``websockets`` client, each receive with a timeout so a missing message fails instead of
hanging.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Mapping
from typing import Any

import httpx2
import uvicorn
from websockets.sync.client import ClientConnection, connect

from tablero.lexicon import Lexicon
from tablero.server import Settings, create_app

TIMEOUT = 20.0


class Server:
    """``start()``/``stop()`` may be called again: a new app instance on the same database."""

    def __init__(self, db_url: str, lexicons: Mapping[str, Lexicon], bot_delay: float = 0.0):
        self.db_url = db_url
        self.lexicons = dict(lexicons)
        self.bot_delay = bot_delay
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self.port = 0
        self.http: httpx2.Client | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        app = create_app(
            Settings(db_url=self.db_url, lexicons=self.lexicons, bot_delay=self.bot_delay)
        )
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(app, log_level="warning", lifespan="on", ws_max_size=1 << 20)
        self._server = uvicorn.Server(config)
        server = self._server
        self._thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        self._thread.start()
        deadline = time.time() + TIMEOUT
        while not server.started:
            if not self._thread.is_alive() or time.time() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        self.http = httpx2.Client(base_url=self.base, timeout=TIMEOUT)

    def stop(self) -> None:
        """A clean shutdown (the app's shutdown runs: clocks are paused)."""
        if self.http is not None:
            self.http.close()
            self.http = None
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(TIMEOUT)
            if self._thread.is_alive():
                raise RuntimeError("the server did not stop")
        self._server = None
        self._thread = None

    # -- HTTP -------------------------------------------------------------------------------

    def get(self, path: str, token: str | None = None) -> httpx2.Response:
        assert self.http is not None
        return self.http.get(path, headers=_auth(token))

    def post(
        self, path: str, body: Any = None, token: str | None = None, **kw: Any
    ) -> httpx2.Response:
        assert self.http is not None
        if body is not None:
            kw["json"] = body
        headers = {**_auth(token), **kw.pop("headers", {})}
        return self.http.post(path, headers=headers, **kw)

    def create(self, variant: str, seats: list[dict[str, Any]], **options: Any) -> str:
        r = self.post("/api/tables", {"variant": variant, "seats": seats, **options})
        assert r.status_code == 201, r.text
        return str(r.json()["id"])

    def sit(self, table: str, seat: int, nickname: str) -> str:
        r = self.post(f"/api/tables/{table}/sit", {"seat": seat, "nickname": nickname})
        assert r.status_code == 200, r.text
        return str(r.json()["token"])

    def view(self, table: str, token: str | None = None) -> dict[str, Any]:
        r = self.get(f"/api/tables/{table}", token)
        assert r.status_code == 200, r.text
        return dict(r.json())

    def move(self, table: str, token: str, move: dict[str, Any], seq: int) -> httpx2.Response:
        return self.post(f"/api/tables/{table}/move", {"seq": seq, "move": move}, token)

    # -- WebSocket --------------------------------------------------------------------------

    def ws(self, table: str, token: str | None = None) -> Socket:
        url = f"ws://127.0.0.1:{self.port}/ws/tables/{table}"
        if token:
            url += f"?token={token}"
        conn = connect(url, open_timeout=TIMEOUT)
        return Socket(conn.__enter__())


def _auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


class Socket:
    """A WebSocket client that keeps every message it received (for privacy checks)."""

    def __init__(self, conn: ClientConnection) -> None:
        self.conn = conn
        self.received: list[dict[str, Any]] = []
        self._pending: list[dict[str, Any]] = []

    def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        message = json.loads(self.conn.recv(timeout=timeout))
        self.received.append(message)
        return dict(message)

    def send(self, message: dict[str, Any]) -> None:
        self.conn.send(json.dumps(message))

    def until(self, predicate: Any, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The first message, old or new, that satisfies the predicate and was not returned
        by ``until`` before (messages arrive in order: a state may come before an ack)."""
        for i, message in enumerate(self._pending):
            if predicate(message):
                del self._pending[i]
                return message
        deadline = time.time() + timeout
        while True:
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError("no such message arrived")
            message = self.recv(left)
            if predicate(message):
                return message
            self._pending.append(message)

    def state_until(self, predicate: Any, timeout: float = TIMEOUT) -> dict[str, Any]:
        msg = self.until(lambda m: m["type"] == "state" and predicate(m["table"]), timeout)
        return dict(msg["table"])

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Socket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
