"""Any process serves any table: two tablero processes on one PostgreSQL and one Redis.

A move through one process reaches a spectator on the other; two processes never both store
a move at one ``seq``; after Redis restarts every process resubscribes and its clients get a
fresh state; a process killed with ``kill -9`` loses no acknowledged move, and the other takes
over its bot tables.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tablero.lexicon import WordListLexicon

from . import pgcluster
from .games import mini_variant, play_turn, two_players, upload
from .harness import GENEROUS, TIMEOUT, Server
from .services import PgCluster, RedisServer, need
from .test_faults import _stored_logs_are_whole, _wait

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def services() -> Iterator[tuple[PgCluster, RedisServer]]:
    need(postgresql=True, redis=True)
    pg, redis = PgCluster(), RedisServer()
    try:
        yield pg, redis
    finally:
        redis.destroy()
        pg.destroy()


_n = iter(range(1000))


@pytest.fixture
def pair(
    services: tuple[PgCluster, RedisServer], mini_es: WordListLexicon, mini_ro: WordListLexicon
) -> Iterator[tuple[Server, Server]]:
    """Two server processes' worth of app (each its own app, pool, bus and leases)."""
    pg, redis = services
    url = pg.new_database(f"procs{next(_n)}")
    lexicons = {"es": mini_es, "ro": mini_ro}
    a = Server(url, lexicons, redis_url=redis.url)
    b = Server(url, lexicons, redis_url=redis.url)
    a.start()
    b.start()
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


def test_a_move_through_one_process_reaches_a_spectator_on_the_other(
    pair: tuple[Server, Server], mini_es: WordListLexicon
) -> None:
    a, b = pair
    table, tokens = two_players(a, upload(a))
    with b.ws(table) as spectator:
        seq = spectator.state_until(lambda t: True)["seq"]
        body = play_turn(a, table, tokens[a.view(table)["to_move"]], mini_variant(), mini_es)
        seen = spectator.state_until(lambda t: t["seq"] == body["seq"])
        assert seen["seq"] > seq and seen["history"][-1]["move"] == body["result"]["move"]
        assert seen["you"] is None  # a spectator still sees no rack


