"""Resigning at a web table: at two seats the other wins at once; at three or four the game
goes on without the resigner (bots included), who ranks last. Recorded in the history and the
GCG; a refused resignation changes nothing."""

from __future__ import annotations

import time
from typing import Any

from tablero.formats.gcg import read_gcg
from tablero.lexicon import WordListLexicon

from .games import mini_toml, mini_variant, play_turn, two_players, upload
from .harness import Server


def error(r: Any) -> dict[str, Any]:
    body = r.json()
    assert set(body) == {"error"}, body
    return dict(body["error"])


def resign(server: Server, table: str, token: str, seq: int) -> Any:
    return server.move(table, token, {"kind": "resign"}, seq)


def resign_now(server: Server, table: str, token: str) -> tuple[Any, dict[str, Any]]:
    """Resign at the table's current ``seq`` (a computer player may move meanwhile: a stale
    ``seq`` is read again): the answer, and the view it was sent against."""
    for _ in range(20):
        view = server.view(table)
        r = resign(server, table, token, view["seq"])
        if r.status_code != 409 or error(r)["code"] != "stale_seq":
            break
    return r, view


def test_at_two_seats_the_other_wins_even_when_behind(server: Server) -> None:
    table, tokens = two_players(server, "fise")
    view = server.view(table)
    waiting = 1 - view["to_move"]  # resigns while it is not their turn
    r = resign(server, table, tokens[waiting], view["seq"])
    assert r.status_code == 200, r.text
    assert r.json()["result"]["kind"] == "resigned" and r.json()["result"]["seat"] == waiting
    final = server.view(table)
    assert final["state"] == "over"
    result = final["result"]
    assert result["reason"] == "resigned" and result["winners"] == [1 - waiting]
    assert [x["seat"] for x in result["ranking"]] == [1 - waiting, waiting]
    assert result["ranking"][1]["resigned"] is True and final["seats"][waiting]["resigned"]
    assert final["history"][-1]["kind"] == "resigned" and final["history"][-1]["seat"] == waiting
    gcg = server.get(f"/api/tables/{table}/gcg").text
    assert "#resign" in gcg and read_gcg(gcg).players
    # Nothing more: a second resignation, or any move, is refused and changes nothing.
    for token in tokens.values():
        r = resign(server, table, token, final["seq"])
        assert r.status_code == 409 and error(r)["code"] == "game_over"
    assert server.view(table)["seq"] == final["seq"]


def test_a_stale_or_spectator_resignation_changes_nothing(server: Server) -> None:
    table, tokens = two_players(server, "fise")
    view = server.view(table)
    r = resign(server, table, tokens[0], view["seq"] + 5)
    assert r.status_code == 409 and error(r)["code"] == "stale_seq"
    r = server.post(f"/api/tables/{table}/move", {"seq": view["seq"], "move": {"kind": "resign"}})
    assert r.status_code == 401 and error(r)["code"] == "token_required"
    after = server.view(table)
    assert after["state"] == "playing" and after["seq"] == view["seq"]
    assert not any(s["resigned"] for s in after["seats"])


def test_at_three_seats_the_game_goes_on_without_the_resigner(
    server: Server, mini_es: WordListLexicon
) -> None:
    text = mini_toml()
    variant = mini_variant(text)
    table = server.create(
        upload(server, text), [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "level": 1}]
    )
    tokens = {0: server.sit(table, 0, "Ana"), 1: server.sit(table, 1, "Luis")}
    r, view = resign_now(server, table, tokens[1])
    assert r.status_code == 200, r.text
    after = r.json()["table"]  # as the resignation left it (a computer player moves next)
    assert after["state"] == "playing" and after["seats"][1]["resigned"]
    assert after["bag_count"] == view["bag_count"]  # its tiles are set aside, not bagged
    r, _ = resign_now(server, table, tokens[1])
    assert r.status_code == 409 and error(r)["code"] == "already_resigned"
    deadline = time.time() + 60
    while (view := server.view(table))["state"] == "playing":
        assert time.time() < deadline, "the game did not go on to its end"
        assert view["to_move"] != 1, "a resigned player was asked to move"
        if view["to_move"] == 0:
            play_turn(server, table, tokens[0], variant, mini_es)
        else:
            time.sleep(0.05)  # the bot thinks
    result = view["result"]
    assert result["ranking"][-1]["seat"] == 1 and result["ranking"][-1]["place"] == 3
    (resigned,) = [h for h in view["history"] if h["kind"] == "resigned"]
    later = [h for h in view["history"] if h["n"] > resigned["n"]]
    assert {h["seat"] for h in later} == {0, 2}
