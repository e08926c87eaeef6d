"""Duplicate rooms at the server, on SQLite and PostgreSQL: a room through its rounds with
three players (two guests and an account), the submissions hidden from everyone else until
the round closes (other players' sockets and views, a spectator's, the server's log), the top
placed the library's, a round closed by the timer with nobody sending anything, a late
submission refused with its time and the limit, a restart in the middle of a round, the
refusals each changing nothing, and two processes on one database and one Redis.

The rooms play FISE with its shipped dictionary (the move generator in C: a round closes in
milliseconds). The moves are the engine's, found here on the position the view shows.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import time
from typing import Any

import httpx2
import pytest
from sqlalchemy import create_engine, text
from websockets.sync.client import connect

from tablero.board import Board, Tile
from tablero.competition.duplicate import best_by_score
from tablero.competition.duplicate_gcg import read_duplicate_gcg
from tablero.formats.cgp import read_cgp
from tablero.lexicon import Lexicon
from tablero.position import Position
from tablero.server.duplicate import views
from tablero.server.store.db import normalize_url
from tablero.variant import load_variant

from .harness import CLIENT_LOGGER, GENEROUS, TIMEOUT, Server, Socket, server_logs
from .services import need
from .test_accounts import error
from .test_ratings_server import Player

FISE = load_variant("fise")


@pytest.fixture(scope="module")
def lexicon(fise_lexicon: Lexicon) -> Lexicon:
    return fise_lexicon


@pytest.fixture(scope="module")
def server(shipped_server: Server) -> Server:
    """The shipped dictionaries (no test lists), per database kind (conftest)."""
    return shipped_server


# -- helpers ----------------------------------------------------------------------------------


def ok(r: httpx2.Response, status: int = 200) -> dict[str, Any]:
    assert r.status_code == status, r.text
    return dict(r.json())


def create(server: Server, nickname: str = "Ana", **options: Any) -> tuple[str, str]:
    """A room created by a guest: its id and the guest's token."""
    body = ok(
        server.post("/api/duplicate", {"variant": "fise", "nickname": nickname, **options}), 201
    )
    assert body["name"] == nickname and body["room"]["you"]["creator"] is True
    return str(body["id"]), str(body["token"])


def join(server: Server, room: str, nickname: str) -> str:
    body = ok(server.post(f"/api/duplicate/{room}/join", {"nickname": nickname}))
    assert body["room"]["you"]["name"] == nickname
    return str(body["token"])


def view(server: Server, room: str, token: str | None = None) -> dict[str, Any]:
    return ok(server.get(f"/api/duplicate/{room}", token))


def submit(server: Server, room: str, token: str, round_: int, move: str) -> httpx2.Response:
    body = {"round": round_, "move": {"kind": "notation", "text": move}}
    return server.post(f"/api/duplicate/{room}/submit", body, token)


def moves_of(v: dict[str, Any], lexicon: Lexicon) -> list[tuple[str, int]]:
    """The best moves on the room's board with its rack (notation, score), the top first."""
    board = Board(FISE.rows, FISE.columns)
    for r, row in enumerate(v["board"]):
        for c, tile in enumerate(row):
            if tile:
                board[(r, c)] = Tile(tile["letter"], tile["blank"])
    position = Position(FISE, board, [tuple(v["rack"])], [v["top_total"]])
    return [(m.notation, m.score) for m in best_by_score(position, lexicon, n=30)]


def stored(db_url: str, *statements: str, **params: Any) -> None:
    """Run the statements in one transaction: the server, sweeping its rooms meanwhile, sees
    all of them or none."""
    engine = create_engine(normalize_url(db_url))
    try:
        with engine.begin() as conn:
            for sql in statements:
                conn.execute(text(sql), params)
    finally:
        engine.dispose()


