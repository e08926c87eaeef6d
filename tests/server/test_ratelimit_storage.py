"""The in-memory counters of the rate limits: swept rarely, never wrong for it."""

from __future__ import annotations

import time

from limits import parse
from limits.strategies import MovingWindowRateLimiter

from tablero.server.web.ratelimit import DEFAULT_LIMITS, RateLimiter, SweptMemoryStorage


def _events(storage: SweptMemoryStorage, key: str) -> list[object]:
    return [e for k, events in storage.events.items() if key in k.split("/") for e in events]


def test_an_expired_window_frees_its_budget_before_any_sweep() -> None:
    storage = SweptMemoryStorage()
    storage.timer.join()  # the one ``MemoryStorage`` starts at creation
    limiter = MovingWindowRateLimiter(storage)
    item = parse("2/second")
    assert limiter.hit(item, "k") and limiter.hit(item, "k")
    assert not limiter.hit(item, "k")
    assert storage.timer.interval == storage.sweep_seconds == 5.0
    time.sleep(1.1)
    assert len(_events(storage, "k")) == 2, "swept already: the test proves nothing"
    assert limiter.hit(item, "k")


def test_the_sweep_still_frees_memory() -> None:
    """What has expired goes at the first sweep after it expired (a sweep follows a hit)."""
    storage = SweptMemoryStorage()
    storage.sweep_seconds = 0.2
    storage.timer.join()  # the one ``MemoryStorage`` starts at creation
    limiter = MovingWindowRateLimiter(storage)
    limiter.hit(parse("5/second"), "k")
    time.sleep(1.1)
    assert _events(storage, "k")
    limiter.hit(parse("5/second"), "other")  # any hit schedules the next sweep
    deadline = time.monotonic() + 5
    while _events(storage, "k") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _events(storage, "k")


def test_a_closed_socket_leaves_no_counter_behind() -> None:
    limiter = RateLimiter(DEFAULT_LIMITS)
    budget = limiter.socket("10.0.0.1")
    budget.hit()
    keys = lambda: [k for k in limiter.storage.events if budget.socket_id in k.split("/")]  # noqa: E731
    assert keys()
    budget.close()
    assert keys() == []
    assert any("10.0.0.1" in k for k in limiter.storage.events), "the address's count stays"
