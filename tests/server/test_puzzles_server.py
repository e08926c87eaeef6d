"""Puzzles at the server: the shipped sets served to guests and accounts near their rating (the
answer never in a puzzle before an attempt), attempts judged and rated once, the guest's
history kept in its browser session only, refusals changing nothing; and a finished game
scanned for puzzles in the workers, what it gives being what the library finds in its record.

The server plays with the shipped dictionaries (the puzzles' answers and the scans are the
real engine's), the bots think in a thread."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from tablero.lexicon import load_lexicon
from tablero.puzzles.model import Puzzle
from tablero.puzzles.selection import puzzles_from_gcg
from tablero.puzzles.shipped import find_puzzle, shipped_puzzles
from tablero.server.puzzles import store
from tablero.server.puzzles.models import PuzzleRow, PuzzleScanRow
from tablero.server.puzzles.routes import GUEST_COOKIE, _guest_key
from tablero.server.store.db import make_engine
from tablero.variant import builtin_variant_names, load_variant

from .harness import Server
from .test_accounts import error, login, sign_up

_names = (f"solver{i}" for i in itertools.count())


@pytest.fixture(scope="module")
def server(module_db_url: str) -> Iterator[Server]:
    s = Server(module_db_url, {}, bot_workers=0)
    s.start()
    try:
        yield s
    finally:
        s.stop()


class Solver:
    """A browser of its own: a guest until it signs up."""

    def __init__(self, server: Server, account: bool = False) -> None:
        self.http = httpx2.Client(base_url=server.base, headers={"Origin": server.base}, timeout=30)
        if account:
            self.name = next(_names)
            assert sign_up(self.http, self.name).status_code == 201

    def get(self, path: str) -> dict[str, Any]:
        r = self.http.get(path)
        assert r.status_code == 200, r.text
        return dict(r.json())

    def next(self, variant: str = "fise", **params: str) -> dict[str, Any]:
        return self.get(
            f"/api/puzzles/next?variant={variant}" + "".join(f"&{k}={v}" for k, v in params.items())
        )

    def attempt(self, puzzle: str, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
        r = self.http.post(f"/api/puzzles/{puzzle}/attempt", json=body)
        assert r.status_code == status, r.text
        return dict(r.json())


def shipped(puzzle_id: str) -> Puzzle:
    found = find_puzzle(puzzle_id)
    assert found is not None
    return found


def test_the_shipped_sets_are_served(server: Server) -> None:
    guest = Solver(server)
    games = guest.get("/api/puzzles")
    assert [g["variant"] for g in games["games"]] == builtin_variant_names()
    for g in games["games"]:
        assert g["puzzles"] >= len(shipped_puzzles(g["variant"]))
        assert g["language"] == load_variant(g["variant"]).language
        assert g["solver"]["rating"] == 1500 and g["solver"]["attempts"] == 0
    assert games["signed_in"] is False


def test_a_guest_solves_in_its_session(server: Server) -> None:
    guest = Solver(server)
    shown = guest.next("fise")
    puzzle = shown["puzzle"]
    p = shipped(puzzle["id"])
    # No answer before an attempt: not as a field, not anywhere in the text.
    assert set(puzzle) == {
        "id",
        "variant",
        "language",
        "cgp",
        "rack",
        "scores",
        "bag",
        "rating",
        "attempts",
        "solved",
    }
    r = guest.http.get(f"/api/puzzles/next?variant=fise&skip={p.id}")
    for text in (r.text, guest.http.get(f"/api/puzzles/{p.id}").text):
        assert p.answer.move not in text and "runner_up" not in text and p.theme not in text
    assert puzzle["cgp"] == p.cgp and puzzle["rack"] == list(p.position().rack)
    assert shown["solver"] == {
        "rating": 1500,
        "provisional": True,
        "attempts": 0,
        "solved": 0,
        "streak": 0,
        "best_streak": 0,
    }
    # The next puzzle is among the eight nearest 1500 (none played yet).
    stored = sorted((abs(x.rating - 1500), x.id) for x in shipped_puzzles("fise"))
    assert (abs(puzzle["rating"] - 1500), p.id) in stored[:8]

    # A refused move changes nothing and sets no cookie. (The first FISE puzzle: the answer
    # H7 (SE)mEJASTE puts a blank down as M; the rack has no M of its own.)
    first = shipped_puzzles("fise")[0]
    assert first.answer.move == "H7 (SE)mEJASTE"
    for body, code in (
        ({"move": "8H"}, "notation"),
        ({"move": "H7 (SE)MEJASTE"}, "not_on_rack"),
        ({"move": "8H CASA", "give_up": True}, "invalid_request"),
        ({}, "invalid_request"),
        ({"tiles": [{"square": "Z99", "letter": "A"}]}, "invalid_request"),
    ):
        r = guest.http.post(f"/api/puzzles/{first.id}/attempt", json=body)
        assert r.status_code == 422 and error(r)["code"] == code, r.text
    r = guest.http.post("/api/puzzles/fise-0000000000/attempt", json={"give_up": True})
    assert r.status_code == 404 and error(r)["code"] == "no_such_puzzle"
    assert GUEST_COOKIE not in guest.http.cookies
    assert guest.get(f"/api/puzzles/{first.id}")["puzzle"]["attempts"] == 0

    # Giving up: a miss, the answer shown with its tiles, the solver down, the puzzle up.
    answer = guest.attempt(p.id, {"give_up": True})
    assert answer["correct"] is False and answer["rated"] is True and answer["played"] is None
    assert answer["answers"][0]["move"] == p.answer.move
    assert answer["answers"][0]["score"] == p.answer.score
    assert len(answer["answers"][0]["tiles"]) == p.seeds.tiles
    assert answer["theme"] == p.theme and answer["runner_up"]["move"] == p.runner_up.move  # type: ignore[union-attr]
    assert answer["solver"]["rating_before"] == 1500 > answer["solver"]["rating"]
    assert answer["puzzle"]["rating_before"] == p.rating < answer["puzzle"]["rating"]
    assert answer["puzzle"]["attempts"] == 1 and answer["puzzle"]["solved"] == 0
    assert GUEST_COOKIE in guest.http.cookies  # the guest's session

    # The next ones skip it; the right answer, sent as tiles on squares as the page does.
    second = guest.next("fise")["puzzle"]
    assert second["id"] != p.id
    q = shipped(second["id"])
    tiles = guest.attempt(q.id, {"give_up": True})["answers"][0]["tiles"]  # a miss first…
    again = guest.attempt(q.id, {"tiles": tiles})  # …then right, but not rated again
    assert again["correct"] is True and again["rated"] is False
    assert again["played"]["move"] == q.answer.move and again["played"]["score"] == q.answer.score

    third = shipped(guest.next("fise")["puzzle"]["id"])
    solved = guest.attempt(third.id, {"move": third.answer.move})
    assert solved["correct"] is True and solved["rated"] is True
    assert solved["solver"]["rating"] > solved["solver"]["rating_before"]
    assert solved["puzzle"]["rating"] < solved["puzzle"]["rating_before"]
    assert solved["solver"]["streak"] == 1 and solved["solver"]["attempts"] == 3

    # A wrong move that is a valid play: its score, and what the top was.
    fourth = shipped(guest.next("fise")["puzzle"]["id"])
    wrong = guest.attempt(fourth.id, {"move": fourth.runner_up.move})  # type: ignore[union-attr]
    assert (wrong["correct"], wrong["played"]["legal"], wrong["played"]["score"]) == (
        False,
        True,
        fourth.runner_up.score,  # type: ignore[union-attr]
    )
    assert wrong["solver"]["streak"] == 0 and wrong["solver"]["best_streak"] == 1

    # The guest's history, newest first; another browser (a new session) has none.
    history = guest.get("/api/puzzles/history?variant=fise")["attempts"]
    assert [(h["puzzle"], h["correct"], h["rated"]) for h in history] == [
        (fourth.id, False, True),
        (third.id, True, True),
        (q.id, True, False),
        (q.id, False, True),
        (p.id, False, True),
    ]
    assert Solver(server).get("/api/puzzles/history")["attempts"] == []
    games = {g["variant"]: g for g in guest.get("/api/puzzles")["games"]}
    assert games["fise"]["solver"]["attempts"] == 4 and games["fise"]["solver"]["solved"] == 1


def test_an_accounts_history_and_a_puzzles_rating(server: Server) -> None:
    ana, luis = Solver(server, account=True), Solver(server, account=True)
    p = shipped(ana.next("cuvinte")["puzzle"]["id"])
    assert p.variant == "cuvinte"
    before = ana.get(f"/api/puzzles/{p.id}")["puzzle"]["rating"]
    one = ana.attempt(p.id, {"move": p.answer.move})
    two = luis.attempt(p.id, {"move": p.answer.move})
    # Every solver's first attempt moves the puzzle: two solves, down twice.
    assert one["puzzle"]["rating_before"] == before > one["puzzle"]["rating"]
    assert two["puzzle"]["rating_before"] == one["puzzle"]["rating"] > two["puzzle"]["rating"]
    assert two["puzzle"]["attempts"] == 2 and two["puzzle"]["solved"] == 2
    assert luis.get(f"/api/puzzles/{p.id}")["puzzle"]["rating"] == two["puzzle"]["rating"]
    # An account's history follows it to another browser (a new login).
    again = httpx2.Client(base_url=server.base, headers={"Origin": server.base}, timeout=30)
    assert login(again, ana.name).status_code == 200
    history = again.get("/api/puzzles/history").json()["attempts"]
    assert [(h["puzzle"], h["correct"]) for h in history] == [(p.id, True)]
    assert history[0]["rating_after"] == one["solver"]["rating"]
    assert GUEST_COOKIE not in ana.http.cookies  # an account needs no guest session
    # The puzzle rating is on the public profile, per game; none for a game not tried.
    profile = luis.get(f"/api/players/{ana.name}")
    standing = {k: v for k, v in one["solver"].items() if k != "rating_before"}
    assert profile["puzzle_ratings"] == {"cuvinte": standing}
    assert standing["attempts"] == 1 and standing["solved"] == 1
    newcomer = Solver(server, account=True)
    assert newcomer.get(f"/api/players/{newcomer.name}")["puzzle_ratings"] == {}
    for path, code in (
        ("/api/puzzles/next?variant=chess", "invalid_request"),
        ("/api/puzzles/next", "invalid_request"),
    ):
        r = ana.http.get(path)
        assert r.status_code == 422 and error(r)["code"] == code


def standing(solver: Solver, variant: str) -> dict[str, Any]:
    games = {g["variant"]: g for g in solver.get("/api/puzzles")["games"]}
    return dict(games[variant]["solver"])


def test_a_guests_puzzles_go_to_the_account_it_signs_up(server: Server) -> None:
    # A guest solves two puzzles, then signs up on the same browser.
    guest = Solver(server)
    first = shipped(guest.next("fise")["puzzle"]["id"])
    missed = guest.attempt(first.id, {"give_up": True})
    second = shipped(guest.next("fise")["puzzle"]["id"])
    solved = guest.attempt(second.id, {"move": second.answer.move})
    assert missed["rated"] and solved["rated"] and solved["correct"]
    before = guest.get("/api/puzzles/history")["attempts"]
    as_guest = standing(guest, "fise")
    assert as_guest["attempts"] == 2 and as_guest["solved"] == 1
    cookie = guest.http.cookies[GUEST_COOKIE]

    guest.name = next(_names)
    r = sign_up(guest.http, guest.name)
    assert r.status_code == 201
    assert GUEST_COOKIE in r.headers.get("set-cookie", "")  # cleared…
    assert GUEST_COOKIE not in guest.http.cookies  # …and gone from the browser

    # The account's history is the guest's, ratings before and after included, and so is
    # its rating, on the puzzles page and on the profile.
    after = guest.get("/api/puzzles/history")["attempts"]
    assert after == before
    assert [(h["puzzle"], h["correct"], h["rated"]) for h in after] == [
        (second.id, True, True),
        (first.id, False, True),
    ]
    assert after[0]["rating_after"] == solved["solver"]["rating"]
    assert standing(guest, "fise") == as_guest
    profile = guest.get(f"/api/players/{guest.name}")["puzzle_ratings"]
    assert profile == {"fise": as_guest}
    # Tried is tried: the next puzzle is neither of them, and another go is not rated.
    assert guest.next("fise")["puzzle"]["id"] not in (first.id, second.id)
    assert guest.attempt(first.id, {"move": first.answer.move})["rated"] is False

    # The old guest cookie identifies nothing any more: no history, a newcomer's rating.
    stale = httpx2.Client(base_url=server.base, headers={"Origin": server.base}, timeout=30)
    stale.cookies.set(GUEST_COOKIE, cookie)
    assert stale.get("/api/puzzles/history").json()["attempts"] == []
    games = {g["variant"]: g for g in stale.get("/api/puzzles").json()["games"]}
    assert games["fise"]["solver"]["attempts"] == 0 and games["fise"]["solver"]["rating"] == 1500
    engine = make_engine(server.db_url)
    try:
        assert store.history(engine, _guest_key(cookie)) == []
        assert store.solvers(engine, _guest_key(cookie)) == {}
    finally:
        engine.dispose()


def test_a_guest_logging_in_to_an_account_with_a_rating(server: Server) -> None:
    # The account has a rating in fise (one puzzle solved) and none in cuvinte.
    ana = Solver(server, account=True)
    shared = shipped(ana.next("fise")["puzzle"]["id"])
    mine = ana.attempt(shared.id, {"move": shared.answer.move})
    kept = standing(ana, "fise")

    # On another browser, as a guest: the same puzzle missed, another fise one, a cuvinte one.
    guest = Solver(server)
    guest.attempt(shared.id, {"give_up": True})
    other = shipped(guest.next("fise", skip=shared.id)["puzzle"]["id"])
    guest.attempt(other.id, {"give_up": True})
    ro = shipped(guest.next("cuvinte")["puzzle"]["id"])
    ro_answer = guest.attempt(ro.id, {"move": ro.answer.move})
    ro_guest = standing(guest, "cuvinte")

    r = login(guest.http, ana.name)
    assert r.status_code == 200 and GUEST_COOKIE not in guest.http.cookies
    # fise: the account's rating stays; the guest's attempts are in its history, unrated.
    assert standing(guest, "fise") == kept
    fise = guest.get("/api/puzzles/history?variant=fise")["attempts"]
    assert [(h["puzzle"], h["correct"], h["rated"], h["rating_after"]) for h in fise] == [
        (other.id, False, False, None),
        (shared.id, False, False, None),
        (shared.id, True, True, mine["solver"]["rating"]),  # the one rated attempt at it
    ]
    # cuvinte: the account had none, so the guest's rating is the account's now.
    assert standing(guest, "cuvinte") == ro_guest
    (ro_entry,) = guest.get("/api/puzzles/history?variant=cuvinte")["attempts"]
    assert ro_entry["rated"] and ro_entry["rating_after"] == ro_answer["solver"]["rating"]
    profile = ana.get(f"/api/players/{ana.name}")["puzzle_ratings"]
    assert profile == {"cuvinte": ro_guest, "fise": kept}
    # Nothing of it is rated again.
    assert guest.attempt(other.id, {"move": other.answer.move})["rated"] is False
    assert standing(guest, "fise") == kept


def test_a_finished_game_is_scanned_for_puzzles(server: Server) -> None:
    # Two computer players to the end; then the game's end hook has the workers examine every
    # position of its record: what is stored is what the library finds in the same record.
    table = server.create("fise", [{"kind": "bot", "level": 3}, {"kind": "bot", "level": 3}])
    engine = make_engine(server.db_url)
    try:
        deadline = time.time() + 90
        while (state := store.scan_state(engine, table)) is None or state[0] == "running":
            assert time.time() < deadline, (server.view(table)["state"], state)
            time.sleep(0.1)
        assert server.view(table)["state"] == "over"
        gcg = server.get(f"/api/tables/{table}/gcg").text
        v = load_variant("fise")
        expected = puzzles_from_gcg(gcg, v, load_lexicon("es", v.alphabet))
        assert state == ("done", len(expected))
        with Session(engine) as s:
            rows = s.scalars(select(PuzzleRow).where(PuzzleRow.table_id == table)).all()
            ids = {r.id for r in rows}
            assert all(r.origin == "game" for r in rows)
        assert ids == {p.id for p in expected}
        for p in expected:  # served like any other: no answer before an attempt
            r = server.get(f"/api/puzzles/{p.id}")
            assert r.status_code == 200 and p.answer.move not in r.text
            assert "table" not in r.json()["puzzle"]  # a puzzle names no game nor player

        # A game whose end's hook never ran (its process stopped in between): the next start's
        # maintenance pass scans it, with the same outcome.
        with Session(engine) as s, s.begin():
            s.execute(delete(PuzzleScanRow).where(PuzzleScanRow.table_id == table))
        assert table in store.unscanned_finished(engine, time.time() - 3600, 50)
        server.stop()
        server.start()
        deadline = time.time() + 60
        while (again := store.scan_state(engine, table)) is None or again[0] == "running":
            assert time.time() < deadline, again
            time.sleep(0.1)
        assert again == ("done", len(expected))
        assert table not in store.unscanned_finished(engine, time.time() - 3600, 50)
    finally:
        engine.dispose()
