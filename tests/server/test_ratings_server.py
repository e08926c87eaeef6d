"""Rated games at the server: who is rated, the update after 2-, 3- and 4-seat results (the
model's values, which tests/test_ratings.py checks against the formulas worked by hand),
each game rated once, profiles and the computer levels' ratings."""

from __future__ import annotations

import time
from typing import Any

import httpx2

from tablero.server.ratings import Rating, display, update
from tablero.server.ratings import store as ratings_store
from tablero.server.store.db import make_engine

from .games import upload
from .harness import Server
from .test_accounts import error, sign_up

_names = iter(f"rated{i}" for i in range(10_000))


class Player:
    """An account logged in in a browser of its own."""

    def __init__(self, server: Server) -> None:
        self.name = next(_names)
        self.http = httpx2.Client(base_url=server.base, headers={"Origin": server.base}, timeout=30)
        assert sign_up(self.http, self.name).status_code == 201

    def sit(self, table: str, seat: int) -> None:
        r = self.http.post(f"/api/tables/{table}/sit", json={"seat": seat})
        assert r.status_code == 200, r.text

    def resign(self, server: Server, table: str) -> None:
        """Resign (any time: a computer player may move meanwhile, so a stale ``seq`` is
        read again and the resignation sent again)."""
        for _ in range(20):
            seq = server.view(table)["seq"]
            r = self.http.post(
                f"/api/tables/{table}/move", json={"seq": seq, "move": {"kind": "resign"}}
            )
            if r.status_code != 409 or r.json()["error"]["code"] != "stale_seq":
                break
        assert r.status_code == 200, r.text

    def me(self) -> dict[str, Any]:
        return dict(self.http.get("/api/me").json())


def wait_rated(server: Server, player: Player, variant: str, games: int) -> dict[str, Any]:
    """The player's rating in ``variant`` once it counts ``games`` games (rated in a task)."""
    deadline = time.time() + 120
    while True:
        ratings = player.me()["ratings"]
        if ratings.get(variant, {}).get("games") == games:
            return dict(ratings[variant])
        assert time.time() < deadline, ratings
        time.sleep(0.05)


def test_a_two_seat_game_between_accounts_is_rated_once(server: Server) -> None:
    ana, luis = Player(server), Player(server)
    table = server.create("fise", [{"kind": "open"}, {"kind": "open"}])
    ana.sit(table, 0)
    luis.sit(table, 1)
    assert server.view(table)["rated"] is True
    luis.resign(server, table)
    # Two new players, a win: the model gives 1578 and 1422 (docs/ratings.md works it out).
    won, lost = update([Rating.new(), Rating.new()], [1, 2])
    assert (display(won), display(lost)) == (1578, 1422)
    assert wait_rated(server, ana, "fise", 1) == {
        "rating": display(won),
        "games": 1,
        "provisional": True,
    }
    assert wait_rated(server, luis, "fise", 1)["rating"] == display(lost)
    profile = luis.http.get(f"/api/players/{ana.name.upper()}").json()
    assert profile["username"] == ana.name
    assert profile["ratings"]["fise"]["rating"] == display(won)
    (change,) = profile["rating_history"]
    assert change == change | {"table": table, "variant": "fise", "place": 1, "before": 1500}
    assert change["rating"] == display(won)
    (game,) = profile["games"]
    assert game["id"] == table and game["result"] == "win" and game["rated"] is True
    assert game["reason"] == "resigned" and game["place"] == 1 and game["seats"] == 2
    # Rating it again (another process, the retry loop) changes nothing.
    engine = make_engine(server.db_url)
    try:
        assert ratings_store.rate_table(engine, table, 0.0) == "rated"
        assert ratings_store.unrated_finished(engine) == []
    finally:
        engine.dispose()
    assert len(luis.http.get(f"/api/players/{luis.name}").json()["rating_history"]) == 1
    assert wait_rated(server, ana, "fise", 1)["rating"] == display(won)


def test_three_and_four_seats_with_a_computer_player(server: Server) -> None:
    a, b = Player(server), Player(server)
    table = server.create("fise", [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "level": 2}])
    a.sit(table, 0)
    b.sit(table, 1)
    a.resign(server, table)  # ranks last
    b.resign(server, table)  # the bot is left alone and wins
    result = server.view(table)["result"]
    assert [x["seat"] for x in result["ranking"]] == [2, 1, 0]
    new = Rating.new()
    ra, rb, _bot = update([new, new, new], [3, 2, 1])
    assert wait_rated(server, a, "fise", 1)["rating"] == display(ra)
    assert wait_rated(server, b, "fise", 1)["rating"] == display(rb)
    levels = {x["level"]: x for x in server.get("/api/ratings/bots").json()}
    assert levels[2]["name"] == "easy" and levels[2]["ratings"]["fise"]["games"] >= 1

    # Four seats in Cuvinte: three accounts resign in turn, the computer player wins.
    c, d, e = Player(server), Player(server), Player(server)
    table = server.create(
        "cuvinte", [{"kind": "open"}] * 3 + [{"kind": "bot", "level": 1}], clock_minutes=None
    )
    for seat, p in enumerate((c, d, e)):
        p.sit(table, seat)
    for p in (d, c, e):
        p.resign(server, table)
    rc, rd, re_, _bot = update([new] * 4, [3, 4, 2, 1])
    assert wait_rated(server, c, "cuvinte", 1)["rating"] == display(rc)
    assert wait_rated(server, d, "cuvinte", 1)["rating"] == display(rd)
    assert wait_rated(server, e, "cuvinte", 1)["rating"] == display(re_)
    assert "fise" not in c.me()["ratings"]  # each game rates on its own


def test_casual_tables_are_not_rated(server: Server) -> None:
    def finished(variant: str, seats: list[dict[str, Any]], **options: Any) -> Player:
        player = Player(server)
        table = server.create(variant, seats, **options)
        player.sit(table, 0)
        if seats[1]["kind"] == "open":
            server.sit(table, 1, "Invitado")  # a guest
        player.resign(server, table)
        deadline = time.time() + 180
        while server.view(table)["state"] != "over":  # computer players play on to the end
            assert time.time() < deadline
            time.sleep(0.05)
        return player

    guests = finished("fise", [{"kind": "open"}, {"kind": "open"}])
    casual = finished("fise", [{"kind": "open"}, {"kind": "bot", "level": 1}], rated=False)
    uploaded = finished(upload(server), [{"kind": "open"}, {"kind": "bot", "level": 1}])
    twins = finished(
        "fise", [{"kind": "open"}, {"kind": "bot", "level": 1}, {"kind": "bot", "level": 1}]
    )
    rated = finished("fise", [{"kind": "open"}, {"kind": "bot", "level": 1}])
    wait_rated(server, rated, "fise", 1)  # by then the others have been decided too
    for p in (guests, casual, uploaded, twins):
        assert p.me()["ratings"] == {}, p.name
        (game,) = p.http.get(f"/api/players/{p.name}").json()["games"]
        assert game["rated"] is False and game["result"] == "loss"


def test_profiles_of_nobody(server: Server) -> None:
    for name in ("nobody-here", "no such name!", "x"):
        r = server.get(f"/api/players/{name}")
        assert r.status_code == 404 and error(r)["code"] == "no_such_player"
