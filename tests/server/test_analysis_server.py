"""A finished game's analysis in the web app: asked for once, run in the workers a few moves
at a time (the event loop stays free), stored with the game, the same as ``tablero analyze``
gives on the game's record; and the same across two processes."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text

from tablero.analysis import analyse_gcg
from tablero.formats.gcg import read_gcg
from tablero.lexicon import WordListLexicon
from tablero.server.store.db import normalize_url

from .games import mini_toml, mini_variant, play_turn, two_players, upload
from .harness import Server
from .test_accounts import error
from .test_processes import pair, services  # noqa: F401  (two processes on PostgreSQL + Redis)

BOTS = [{"kind": "bot", "level": 4}, {"kind": "bot", "level": 2}]


def finished_bot_game(server: Server, ref: str) -> str:
    table = server.create(ref, BOTS)
    deadline = time.time() + 60
    while server.view(table)["state"] != "over":
        assert time.time() < deadline, "the bots did not finish their game"
        time.sleep(0.1)
    return table


def short_game(server: Server, mini_es: WordListLexicon) -> str:
    """Four moves by two guests, then a resignation: a finished game in a moment."""
    table, tokens = two_players(server, upload(server, mini_toml()))
    for _ in range(4):
        play_turn(server, table, tokens[server.view(table)["to_move"]], mini_variant(), mini_es)
    r = server.move(table, tokens[0], {"kind": "resign"}, server.view(table)["seq"])
    assert r.status_code == 200, r.text
    return table


def wait_done(server: Server, table: str, method: str = "static") -> dict[str, Any]:
    deadline = time.time() + 90
    while True:
        r = server.get(f"/api/tables/{table}/analysis?method={method}")
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        if body["state"] in ("done", "failed"):
            return body
        assert time.time() < deadline, body
        time.sleep(0.1)


def expected(server: Server, table: str, mini_es: WordListLexicon) -> dict[str, Any]:
    """What ``tablero analyze`` says of the table's record (the shipped engine, in-process)."""
    gcg = server.get(f"/api/tables/{table}/gcg").text
    return analyse_gcg(read_gcg(gcg), mini_variant(), mini_es, None).to_dict()


def without_frames(result: dict[str, Any]) -> dict[str, Any]:
    return result | {
        "moves": [{k: v for k, v in m.items() if k != "frame"} for m in result["moves"]]
    }


def test_a_finished_game_is_analysed_once_and_kept(
    server: Server, mini_es: WordListLexicon
) -> None:
    table = finished_bot_game(server, upload(server))
    assert server.get(f"/api/tables/{table}/analysis").json()["state"] == "none"
    r = server.post(f"/api/tables/{table}/analysis", {})
    assert r.status_code in (200, 202), r.text
    assert r.json()["total"] >= 4
    done = wait_done(server, table)
    assert done["state"] == "done" and done["done"] == done["total"]
    result = done["result"]
    assert without_frames(result) == expected(server, table, mini_es)
    # Each move says which replay frame shows it played: the frame's last move is it.
    frames = server.get(f"/api/tables/{table}/replay").json()["frames"]
    for move in result["moves"]:
        shown = frames[move["frame"]]["moves"]
        assert shown and shown[-1]["seat"] == move["seat"]
    # Asked again: the stored analysis, not a new run.
    again = server.post(f"/api/tables/{table}/analysis", {})
    assert again.status_code == 200 and again.json()["result"] == result


def test_analysis_refusals_change_nothing(server: Server) -> None:
    ref = upload(server)
    table, _ = two_players(server, ref)
    r = server.post(f"/api/tables/{table}/analysis", {})
    assert r.status_code == 409 and error(r)["code"] == "not_over"
    assert server.get(f"/api/tables/{table}/analysis").json()["state"] == "none"
    r = server.post("/api/tables/nosuch1/analysis", {})
    assert r.status_code == 404
    r = server.get("/api/tables/nosuch1/analysis")
    assert r.status_code == 404
    r = server.post(f"/api/tables/{table}/analysis", {"method": "deep"})
    assert r.status_code == 422 and error(r)["field"] == "method"
    r = server.get(f"/api/tables/{table}/analysis?method=deep")
    assert r.status_code == 422
    # A game without a dictionary has no moves to compare: refused, nothing stored.
    bare = upload(server, mini_toml(**{'lexicon = "es"': 'lexicon = "none"'}))
    unchecked, tokens = two_players(server, bare)
    seq = server.view(unchecked)["seq"]
    assert server.move(unchecked, tokens[0], {"kind": "resign"}, seq).status_code == 200
    r = server.post(f"/api/tables/{unchecked}/analysis", {})
    assert r.status_code == 409 and error(r)["code"] == "no_dictionary"
    assert server.get(f"/api/tables/{unchecked}/analysis").json()["state"] == "none"


