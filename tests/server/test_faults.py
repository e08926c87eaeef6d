"""No game lost under a fault: PostgreSQL stopped and started under moving tables.

The cluster here is the module's own (``services.PgCluster``), so a test can take it down
under a running server: every table keeps exactly what the database holds, nothing is shown
that was not stored, the API says ``503 storage_unavailable`` (never 500, never a dropped
socket), and tables, bots included, go on by themselves when the database is back.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from tablero.lexicon import WordListLexicon

from .games import mini_variant, play_turn, two_players, upload
from .harness import Server
from .services import PgCluster, need
from .test_restart import stable


@pytest.fixture(scope="module")
def cluster() -> Iterator[PgCluster]:
    need(postgresql=True)
    c = PgCluster()
    try:
        yield c
    finally:
        c.destroy()


def _wait(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def _stored_logs_are_whole(db_url: str) -> dict[str, int]:
    """Every table's events are numbered 0..seq-1 with no gap, and ``seq`` says so."""
    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT t.id, t.seq, COUNT(e.idx), COALESCE(MAX(e.idx), -1) "
                    "FROM game_tables t LEFT JOIN events e ON e.table_id = t.id "
                    "GROUP BY t.id, t.seq"
                )
            ).all()
    finally:
        engine.dispose()
    for table_id, seq, count, top in rows:
        assert seq == count == top + 1, (table_id, seq, count, top)
    return {r[0]: r[1] for r in rows}


def test_a_database_outage_shows_nothing_unstored_and_every_table_resumes(
    cluster: PgCluster, mini_es: WordListLexicon, mini_ro: WordListLexicon
) -> None:
    db_url = cluster.new_database("outage")
    server = Server(db_url, {"es": mini_es, "ro": mini_ro}, bot_delay=0.5)
    server.start()
    try:
        ref = upload(server)
        variant = mini_variant()
        humans = [two_players(server, ref) for _ in range(4)]
        bot_tables = [server.create(ref, [{"kind": "bot", "level": 1}] * 2) for _ in range(2)]
        for table, tokens in humans:
            play_turn(server, table, tokens[server.view(table)["to_move"]], variant, mini_es)
        watched, watched_tokens = humans[0]
        mover = server.view(watched)["to_move"]
        ws = server.ws(watched, watched_tokens[mover])
        seen = ws.state_until(lambda t: True)

        cluster.stop()
        try:
            for table, tokens in humans:
                seat = server.view(table)["to_move"]
                before = server.view(table, tokens[seat])
                r = server.move(table, tokens[seat], {"kind": "pass"}, before["seq"])
                assert r.status_code == 503, r.text
                assert r.json()["error"]["code"] == "storage_unavailable"
                # Memory is exactly what the database holds: the refused move is not there.
                assert stable(server.view(table, tokens[seat])) == stable(before)
                r = server.move(table, tokens[seat], {"kind": "pass"}, before["seq"])
                assert r.status_code == 503  # still down: the re-read fails the same way
            r = server.get("/api/tables")
            assert r.status_code == 503 and r.json()["error"]["code"] == "storage_unavailable"
            r = server.post("/api/tables", {"variant": "fise", "seats": [{"kind": "open"}] * 2})
            assert r.status_code == 503 and r.json()["error"]["code"] == "storage_unavailable"
            # Over the WebSocket: an error message, and the socket stays.
            ws.send({"type": "move", "id": 7, "seq": seen["seq"], "move": {"kind": "pass"}})
            error = ws.until(lambda m: m["type"] == "error")
            assert error["id"] == 7 and error["error"]["code"] == "storage_unavailable"
            ws.send({"type": "ping", "id": 8})
            assert ws.until(lambda m: m["type"] == "pong")["id"] == 8
            bots_during = {t: server.view(t)["seq"] for t in bot_tables}
            time.sleep(1.5)
            assert {t: server.view(t)["seq"] for t in bot_tables} == bots_during
        finally:
            cluster.start()

        # The same socket's move goes through once the database is back.
        ws.send({"type": "move", "id": 9, "seq": seen["seq"], "move": {"kind": "pass"}})
        ack = ws.until(lambda m: m["type"] in ("ack", "error") and m.get("id") == 9)
        assert ack["type"] == "ack", ack
        ws.close()
        for table, tokens in humans:
            play_turn(server, table, tokens[server.view(table)["to_move"]], variant, mini_es)
        # Bot tables move again by themselves.
        for table in bot_tables:
            _wait(
                lambda t=table: (
                    server.view(t)["seq"] > bots_during[t] or server.view(t)["state"] == "over"
                ),
                40,
                f"bot table {table} to move again",
            )
        before_restart = {t: stable(server.view(t)) for t, _ in humans}
    finally:
        server.stop()
    stored = _stored_logs_are_whole(db_url)
    server.start()  # every table loads after a restart, as it was
    try:
        for table, _ in humans:
            view = server.view(table)
            assert view["seq"] == stored[table]
            assert stable(view) == before_restart[table]
        for table in bot_tables:
            assert server.view(table)["seq"] >= stored[table]
    finally:
        server.stop()
