"""Shedding load past saturation: a clear "busy" answer instead of queues that only grow.

A process that is asked for more than it can do does not fail by itself: every request waits
a little longer, the event loop falls behind, and each move takes seconds to reach the table
(measured: 120–165 moves a second saturated one process, and then every round trip grew).
Two gauges say when to refuse new work, so that the work already taken stays fast:

* **the event loop's lag**: a task asks to wake every 50 ms and measures how late it wakes.
  The gauge follows a late wake at once and forgets it slowly (a fifth every 50 ms), so one
  pause of the loop does not shut the doors, a stream of them does;
* **actions in flight**: moves, sits and table creations started and not yet stored and
  answered. Each table takes its moves one at a time, so when many tables move at once the
  actions queue for the database; the count bounds that queue.

What is refused, and how: past ``max_loop_lag`` new tables, sits, uploads, previews and new
WebSockets are refused (``503 busy`` with ``Retry-After``; a WebSocket is closed with 1013,
"try again later") while moves still go through, so games in progress go on; past
``max_actions_in_flight`` moves are refused too (``503 busy``), the game waiting for the
player's retry. Reads (the lobby, a table's view, pages) are never refused.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

from ..config import Capacity
from ..errors import ApiError

__all__ = ["BUSY_RETRY_AFTER", "WS_CLOSE_TRY_LATER", "LoadGuard", "busy"]

BUSY_RETRY_AFTER = 2
"""Seconds a refused client is asked to wait (the ``Retry-After`` header, ``retry_after``)."""
WS_CLOSE_TRY_LATER = 1013
"""WebSocket close code for "try again later" (RFC 6455, registered by IANA)."""
TICK = 0.05
FORGET = 0.8
"""Each tick, the gauge keeps this much of the lag it remembered (a late wake counts at once)."""


class LoadGuard:
    def __init__(self, capacity: Capacity | None = None) -> None:
        self.capacity = capacity or Capacity()
        self.lag = 0.0
        """Seconds the event loop runs late, as the gauge remembers it."""
        self.in_flight = 0
        self._task: asyncio.Task[None] | None = None

    # -- the gauges ---------------------------------------------------------------------------

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._measure())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _measure(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            asked = loop.time()
            await asyncio.sleep(TICK)
            late = max(0.0, loop.time() - asked - TICK)
            self.lag = max(late, self.lag * FORGET)

    @property
    def overloaded(self) -> bool:
        return self.lag > self.capacity.max_loop_lag

    # -- the doors ----------------------------------------------------------------------------

    def admit(self, what: str) -> None:
        """Refuse new work (``what``: a table, a seat, a preview…) while the loop runs late."""
        if self.overloaded:
            raise busy(f"the server is overloaded and takes no new {what} for now")

    @contextlib.contextmanager
    def action(self, what: str = "move") -> Iterator[None]:
        """Count an action from its start to its answer; refuse it past the bound."""
        if self.in_flight >= self.capacity.max_actions_in_flight:
            raise busy(f"the server has too much to do and cannot take this {what} now")
        self.in_flight += 1
        try:
            yield
        finally:
            self.in_flight -= 1


def busy(message: str) -> ApiError:
    return ApiError(
        503,
        "busy",
        f"{message}; try again in {BUSY_RETRY_AFTER} seconds",
        retry_after=BUSY_RETRY_AFTER,
    )
