"""A club's own words as a table option: the words a table adds to its dictionary are valid
there, the ones it bans are refused, for the players and for its computer players alike;
bad lists are refused before anything is stored; a restarted server judges by the same words;
the game's GCG records them."""

from __future__ import annotations

import json
import time
from typing import Any

from tablero.alphabet import SPANISH
from tablero.lexicon import WordListLexicon
from tablero.lexicon.amend import WordChanges
from tablero.server import catalog
from tablero.server.workers.queue import rules_variant
from tablero.variant import load_variant

from .games import MINI_TOML, mini_toml, two_players, upload, zeta_toml
from .harness import Server

ALPHA_TOML = zeta_toml().replace("Z = [40, 10]", "A = [40, 1]")
"""The small test game with A tiles only: every rack is AAAAA, and AA, AAA ... are words of
the test dictionary."""


def _place(squares: list[str], letter: str) -> dict[str, Any]:
    return {"kind": "place", "tiles": [{"square": sq, "letter": letter} for sq in squares]}


def _play(server: Server, table: str, tokens: dict[int, str], move: dict[str, Any]) -> Any:
    view = server.view(table)
    r = server.move(table, tokens[view["to_move"]], move, view["seq"])
    assert r.status_code == 200, r.text
    return r.json()["result"]


def _lobby_ids(server: Server) -> set[str]:
    return {t["id"] for t in server.get("/api/tables").json()}


def test_an_added_word_is_played_and_a_banned_one_loses_the_turn(server: Server) -> None:
    zeta = upload(server, zeta_toml())
    table, tokens = two_players(server, zeta, words_added=["zz", " "], words_removed=[])
    view = server.view(table)
    assert view["words"] == {"lexicon": "es", "added": ["ZZ"], "removed": []}
    result = _play(server, table, tokens, _place(["E5", "F5"], "Z"))
    assert result["kind"] == "placed" and result["score"] > 0

    alpha = upload(server, ALPHA_TOML)
    table, tokens = two_players(server, alpha, words_removed=["aa"])
    assert server.view(table)["words"]["removed"] == ["AA"]
    result = _play(server, table, tokens, _place(["E5", "F5"], "A"))
    assert result["kind"] == "lost_turn"  # refused by the dictionary: the turn is lost
    assert "AA" in result["reason"]
    result = _play(server, table, tokens, _place(["E5", "F5", "G5"], "A"))
    assert result["kind"] == "placed"  # AAA is still a word

    # Without the club's words, ZZ is no word here.
    table, tokens = two_players(server, zeta)
    assert server.view(table)["words"] is None
    assert _play(server, table, tokens, _place(["E5", "F5"], "Z"))["kind"] == "lost_turn"


def test_bad_words_are_refused_naming_them_and_nothing_is_stored(server: Server) -> None:
    seats = [{"kind": "open"}, {"kind": "open"}]
    before = _lobby_ids(server)
    cases: list[tuple[dict[str, Any], str, str]] = [
        ({"words_added": ["casa", "wi-fi"]}, "words_added[1]", "wi-fi"),
        ({"words_removed": ["x"]}, "words_removed[0]", "'x'"),
        ({"words_added": ["tuit"], "words_removed": ["TUIT"]}, "words_removed", "TUIT"),
        ({"words_added": ["a" * 41]}, "words_added[0]", "40"),
        ({"words_added": ["ab"] * 2001}, "words_added", "2000"),
    ]
    for options, field, named in cases:
        r = server.post("/api/tables", {"variant": "fise", "seats": seats, **options})
        assert r.status_code == 422, r.text
        error = r.json()["error"]
        assert error["field"] == field, error
        assert named in error["message"], error
    # A game without a dictionary has no words to change.
    none = upload(server, mini_toml(**{'lexicon = "es"': 'lexicon = "none"'}))
    r = server.post("/api/tables", {"variant": none, "seats": seats, "words_added": ["casa"]})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_words", r.text
    assert "no dictionary" in r.json()["error"]["message"]
    assert _lobby_ids(server) == before