def age_round(db_url: str, room: str, seconds: float) -> None:
    """Move the room's current round back in time (as if it had opened ``seconds`` ago)."""
    # One transaction: a sweep between two would close the round on the room's new deadline
    # with the round's old times, and then age the next round instead.
    stored(
        db_url,
        "UPDATE duplicate_rooms SET opens_at = opens_at - :s, deadline = deadline - :s "
        "WHERE id = :room",
        "UPDATE duplicate_rounds SET opens_at = opens_at - :s, deadline = deadline - :s "
        "WHERE room_id = :room AND closed_at IS NULL",
        room=room,
        s=seconds,
    )


def until(fn: Any, timeout: float = TIMEOUT) -> Any:
    deadline = time.time() + timeout
    while True:
        got = fn()
        if got:
            return got
        if time.time() > deadline:
            raise AssertionError("the condition never held")
        time.sleep(0.05)


class RoomSocket(Socket):
    """A WebSocket on a room, keeping every message (for the privacy checks)."""

    def __init__(self, conn: Any) -> None:
        super().__init__(conn)
        self.last: dict[str, Any] = {}
        """The state that answered the socket's opening (or its ``auth``)."""

    def states(self) -> list[dict[str, Any]]:
        return [m["room"] for m in self.received if m.get("type") == "state"]

    def state_until(self, predicate: Any, timeout: float = TIMEOUT) -> dict[str, Any]:
        msg = self.until(lambda m: m["type"] == "state" and predicate(m["room"]), timeout)
        return dict(msg["room"])


def room_socket(
    server: Server, room: str, token: str | None = None, headers: dict[str, str] | None = None
) -> RoomSocket:
    conn = connect(
        f"ws://127.0.0.1:{server.port}/ws/duplicate/{room}",
        open_timeout=TIMEOUT,
        additional_headers=headers or {},
        logger=logging.getLogger(CLIENT_LOGGER),
    )
    sock = RoomSocket(conn.__enter__())
    sock.last = sock.state_until(lambda r: True)
    assert sock.last["you"] is None  # every socket opens as anyone's
    if token is not None or headers:
        sock.send({"type": "auth", **({"token": token} if token else {})})
        sock.last = sock.state_until(lambda r: r["you"] is not None)
    return sock


# -- a room through its rounds ----------------------------------------------------------------


