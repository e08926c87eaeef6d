"""Past saturation the server refuses new work with a clear ``503 busy``, and keeps reads and
the games in progress going."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from websockets.exceptions import ConnectionClosed

from tablero.server.config import Capacity
from tablero.server.errors import ApiError
from tablero.server.web.load import LoadGuard

from .games import mini_toml, two_players, upload
from .harness import PATIENT, Server


def test_the_gauge_sees_a_stalled_event_loop_and_forgets_it() -> None:
    async def scenario() -> tuple[float, bool, bool]:
        guard = LoadGuard(Capacity(max_loop_lag=0.5))
        guard.start()
        await asyncio.sleep(0.2)
        calm = guard.overloaded
        time.sleep(0.8)  # a stall: nothing else runs on this loop meanwhile
        await asyncio.sleep(0.06)
        peak = guard.lag
        with pytest.raises(ApiError) as refused:
            guard.admit("tables")
        assert (refused.value.status, refused.value.code) == (503, "busy")
        assert refused.value.extra["retry_after"] == 2
        await asyncio.sleep(0.5)  # the gauge forgets a fifth of it every 50 ms
        after = guard.overloaded
        await guard.stop()
        return peak, calm, after

    # A thread of its own: other tests may leave an event loop running in this one.
    with ThreadPoolExecutor(1) as runner:
        peak, calm, after = runner.submit(asyncio.run, scenario()).result()
    assert peak > 0.5  # 0.8 s late, then forgetting a fifth each tick
    assert not calm and not after


def test_actions_in_flight_are_bounded() -> None:
    guard = LoadGuard(Capacity(max_actions_in_flight=2))
    with guard.action(), guard.action():
        assert guard.in_flight == 2
        with pytest.raises(ApiError, match="too much to do"), guard.action():
            pass
    assert guard.in_flight == 0
    with guard.action():  # free again
        pass


@pytest.fixture
def shared(server: Server) -> Iterator[Server]:
    """The module's server, its capacity put back after a test changed it."""
    yield server
    server.app.state.load.capacity = PATIENT


def test_an_overloaded_server_refuses_new_work_and_keeps_games_going(shared: Server) -> None:
    server = shared
    ref = upload(server, mini_toml())
    table, tokens = two_players(server, ref)
    seq = server.view(table)["seq"]
    to_move = server.view(table)["to_move"]
    with server.ws(table, tokens[to_move]) as ws:
        ws.recv()
        # The event loop runs later than the capacity allows (forced: below any real lag).
        server.app.state.load.capacity = Capacity(max_loop_lag=-1.0)
        r = server.post("/api/tables", {"variant": ref, "seats": [{"kind": "open"}] * 2})
        assert r.status_code == 503 and r.json()["error"]["code"] == "busy", r.text
        assert r.headers["Retry-After"] == "2"
        assert "try again in 2 seconds" in r.json()["error"]["message"]
        r = server.post(f"/api/tables/{table}/preview", {"tiles": []}, tokens[to_move])
        assert r.status_code == 503
        # a new WebSocket is told why, then closed with 1013 (try again later)
        late = server.ws_connect(table)
        assert late.recv()["error"]["code"] == "busy"
        with pytest.raises(ConnectionClosed) as closed:
            late.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        # reads and moves still go through: the game goes on
        assert server.get("/api/tables").status_code == 200
        ws.send({"type": "move", "id": 1, "seq": seq, "move": {"kind": "pass"}})
        assert ws.until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"

        # Too many actions under way: moves are refused too, and nothing changes.
        server.app.state.load.capacity = Capacity(max_actions_in_flight=0)
        other = tokens[1 - to_move]
        r = server.move(table, other, {"kind": "pass"}, seq + 1)
        assert r.status_code == 503 and r.json()["error"]["code"] == "busy", r.text
        assert server.view(table)["seq"] == seq + 1

        server.app.state.load.capacity = PATIENT
        assert server.move(table, other, {"kind": "pass"}, seq + 1).status_code == 200
