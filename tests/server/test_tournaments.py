"""Tournaments at the server: a director's Swiss through its rounds (real tables, the games'
results coming back as they end, a bye, standings, a fixed result in the log, a player
removed, a pause, the CSV), a round robin to its end, and the refusals, each changing nothing.

Games are finished quickly: the first player plays its best placement (the small test
dictionary), then someone resigns; the pairings are the library's (tests/competition/
test_pairing.py works them out by hand), checked here for what the server adds: who sits
where, who starts, no repeats, the bye.
"""

from __future__ import annotations

import concurrent.futures
import csv
import io
import itertools
from typing import Any

import httpx2

from tablero.lexicon import WordListLexicon
from tablero.server.accounts.sessions import COOKIE
from tablero.variant import load_variant

from .games import best_placement
from .harness import Server, server_logs
from .test_accounts import error
from .test_ratings_server import Player

FISE = load_variant("fise")


def create(director: Player, **body: Any) -> str:
    spec = {"name": "Club de los martes", "variant": "fise", "format": "swiss", "rounds": 3}
    r = director.http.post("/api/tournaments", json=spec | body)
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def register(players: list[Player], tournament: str) -> None:
    for p in players:
        r = p.http.post(f"/api/tournaments/{tournament}/register")
        assert r.status_code == 200, r.text


def get(client: Player | Server, path: str) -> Any:
    http = client.http
    assert http is not None
    r = http.get(path)
    assert r.status_code == 200, r.text
    return r.json()


def start_round(director: Player, tournament: str) -> dict[str, Any]:
    r = director.http.post(f"/api/tournaments/{tournament}/rounds")
    assert r.status_code == 201, r.text
    return dict(r.json())


def table_view(player: Player, table: str) -> dict[str, Any]:
    return dict(get(player, f"/api/tables/{table}"))


def move(player: Player, table: str, body: dict[str, Any]) -> dict[str, Any]:
    seq = table_view(player, table)["seq"]
    r = player.http.post(f"/api/tables/{table}/move", json={"seq": seq, "move": body})
    assert r.status_code == 200, r.text
    return dict(r.json())


def play_then_resign(first: Player, second: Player, table: str, lexicon: WordListLexicon) -> int:
    """The first player plays its best placement, then the second resigns: the first wins
    by the placement's score, which is returned."""
    view = table_view(first, table)
    assert view["you"]["your_turn"]
    chosen = best_placement(view, FISE, lexicon)
    for _ in range(2):  # the small dictionary has no word for some racks: change them
        if chosen is not None:
            break
        move(first, table, {"kind": "exchange", "tiles": view["you"]["rack"]})
        move(second, table, {"kind": "pass"})
        view = table_view(first, table)
        chosen = best_placement(view, FISE, lexicon)
    assert chosen is not None, view["you"]["rack"]
    answer = move(first, table, chosen[0])
    assert answer["result"]["score"] == chosen[1]
    move(second, table, {"kind": "resign"})
    return chosen[1]


def players_at(board: dict[str, Any], by_name: dict[str, Player]) -> tuple[Player, Player]:
    return by_name[board["first"]], by_name[board["second"]]