def test_three_players_through_three_rounds_with_hidden_submissions(
    server: Server, lexicon: Lexicon
) -> None:
    room, ana = create(server, "Ana", round_seconds=120, pause_seconds=60, rounds=3)
    luis = join(server, room, "Luis")
    eva = Player(server)  # an account: joins and plays by its session
    body = ok(eva.http.post(f"/api/duplicate/{room}/join", json={}))
    assert body["token"] is None and body["name"] == eva.name
    waiting = view(server, room)
    assert waiting["state"] == "waiting" and waiting["rack"] is None
    assert [(p["name"], p["account"], p["creator"]) for p in waiting["players"]] == [
        ("Ana", False, True),
        ("Luis", False, False),
        (eva.name, True, False),
    ]
    ok(server.post(f"/api/duplicate/{room}/start", {}, ana))

    watcher = room_socket(server, room)
    luis_ws = room_socket(server, room, luis)
    eva_ws = room_socket(server, room, headers={"Origin": server.base, "Cookie": cookie(eva)})
    secrets: dict[int, list[str]] = {}  # the moves sent in each round, to look for in views
    tops = 0
    with server_logs() as logs:
        for n in (1, 2, 3):
            v = view(server, room, ana)
            assert v["phase"] == "open" and v["round"] == n and len(v["rack"]) == 7
            assert 0 < v["time_left"] <= 120
            best = moves_of(v, lexicon)
            top = best[0]
            second = next((m for m in best if m[1] < top[1]), best[-1])
            # Ana sends a move, then changes it: the last one counts.
            first = "8H ZZZ" if n == 1 else "-"
            ok(submit(server, room, ana, n, first))
            answer = ok(submit(server, room, ana, n, second[0]))
            assert answer["move"] == second[0] and answer["room"]["you"]["move"] == second[0]
            secrets[n] = [m for m in (first, second[0]) if m != "-"]
            # The others see that Ana has a move in, never what it is.
            seen = luis_ws.state_until(
                lambda r, n=n: r["round"] == n and r["players"][0]["submitted"]
            )
            assert seen["you"]["name"] == "Luis" and seen["you"]["move"] is None
            assert view(server, room, luis)["players"][0]["submitted"] is True
            ok(submit(server, room, luis, n, top[0]))
            eva_move = "8H ZZZ" if n == 1 else f"{'H8' if n % 2 else '8H'} AAAA"
            ok(eva.http.post(f"/api/duplicate/{room}/submit", json=move_body(n, eva_move)))
            # Everyone had a move in: the round closed at once.
            closed = watcher.state_until(lambda r, n=n: r["last"] and r["last"]["round"] == n)
            last = closed["last"]
            assert last["closed_by"] == "all" and closed["rack"] is None
            if n < 3:
                assert closed["phase"] == "pause" and 55 < closed["opens_in"] <= 60
            plays = {p["player"]: p for p in last["plays"]}
            assert plays["Ana"]["move"] == second[0] and plays["Ana"]["score"] == second[1]
            assert plays["Luis"]["move"] == top[0] and plays["Luis"]["found_top"]
            assert plays[eva.name]["score"] == 0 and plays[eva.name]["rule"]
            # The top placed is the library's (the move generator's first by score on the
            # round's position), drawn on the board of the round with its tiles.
            cgp = read_cgp(last["cgp"], FISE)
            engine_top = best_by_score(cgp, lexicon)[0]
            assert (last["top"]["move"], last["top"]["score"]) == (
                engine_top.notation,
                engine_top.score,
            )
            assert [m["move"] for m in last["best"]] == [
                m.notation for m in best_by_score(cgp, lexicon)
            ][:3]
            assert last["top"]["tiles"] and all(
                closed["board"][int(t["square"][1:]) - 1][ord(t["square"][0]) - 65]
                == {"letter": t["letter"], "blank": t["blank"]}
                for t in last["top"]["tiles"]
            )
            tops += top[1]
            assert closed["top_total"] == tops and plays["Luis"]["total"] == tops
            if n < 3:  # the creator opens the next round before the pause is over
                r = server.post(f"/api/duplicate/{room}/next", {}, luis)
                assert r.status_code == 403 and error(r)["code"] == "not_creator"
                ok(server.post(f"/api/duplicate/{room}/next", {}, ana))

    final = view(server, room, ana)
    assert final["state"] == "over" and final["end_reason"] == "rounds"
    standing = {s["name"]: s for s in final["standings"]}
    assert standing["Luis"]["place"] == 1 and standing["Luis"]["percent"] == 100.0
    assert standing["Ana"]["percent"] == round(100 * standing["Ana"]["total"] / tops, 2)
    assert [r["round"] for r in final["you"]["rounds"]] == [1, 2, 3]
    # Before a round closed, no message to anyone else and no line of the server's log named
    # a move Ana sent in it (after, the closed round shows it to everyone).
    for sock, owner in ((watcher, None), (luis_ws, "Luis"), (eva_ws, eva.name)):
        for state in sock.states():
            if state["phase"] == "open":
                text_ = json.dumps(state)  # each move as a JSON string, quotes and all
                assert not any(json.dumps(m) in text_ for m in secrets[state["round"]]), owner
    logged = " ".join(r.getMessage() for r in logs)
    assert not any(m in logged for ms in secrets.values() for m in ms)
    # The record: GCG with the duplicate pragmas, every total adding up.
    gcg = server.get(f"/api/duplicate/{room}/gcg")
    assert gcg.status_code == 200
    record = read_duplicate_gcg(gcg.text)
    assert sorted(record.totals.values()) == sorted(s["total"] for s in final["standings"])
    one = ok(server.get(f"/api/duplicate/{room}/rounds/2"))
    assert one["round"] == 2 and len(one["plays"]) == 3
    for sock in (watcher, luis_ws, eva_ws):
        sock.close()


