"""Table news between server processes: "table T now holds S events".

A process that stores a change to a table announces it; every other process holding that
table catches up from the database (which is the truth) and shows the change to its own
clients. The news carries no game data, so nothing secret crosses the bus, and a lost piece
of news costs nothing but latency: after a lost connection every room re-reads its table.

- ``LocalBus``: one process (the default). Nothing to tell anyone: the room that made the
  change has already shown it to every client of the table.
- ``RedisBus``: several processes or machines on one database. Redis pub/sub on one channel;
  when the connection drops, the listener reconnects with backoff, resubscribes, and then
  asks every room to catch up and send its clients a fresh state.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import secrets
import socket
from collections.abc import Awaitable, Callable
from typing import Any

__all__ = [
    "CHANNEL",
    "Bus",
    "LocalBus",
    "NewsHandler",
    "RedisBus",
    "make_bus",
    "process_name",
    "redis_address",
]

log = logging.getLogger("tablero.server.bus")

CHANNEL = "tablero:tables"

NewsHandler = Callable[[str, int], Awaitable[None]]
"""Called with (table id, stored event count) for news from another process."""
ReconnectHandler = Callable[[], Awaitable[None]]


def process_name() -> str:
    """A name for this process, unique among the processes of a deployment: its news on the
    bus and its leases on tables carry it."""
    return f"{socket.gethostname()[:32]}:{os.getpid()}:{secrets.token_hex(4)}"


class Bus:
    """The interface both buses share."""

    multi_process = False
    """True when other processes may serve the same tables."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        """This process's name (``process_name``): its own news comes back and is ignored."""

    async def start(
        self, on_news: NewsHandler, on_reconnect: Callable[[], Awaitable[None]]
    ) -> None:
        """Begin listening; ``on_reconnect`` is called after every lost-and-found connection."""

    async def publish(self, table_id: str, seq: int) -> None:
        """Tell the other processes that ``table_id`` changed (now ``seq`` events)."""

    async def close(self) -> None:
        """Stop listening."""


class LocalBus(Bus):
    """One process: there is nobody else to tell."""


class RedisBus(Bus):
    multi_process = True

    def __init__(self, url: str, origin: str) -> None:
        import redis.asyncio as aioredis

        super().__init__(origin)
        self.url = url
        self._redis: Any = aioredis.from_url(
            url, socket_connect_timeout=2, socket_timeout=5, health_check_interval=5
        )
        self._listener: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.connected = asyncio.Event()

    async def start(
        self, on_news: NewsHandler, on_reconnect: Callable[[], Awaitable[None]]
    ) -> None:
        self._listener = asyncio.get_running_loop().create_task(self._listen(on_news, on_reconnect))
        try:  # start-up waits a moment for the first subscription, but never fails on it
            await asyncio.wait_for(self.connected.wait(), 5)
        except TimeoutError:
            log.warning("Redis at %s is not answering; tables wait for it", _safe(self.url))

    async def _listen(self, on_news: NewsHandler, on_reconnect: ReconnectHandler) -> None:
        from redis.exceptions import RedisError

        backoff = 0.2
        lost = False
        while True:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(CHANNEL)
                self.connected.set()
                backoff = 0.2
                if lost:
                    log.warning("Redis is back: every table catches up")
                    self._spawn(on_reconnect())
                lost = False
                while True:
                    # A read that waits at most a second, not ``listen()``: each read sends
                    # the health check's PING when due, and a quiet channel is not a dead
                    # connection (redis-py 7 lets a blocking read hit the socket timeout).
                    news = _decode(await pubsub.get_message(timeout=1.0))
                    if news is not None and news[0] != self.origin:
                        self._spawn(on_news(news[1], news[2]))
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as e:
                if not lost:
                    log.warning("lost Redis (%s); reconnecting", type(e).__name__)
                lost = True
                self.connected.clear()
                await asyncio.sleep(backoff * random.uniform(0.75, 1.25))
                backoff = min(5.0, backoff * 2)
            finally:
                with contextlib.suppress(Exception):  # the connection may be gone already
                    await pubsub.aclose()

    def _spawn(self, coro: Awaitable[None]) -> None:
        async def run() -> None:
            try:
                await coro
            except Exception:
                log.exception("a table could not catch up with news from the bus")

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def publish(self, table_id: str, seq: int) -> None:
        from redis.exceptions import RedisError

        data = json.dumps({"origin": self.origin, "table": table_id, "seq": seq})
        try:
            await self._redis.publish(CHANNEL, data)
        except (RedisError, OSError) as e:
            # The change is stored; other processes see it when Redis is back (they re-read
            # every table then) or at the table's next change.
            log.warning("could not announce table %s on Redis (%s)", table_id, type(e).__name__)

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            await asyncio.gather(self._listener, return_exceptions=True)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._redis.aclose()


def _decode(message: Any) -> tuple[str, str, int] | None:
    if not isinstance(message, dict) or message.get("type") != "message":
        return None
    try:
        data = json.loads(message["data"])
        return str(data["origin"]), str(data["table"]), int(data["seq"])
    except (ValueError, KeyError, TypeError):
        log.warning("ignored a malformed message on %s", CHANNEL)
        return None


def _safe(url: str) -> str:
    """A Redis URL without its password, for logs."""
    return url.split("@")[-1] if "@" in url else url


def redis_address(url: str) -> str:
    """``host:port`` of a Redis URL (or a socket's path), for logs: never the password."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.scheme == "unix":
        return parts.path
    return f"{parts.hostname or 'localhost'}:{parts.port or 6379}"


def make_bus(redis_url: str | None, origin: str) -> Bus:
    return RedisBus(redis_url, origin) if redis_url else LocalBus(origin)
