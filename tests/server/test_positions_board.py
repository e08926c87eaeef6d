"""The analysis board's API: every move of a pasted CGP (as ``tablero moves`` lists them), and
simulation in rounds that the page adds up (the same seed deals the same tiles)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tablero.cli import main

from .harness import Server
from .test_accounts import error

# A FISE mid-game position (from a game between the engine's levels) and an opening rack.
MIDGAME = "15/15/15/15/15/15/15/3VISTEO6/15/15/15/15/15/15/15 AEINRST/ 0/26 0 var fise; lex es;"
OPENING = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 CASAERT/ 0/0 0 var fise;"


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with the shipped dictionaries (the native generator): simulation is quick."""
    db = tmp_path_factory.mktemp("board") / "board.db"
    server = Server(f"sqlite:///{db}", {})
    server.start()
    try:
        yield server
    finally:
        server.stop()


def listed(cgp: str, *args: str) -> list[dict[str, object]]:
    result = CliRunner().invoke(main, ["moves", cgp, "--json", *args])
    assert result.exit_code == 0, result.stderr
    moves: list[dict[str, object]] = json.loads(result.stdout)
    return moves


def test_every_move_of_a_position_as_the_move_list_gives_it(real: Server) -> None:
    r = real.post("/api/positions/moves", {"cgp": MIDGAME})
    assert r.status_code == 200, r.text
    body = r.json()
    every = listed(MIDGAME, "--all")
    assert body["count"] == len(every)
    assert [(m["move"], m["score"], m["equity"], m["leave"]) for m in body["moves"]] == [
        (c["move"], c["score"], c["equity"], c["leave"]) for c in every[:1000]
    ]
    first = body["moves"][0]
    assert first["kind"] == "place" and len(first["tiles"]) == 7 - len(first["leave"])
    assert all(t["square"][0].isalpha() for t in first["tiles"])


def test_simulation_rounds_add_up_and_repeat(real: Server) -> None:
    top = [
        m["move"] for m in real.post("/api/positions/moves", {"cgp": OPENING}).json()["moves"][:3]
    ]
    body = {"cgp": OPENING, "moves": top, "iterations": 20, "seed": 7}
    first = real.post("/api/positions/simulate", body)
    assert first.status_code == 200, first.text
    round_ = first.json()
    assert round_["iterations"] == 20
    assert sorted(m["move"] for m in round_["moves"]) == sorted(top)
    assert all(m["iterations"] == 20 for m in round_["moves"])
    again = real.post("/api/positions/simulate", body).json()
    assert again == round_, "the same seed deals the same tiles"
    other = real.post("/api/positions/simulate", body | {"seed": 8}).json()
    assert other != round_


def test_bad_positions_and_moves_are_refused(real: Server, tmp_path: Path) -> None:
    cases = [
        ({"cgp": "not a position"}, 422, "bad_cgp"),
        ({"cgp": OPENING.replace("CASAERT", "")}, 422, "bad_cgp"),
        ({"cgp": OPENING.replace("var fise", "var /etc/passwd")}, 404, None),
        ({"cgp": OPENING, "variant": "../fise"}, 404, None),
        ({"cgp": "x" * 3000}, 422, None),
    ]
    for body, status, code in cases:
        r = real.post("/api/positions/moves", body)
        assert r.status_code == status, (body, r.text)
        if code is not None:
            assert error(r)["code"] == code and error(r)["field"] == "cgp"
    sim = {"cgp": OPENING, "moves": ["8H ZZZZ"], "iterations": 5}
    r = real.post("/api/positions/simulate", sim)
    assert r.status_code == 422 and error(r)["field"] == "moves"
    for bad in ({"moves": []}, {"iterations": 0}, {"iterations": 201}, {"moves": ["-"] * 21}):
        r = real.post("/api/positions/simulate", sim | bad)
        assert r.status_code == 422, (bad, r.text)