def move_body(n: int, move: str) -> dict[str, Any]:
    return {"round": n, "move": {"kind": "notation", "text": move}}


def cookie(player: Player) -> str:
    return "; ".join(f"{k}={v}" for k, v in player.http.cookies.items())


# -- the clock --------------------------------------------------------------------------------


def test_a_round_closes_on_time_and_a_late_move_is_refused(
    server: Server, module_db_url: str, lexicon: Lexicon
) -> None:
    room, ana = create(server, "Ana", round_seconds=30, pause_seconds=30)
    luis = join(server, room, "Luis")
    ok(server.post(f"/api/duplicate/{room}/start", {}, ana))
    v = view(server, room, ana)
    top = moves_of(v, lexicon)[0]
    ok(submit(server, room, ana, 1, top[0]))
    # 31 s have passed (the database says so): the server closes the round by itself.
    age_round(module_db_url, room, 31)
    closed = until(lambda: (x := view(server, room, luis))["round"] == 2 and x)
    assert closed["last"]["closed_by"] == "time" and closed["phase"] == "pause"
    plays = {p["player"]: p for p in closed["last"]["plays"]}
    assert plays["Ana"]["score"] == top[1] and plays["Luis"]["move"] == "-"
    # Luis's move for round 1 comes now: refused with its time and the limit; nothing changes.
    before = view(server, room, luis)
    r = submit(server, room, luis, 1, top[0])
    assert r.status_code == 409
    e = error(r)
    assert e["code"] == "late" and e["params"]["limit"] == 30 and e["params"]["at"] > 30
    assert (
        e["message"].startswith("the move came 3")
        and "round 1; the round's limit is 30 s" in (e["message"])
    )
    assert strip(view(server, room, luis)) == strip(before)
    # During the pause, round 2 is not open yet.
    r = submit(server, room, luis, 2, top[0])
    assert r.status_code == 409 and error(r)["code"] == "not_open"
    assert "opens in" in error(r)["message"]


def strip(v: dict[str, Any]) -> dict[str, Any]:
    return {k: x for k, x in v.items() if k not in ("server_time", "opens_in", "time_left")}


def test_a_restart_in_the_middle_of_a_round_loses_nothing(
    server: Server, module_db_url: str, lexicon: Lexicon
) -> None:
    room, ana = create(server, "Ana", round_seconds=60, pause_seconds=10)
    luis = join(server, room, "Luis")
    ok(server.post(f"/api/duplicate/{room}/start", {}, ana))
    v = view(server, room, ana)
    top = moves_of(v, lexicon)[0]
    ok(submit(server, room, ana, 1, top[0]))
    before = {t: strip(view(server, room, t)) for t in (ana, luis)}
    server.stop()
    server.start()
    after = {t: strip(view(server, room, t)) for t in (ana, luis)}
    assert after == before
    assert after[ana]["you"]["move"] == top[0] and after[luis]["you"]["move"] is None
    ok(submit(server, room, luis, 1, top[0]))
    closed = view(server, room, luis)["last"]
    assert [(p["player"], p["score"]) for p in closed["plays"]] == [
        ("Ana", top[1]),
        ("Luis", top[1]),
    ]
    # Round 2 runs out while the server is stopped: closed as it starts again, nobody asking.
    server.post(f"/api/duplicate/{room}/next", {}, ana)
    server.stop()
    age_round(module_db_url, room, 61)
    server.start()
    assert until(lambda: view(server, room)["round"] == 3)
    assert view(server, room)["last"]["closed_by"] == "time"


# -- refusals ---------------------------------------------------------------------------------