def test_a_swiss_tournament_through_its_rounds(server: Server, mini_es: WordListLexicon) -> None:
    director = Player(server)
    players = [Player(server) for _ in range(5)]
    by_name = {p.name: p for p in players}
    tournament = create(director, clock_minutes=10, rated=True)
    register(players, tournament)
    # Registering twice: refused, nothing changed.
    r = players[0].http.post(f"/api/tournaments/{tournament}/register")
    assert r.status_code == 409 and error(r)["code"] == "already_registered"
    info = get(server, f"/api/tournaments/{tournament}")
    assert info["state"] == "registering" and info["round"] == 0
    assert [p["username"] for p in info["players"]] == [p.name for p in players]
    assert info["you"] == {"director": False, "registered": False}
    assert get(players[0], f"/api/tournaments/{tournament}")["you"]["registered"] is True

    # A director's action by someone else: 403 with the reason, and no round starts.
    r = players[0].http.post(f"/api/tournaments/{tournament}/rounds")
    assert r.status_code == 403 and error(r) == {
        "code": "not_director",
        "message": "only the tournament's director can start a round",
    }
    assert get(server, f"/api/tournaments/{tournament}")["round"] == 0

    with server_logs() as logs:
        one = start_round(director, tournament)
    # Five players, all new (1500): seeded as they registered. Round 1: the lowest, the 5th,
    # has the bye; the other four pair top half against bottom half: 1–3, 2–4.
    names = [p.name for p in players]
    assert [(b["first"], b["second"]) for b in one["boards"]] == [
        (names[0], names[2]),
        (names[1], names[3]),
        (names[4], None),
    ]
    bye = one["boards"][2]
    assert bye["state"] == "over" and bye["result"] == "bye" and bye["spread"] == 50
    info = get(server, f"/api/tournaments/{tournament}")
    assert info["state"] == "playing" and info["round"] == 1 and info["round_in_play"]
    assert [p["seed"] for p in info["players"]] == [1, 2, 3, 4, 5]
    # Each game is an ordinary table: the players seated as their accounts, the first at
    # seat 0 and to move, the tournament's clock, rated, titled with the round and board.
    for b in one["boards"][:2]:
        view = table_view(by_name[b["first"]], b["table"])
        assert [s["nickname"] for s in view["seats"]] == [b["first"], b["second"]]
        assert view["state"] == "playing" and view["to_move"] == 0
        assert view["you"]["seat"] == 0 and view["rated"] is True
        assert view["clock"]["initial_seconds"] == 600
        assert view["title"] == f"Club de los martes (1.{b['board']})"
    # No session id in the server's log, nor in any address it gave.
    cookies = [p.http.cookies.get(COOKIE) for p in [director, *players]]
    assert all(cookies)
    text = " ".join(r.getMessage() for r in logs) + str(one)
    assert not any(c in text for c in cookies if c)

    # Registration is closed; a round in play stops the next.
    late = Player(server)
    r = late.http.post(f"/api/tournaments/{tournament}/register")
    assert r.status_code == 409 and error(r)["code"] == "registration_closed"
    r = players[0].http.delete(f"/api/tournaments/{tournament}/register")
    assert r.status_code == 409 and error(r)["code"] == "registration_closed"
    r = director.http.post(f"/api/tournaments/{tournament}/rounds")
    assert r.status_code == 409 and error(r)["code"] == "round_in_play"

    # The games end; their results come in. Board 1: a placement, then a resignation.
    first, second = players_at(one["boards"][0], by_name)
    score = play_then_resign(first, second, one["boards"][0]["table"], mini_es)
    # Board 2: the first player resigns at once: a win for the second, spread 0.
    first2, second2 = players_at(one["boards"][1], by_name)
    move(first2, one["boards"][1]["table"], {"kind": "resign"})
    round1 = get(server, f"/api/tournaments/{tournament}/rounds/1")
    assert [(b["state"], b["result"], b["spread"], b["source"]) for b in round1["boards"]] == [
        ("over", "first", score, "game"),
        ("over", "second", 0, "game"),
        ("over", "bye", 50, "bye"),
    ]
    assert round1["boards"][0]["scores"] == [score, 0]
    table = get(server, f"/api/tournaments/{tournament}/standings")
    # By wins, then spread, then seed: the three winners (the placement's score, the bye's
    # 50, the resignation's 0), then the losers (0, minus the placement's score).
    results = {
        first.name: (1, score),
        names[4]: (1, 50),
        second2.name: (1, 0),
        first2.name: (0, 0),
        second.name: (0, -score),
    }
    order = sorted(results, key=lambda n: (-results[n][0], -results[n][1], names.index(n)))
    assert [(s["username"], s["points"], s["spread"]) for s in table["standings"]] == [
        (n, *results[n]) for n in order
    ]
    by_player = {s["username"]: s for s in table["standings"]}
    assert by_player[names[4]]["byes"] == 1 and by_player[names[4]]["firsts"] == 0
    assert by_player[first.name]["firsts"] == 1 and by_player[second.name]["seconds"] == 1
    assert table["final"] is False and table["round"] == 1

    # Round 2: no repeats, the bye to the lowest-ranked of those without one.
    two = start_round(director, tournament)
    met = {frozenset((b["first"], b["second"])) for b in round1["boards"] if b["second"]}
    for b in two["boards"]:
        if b["second"]:
            assert frozenset((b["first"], b["second"])) not in met
    (bye2,) = [b for b in two["boards"] if b["second"] is None]
    assert bye2["first"] == table["standings"][-1]["username"]

    # A result fixed by the director: a game that does not exist (404), a bye (422), by
    # someone else (403), each changing nothing; then the fix, in the log.
    fix = {"round": 2, "board": 1, "scores": [420, 380], "reason": "scoresheet signed 420–380"}
    for body, status, code in (
        (fix | {"board": 9}, 404, "no_such_game"),
        (fix | {"round": 7}, 404, "no_such_game"),
        (fix | {"board": bye2["board"]}, 422, "bye"),
        (fix | {"reason": "  "}, 422, "invalid_request"),
        (fix | {"scores": [1, 2, 3]}, 422, "invalid_request"),
    ):
        r = director.http.post(f"/api/tournaments/{tournament}/results", json=body)
        assert r.status_code == status and error(r)["code"] == code, (body, r.text)
    r = players[0].http.post(f"/api/tournaments/{tournament}/results", json=fix)
    assert r.status_code == 403 and error(r)["code"] == "not_director"
    assert get(server, f"/api/tournaments/{tournament}/rounds/2") == {
        "round": 2,
        "boards": two["boards"],
    }
    r = director.http.post(f"/api/tournaments/{tournament}/results", json=fix)
    assert r.status_code == 200, r.text
    assert r.json() | {"table": None} == {
        "board": 1,
        "first": two["boards"][0]["first"],
        "second": two["boards"][0]["second"],
        "table": None,
        "state": "over",
        "scores": [420, 380],
        "result": "first",
        "spread": 40,
        "source": "director",
    }
    log = get(server, f"/api/tournaments/{tournament}/log")
    assert [e["action"] for e in log] == ["start_round", "start_round", "fix_result"]
    assert log[2] | {"at": None} == {
        "at": None,
        "by": director.name,
        "action": "fix_result",
        "round": 2,
        "board": 1,
        "player": None,
        "reason": "scoresheet signed 420–380",
        "before": {"state": "playing", "scores": None, "points": None, "spread": None,
                   "source": None},
        "after": {"state": "over", "scores": [420, 380], "points": 1.0, "spread": 40,
                  "source": "director"},
    }  # fmt: skip
    # The fixed game's own end, later, does not overwrite the director's result.
    move(by_name[two["boards"][0]["second"]], two["boards"][0]["table"], {"kind": "resign"})
    assert get(server, f"/api/tournaments/{tournament}/rounds/2")["boards"][0]["scores"] == [
        420,
        380,
    ]

    # The director removes a player (with a reason): paired in no later round.
    removed = two["boards"][1]["second"]
    r = director.http.post(
        f"/api/tournaments/{tournament}/players/{removed}/remove", json={"reason": "left early"}
    )
    assert r.status_code == 200, r.text
    r = director.http.post(
        f"/api/tournaments/{tournament}/players/{removed}/remove", json={"reason": "again"}
    )
    assert r.status_code == 409 and error(r)["code"] == "already_removed"
    # Their game in play still counts: they resign it.
    move(by_name[removed], two["boards"][1]["table"], {"kind": "resign"})

    # Paused: no round starts; resumed: it does, without the removed player.
    r = director.http.post(f"/api/tournaments/{tournament}/pause", json={"reason": "lunch"})
    assert r.status_code == 200, r.text
    r = director.http.post(f"/api/tournaments/{tournament}/rounds")
    assert r.status_code == 409 and error(r)["code"] == "paused"
    assert get(server, f"/api/tournaments/{tournament}")["paused"] is True
    assert director.http.post(f"/api/tournaments/{tournament}/resume").status_code == 200
    three = start_round(director, tournament)
    seated = {n for b in three["boards"] for n in (b["first"], b["second"]) if n}
    assert seated == set(names) - {removed}
    assert len(three["boards"]) == 2  # four players, no bye
    for b in three["boards"]:
        move(by_name[b["second"]], b["table"], {"kind": "resign"})

    # The last round over: finished; no more rounds.
    info = get(server, f"/api/tournaments/{tournament}")
    assert info["state"] == "finished" and info["finished"] is not None
    r = director.http.post(f"/api/tournaments/{tournament}/rounds")
    assert r.status_code == 409 and error(r)["code"] == "no_rounds_left"
    final = get(server, f"/api/tournaments/{tournament}/standings")
    assert final["final"] is True and len(final["standings"]) == 5
    assert [s["removed"] for s in final["standings"]].count(True) == 1
    assert all(s["played"] == (2 if s["username"] == removed else 3) for s in final["standings"])

    # The results as CSV: one line a board.
    assert server.http is not None
    r = server.http.get(f"/api/tournaments/{tournament}/results.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert "attachment" in r.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert len(rows) == 3 + 3 + 2
    assert rows[0] | {"table": ""} == {
        "round": "1",
        "board": "1",
        "first": first.name,
        "second": second.name,
        "first_score": str(score),
        "second_score": "0",
        "result": "first",
        "first_spread": str(score),
        "source": "game",
        "table": "",
    }
    assert rows[2]["result"] == "bye" and rows[2]["first_spread"] == "50"
    assert rows[3]["source"] == "director" and rows[3]["first_score"] == "420"


def test_a_round_robin_of_three_plays_to_its_end(server: Server) -> None:
    director = Player(server)
    players = [Player(server) for _ in range(3)]
    by_name = {p.name: p for p in players}
    tournament = create(director, format="round_robin", rounds=None)
    assert get(server, f"/api/tournaments/{tournament}")["rounds"] is None
    register(players, tournament)
    met: list[frozenset[str]] = []
    byes = []
    for number in (1, 2, 3):
        r = start_round(director, tournament)
        assert r["round"] == number
        for b in r["boards"]:
            if b["second"] is None:
                byes.append(b["first"])
                continue
            met.append(frozenset((b["first"], b["second"])))
            move(by_name[b["first"]], b["table"], {"kind": "resign"})
        if number == 1:
            assert get(server, f"/api/tournaments/{tournament}")["rounds"] == 3
    # Everyone met everyone once; each had one bye.
    assert sorted(sorted(m) for m in met) == sorted(
        sorted((p.name, q.name)) for p, q in itertools.combinations(players, 2)
    )
    assert sorted(byes) == sorted(by_name)
    info = get(server, f"/api/tournaments/{tournament}")
    assert info["state"] == "finished"
    r = director.http.post(f"/api/tournaments/{tournament}/rounds")
    assert r.status_code == 409 and error(r)["code"] == "no_rounds_left"


def test_refusals_change_nothing(server: Server) -> None:
    director = Player(server)
    listed = get(server, "/api/tournaments")
    base = {"name": "Open", "variant": "fise", "format": "swiss", "rounds": 5}
    for body, status, code in (
        (base | {"format": "duplicate", "clock_minutes": 10}, 422, "bad_clock"),
        (base | {"format": "knockout"}, 422, "bad_format"),
        (base | {"rounds": 0}, 422, "bad_rounds"),
        (base | {"rounds": 21}, 422, "bad_rounds"),
        (base | {"rounds": None}, 422, "bad_rounds"),
        (base | {"format": "round_robin"}, 422, "bad_rounds"),
        (base | {"name": ""}, 422, "invalid_request"),
        (base | {"name": "x" * 49}, 422, "invalid_request"),
        (base | {"name": "Club\u202etxt.exe"}, 422, "invalid_request"),
        (base | {"max_players": 65}, 422, "bad_max_players"),
        (base | {"max_players": 1}, 422, "bad_max_players"),
        (base | {"clock_minutes": 0}, 422, "bad_clock"),
        (base | {"variant": "nosuch"}, 404, "not_found"),
        (base | {"variant": "u-0123456789"}, 422, "bad_variant"),
    ):
        r = director.http.post("/api/tournaments", json=body)
        assert r.status_code == status and error(r)["code"] == code, (body, r.text)
    r = director.http.post("/api/tournaments", json=base | {"format": "duplicate", "rated": True})
    assert error(r) == {
        "code": "bad_rated",
        "message": "rated: a duplicate series is not rated",
        "field": "rated",
    }
    r = httpx2.post(f"{server.base}/api/tournaments", json=base)  # a guest
    assert r.status_code == 401 and error(r)["code"] == "login_required"
    assert get(server, "/api/tournaments") == listed

    # Pairing one player: 422, and the tournament is as it was.
    tournament = create(director, name="Solo", max_players=2)
    alone, other, third = Player(server), Player(server), Player(server)
    register([alone], tournament)
    before = get(server, f"/api/tournaments/{tournament}")
    r = director.http.post(f"/api/tournaments/{tournament}/rounds")
    assert r.status_code == 422 and error(r)["code"] == "not_enough_players"
    assert "at least two players" in error(r)["message"]
    assert get(server, f"/api/tournaments/{tournament}") == before
    assert get(server, f"/api/tournaments/{tournament}/log") == []
    # Full (two places); withdrawing makes room; not registered cannot withdraw.
    register([other], tournament)
    r = third.http.post(f"/api/tournaments/{tournament}/register")
    assert r.status_code == 409 and error(r)["code"] == "tournament_full"
    r = third.http.delete(f"/api/tournaments/{tournament}/register")
    assert r.status_code == 409 and error(r)["code"] == "not_registered"
    assert other.http.delete(f"/api/tournaments/{tournament}/register").status_code == 200
    register([third], tournament)
    # Director-only actions by a player: 403; unknown tournament: 404; unknown player: 404.
    for path, body in (
        ("pause", {}),
        ("resume", {}),
        (f"players/{alone.name}/remove", {"reason": "x"}),
        ("results", {"round": 1, "board": 1, "scores": [1, 0], "reason": "x"}),
    ):
        r = alone.http.post(f"/api/tournaments/{tournament}/{path}", json=body)
        assert r.status_code == 403 and error(r)["code"] == "not_director", (path, r.text)
    r = director.http.post(f"/api/tournaments/{tournament}/results", json={
        "round": 1, "board": 1, "scores": [1, 0], "reason": "x"})  # fmt: skip
    assert r.status_code == 404 and error(r)["code"] == "no_such_game"
    r = director.http.post(f"/api/tournaments/{tournament}/players/nobody/remove", json={
        "reason": "x"})  # fmt: skip
    assert r.status_code == 404 and error(r)["code"] == "not_registered"
    r = director.http.post(f"/api/tournaments/{tournament}/players/{alone.name}/remove")
    assert r.status_code == 422 and error(r)["code"] == "invalid_request"
    for path in ("", "/standings", "/rounds/1", "/log", "/results.csv"):
        r = director.http.get(f"/api/tournaments/nosuch{path}")
        assert r.status_code == 404, (path, r.text)
    r = director.http.get(f"/api/tournaments/{tournament}/rounds/1")
    assert r.status_code == 404 and error(r)["code"] == "no_such_round"
    # A pause twice is refused; the log keeps the one that happened.
    assert director.http.post(f"/api/tournaments/{tournament}/pause").status_code == 200
    r = director.http.post(f"/api/tournaments/{tournament}/pause")
    assert r.status_code == 409 and error(r)["code"] == "already_paused"
    assert [e["action"] for e in get(server, f"/api/tournaments/{tournament}/log")] == ["pause"]
    # Before the start, a removal takes the player off the list.
    r = director.http.post(
        f"/api/tournaments/{tournament}/players/{third.name}/remove", json={"reason": "no-show"}
    )
    assert r.status_code == 200
    assert [p["username"] for p in get(server, f"/api/tournaments/{tournament}")["players"]] == [
        alone.name
    ]


def test_two_starts_at_once_give_one_round(server: Server) -> None:
    director = Player(server)
    players = [Player(server) for _ in range(4)]
    tournament = create(director)
    register(players, tournament)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        answers = list(
            pool.map(
                lambda _: director.http.post(f"/api/tournaments/{tournament}/rounds"), range(2)
            )
        )
    assert sorted(r.status_code for r in answers) == [201, 409], [r.text for r in answers]
    info = get(server, f"/api/tournaments/{tournament}")
    assert info["round"] == 1
    assert len(get(server, f"/api/tournaments/{tournament}/rounds")[0]["boards"]) == 2


def test_a_result_whose_hook_never_ran_is_recorded_by_the_next_look(server: Server) -> None:
    """The process that stored a game's end stopped before recording it on the board (here:
    no hook at all): any later read of the tournament records it."""
    director = Player(server)
    players = [Player(server) for _ in range(2)]
    by_name = {p.name: p for p in players}
    tournament = create(director, rounds=1)
    register(players, tournament)
    board = start_round(director, tournament)["boards"][0]
    hub = server.app.state.hub
    hooks, hub._over_hooks = hub._over_hooks, []
    try:
        move(by_name[board["second"]], board["table"], {"kind": "resign"})
    finally:
        hub._over_hooks = hooks
    assert get(server, f"/api/tournaments/{tournament}/rounds/1")["boards"][0]["result"] == (
        "first"
    )
    assert get(server, f"/api/tournaments/{tournament}")["state"] == "finished"


def test_a_director_runs_at_most_five_tournaments_at_once(server: Server) -> None:
    director = Player(server)
    for i in range(5):
        create(director, name=f"Open {i}")
    r = director.http.post(
        "/api/tournaments", json={"name": "One more", "variant": "fise", "format": "swiss",
                                  "rounds": 3},
    )  # fmt: skip
    assert r.status_code == 409 and error(r)["code"] == "too_many_tournaments"
    assert sum(t["director"] == director.name for t in get(server, "/api/tournaments")) == 5


def test_numbers_out_of_any_range_are_refused_not_stored(server: Server) -> None:
    director = Player(server)
    tournament = create(director)
    for body in (
        {"round": 10**20, "board": 1, "scores": [1, 0], "reason": "x"},
        {"round": 1, "board": -1, "scores": [1, 0], "reason": "x"},
        {"round": 1, "board": 1, "scores": [10**20, 0], "reason": "x"},
    ):
        r = director.http.post(f"/api/tournaments/{tournament}/results", json=body)
        assert r.status_code == 422, r.text
    for path in ("rounds/x", "rounds/0", "rounds/99999999999"):
        r = director.http.get(f"/api/tournaments/{tournament}/{path}")
        assert r.status_code == 404 and error(r)["code"] == "no_such_round", r.text
    r = director.http.post("/api/tournaments", json={
        "name": "Big", "variant": "fise", "format": "swiss", "rounds": 10**20})  # fmt: skip
    assert r.status_code == 422 and error(r)["code"] == "bad_rounds"
