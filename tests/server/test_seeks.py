"""Seeks: offer a game, list it with the seeker's rating, accept it from another account (the
game starts at once with both seated), withdraw it; the refusals change nothing."""

from __future__ import annotations

import concurrent.futures

from .harness import Server
from .test_accounts import error
from .test_ratings_server import Player


def offer(player: Player, **body: object) -> str:
    r = player.http.post("/api/seeks", json={"variant": "fise", **body})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def test_a_seek_accepted_seats_both_and_starts_the_game(server: Server) -> None:
    ana, luis = Player(server), Player(server)
    seek = offer(ana, seats=2, clock_minutes=10, rated=True)
    listed = {s["id"]: s for s in server.get("/api/seeks").json()}[seek]
    assert listed == listed | {
        "variant": "fise",
        "seats": 2,
        "clock_minutes": 10,
        "rated": True,
        "seeker": ana.name,
        "rating": 1500,
        "provisional": True,
        "players": [ana.name],
        "state": "open",
    }
    r = luis.http.post(f"/api/seeks/{seek}/accept")
    assert r.status_code == 200, r.text
    table = r.json()["table"]
    view = server.view(table)
    assert view["state"] == "playing" and view["rated"] is True
    assert [s["nickname"] for s in view["seats"]] == [ana.name, luis.name]
    assert all(s["account"] for s in view["seats"])
    assert view["clock"]["initial_seconds"] == 600
    # Both find it: the seeker through the seek, each in "my games", each with a rack.
    assert ana.http.get(f"/api/seeks/{seek}").json()["table"] == table
    assert seek not in {s["id"] for s in server.get("/api/seeks").json()}
    for p, seat in ((ana, 0), (luis, 1)):
        assert table in {g["id"] for g in p.http.get("/api/me/games").json()}
        assert p.http.get(f"/api/tables/{table}").json()["you"]["seat"] == seat
    # Taken: no one else gets in.
    r = Player(server).http.post(f"/api/seeks/{seek}/accept")
    assert r.status_code == 409 and error(r)["code"] == "seek_taken"


def test_a_four_seat_seek_fills_one_by_one(server: Server) -> None:
    players = [Player(server) for _ in range(4)]
    seek = offer(players[0], variant="cuvinte", seats=4, clock_minutes=None)
    for p in players[1:3]:
        r = p.http.post(f"/api/seeks/{seek}/accept")
        assert r.status_code == 200 and r.json()["table"] is None
    r = players[3].http.post(f"/api/seeks/{seek}/accept")
    table = r.json()["table"]
    assert [s["nickname"] for s in server.view(table)["seats"]] == [p.name for p in players]


def test_two_accept_the_last_place_at_once_and_one_gets_it(server: Server) -> None:
    seeker, a, b = Player(server), Player(server), Player(server)
    seek = offer(seeker)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda p: p.http.post(f"/api/seeks/{seek}/accept"), (a, b)))
    codes = sorted(r.status_code for r in answers)
    assert codes == [200, 409], [r.text for r in answers]
    (won,) = [r for r in answers if r.status_code == 200]
    view = server.view(won.json()["table"])
    assert len(view["seats"]) == 2 and view["seats"][0]["nickname"] == seeker.name


def test_seek_refusals_change_nothing(server: Server) -> None:
    seeker, other = Player(server), Player(server)
    before = server.get("/api/seeks").json()
    for body, code in (
        ({"variant": "nosuch"}, 404),
        ({"variant": "fise", "seats": 5}, 422),
        ({"variant": "fise", "seats": 1}, 422),
        ({"variant": "fise", "clock_minutes": 0}, 422),
    ):
        r = seeker.http.post("/api/seeks", json=body)
        assert r.status_code == code, (body, r.text)
    assert server.get("/api/seeks").json() == before
    r = server.post("/api/seeks", {"variant": "fise"})  # a guest
    assert r.status_code == 401 and error(r)["code"] == "login_required"
    seek = offer(seeker)
    r = seeker.http.post(f"/api/seeks/{seek}/accept")
    assert r.status_code == 409 and error(r)["code"] == "own_seek"
    r = other.http.delete(f"/api/seeks/{seek}")
    assert r.status_code == 403 and error(r)["code"] == "not_yours"
    for _ in range(2):
        offer(seeker)
    r = seeker.http.post("/api/seeks", json={"variant": "fise"})
    assert r.status_code == 409 and error(r)["code"] == "too_many_seeks"
    assert seeker.http.delete(f"/api/seeks/{seek}").status_code == 200
    r = other.http.post(f"/api/seeks/{seek}/accept")
    assert r.status_code == 409 and error(r)["code"] == "seek_taken"
    r = other.http.post("/api/seeks/nosuch1/accept")
    assert r.status_code == 404