def test_every_refusal_is_a_clear_error_and_changes_nothing(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(views, "MAX_PLAYERS", 3)
    room, ana = create(server, "Ana", round_seconds=60)
    luis = join(server, room, "Luis")

    def refused(r: httpx2.Response, status: int, code: str) -> dict[str, Any]:
        assert r.status_code == status, r.text
        e = error(r)
        assert e["code"] == code and e["message"], e
        return e

    def same(check: Any) -> None:
        seen = strip(view(server, room, ana))
        check()
        assert strip(view(server, room, ana)) == seen

    same(lambda: refused(server.post(f"/api/duplicate/{room}/start", {}, luis), 403, "not_creator"))
    same(lambda: refused(submit(server, room, ana, 1, "8H CASA"), 409, "room_waiting"))
    same(
        lambda: refused(
            server.post(f"/api/duplicate/{room}/join", {"nickname": "ana"}), 409, "name_taken"
        )
    )
    same(
        lambda: refused(
            server.post(f"/api/duplicate/{room}/join", {"nickname": "x" * 25}), 422, "bad_nickname"
        )
    )
    same(lambda: refused(server.post(f"/api/duplicate/{room}/join", {}), 422, "invalid_request"))
    same(lambda: refused(server.get(f"/api/duplicate/{room}", "not-a-token"), 401, "bad_token"))
    join(server, room, "Eva")
    same(
        lambda: refused(
            server.post(f"/api/duplicate/{room}/join", {"nickname": "Iker"}), 409, "room_full"
        )
    )
    same(lambda: refused(server.get(f"/api/duplicate/{room}/gcg"), 409, "not_over"))
    ok(server.post(f"/api/duplicate/{room}/start", {}, ana))
    same(
        lambda: refused(
            server.post(f"/api/duplicate/{room}/start", {}, ana), 409, "already_started"
        )
    )
    same(lambda: refused(server.post(f"/api/duplicate/{room}/next", {}, ana), 409, "not_in_pause"))
    same(lambda: refused(submit(server, room, ana, 2, "8H CASA"), 409, "not_open"))
    same(lambda: refused(submit(server, room, ana, 1, "8H C@SA"), 422, "notation"))
    exchange = {"round": 1, "move": {"kind": "exchange", "tiles": ["A"]}}
    same(
        lambda: refused(
            server.post(f"/api/duplicate/{room}/submit", exchange, ana), 422, "not_a_duplicate_move"
        )
    )
    stranger = Player(server)
    same(
        lambda: refused(
            stranger.http.post(f"/api/duplicate/{room}/submit", json=move_body(1, "-")),
            403,
            "not_a_player",
        )
    )
    same(lambda: refused(server.post(f"/api/duplicate/{room}/stop", {}, luis), 403, "not_creator"))
    ok(server.post(f"/api/duplicate/{room}/stop", {}, ana))
    same(lambda: refused(submit(server, room, luis, 1, "8H CASA"), 409, "game_over"))
    same(
        lambda: refused(
            server.post(f"/api/duplicate/{room}/join", {"nickname": "Iker"}), 409, "game_over"
        )
    )
    assert view(server, room)["end_reason"] == "stopped"

    # Bad options for a new room: refused, no room made.
    count = len(ok_list(server))
    for body, code in (
        ({"variant": "u-0123456789", "nickname": "A"}, "bad_variant"),
        ({"variant": "fise", "nickname": "A", "round_seconds": 5}, "bad_round_seconds"),
        ({"variant": "fise", "nickname": "A", "rounds": 0}, "bad_rounds"),
        ({"variant": "fise", "nickname": "A", "pause_seconds": 1000}, "bad_pause_seconds"),
        ({"variant": "fise", "nickname": "A", "solo_bonus": -1}, "bad_solo_bonus"),
        ({"variant": "fise", "nickname": "A", "title": "a\u202eb"}, "invalid_request"),
        ({"variant": "fise"}, "invalid_request"),
    ):
        refused(server.post("/api/duplicate", body), 422, code)
    assert len(ok_list(server)) == count
    refused(server.get("/api/duplicate/nope!"), 404, "not_found")
    refused(server.get("/api/duplicate/0123456789"), 404, "not_found")


def test_submissions_are_rate_limited_like_moves(db_url: str) -> None:
    """A room's submissions and previews count against the moves' limit per address."""
    # Per hour, not per minute: the limiter's sliding window weighs the window before by the
    # time left in it, so four hits just before a minute's turn and a fifth just after pass.
    s = Server(db_url, {}, rate_limits=dataclasses.replace(GENEROUS, play="4/hour"))
    s.start()
    try:
        room, ana = create(s, "Ana", round_seconds=60)
        ok(s.post(f"/api/duplicate/{room}/start", {}, ana))
        for _ in range(4):
            ok(submit(s, room, ana, 1, "-"))
        seq = view(s, room)["seq"]
        r = submit(s, room, ana, 1, "-")
        assert r.status_code == 429 and error(r)["code"] == "rate_limited"
        assert int(r.headers["Retry-After"]) > 0
        assert view(s, room)["seq"] == seq
    finally:
        s.stop()


def ok_list(server: Server) -> list[dict[str, Any]]:
    r = server.get("/api/duplicate")
    assert r.status_code == 200
    return list(r.json())


# -- two processes ----------------------------------------------------------------------------


def test_two_processes_share_a_room(db_url: str, redis_server: Any, lexicon: Lexicon) -> None:
    """A submission through one process closes the round for a viewer of the other (news on
    Redis, the state from the database); a round runs out and is closed once."""
    if db_url.startswith("sqlite"):
        pytest.skip("several processes share a PostgreSQL database (docs/server.md)")
    need(postgresql=True, redis=True)
    a = Server(db_url, {}, redis_url=redis_server.url)
    b = Server(db_url, {}, redis_url=redis_server.url)
    a.start()
    b.start()
    try:
        room, ana = create(a, "Ana", round_seconds=60, pause_seconds=30)
        luis = join(b, room, "Luis")
        ok(a.post(f"/api/duplicate/{room}/start", {}, ana))
        with room_socket(b, room, luis) as luis_ws:
            assert luis_ws.last["phase"] == "open" and luis_ws.last["you"]["name"] == "Luis"
            top = moves_of(view(a, room, ana), lexicon)[0]
            ok(submit(a, room, ana, 1, top[0]))
            luis_ws.state_until(lambda r: r["players"][0]["submitted"])
            ok(submit(b, room, luis, 1, top[0]))
            with room_socket(a, room) as watcher:
                assert watcher.last["round"] == 2 and watcher.last["phase"] == "pause"
                ok(a.post(f"/api/duplicate/{room}/next", {}, ana))
                luis_ws.state_until(lambda r: r["phase"] == "open" and r["round"] == 2)
                age_round(db_url, room, 61)
                closed = watcher.state_until(lambda r: r["round"] == 3)
                assert closed["last"]["closed_by"] == "time"
        rounds = view(b, room)["rounds"]
        assert [r["round"] for r in rounds] == [1, 2]
    finally:
        a.stop()
        b.stop()


def test_a_socket_that_will_authenticate_gets_only_its_players_states(server: Server) -> None:
    """``?auth=1``: the room as anyone sees it never comes before the answer to ``auth`` (it
    has no rack, and a page that reconnected would drop the tiles it had placed); a refused
    token gets that view after all."""
    room, ana = create(server, "Ana")
    url = f"ws://127.0.0.1:{server.port}/ws/duplicate/{room}?auth=1"
    with connect(url, open_timeout=TIMEOUT, logger=logging.getLogger(CLIENT_LOGGER)) as conn:
        sock = RoomSocket(conn)
        sock.send({"type": "auth", "token": ana})
        assert sock.state_until(lambda r: True)["you"]["name"] == "Ana"
        sock.send({"type": "ping", "id": 1})
        sock.until(lambda m: m["type"] == "pong")
        assert sock.states() and all(r["you"] is not None for r in sock.states())
    with connect(url, open_timeout=TIMEOUT, logger=logging.getLogger(CLIENT_LOGGER)) as conn:
        sock = RoomSocket(conn)
        sock.send({"type": "auth", "token": "not-a-token"})
        assert sock.until(lambda m: m["type"] == "error")["error"]["code"] == "bad_token"
        assert sock.state_until(lambda r: True)["you"] is None
