"""A real tablero server (uvicorn in a thread, on a real socket) and small clients for it.

Tests talk to it the way a browser does: HTTP with httpx2 and WebSockets with the
``websockets`` client, each receive with a timeout so a missing message fails instead of
hanging.

The server's rate limits are ``GENEROUS`` and its quotas ``ROOMY`` unless a test gives its
own: the suite makes many requests and tables from 127.0.0.1 in little time.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from collections.abc import Iterator, Mapping
from typing import Any

import httpx2
import uvicorn
from websockets.sync.client import ClientConnection, connect

from tablero.lexicon import Lexicon
from tablero.server import Settings, create_app
from tablero.server.cli import tcp_listener
from tablero.server.config import Capacity, Quotas
from tablero.server.web.jsonlimits import WS_MAX_FRAME_BYTES
from tablero.server.web.ratelimit import DEFAULT_LIMITS, RateLimits

TIMEOUT = 20.0
GENEROUS = DEFAULT_LIMITS.scaled(1000)
"""Rate limits no test reaches by accident (the limit tests make servers of their own)."""
ROOMY = Quotas(
    lobby_waiting_per_address=10_000,
    uploads_per_address=10_000,
    word_lists_per_address=10_000,
    bot_tables_per_address=10_000,
    bot_tables_total=10_000,
)
"""Quotas no test reaches by accident (the quota tests make servers of their own)."""
PATIENT = Capacity(max_loop_lag=30.0)
"""A load guard no test trips by accident: on a CI machine whose cores run other test
workers, a server's event loop may run half a second late, and the default guard would then
refuse a new WebSocket with 1013 (the load tests set their own capacity)."""
CLIENT_LOGGER = "tests.client"
"""The WebSocket client logs here (not as ``websockets.client``): at DEBUG it logs the frames
it sends, seat tokens included, and the log tests look only at what the server logs."""


class Server:
    """``start()``/``stop()`` may be called again: a new app instance on the same database."""

    def __init__(
        self,
        db_url: str,
        lexicons: Mapping[str, Lexicon],
        bot_delay: float = 0.0,
        *,
        rate_limits: RateLimits = GENEROUS,
        allowed_origins: tuple[str, ...] = (),
        log_level: str = "warning",
        quotas: Quotas = ROOMY,
        redis_url: str | None = None,
        bot_workers: int = 1,
        analysis_sim_iterations: int = 300,
        capacity: Capacity = PATIENT,
    ):
        self.capacity = capacity
        self.quotas = quotas
        self.bot_workers = bot_workers
        self.analysis_sim_iterations = analysis_sim_iterations
        self.redis_url = redis_url
        self.db_url = db_url
        self.lexicons = dict(lexicons)
        self.bot_delay = bot_delay
        self.rate_limits = rate_limits
        self.allowed_origins = allowed_origins
        self.log_level = log_level
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self.port = 0
        self.http: httpx2.Client | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        settings = Settings(
            db_url=self.db_url,
            lexicons=self.lexicons,
            bot_delay=self.bot_delay,
            allowed_origins=self.allowed_origins,
            quotas=self.quotas,
            redis_url=self.redis_url,
            bot_workers=self.bot_workers,
            analysis_sim_iterations=self.analysis_sim_iterations,
            capacity=self.capacity,
        )
        app = create_app(settings, rate_limits=self.rate_limits)
        self.app = app
        # A TCP socket by name, so asyncio sets TCP_NODELAY (as on a real deployment).
        sock = tcp_listener("127.0.0.1", 0)
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(
            app, log_level=self.log_level, lifespan="on", ws_max_size=WS_MAX_FRAME_BYTES
        )
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

    def ws(
        self, table: str, token: str | None = None, headers: Mapping[str, str] | None = None
    ) -> Socket:
        """A WebSocket to a table; with a token it is authenticated as the browser does it
        (an ``auth`` message), and its next message is the seat's ``state`` (or the
        ``error`` refusing the token), as if it had been a seat's socket from the start."""
        conn = self.ws_connect(table, headers)
        if token:
            conn.authenticate(token)
        return conn

    def ws_connect(
        self, table: str, headers: Mapping[str, str] | None = None, query: str = ""
    ) -> Socket:
        """A WebSocket, as it opens: a spectator until it sends ``auth``."""
        url = f"ws://127.0.0.1:{self.port}/ws/tables/{table}" + (f"?{query}" if query else "")
        conn = connect(
            url,
            open_timeout=TIMEOUT,
            additional_headers=dict(headers or {}),
            logger=logging.getLogger(CLIENT_LOGGER),
        )
        return Socket(conn.__enter__())


def _auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


class Socket:
    """A WebSocket client that keeps every message it received (for privacy checks)."""

    def __init__(self, conn: ClientConnection) -> None:
        self.conn = conn
        self.received: list[dict[str, Any]] = []
        self._pending: list[dict[str, Any]] = []
        self._unread: list[dict[str, Any]] = []
        self.before_auth: list[dict[str, Any]] = []

    def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        if self._unread:
            return self._unread.pop(0)
        message = json.loads(self.conn.recv(timeout=timeout))
        self.received.append(message)
        return dict(message)

    def authenticate(self, token: str) -> dict[str, Any]:
        """Send ``auth`` and wait for its answer: the seat's ``state`` or an ``error``. The
        spectator states before it move from ``received`` to ``before_auth`` (so privacy
        checks of ``received`` see the seat's messages only); the answer is read next."""
        self.send({"type": "auth", "token": token})
        while True:
            message = self.recv()
            if message["type"] == "error" or (
                message["type"] == "state" and message["table"]["you"] is not None
            ):
                self._unread.append(message)
                return message
            self.received.remove(message)
            self.before_auth.append(message)

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


# -- the server's log -------------------------------------------------------------------------


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


CLIENT_LOGGERS = (CLIENT_LOGGER, "httpx", "httpcore", "httpx2", "httpcore2")
"""The test's own clients (which log what they send, tokens included, at DEBUG)."""


@contextlib.contextmanager
def server_logs() -> Iterator[list[logging.LogRecord]]:
    """Every record the server's loggers emit meanwhile, at DEBUG (the test clients' own
    loggers are left out). Start the server first: uvicorn configures its loggers then."""
    collect = _Collect()
    names = ["", "uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi", "tablero"]
    loggers = [logging.getLogger(n) for n in names]
    saved = [(lg, lg.level) for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.DEBUG)
        lg.addHandler(collect)
    records: list[logging.LogRecord] = []
    try:
        yield records
    finally:
        for lg, level in saved:
            lg.removeHandler(collect)
            lg.setLevel(level)
        records += [r for r in collect.records if not r.name.startswith(CLIENT_LOGGERS)]