def test_the_event_loop_answers_while_a_simulation_runs(tmp_path: Path) -> None:
    """Simulation judges a move in a worker process; meanwhile the server answers at once.
    A FISE game with the shipped dictionary (the test one is searched in Python, far too
    slowly to simulate), 50 deals a move."""
    server = Server(f"sqlite:///{tmp_path / 'sim.db'}", {}, analysis_sim_iterations=50)
    server.start()
    try:
        table = server.create("fise", [{"kind": "bot", "level": 4}, {"kind": "bot", "level": 1}])
        deadline = time.time() + 120
        while server.view(table)["state"] != "over":
            assert time.time() < deadline, "the bots did not finish their game"
            time.sleep(0.2)
        r = server.post(f"/api/tables/{table}/analysis", {"method": "sim"})
        assert r.status_code == 202, r.text
        pings, seen_running = [], 0
        deadline = time.time() + 240
        while True:
            assert time.time() < deadline, "the simulation did not end"
            start = time.perf_counter()
            body = server.get(f"/api/tables/{table}/analysis?method=sim").json()
            pings.append(time.perf_counter() - start)
            if body["state"] != "running":
                break
            seen_running += 1
            time.sleep(0.05)
    finally:
        server.stop()
    assert body["state"] == "done" and body["result"]["method"] == "sim"
    assert seen_running >= 3, "the analysis ended before the pings could see it run"
    # A blocked event loop would hold an answer for a whole move's simulation: the bound is
    # far above a free loop's answer and far below a blocked one.
    assert max(pings) < 1.0, sorted(pings)[-3:]
    moves = body["result"]["moves"]
    assert len(moves) == body["total"] >= 10
    assert all(m["equity_loss"] is not None and m["equity_loss"] >= 0 for m in moves)
    for m in moves:
        equities = [a["equity"] for a in m["top"]]
        assert equities == sorted(equities, reverse=True) and equities[0] == m["best_equity"]


def test_across_two_processes_the_analysis_runs_once_and_both_read_it(
    pair: tuple[Server, Server],  # noqa: F811  (the fixture imported above)
    mini_es: WordListLexicon,
) -> None:
    a, b = pair
    table = short_game(a, mini_es)
    first = a.post(f"/api/tables/{table}/analysis", {})
    assert first.status_code == 202, first.text
    second = b.post(f"/api/tables/{table}/analysis", {})
    assert second.status_code in (200, 202), second.text
    done = wait_done(b, table)
    assert done["state"] == "done"
    assert without_frames(done["result"]) == expected(a, table, mini_es)
    assert wait_done(a, table)["result"] == done["result"]


def test_a_run_whose_process_stopped_goes_on_from_what_it_stored(
    server: Server, mini_es: WordListLexicon
) -> None:
    """A server stopped in the middle of an analysis: the next start finishes it, judging only
    the moves not yet stored."""
    table = finished_bot_game(server, upload(server))
    r = server.post(f"/api/tables/{table}/analysis", {})
    assert r.status_code in (200, 202)
    server.stop()  # cancels the run wherever it was
    server.start()
    # The stopped run's process is gone; its last write is recent, so it would be taken over
    # only STALE_AFTER seconds later: make it old. (If it had finished, it stays finished.)
    engine = create_engine(normalize_url(server.db_url))
    with engine.begin() as conn:
        conn.execute(text("UPDATE analyses SET beat_at = beat_at - 1000 WHERE state = 'running'"))
    engine.dispose()
    server.post(f"/api/tables/{table}/analysis", {})
    done = wait_done(server, table)
    assert done["state"] == "done"
    assert without_frames(done["result"]) == expected(server, table, mini_es)
