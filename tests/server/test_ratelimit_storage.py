"""The rate limits' counters in memory (swept rarely, never wrong for it), and the limits for
a club behind one address."""

from __future__ import annotations

import time

import pytest
from limits import parse
from limits.strategies import SlidingWindowCounterRateLimiter

from tablero.server.errors import ApiError
from tablero.server.web.ratelimit import DEFAULT_LIMITS, RateLimiter, SweptMemoryStorage


def _counters(storage: SweptMemoryStorage, key: str) -> list[str]:
    """The counters kept for ``key`` (a sliding window keeps one per window)."""
    return [k for k in storage.storage if key in k.split("/")]


def test_an_expired_window_frees_its_budget_before_any_sweep() -> None:
    storage = SweptMemoryStorage()
    storage.timer.join()  # the one ``MemoryStorage`` starts at creation
    limiter = SlidingWindowCounterRateLimiter(storage)
    item = parse("2/second")
    assert limiter.hit(item, "k") and limiter.hit(item, "k")
    assert not limiter.hit(item, "k")
    assert storage.timer.interval == storage.sweep_seconds == 5.0
    time.sleep(2.1)  # the window and the one before it are over
    assert _counters(storage, "k"), "swept already: the test proves nothing"
    assert limiter.hit(item, "k") and limiter.hit(item, "k")


def test_the_sweep_still_frees_memory() -> None:
    """What has expired goes at the first sweep after it expired (a sweep follows a hit)."""
    storage = SweptMemoryStorage()
    storage.sweep_seconds = 0.2
    storage.timer.join()  # the one ``MemoryStorage`` starts at creation
    limiter = SlidingWindowCounterRateLimiter(storage)
    limiter.hit(parse("5/second"), "k")
    time.sleep(2.1)  # a window's counter is kept for two windows
    assert _counters(storage, "k")
    limiter.hit(parse("5/second"), "other")  # any hit schedules the next sweep
    deadline = time.monotonic() + 5
    while _counters(storage, "k") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _counters(storage, "k")


def test_a_closed_socket_leaves_no_counter_behind() -> None:
    limiter = RateLimiter(DEFAULT_LIMITS)
    budget = limiter.socket("10.0.0.1")
    budget.hit()
    storage = limiter.storage
    assert isinstance(storage, SweptMemoryStorage)
    assert _counters(storage, budget.socket_id)
    budget.close()
    assert _counters(storage, budget.socket_id) == []
    assert _counters(storage, "10.0.0.1"), "the address's count stays"


def test_a_club_behind_one_address_gets_more_per_address_and_nothing_else() -> None:
    """``tablero serve --address-limit-scale 10``: thirty people on one Wi-Fi can sit."""
    shared = DEFAULT_LIMITS.for_shared_address(10)
    assert (shared.seats, shared.create_table, shared.chat) == (
        "300/minute",
        "200/minute",
        "50/10 second;300/minute",
    )
    assert shared.login_failures_account == DEFAULT_LIMITS.login_failures_account
    assert shared.socket_messages == DEFAULT_LIMITS.socket_messages
    limiter = RateLimiter(shared)
    for _ in range(300):
        limiter.check("seats", "10.0.0.1")
    with pytest.raises(ApiError) as refused:
        limiter.check("seats", "10.0.0.1")
    assert refused.value.status == 429
    for _ in range(5):
        limiter.login_failed("10.0.0.1", "ana")
    with pytest.raises(ApiError):
        limiter.check_login("10.0.0.2", "ana")
