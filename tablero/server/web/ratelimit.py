"""How often a client may write: per address over HTTP, per socket and per address over
WebSockets. Reads (the lobby, a table view, pages) are not limited.

One address or one socket must not be able to fill the database with tables and rule files,
or keep a table's lock busy with moves and previews for everyone else. The limits are sliding
windows (``limits``' ``SlidingWindowCounterRateLimiter``): "20 per minute" counts the hits of
the current minute plus the previous minute's share of the last 60 seconds, so there is no
burst at a window's edge. It keeps two counters a key where a moving window keeps every hit:
with a key per socket, the hits of 4,000 sockets were tens of thousands of objects that the
sweep walked every 5 s, stopping the event loop for 40–80 ms each time (the slowest round
trips of ``benchmarks/bench_server.py --tables 1000`` came in 5 s clusters). The limits are
generous for people (a player makes a move every few seconds at most, and previews while
dragging tiles) and stop scripts.

The counters live in a ``limits`` storage given to ``RateLimiter``: in memory by default (one
process; ``SweptMemoryStorage``, see there), a shared one (``limits.storage.RedisStorage``)
when several processes serve the same tables. The address is the TCP peer's
(``request.client.host``); behind a reverse proxy, ``tablero serve --forwarded-allow-ips``
makes uvicorn take it from ``X-Forwarded-For``.
"""

from __future__ import annotations

import enum
import itertools
import logging
import math
import threading
import time
from dataclasses import dataclass, replace

from limits import RateLimitItem, parse, parse_many
from limits.storage import MemoryStorage, Storage
from limits.strategies import RateLimiter as RateLimiterStrategy
from limits.strategies import SlidingWindowCounterRateLimiter

from ..errors import ApiError

log = logging.getLogger("tablero.server.limits")

__all__ = [
    "DEFAULT_LIMITS",
    "RateLimiter",
    "RateLimits",
    "SocketBudget",
    "SweptMemoryStorage",
    "Verdict",
]

SWEEP_SECONDS = 5.0
"""How often the in-memory counters drop what has expired (see ``SweptMemoryStorage``)."""


class SweptMemoryStorage(MemoryStorage):
    """``limits``' memory storage, swept every ``SWEEP_SECONDS`` instead of every 10 ms.

    ``MemoryStorage`` starts a thread that walks every key 10 ms after any hit, so under steady
    traffic it walks them about 100 times a second. With a key per socket and per address, a
    server with 4,000 WebSockets spent half its CPU there (measured with
    ``benchmarks/bench_server.py --tables 400`` and py-spy). The sweep only frees memory: every
    read of a counter already ignores what has expired, so sweeping less often changes no
    answer. (The hook is ``MemoryStorage``'s private ``__schedule_expiry``;
    ``tests/server/test_ratelimit_storage.py`` checks both promises, so an upgrade that renames
    it fails there, not in production.)
    """

    sweep_seconds = SWEEP_SECONDS

    def _MemoryStorage__schedule_expiry(self) -> None:  # overrides the private hook
        if not self.timer.is_alive():
            sweep = self._MemoryStorage__expire_events  # type: ignore[attr-defined]
            self.timer = threading.Timer(self.sweep_seconds, sweep)
            self.timer.daemon = True
            self.timer.start()


