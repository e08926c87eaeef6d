"""Rematch: when every player of a finished game has asked (computer players always agree),
a new table with the same players, each one seat on, and the same options starts."""

from __future__ import annotations

from typing import Any

from .games import two_players
from .harness import Server
from .test_ratings_server import Player


def error(r: Any) -> dict[str, Any]:
    return dict(r.json()["error"])


def finish(server: Server, table: str, token: str) -> None:
    r = server.move(table, token, {"kind": "resign"}, server.view(table)["seq"])
    assert r.status_code == 200, r.text


def rematch(server: Server, table: str, token: str) -> Any:
    return server.post(f"/api/tables/{table}/rematch", token=token)


def test_two_guests_ask_and_get_a_new_table_with_seats_rotated(server: Server) -> None:
    table, tokens = two_players(server, "fise", clock_minutes=7, title="Revancha")
    r = rematch(server, table, tokens[0])
    assert r.status_code == 409 and error(r)["code"] == "not_over"
    finish(server, table, tokens[1])
    r = rematch(server, table, tokens[0])
    assert r.status_code == 200 and r.json() == {"table": None, "asked": [0]}
    assert server.view(table)["rematch"] == {"asked": [0], "table": None}
    with server.ws(table, tokens[1]) as sock:
        sock.recv()
        r = rematch(server, table, tokens[1])
        assert r.status_code == 200, r.text
        new = r.json()["table"]
        assert new and new != table
        # The other player is told where the rematch is.
        told = sock.until(lambda m: m["type"] == "state" and m["table"]["rematch"]["table"])
        assert told["table"]["rematch"] == {"asked": [0, 1], "table": new}
    view = server.view(new)
    assert view["state"] == "playing" and view["title"] == "Revancha"
    assert view["clock"]["initial_seconds"] == 420
    assert [s["nickname"] for s in view["seats"]] == ["Luis", "Ana"]  # each one seat on
    # Each guest's token carries over to the seat they now have.
    assert server.view(new, tokens[0])["you"]["seat"] == 1
    assert server.view(new, tokens[1])["you"]["seat"] == 0
    # Asking again gives the same table, never a second one.
    assert rematch(server, table, tokens[0]).json()["table"] == new


def test_an_account_and_a_computer_player_rematch_at_once(server: Server) -> None:
    player = Player(server)
    table = server.create("fise", [{"kind": "open"}, {"kind": "bot", "level": 1}])
    assert player.http.post(f"/api/tables/{table}/sit", json={"seat": 0}).status_code == 200
    player.resign(server, table)  # (the computer player may be moving meanwhile)
    r = player.http.post(f"/api/tables/{table}/rematch")
    new = r.json()["table"]
    assert new, r.text
    view = player.http.get(f"/api/tables/{new}").json()
    assert [s["kind"] for s in view["seats"]] == ["bot", "human"]
    assert view["you"]["seat"] == 1 and view["rated"] is True


def test_only_a_player_of_the_game_may_ask(server: Server) -> None:
    table, tokens = two_players(server, "fise")
    finish(server, table, tokens[0])
    r = server.post(f"/api/tables/{table}/rematch")
    assert r.status_code == 401 and error(r)["code"] == "token_required"
    r = rematch(server, table, "not-a-token")
    assert r.status_code == 401 and error(r)["code"] == "bad_token"
    stranger = Player(server)
    r = stranger.http.post(f"/api/tables/{table}/rematch")
    assert r.status_code == 403 and error(r)["code"] == "not_seated"
    assert server.view(table)["rematch"] == {"asked": [], "table": None}
