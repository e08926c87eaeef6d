"""A table, a duplicate room and a tournament may play with a dictionary the operator
installed (``tablero lexicon add``): offered by ``GET /api/lexicons`` for the game's language,
shown in the lobby and at the table, judging every move, kept across a restart and a rematch,
sent to bot workers, and recorded in the game's GCG; one the server lacks is a clear 422 and
nothing is stored."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tablero.lexicon import _CACHE
from tablero.lexicon.installed import add_lexicon
from tablero.server.workers.queue import rules_variant

from ..lexicon.fise_sample import write_zip
from .harness import Server


@pytest.fixture(scope="module", autouse=True)
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The sample FISE-2 distribution installed as ``fise2`` in this module's data folder."""
    data = tmp_path_factory.mktemp("data")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TABLERO_DATA", str(data))
        _CACHE.clear()
        source = write_zip(tmp_path_factory.mktemp("dist") / "LISTAS.zip")
        add_lexicon("fise2", source)
        yield data
    _CACHE.clear()


SEATS = [{"kind": "open"}, {"kind": "open"}]


def test_the_server_offers_its_dictionaries_by_language(server: Server) -> None:
    es = server.get("/api/lexicons?language=es").json()
    assert [(d["name"], d["shipped"]) for d in es] == [("es", True), ("fise2", False)]
    assert es[1]["words"] > 200 and es[1]["language"] == "es"
    ro = server.get("/api/lexicons?language=ro").json()
    assert [d["name"] for d in ro] == ["ro"]


def test_a_table_plays_with_the_installed_dictionary(server: Server) -> None:
    table = server.create("fise", SEATS, lexicon="FISE2")  # any case: the name as installed
    view = server.view(table)
    assert view["lexicon"] == "fise2"
    lobby = {t["id"]: t for t in server.get("/api/tables").json()}
    assert lobby[table]["lexicon"] == "fise2"
    plain = server.create("fise", SEATS)
    assert server.view(plain)["lexicon"] == "es"
    assert {t["id"]: t for t in server.get("/api/tables").json()}[plain]["lexicon"] == "es"


def test_a_dictionary_the_server_lacks_is_a_clear_422_and_nothing_is_stored(
    server: Server,
) -> None:
    before = {t["id"] for t in server.get("/api/tables").json()}
    for variant, lexicon, named in (
        (
            "fise",
            "fise3",
            "no dictionary 'fise3' on this server for the game's language (es); it has: es, fise2",
        ),
        (
            "cuvinte",
            "fise2",
            "no dictionary 'fise2' on this server for the game's language (ro); it has: ro",
        ),
        ("fise", "../../etc/passwd", "no dictionary '../../etc/passwd'"),
    ):
        r = server.post("/api/tables", {"variant": variant, "seats": SEATS, "lexicon": lexicon})
        assert r.status_code == 422, r.text
        error = r.json()["error"]
        assert (error["code"], error["field"]) == ("bad_lexicon", "lexicon")
        assert named in error["message"], error
    assert {t["id"] for t in server.get("/api/tables").json()} == before


def test_the_dictionary_survives_a_restart_and_goes_into_the_gcg(server: Server) -> None:
    table = server.create("fise", SEATS, lexicon="fise2")
    server.sit(table, 0, "Ana")
    server.sit(table, 1, "Luis")
    server.stop()
    server.start()
    assert server.view(table)["lexicon"] == "fise2"
    gcg = server.get(f"/api/tables/{table}/gcg").text
    assert "#lexicon fise2\n" in gcg


def test_a_bot_worker_gets_the_tables_dictionary_with_its_rules() -> None:
    from tablero.server import catalog
    from tablero.server.tables.hub import Hub

    chosen = catalog.with_lexicon(catalog.builtin("fise"), "fise2")
    assert Hub._chosen_lexicon(chosen) == "fise2"
    assert Hub._chosen_lexicon(catalog.builtin("fise")) is None
    envelope = '{"rules": "builtin:fise", "add": [], "remove": [], "lexicon": "fise2"}'
    assert rules_variant(envelope).lexicon == "fise2"


def test_a_duplicate_room_and_a_tournament_pick_a_dictionary(server: Server) -> None:
    r = server.post("/api/duplicate", {"variant": "fise", "lexicon": "fise2", "nickname": "Ana"})
    assert r.status_code == 201, r.text
    room = r.json()["room"]
    assert room["lexicon"] == "fise2"
    listed = {x["id"]: x for x in server.get("/api/duplicate").json()}
    assert listed[r.json()["id"]]["lexicon"] == "fise2"
    bad = server.post("/api/duplicate", {"variant": "fise", "lexicon": "nope", "nickname": "A"})
    assert bad.status_code == 422 and bad.json()["error"]["field"] == "lexicon"