@dataclass(frozen=True)
class RateLimits:
    """Every limit, in ``limits``' notation (``"20/minute"``; several joined by ``;``).

    HTTP limits count per client address; ``socket_messages`` per WebSocket connection,
    ``address_messages`` per address over all its sockets.
    """

    create_table: str = "20/minute"
    """``POST /api/tables``."""
    upload: str = "10/minute"
    """``POST /api/variants/upload``."""
    seats: str = "30/minute"
    """``sit`` and ``leave``."""
    play: str = "120/minute"
    """``move`` and ``preview`` over HTTP (together)."""
    connect: str = "60/minute"
    """WebSocket handshakes (the browser reconnects with back-off, far below this)."""
    socket_messages: str = "20/second;200/minute"
    """Messages on one WebSocket (cf. Lichess: 100 moves per 20 s)."""
    address_messages: str = "50/second;1000/minute"
    """Messages from one address on all its WebSockets together."""
    close_factor: int = 3
    """A socket that sends this many times its limit within the window is closed (4429)."""
    chat: str = "5/10 seconds;30/minute"
    """Chat lines from one address, over HTTP and WebSockets together."""
    analysis: str = "10/minute"
    """``POST /api/tables/{id}/analysis`` (each game's analysis runs once; asking again
    only reads it)."""
    signup: str = "20/hour"
    """``POST /api/accounts`` (a club signing its members up from one address is ~20)."""
    login_failures_address: str = "30/hour"
    """Failed logins (and failed current passwords) from one address."""
    login_failures_account: str = "5/minute;20/hour"
    """Failed logins on one username, from anywhere: a password cannot be guessed by
    spreading the tries over many addresses."""

    def scaled(self, factor: int) -> RateLimits:
        """The same limits ``factor`` times higher (tests that make many requests fast)."""

        def scale(spec: str) -> str:
            return ";".join(f"{item.amount * factor}/{_per(item)}" for item in parse_many(spec))

        return RateLimits(
            create_table=scale(self.create_table),
            upload=scale(self.upload),
            seats=scale(self.seats),
            play=scale(self.play),
            connect=scale(self.connect),
            socket_messages=scale(self.socket_messages),
            address_messages=scale(self.address_messages),
            close_factor=self.close_factor,
            chat=scale(self.chat),
            analysis=scale(self.analysis),
            signup=scale(self.signup),
            login_failures_address=scale(self.login_failures_address),
            login_failures_account=scale(self.login_failures_account),
        )

    def for_shared_address(self, factor: int) -> RateLimits:
        """Every per-address limit ``factor`` times higher, for many people behind one address
        (a club's or a school's Wi-Fi). What guards one account or one socket stays: a
        password is no easier to guess and one client no freer to flood."""
        if factor == 1:
            return self
        return replace(
            self.scaled(factor),
            socket_messages=self.socket_messages,
            close_factor=self.close_factor,
            login_failures_account=self.login_failures_account,
        )


DEFAULT_LIMITS = RateLimits()


def _per(item: RateLimitItem) -> str:
    unit = item.GRANULARITY.name
    return unit if item.multiples == 1 else f"{item.multiples} {unit}"


class Verdict(enum.Enum):
    OK = "ok"
    LIMITED = "limited"
    """Refuse this message; keep the socket."""
    CLOSE = "close"
    """Far over the limit: close the socket."""


WS_CLOSE_RATE_LIMITED = 4429