def test_two_processes_never_both_store_a_move_at_one_seq(pair: tuple[Server, Server]) -> None:
    a, b = pair
    table, tokens = two_players(a, upload(a))
    view = b.view(table)  # both processes hold the table now
    assert a.view(table)["seq"] == view["seq"]
    seat = view["to_move"]
    results: dict[str, httpx2.Response] = {}
    start = threading.Barrier(2)

    def send(name: str, server: Server) -> None:
        with httpx2.Client(base_url=server.base, timeout=TIMEOUT) as client:
            start.wait()
            results[name] = client.post(
                f"/api/tables/{table}/move",
                json={"seq": view["seq"], "move": {"kind": "pass"}},
                headers={"Authorization": f"Bearer {tokens[seat]}"},
            )

    threads = [threading.Thread(target=send, args=(n, s)) for n, s in (("a", a), ("b", b))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = sorted(r.status_code for r in results.values())
    assert codes == [200, 409], {n: r.text for n, r in results.items()}
    loser = next(r for r in results.values() if r.status_code == 409)
    assert loser.json()["error"]["code"] == "stale_seq"
    assert _stored_logs_are_whole(a.db_url)[table] == view["seq"] + 1
    # Both processes now show the one stored move.
    for server in (a, b):
        _wait(lambda s=server: s.view(table)["seq"] == view["seq"] + 1, 10, "both to agree")
        assert server.view(table)["to_move"] == 1 - seat


def test_after_redis_restarts_clients_get_a_fresh_state(
    pair: tuple[Server, Server], services: tuple[PgCluster, RedisServer]
) -> None:
    a, b = pair
    _, redis = services
    table, tokens = two_players(a, upload(a))
    with b.ws(table) as spectator:
        seq = spectator.state_until(lambda t: True)["seq"]
        redis.stop()
        try:
            seat = a.view(table)["to_move"]
            r = a.move(table, tokens[seat], {"kind": "pass"}, seq)
            assert r.status_code == 200, r.text  # stored; only the news could not be sent
        finally:
            redis.start()
        fresh = spectator.state_until(lambda t: t["seq"] == seq + 1, timeout=30)
        assert fresh["to_move"] == 1 - seat
        # And news flows again afterwards.
        r = b.move(table, tokens[1 - seat], {"kind": "pass"}, seq + 1)
        assert r.status_code == 200, r.text
        with a.ws(table) as on_a:
            assert on_a.state_until(lambda t: t["seq"] == seq + 2)["to_move"] == seat


def _spawn_server(db_url: str, redis_url: str) -> tuple[subprocess.Popen[bytes], str]:
    port = pgcluster._free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.server.serve_proc", db_url, redis_url, str(port)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(proc.stderr.read().decode() if proc.stderr else "server died")
        try:
            if httpx2.get(f"{base}/api/variants", timeout=1).status_code == 200:
                return proc, base
        except httpx2.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("the server process did not start")


def test_a_killed_process_loses_no_acknowledged_move_and_its_bot_tables_go_on(
    pair: tuple[Server, Server], services: tuple[PgCluster, RedisServer]
) -> None:
    a, _ = pair
    _, redis = services
    proc, base = _spawn_server(a.db_url, redis.url)
    acked: dict[str, int] = {}
    try:
        with httpx2.Client(base_url=base, timeout=TIMEOUT) as victim:

            def post(path: str, body: Any, token: str | None = None) -> httpx2.Response:
                headers = {"Authorization": f"Bearer {token}"} if token else {}
                return victim.post(path, json=body, headers=headers)

            ref = upload(a)  # the rule file is in the shared database: any process has it
            r = post("/api/tables", {"variant": ref, "seats": [{"kind": "bot", "level": 1}] * 2})
            assert r.status_code == 201, r.text
            bot_table = r.json()["id"]
            r = post("/api/tables", {"variant": ref, "seats": [{"kind": "open"}] * 2})
            human_table = r.json()["id"]
            tokens = {
                s: post(f"/api/tables/{human_table}/sit", {"seat": s, "nickname": f"P{s}"}).json()[
                    "token"
                ]
                for s in (0, 1)
            }
            # People keep passing through the doomed process; every acknowledged move counts.
            for _ in range(3):
                view = victim.get(f"/api/tables/{human_table}").json()
                r = post(
                    f"/api/tables/{human_table}/move",
                    {"seq": view["seq"], "move": {"kind": "pass"}},
                    tokens[view["to_move"]],
                )
                assert r.status_code == 200, r.text
                acked[human_table] = r.json()["seq"]
            _wait(
                lambda: victim.get(f"/api/tables/{bot_table}").json()["seq"] > 3,
                20,
                "the bots to start on the doomed process",
            )
            acked[bot_table] = victim.get(f"/api/tables/{bot_table}").json()["seq"]
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        # Its clients reconnect to the other process: everything acknowledged is there.
        assert a.view(human_table)["seq"] == acked[human_table]
        # The other process takes over the bot table once the dead one's lease runs out.
        _wait(
            lambda: (
                a.view(bot_table)["seq"] > acked[bot_table] or a.view(bot_table)["state"] == "over"
            ),
            40,
            "the bot table to be taken over",
        )
        view = a.view(human_table)
        r = a.move(human_table, tokens[view["to_move"]], {"kind": "pass"}, view["seq"])
        assert r.status_code == 200, r.text
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    _stored_logs_are_whole(a.db_url)


def test_rate_limits_per_address_are_shared_by_the_processes(
    services: tuple[PgCluster, RedisServer], mini_es: WordListLexicon, mini_ro: WordListLexicon
) -> None:
    """With Redis, an address's HTTP budget is one across processes, not one per process."""
    pg, redis = services
    url = pg.new_database(f"limits{next(_n)}")
    limits = dataclasses.replace(GENEROUS, create_table="2/minute")
    servers = [
        Server(url, {"es": mini_es, "ro": mini_ro}, redis_url=redis.url, rate_limits=limits)
        for _ in range(2)
    ]
    for s in servers:
        s.start()
    try:
        seats = [{"kind": "open"}] * 2
        servers[0].create("fise", seats)
        servers[1].create("fise", seats)
        for s in servers:
            r = s.post("/api/tables", {"variant": "fise", "seats": seats})
            assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
    finally:
        for s in servers:
            s.stop()
