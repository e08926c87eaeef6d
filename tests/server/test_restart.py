"""Nothing lost: a restarted server resumes every table where it stood, clocks included."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import create_engine, text

from tablero.lexicon import WordListLexicon
from tablero.server.store.db import normalize_url

from .games import mini_toml, mini_variant, play_turn, two_players, upload
from .harness import Server


def stable(view: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in view.items() if k != "server_time"}
    out["seats"] = [
        {k: v for k, v in s.items() if k not in ("clock_remaining", "connected")}
        for s in view["seats"]
    ]
    return out


def test_restart_in_the_middle_of_a_game_and_finish_it(
    server: Server, mini_es: WordListLexicon
) -> None:
    text_ = mini_toml()
    ref = upload(server, text_)
    variant = mini_variant(text_)
    table, tokens = two_players(server, ref)
    waiting = server.create(ref, [{"kind": "open"}, {"kind": "open"}])
    server.sit(waiting, 0, "Eva")
    for _ in range(4):
        play_turn(server, table, tokens[server.view(table)["to_move"]], variant, mini_es)
    before = {seat: stable(server.view(table, tok)) for seat, tok in tokens.items()}
    assert before[0]["seq"] > 4 and before[0]["state"] == "playing"
    server.stop()
    server.start()  # a new app instance on the same database
    after = {seat: stable(server.view(table, tok)) for seat, tok in tokens.items()}
    assert after == before
    assert server.view(waiting)["seats"][0]["nickname"] == "Eva"
    # The stale seq of before the restart is still refused, the current one accepted.
    with server.ws(table, tokens[0]) as ws:
        assert ws.recv()["table"]["seq"] == before[0]["seq"]
    while server.view(table)["state"] == "playing":
        play_turn(server, table, tokens[server.view(table)["to_move"]], variant, mini_es)
    final = server.view(table)
    assert final["result"]["final_scores"] == [s["score"] for s in final["seats"]]
    assert final["history"][: len(before[0]["history"])] == before[0]["history"]
    server.stop()
    server.start()
    assert stable(server.view(table)) == stable(final)


def test_clocks_resume_where_they_stood(server: Server) -> None:
    table, tokens = two_players(server, "cuvinte")
    view = server.view(table)
    seat = view["to_move"]
    r = server.move(table, tokens[seat], {"kind": "pass"}, view["seq"])
    assert r.status_code == 200, r.text
    running = r.json()["table"]["seats"][1 - seat]
    assert running["clock_running"] and running["clock_remaining"] <= 900
    stopped_at = server.view(table)["seats"][1 - seat]["clock_remaining"]
    server.stop()
    time.sleep(3.0)  # the server is down: nobody's time runs
    server.start()
    seats = server.view(table)["seats"]
    assert seats[1 - seat]["clock_running"]
    # Only the moments the server was up count (stopping, starting): well under the 3 s.
    assert stopped_at - 2.5 < seats[1 - seat]["clock_remaining"] <= stopped_at
    assert seats[seat]["clock_remaining"] == r.json()["table"]["seats"][seat]["clock_remaining"]


def test_a_clock_that_ran_out_is_settled_from_the_stored_times(server: Server) -> None:
    table, tokens = two_players(server, "cuvinte", clock_minutes=1)
    view = server.view(table)
    seat = view["to_move"]
    assert view["seats"][seat]["clock_remaining"] <= 60
    server.stop()
    # Pretend the player to move has been thinking for two minutes.
    engine = create_engine(normalize_url(server.db_url))
    with engine.begin() as conn:
        conn.execute(
            text("UPDATE game_tables SET turn_started_at = turn_started_at - 120 WHERE id = :id"),
            {"id": table},
        )
    engine.dispose()
    server.start()
    view = server.view(table)
    assert view["seats"][seat]["out_of_time"] and view["seats"][seat]["clock_remaining"] == 0
    assert view["history"][-1]["kind"] == "timeout" and view["history"][-1]["seat"] == seat
    assert view["to_move"] == 1 - seat and view["seats"][1 - seat]["clock_running"]
    assert 50 < view["seats"][1 - seat]["clock_remaining"] <= 60
    # The player out of time is passed over from now on.
    r = server.move(table, tokens[seat], {"kind": "pass"}, view["seq"])
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_your_turn"
    r = server.move(table, tokens[1 - seat], {"kind": "pass"}, view["seq"])
    assert r.json()["table"]["to_move"] == 1 - seat


def test_two_servers_on_one_database_never_fork_a_game(
    server: Server, mini_es: WordListLexicon, mini_ro: WordListLexicon
) -> None:
    """The database is the truth: a server whose memory is behind cannot add a diverging move;
    it refuses with 409 stale_seq, catches up, and then takes moves on the stored game."""
    table, tokens = two_players(server, upload(server))
    other = Server(server.db_url, {"es": mini_es, "ro": mini_ro})
    other.start()
    try:
        view = other.view(table)  # the second server loads the table now
        seat = view["to_move"]
        r = server.move(table, tokens[seat], {"kind": "pass"}, view["seq"])
        assert r.status_code == 200
        r = other.move(table, tokens[seat], {"kind": "pass"}, view["seq"])  # behind: same seq
        assert r.status_code == 409 and r.json()["error"]["code"] == "stale_seq"
        assert r.json()["error"]["seq"] == view["seq"] + 1
        reloaded = other.view(table)
        assert reloaded["seq"] == view["seq"] + 1 and reloaded["to_move"] == 1 - seat
        assert stable(reloaded) == stable(server.view(table))
        r = other.move(table, tokens[1 - seat], {"kind": "pass"}, reloaded["seq"])
        assert r.status_code == 200
    finally:
        other.stop()
    server.stop()
    server.start()
    history = server.view(table)["history"]
    assert [h["kind"] for h in history] == ["passed", "passed"]
    assert [h["seat"] for h in history] == [seat, 1 - seat]
