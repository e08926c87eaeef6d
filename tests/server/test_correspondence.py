"""Correspondence games: N days for each move (1–14). The game waits for the player; a turn
not played in time is lost (the table's rule for a clock per move), and "my games" says whose
turn it is and until when."""

from __future__ import annotations

import datetime
import time

from sqlalchemy import create_engine, text

from tablero.server.store.db import normalize_url

from .games import mini_toml, two_players, upload
from .harness import Server
from .test_accounts import error
from .test_ratings_server import Player
from .test_rematch import finish, rematch

DAY = 86_400


def test_each_move_has_the_days_of_the_table(server: Server) -> None:
    table, tokens = two_players(server, "fise", days_per_move=3)
    view = server.view(table)
    # FISE's own rule is a penalty per minute over a game's time; per move, a turn is lost.
    assert view["clock"] == {"initial_seconds": 3 * DAY, "on_timeout": "skip", "per_move": True}
    seat = view["to_move"]
    assert view["seats"][seat]["clock_running"]
    assert 3 * DAY - 5 < view["seats"][seat]["clock_remaining"] <= 3 * DAY
    r = server.move(table, tokens[seat], {"kind": "pass"}, view["seq"])
    assert r.status_code == 200, r.text
    seats = r.json()["table"]["seats"]
    assert seats[seat]["clock_remaining"] == 3 * DAY, "the next turn starts with all three days"
    assert seats[1 - seat]["clock_running"]
    lobby = {t["id"]: t for t in server.get("/api/tables").json()}
    assert lobby[table]["clock"]["per_move"] is True


def test_bad_time_controls_are_refused_and_create_nothing(server: Server) -> None:
    before = server.get("/api/tables").json()
    for body, field in (
        ({"days_per_move": 0}, "days_per_move"),
        ({"days_per_move": 15}, "days_per_move"),
        ({"days_per_move": 2, "clock_minutes": 10}, "days_per_move"),
        ({"days_per_move": "two"}, None),
    ):
        r = server.post("/api/tables", {"variant": "fise", "seats": [{"kind": "open"}] * 2, **body})
        assert r.status_code == 422, (body, r.text)
        if field is not None:
            assert error(r)["code"] == "bad_clock" and error(r)["field"] == field
    assert server.get("/api/tables").json() == before


def test_a_turn_whose_days_ran_out_is_lost_and_the_player_plays_the_next(
    server: Server,
) -> None:
    table, tokens = two_players(server, "fise", days_per_move=1)
    late = server.view(table)["to_move"]
    server.stop()
    # The player to move has let a day and a minute go by (the server was down meanwhile:
    # the stored times are what counts).
    engine = create_engine(normalize_url(server.db_url))
    with engine.begin() as conn:
        conn.execute(
            text(
                "UPDATE game_tables SET turn_started_at = turn_started_at - :late, "
                "clock_paused_at = NULL WHERE id = :id"
            ),
            {"id": table, "late": DAY + 60},
        )
    engine.dispose()
    server.start()
    view = server.view(table)
    assert view["history"][-1]["kind"] == "timeout" and view["history"][-1]["seat"] == late
    assert view["to_move"] == 1 - late
    assert not view["seats"][late]["out_of_time"], "one lost turn, not the game"
    assert view["seats"][late]["clock_remaining"] == DAY
    r = server.move(table, tokens[1 - late], {"kind": "pass"}, view["seq"])
    assert r.status_code == 200, r.text
    r = server.move(table, tokens[late], {"kind": "pass"}, r.json()["table"]["seq"])
    assert r.status_code == 200, r.text
    assert r.json()["table"]["to_move"] == 1 - late


def test_a_correspondence_seek_and_my_games_say_until_when(server: Server) -> None:
    ana, luis = Player(server), Player(server)
    r = ana.http.post("/api/seeks", json={"variant": "cuvinte", "days_per_move": 2})
    assert r.status_code == 201, r.text
    seek = r.json()["id"]
    listed = ana.http.get(f"/api/seeks/{seek}").json()
    assert (listed["days_per_move"], listed["clock_minutes"]) == (2, None)
    started = time.time()
    table = luis.http.post(f"/api/seeks/{seek}/accept").json()["table"]
    view = server.view(table)
    assert view["clock"] == {"initial_seconds": 2 * DAY, "on_timeout": "skip", "per_move": True}
    mover = [ana, luis][view["to_move"]]
    (mine,) = [g for g in mover.http.get("/api/me/games").json() if g["id"] == table]
    assert mine["your_turn"] is True
    ends = datetime.datetime.fromisoformat(mine["turn_ends"].replace("Z", "+00:00"))
    assert abs(ends.timestamp() - (started + 2 * DAY)) < 5
    other = luis if mover is ana else ana
    (theirs,) = [g for g in other.http.get("/api/me/games").json() if g["id"] == table]
    assert theirs["your_turn"] is False and theirs["turn_ends"] == mine["turn_ends"]
    # A rematch keeps the days per move.
    other.resign(server, table)
    assert server.view(table)["state"] == "over"
    for p in (ana, luis):
        r = p.http.post(f"/api/tables/{table}/rematch")
        assert r.status_code == 200, r.text
    new = r.json()["table"]
    assert server.view(new)["clock"]["per_move"] is True
    assert server.view(new)["clock"]["initial_seconds"] == 2 * DAY


def test_a_guest_table_rematch_keeps_the_days(server: Server) -> None:
    table, tokens = two_players(server, "intelect", days_per_move=14)
    finish(server, table, tokens[0])
    rematch(server, table, tokens[0])
    new = rematch(server, table, tokens[1]).json()["table"]
    assert server.view(new)["clock"] == {
        "initial_seconds": 14 * DAY,
        "on_timeout": "skip",
        "per_move": True,
    }


def test_a_rule_file_with_a_clock_per_move_keeps_it_by_default(server: Server) -> None:
    ref = upload(server, mini_toml("\n[clock]\ninitial_seconds = 600\nper_move = true\n"))
    table = server.create(ref, [{"kind": "open"}, {"kind": "open"}])
    assert server.view(table)["clock"] == {
        "initial_seconds": 600,
        "on_timeout": "skip",
        "per_move": True,
    }