class RateLimiter:
    """The limits of one server. ``storage`` holds the counters (memory unless given)."""

    def __init__(
        self,
        limits: RateLimits = DEFAULT_LIMITS,
        storage: Storage | None = None,
        shared: Storage | None = None,
    ):
        self.limits = limits
        self.storage = storage if storage is not None else SweptMemoryStorage()
        self.strategy = SlidingWindowCounterRateLimiter(self.storage)
        self.shared = (
            SlidingWindowCounterRateLimiter(shared) if shared is not None else self.strategy
        )
        """The HTTP limits per address: in ``shared`` storage (Redis) when several processes
        serve one site, so an address cannot multiply its budget by their number. A
        WebSocket's own budget stays with the process that holds the socket."""
        self._http = {
            "create_table": parse(limits.create_table),
            "upload": parse(limits.upload),
            "seats": parse(limits.seats),
            "play": parse(limits.play),
            "connect": parse(limits.connect),
            "signup": parse(limits.signup),
            "analysis": parse(limits.analysis),
        }
        self._chat = parse_many(limits.chat)
        self._login_address = parse_many(limits.login_failures_address)
        self._login_account = parse_many(limits.login_failures_account)
        self._socket = parse_many(limits.socket_messages)
        self._socket_hard = [_times(item, limits.close_factor) for item in self._socket]
        self._address = parse_many(limits.address_messages)
        self._sockets = itertools.count()

    def check(self, action: str, address: str) -> None:
        """Count one ``action`` (create_table, upload, seats, play, connect, signup, analysis) by
        ``address``;
        ApiError 429 ``rate_limited`` (with ``retry_after`` seconds) when over its limit."""
        item = self._http[action]
        try:
            allowed = self.shared.hit(item, "http", action, address)
        except Exception as e:  # the shared store is down: let the request through
            log.warning("rate limits: the shared counters are unavailable (%s)", type(e).__name__)
            return
        if not allowed:
            raise ApiError(
                429,
                "rate_limited",
                f"too many requests of this kind from your address (at most {_describe(item)}); "
                "wait a little and try again",
                retry_after=self._retry_after(item, "http", action, address),
            )

    def check_chat(self, address: str) -> None:
        """Count one chat line from ``address``; 429 ``rate_limited`` past the limit."""
        for item in self._chat:
            if not self.strategy.test(item, "chat", address):
                raise ApiError(
                    429,
                    "rate_limited",
                    f"too many chat lines (at most {_describe(item)}); wait a little",
                    retry_after=_retry_after(self.strategy, item, "chat", address),
                )
        for item in self._chat:
            self.strategy.hit(item, "chat", address)

    def check_login(self, address: str, account_key: str) -> None:
        """Before a password is checked: 429 ``rate_limited`` when this address, or this
        username from anywhere, has failed too often lately. Only failures count, so a
        person who types the password right is never held back by their own good logins."""
        for item, keys in self._login_windows(address, account_key):
            try:
                allowed = self.shared.test(item, *keys)
            except Exception as e:  # the shared store is down: let the request through
                log.warning(
                    "rate limits: the shared counters are unavailable (%s)", type(e).__name__
                )
                return
            if not allowed:
                raise ApiError(
                    429,
                    "rate_limited",
                    "too many failed logins lately; wait a little and try again",
                    retry_after=self._retry_after(item, *keys),
                )

    def login_failed(self, address: str, account_key: str) -> None:
        """Count a failed login (or a wrong current password) against both budgets."""
        for item, keys in self._login_windows(address, account_key):
            try:
                self.shared.hit(item, *keys)
            except Exception:  # counted as unavailable in check_login already
                return

    def _login_windows(
        self, address: str, account_key: str
    ) -> list[tuple[RateLimitItem, tuple[str, str, str]]]:
        return [(item, ("login", "address", address)) for item in self._login_address] + [
            (item, ("login", "account", account_key)) for item in self._login_account
        ]

    def socket(self, address: str) -> SocketBudget:
        """The message budget of a new WebSocket from ``address``."""
        return SocketBudget(self, address, str(next(self._sockets)))

    def _retry_after(self, item: RateLimitItem, *keys: str) -> int:
        return _retry_after(self.shared, item, *keys)


class SocketBudget:
    """Counts the messages of one WebSocket, against its own limits and its address's."""

    def __init__(self, limiter: RateLimiter, address: str, socket_id: str) -> None:
        self.limiter = limiter
        self.address = address
        self.socket_id = socket_id

    def hit(self) -> Verdict:
        strategy = self.limiter.strategy
        limiter = self.limiter
        # The hard limits count every message, refused or not, so a flood reaches them.
        if not all(
            [strategy.hit(item, "ws-hard", self.socket_id) for item in limiter._socket_hard]
        ):
            return Verdict.CLOSE
        if not all(strategy.test(item, "ws", self.socket_id) for item in limiter._socket):
            return Verdict.LIMITED
        if not all(strategy.test(item, "ws-addr", self.address) for item in limiter._address):
            return Verdict.LIMITED
        for item in limiter._socket:
            strategy.hit(item, "ws", self.socket_id)
        for item in limiter._address:
            strategy.hit(item, "ws-addr", self.address)
        return Verdict.OK

    def describe(self) -> str:
        return " and ".join(_describe(item) for item in self.limiter._socket)

    def close(self) -> None:
        """The socket closed: forget its own counters (its address's stay)."""
        strategy = self.limiter.strategy
        for item in self.limiter._socket:
            strategy.clear(item, "ws", self.socket_id)
        for item in self.limiter._socket_hard:
            strategy.clear(item, "ws-hard", self.socket_id)


def _retry_after(strategy: RateLimiterStrategy, item: RateLimitItem, *keys: str) -> int:
    """Whole seconds until ``item``'s window for ``keys`` lets a request through again."""
    reset = strategy.get_window_stats(item, *keys).reset_time
    return max(1, math.ceil(reset - time.time()))


def _times(item: RateLimitItem, factor: int) -> RateLimitItem:
    return type(item)(item.amount * factor, item.multiples, namespace="HARD")


def _describe(item: RateLimitItem) -> str:
    return f"{item.amount} per {_per(item)}"
