"""A duplicate series at the server, on SQLite and PostgreSQL: a director's series of two short
games (a duplicate room of the whole field per round of the tournament), each player's total
recorded from the room as its game ends, a score fixed by the director with its reason in the
log, a player removed before the second game, the standings by total and the CSV; and the
refusals, each a clear error that changes nothing.

The rooms play FISE with its shipped dictionary; the moves are the engine's, found here on the
position each room's view shows (as tests/server/test_duplicate_rooms.py does). The waits of a
room (the first rack 30 s after the start, 20 s between rounds) are skipped by moving the
room's times back in the database, as a clock would.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from tablero.lexicon import Lexicon
from tablero.variant import load_variant

from .harness import Server
from .test_accounts import error
from .test_duplicate_rooms import age_round, moves_of, until
from .test_ratings_server import Player

FISE = load_variant("fise")


def create_series(director: Player, **body: Any) -> str:
    spec = {
        "name": "Duplicada del jueves",
        "variant": "fise",
        "format": "duplicate",
        "rounds": 2,
        "round_seconds": 60,
        "game_rounds": 2,
    }
    r = director.http.post("/api/tournaments", json=spec | body)
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def get(player: Player, path: str) -> Any:
    r = player.http.get(path)
    assert r.status_code == 200, r.text
    return r.json()


def room_view(player: Player, room: str) -> dict[str, Any]:
    return dict(get(player, f"/api/duplicate/{room}"))


def open_round(server: Server, player: Player, room: str) -> dict[str, Any]:
    """Skip the wait before the room's round (the start's, or the pause after a round)."""
    v = room_view(player, room)
    if v["phase"] != "open":
        age_round(server.db_url, room, 31)
        v = until(lambda: (w := room_view(player, room))["phase"] == "open" and w)
    return v


def submit(player: Player, room: str, number: int, move: str) -> dict[str, Any]:
    body = {"round": number, "move": {"kind": "notation", "text": move}}
    r = player.http.post(f"/api/duplicate/{room}/submit", json=body)
    assert r.status_code == 200, r.text
    return dict(r.json())


def play_game(
    server: Server, room: str, players: list[Player], lexicon: Lexicon, rounds: int
) -> dict[str, int]:
    """Every round: the first player sends the top, the second the best move below it, any
    other an illegal move (in, scoring 0). The points each player should have, by name."""
    expected = {p.name: 0 for p in players}
    for n in range(1, rounds + 1):
        v = open_round(server, players[0], room)
        assert v["round"] == n
        best = moves_of(v, lexicon)
        top = best[0]
        second = next((m for m in best if m[1] < top[1]), best[-1])
        for i, p in enumerate(players):
            move = top[0] if i == 0 else second[0] if i == 1 else "H8 ZZZZ"
            submit(p, room, n, move)
        expected[players[0].name] += top[1]
        expected[players[1].name] += second[1]
        until(lambda n=n: room_view(players[0], room)["round"] > n or room_over(players[0], room))
    return expected


def room_over(player: Player, room: str) -> bool:
    return bool(room_view(player, room)["state"] == "over")


def test_a_duplicate_series_through_its_games(
    shipped_server: Server, fise_lexicon: Lexicon
) -> None:
    server, lexicon = shipped_server, fise_lexicon
    director = Player(server)
    ana, luis, eva = (Player(server) for _ in range(3))
    outsider = Player(server)
    series = create_series(director)
    for p in (ana, luis, eva):
        assert p.http.post(f"/api/tournaments/{series}/register").status_code == 200
    info = get(director, f"/api/tournaments/{series}")
    assert (info["format"], info["rounds"], info["round_seconds"], info["game_rounds"]) == (
        "duplicate",
        2,
        60,
        2,
    )
    assert info["rated"] is False and info["clock_minutes"] is None

    # Game 1: one room of the whole field, in seed order (all new: as they registered).
    r = director.http.post(f"/api/tournaments/{series}/rounds")
    assert r.status_code == 201, r.text
    one = r.json()
    room = one["room"]
    assert one["round"] == 1 and one["state"] == "playing"
    assert [s["player"] for s in one["scores"]] == [ana.name, luis.name, eva.name]
    v = room_view(ana, room)
    assert v["tournament"] == series and v["state"] == "playing" and v["creator"] == ""
    assert [p["name"] for p in v["players"]] == [ana.name, luis.name, eva.name]
    assert v["you"]["name"] == ana.name
    assert v["options"]["round_seconds"] == 60 and v["options"]["rounds"] == 2
    assert v["phase"] == "pause" and 25 < v["opens_in"] <= 30  # the first rack in 30 s

    # Nobody else joins a tournament's room, nobody runs it by hand: refused, nothing changed.
    r = outsider.http.post(f"/api/duplicate/{room}/join", json={})
    assert r.status_code == 409 and error(r)["code"] == "tournament_room"
    for action in ("next", "stop"):
        r = ana.http.post(f"/api/duplicate/{room}/{action}", json={})
        assert r.status_code == 403 and error(r)["code"] == "tournament_room", action
    assert [p["name"] for p in room_view(ana, room)["players"]] == [ana.name, luis.name, eva.name]
    # The next game cannot start while this one is played.
    r = director.http.post(f"/api/tournaments/{series}/rounds")
    assert r.status_code == 409 and error(r)["code"] == "round_in_play"

    expected = play_game(server, room, [ana, luis, eva], lexicon, rounds=2)
    end = until(lambda: (w := room_view(ana, room))["state"] == "over" and w)
    totals = {s["name"]: s["total"] for s in end["standings"]}
    assert totals == expected  # no solo bonus in FISE's rule file
    game_one = until(
        lambda: (g := get(director, f"/api/tournaments/{series}/rounds/1"))["state"] == "over" and g
    )
    scores = {s["player"]: s for s in game_one["scores"]}
    assert {n: s["score"] for n, s in scores.items()} == expected
    assert {s["top_total"] for s in scores.values()} == {end["top_total"]}
    assert scores[ana.name]["tops"] == 2 and scores[ana.name]["percent"] == 100.0
    assert scores[eva.name]["score"] == 0 and scores[eva.name]["source"] == "game"

    # The director fixes Eva's score (a ruling); anyone else is refused and nothing changes.
    fix = {"round": 1, "player": eva.name, "score": 12, "reason": "mesa 3: hoja mal leída"}
    r = luis.http.post(f"/api/tournaments/{series}/scores", json=fix)
    assert r.status_code == 403 and error(r)["code"] == "not_director"
    board_fix = {"round": 1, "board": 1, "scores": [300, 200], "reason": "x"}
    r = director.http.post(f"/api/tournaments/{series}/results", json=board_fix)
    assert r.status_code == 409 and error(r)["code"] == "not_boards"
    r = director.http.post(f"/api/tournaments/{series}/scores", json=fix | {"round": 5})
    assert r.status_code == 404 and error(r)["code"] == "no_such_game"
    assert get(director, f"/api/tournaments/{series}/rounds/1") == game_one
    r = director.http.post(f"/api/tournaments/{series}/scores", json=fix)
    assert r.status_code == 200, r.text
    fixed = {s["player"]: s for s in r.json()["scores"]}[eva.name]
    assert (fixed["score"], fixed["source"]) == (12, "director")
    log = get(director, f"/api/tournaments/{series}/log")
    assert log[-1]["action"] == "fix_score" and log[-1]["reason"] == fix["reason"]
    assert log[-1]["before"]["score"] == 0 and log[-1]["after"]["score"] == 12

    # Eva is removed before game 2: its room has the two others.
    r = director.http.post(
        f"/api/tournaments/{series}/players/{eva.name}/remove", json={"reason": "se fue"}
    )
    assert r.status_code == 200, r.text
    two = director.http.post(f"/api/tournaments/{series}/rounds").json()
    assert [s["player"] for s in two["scores"]] == [ana.name, luis.name]
    second = play_game(server, two["room"], [luis, ana], lexicon, rounds=2)
    until(lambda: get(director, f"/api/tournaments/{series}")["state"] == "finished")

    standings = get(director, f"/api/tournaments/{series}/standings")
    assert standings["final"] is True
    rows = {s["username"]: s for s in standings["standings"]}
    game_two = get(director, f"/api/tournaments/{series}/rounds/2")
    top_two = game_two["scores"][0]["top_total"]
    assert rows[ana.name]["total"] == expected[ana.name] + second[ana.name]
    assert rows[luis.name]["total"] == expected[luis.name] + second[luis.name]
    assert rows[eva.name]["total"] == 12 and rows[eva.name]["games"] == 1
    assert rows[ana.name]["top_total"] == end["top_total"] + top_two
    assert rows[eva.name]["removed"] is True
    ranked = [s["username"] for s in standings["standings"]]
    by_total = sorted(rows, key=lambda n: (-rows[n]["total"], -rows[n]["tops"], rows[n]["seed"]))
    assert ranked == by_total and [s["rank"] for s in standings["standings"]] == [1, 2, 3]
    assert rows[luis.name]["percent"] == round(
        100 * rows[luis.name]["total"] / rows[luis.name]["top_total"], 2
    )

    # The results as CSV: a row per player and game.
    r = director.http.get(f"/api/tournaments/{series}/results.csv")
    table = list(csv.DictReader(io.StringIO(r.text)))
    assert [(row["round"], row["player"]) for row in table] == [
        ("1", ana.name),
        ("1", luis.name),
        ("1", eva.name),
        ("2", ana.name),
        ("2", luis.name),
    ]
    assert {row["source"] for row in table} == {"game", "director"}
    r = director.http.post(f"/api/tournaments/{series}/rounds")
    assert r.status_code == 409 and error(r)["code"] == "no_rounds_left"


def test_a_series_refuses_what_it_cannot_be(shipped_server: Server) -> None:
    server = shipped_server
    director = Player(server)
    body = {"name": "Serie", "variant": "fise", "format": "duplicate", "rounds": 3}
    cases = [
        ({"clock_minutes": 10}, "bad_clock"),
        ({"rated": True}, "bad_rated"),
        ({"rounds": None}, "bad_rounds"),
        ({"rounds": 21}, "bad_rounds"),
        ({"round_seconds": 5}, "bad_round_seconds"),
        ({"game_rounds": 0}, "bad_game_rounds"),
        ({"format": "swiss", "round_seconds": 60}, "bad_round_seconds"),
        ({"format": "swiss", "game_rounds": 5}, "bad_game_rounds"),
    ]
    before = get(director, "/api/tournaments")
    for change, code in cases:
        r = director.http.post("/api/tournaments", json=body | change)
        assert r.status_code == 422 and error(r)["code"] == code, (change, r.text)
    assert get(director, "/api/tournaments") == before

    # One player: a series needs two, and starting says so, changing nothing.
    series = create_series(director, rounds=1)
    solo = Player(server)
    assert solo.http.post(f"/api/tournaments/{series}/register").status_code == 200
    r = director.http.post(f"/api/tournaments/{series}/rounds")
    assert r.status_code == 422 and error(r) == {
        "code": "not_enough_players",
        "message": "a duplicate series needs at least two players; the tournament has 1",
    }
    info = get(director, f"/api/tournaments/{series}")
    assert info["state"] == "registering" and info["round"] == 0
    assert get(director, f"/api/tournaments/{series}/rounds") == []