def test_a_long_list_fits_in_a_request(server: Server) -> None:
    """2,000 words of 40 letters each way: more than an ordinary request body may hold."""
    words = ["".join("AEOSLR"[(i // 6**k) % 6] for k in range(40)) for i in range(2000)]
    body = {"variant": "fise", "seats": [{"kind": "open"}] * 2, "words_removed": words}
    assert len(json.dumps(body)) > 64 * 1024
    r = server.post("/api/tables", body)
    assert r.status_code == 201, r.text
    assert len(r.json()["table"]["words"]["removed"]) == 2000


def test_the_words_survive_a_restart_and_go_into_the_gcg(server: Server) -> None:
    zeta = upload(server, zeta_toml())
    table, tokens = two_players(server, zeta, words_added=["ZZ"], words_removed=["ZZZ"])
    waiting = server.create(zeta, [{"kind": "open"}, {"kind": "open"}], words_added=["zz"])
    server.stop()
    server.start()
    view = server.view(table)
    assert view["words"] == {"lexicon": "es", "added": ["ZZ"], "removed": ["ZZZ"]}
    assert _play(server, table, tokens, _place(["E5", "F5"], "Z"))["kind"] == "placed"
    assert _play(server, table, tokens, _place(["E6", "F6", "G6"], "Z"))["kind"] == "lost_turn"
    gcg = server.get(f"/api/tables/{table}/gcg").text
    assert "#words-added ZZ\n" in gcg and "#words-removed ZZZ\n" in gcg
    assert "#lexicon mini-es+" in gcg  # the amended dictionary's name
    # A table still waiting when the server stopped starts with the words too.
    tokens = {0: server.sit(waiting, 0, "Ana"), 1: server.sit(waiting, 1, "Luis")}
    assert _play(server, waiting, tokens, _place(["E5", "F5"], "Z"))["kind"] == "placed"


def test_a_rematch_keeps_the_words(server: Server) -> None:
    zeta = upload(server, zeta_toml())
    table, tokens = two_players(server, zeta, words_added=["zz"])
    r = server.move(table, tokens[0], {"kind": "resign"}, server.view(table)["seq"])
    assert r.status_code == 200, r.text
    assert server.view(table)["state"] == "over"
    new = None
    for seat in (0, 1):
        r = server.post(f"/api/tables/{table}/rematch", None, tokens[seat])
        assert r.status_code == 200, r.text
        new = r.json()["table"]
    assert new is not None
    assert server.view(new)["words"]["added"] == ["ZZ"]


def test_a_bot_plays_by_the_clubs_words(server: Server) -> None:
    """Zs only: without the club's ZZ no placement is a word (bots could only exchange)."""
    zeta = upload(server, zeta_toml())
    bots = [{"kind": "bot", "level": 4}, {"kind": "bot", "level": 4}]
    table = server.create(zeta, bots, words_added=["ZZ"], clock_minutes=None)
    deadline = time.time() + 30
    while time.time() < deadline:
        history = server.view(table)["history"]
        if any(m["kind"] == "placed" for m in history):
            break
        time.sleep(0.2)
    placed = [m for m in server.view(table)["history"] if m["kind"] == "placed"]
    assert placed and "ZZ" in placed[0]["move"], server.view(table)["history"]


def test_rules_reach_a_worker_with_the_words() -> None:
    """Through the job queue, a table's rules travel as text: with the club's words, as JSON."""
    fise = load_variant("fise")
    changes = WordChanges.of(["wifi"], ["casa"], SPANISH)
    variant = catalog.with_word_changes(fise, changes)
    envelope = json.dumps({"rules": "builtin:fise", "add": ["WIFI"], "remove": ["CASA"]})
    back = rules_variant(envelope)
    assert back.word_changes == changes and back == variant
    upload_variant = rules_variant(json.dumps({"rules": MINI_TOML, "add": ["zz"], "remove": []}))
    assert upload_variant.word_changes.added == {"ZZ"}
    for bad in ('{"rules": 3}', '{"rules": "builtin:fise", "add": "x", "remove": []}', "{nope"):
        try:
            rules_variant(bad)
        except ValueError:
            continue
        raise AssertionError(bad)


def test_a_hub_sends_the_words_with_the_rules(server: Server, mini_es: WordListLexicon) -> None:
    from tablero.server.tables.hub import Hub

    fise = load_variant("fise")
    hub = Hub.__new__(Hub)
    hub._upload_texts = {}
    assert hub.rule_text(fise) == "builtin:fise"
    amended = catalog.with_word_changes(fise, WordChanges.of(["tuit"], [], SPANISH))
    text = hub.rule_text(amended)
    assert json.loads(text) == {"rules": "builtin:fise", "add": ["TUIT"], "remove": []}
    assert rules_variant(text) == amended
