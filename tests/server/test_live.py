"""The WebSocket: every seat and spectator sees each move at once; nobody sees another's rack."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from websockets.exceptions import ConnectionClosed

from tablero.lexicon import WordListLexicon

from .games import api_tiles, best_placement, mini_toml, mini_variant, two_players, upload
from .harness import Server


def walk(obj: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every (path, value) in a JSON value."""
    yield path, obj
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from walk(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from walk(v, f"{path}[{i}]")


FORBIDDEN_KEYS = {"seed", "bag", "rng", "draws", "racks", "log"}


def check_private(message: dict[str, Any], seat: int | None) -> None:
    """Only the viewer's own rack, and nothing about the bag but its size, may be in a message."""
    for path, _value in walk(message):
        key = path.rsplit(".", 1)[-1]
        assert key not in FORBIDDEN_KEYS, path
        if key == "rack":
            assert path == ".table.you.rack", path
        if key == "racks_left":
            assert message["table"]["state"] == "over", path
    table = message.get("table")
    if table is not None:
        you = table["you"]
        assert (you is None) == (seat is None)
        if seat is not None:
            assert you["seat"] == seat


def tile_lists(message: dict[str, Any]) -> list[list[str]]:
    return [
        sorted(v)
        for _, v in walk(message)
        if isinstance(v, list) and v and all(isinstance(x, str) and len(x) <= 2 for x in v)
    ]


def test_every_seat_and_spectator_sees_each_move(server: Server) -> None:
    table, tokens = two_players(server, upload(server))
    view = server.view(table)
    seat = view["to_move"]
    with (
        server.ws(table, tokens[seat]) as mine,
        server.ws(table, tokens[1 - seat]) as theirs,
        server.ws(table) as spectator,
    ):
        first = mine.recv()
        assert first["type"] == "state" and first["table"]["you"]["seat"] == seat
        rack = first["table"]["you"]["rack"]
        assert theirs.recv()["table"]["you"]["seat"] == 1 - seat
        assert spectator.recv()["table"]["you"] is None
        mine.send(
            {
                "type": "move",
                "id": "m1",
                "seq": view["seq"],
                "move": {"kind": "place", "tiles": api_tiles(["E5", "F5"], rack)},
            }
        )
        ack = mine.until(lambda m: m["type"] == "ack")
        assert (
            ack["id"] == "m1"
            and ack["result"]["kind"] == "placed"
            and ack["seq"] == view["seq"] + 1
        )
        for sock, who in ((mine, seat), (theirs, 1 - seat), (spectator, None)):
            state = sock.state_until(lambda t: t["seq"] == view["seq"] + 1)
            assert state["last_move_squares"] == ["E5", "F5"]
            assert state["board"][4][4] is not None and state["to_move"] == 1 - seat
            assert state["history"][-1]["kind"] == "placed"
            for m in sock.received:
                check_private(m, who)


def test_second_player_never_receives_the_first_players_rack(
    server: Server, mini_es: WordListLexicon
) -> None:
    text = mini_toml()
    ref = upload(server, text)
    variant = mini_variant(text)
    table, tokens = two_players(server, ref)
    first_racks: list[list[str]] = []
    with (
        server.ws(table, tokens[0]) as ana,
        server.ws(table, tokens[1]) as luis,
        server.ws(table) as spectator,
    ):
        state = ana.recv()["table"]
        spectator.recv()
        # luis's first state stays unread: it is the one he moves from if he starts (a
        # state not sent yet is replaced by a newer one, so he is sent no second copy)
        while state["state"] == "playing":
            seat = state["to_move"]
            sock = ana if seat == 0 else luis
            own = state if seat == 0 else luis.state_until(lambda t, s=state: t["seq"] == s["seq"])
            if seat == 0:
                first_racks.append(sorted(own["you"]["rack"]))
            chosen = best_placement(own, variant, mini_es)
            move = chosen[0] if chosen else {"kind": "pass"}
            sock.send({"type": "move", "id": own["seq"], "seq": own["seq"], "move": move})
            assert sock.until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
            state = ana.state_until(lambda t, s=state: t["seq"] > s["seq"])
        luis.state_until(lambda t: t["state"] == "over")
        spectator.state_until(lambda t: t["state"] == "over")
    assert first_racks  # the game's length depends on the (unseeded) bag: at least one rack
    assert any(m["type"] == "state" for m in luis.received)
    for m in luis.received:
        check_private(m, 1)
        if m["type"] != "state" or m["table"]["state"] == "over":
            continue
        own = sorted(m["table"]["you"]["rack"])
        for found in tile_lists(m):
            if found != own:
                assert found not in first_racks, (found, m["table"]["seq"])
    assert server.view(table)["state"] == "over"  # still there once nobody watches
    for m in spectator.received:
        check_private(m, None)
        if m["type"] == "state" and m["table"]["state"] != "over":
            assert not any(found in first_racks for found in tile_lists(m))


def test_a_reconnecting_client_gets_the_current_state(server: Server) -> None:
    table, tokens = two_players(server, upload(server))
    with server.ws(table, tokens[0]) as ana:
        assert ana.recv()["table"]["seats"][0]["connected"]
        with server.ws(table, tokens[1]) as luis:
            luis.recv()
            assert ana.state_until(lambda t: t["seats"][1]["connected"])["seats"][0]["connected"]
        assert not ana.state_until(lambda t: not t["seats"][1]["connected"])["seats"][1][
            "connected"
        ]
    view = server.view(table)
    token = tokens[view["to_move"]]
    server.move(table, token, {"kind": "pass"}, view["seq"])
    with server.ws(table, tokens[1]) as luis:
        state = luis.recv()
        assert state["type"] == "state" and state["table"]["seq"] == view["seq"] + 1
        assert state["table"]["history"][-1]["kind"] == "passed"


def test_websocket_errors(server: Server) -> None:
    table, tokens = two_players(server, upload(server))
    with server.ws(table, "forged") as sock:  # refused, and still a spectator's socket
        assert sock.recv()["error"]["code"] == "bad_token"
        sock.send({"type": "ping", "id": 1})
        assert sock.until(lambda m: m["type"] == "pong")["id"] == 1
    sock = server.ws("nosuchtable")
    assert sock.recv()["error"]["code"] == "not_found"
    try:
        sock.recv(5)
        raise AssertionError("the server should have closed the socket")
    except ConnectionClosed as e:
        assert e.rcvd is not None and e.rcvd.code == 4404
    view = server.view(table)
    with server.ws(table) as spectator, server.ws(table, tokens[view["to_move"]]) as player:
        spectator.recv()
        player.recv()
        spectator.send({"type": "move", "id": 1, "seq": view["seq"], "move": {"kind": "pass"}})
        assert spectator.until(lambda m: m["type"] == "error")["error"]["code"] == "token_required"
        player.send({"type": "ping", "id": "p"})
        assert player.until(lambda m: m["type"] == "pong")["id"] == "p"
        player.conn.send("{nope")
        assert player.until(lambda m: m["type"] == "error")["error"]["code"] == "bad_json"
        player.send({"type": "dance", "id": 2})
        assert player.until(lambda m: m["type"] == "error")["error"]["code"] == "invalid_request"
        player.send({"type": "move", "id": 3, "seq": view["seq"] + 5, "move": {"kind": "pass"}})
        err = player.until(lambda m: m["type"] == "error")
        assert (
            err["id"] == 3
            and err["error"]["code"] == "stale_seq"
            and err["error"]["seq"] == view["seq"]
        )
        player.send(
            {
                "type": "preview",
                "id": 4,
                "tiles": [{"square": "E5", "letter": "A"}, {"square": "F6", "letter": "A"}],
            }
        )
        preview = player.until(lambda m: m["type"] == "preview")
        assert preview["id"] == 4 and preview["preview"]["rule"] == "not_in_line"
        player.send({"type": "move", "id": 5, "seq": view["seq"], "move": {"kind": "pass"}})
        assert player.until(lambda m: m["type"] == "ack")["id"] == 5
        assert (
            spectator.state_until(lambda t: t["seq"] == view["seq"] + 1)["history"][-1]["kind"]
            == "passed"
        )


def test_a_socket_that_will_authenticate_gets_only_its_seats_states(server: Server) -> None:
    """``?auth=1``: no spectator's state before the answer to ``auth`` (a player's page that
    reconnects would otherwise see its rack emptied, and drop the tiles it had placed); a
    refused token gets the spectator's state after all."""
    table, tokens = two_players(server, upload(server))
    with server.ws_connect(table, query="auth=1") as ana:
        ana.send({"type": "auth", "token": tokens[0]})
        state = ana.until(lambda m: m["type"] == "state")
        assert state["table"]["you"]["seat"] == 0 and state["table"]["you"]["rack"]
        ana.send({"type": "ping", "id": 1})
        ana.until(lambda m: m["type"] == "pong")
        states = [m for m in ana.received if m["type"] == "state"]
        assert states and all(m["table"]["you"] is not None for m in states)
    with server.ws_connect(table, query="auth=1") as forged:
        forged.send({"type": "auth", "token": "forged"})
        assert forged.until(lambda m: m["type"] == "error")["error"]["code"] == "bad_token"
        assert forged.until(lambda m: m["type"] == "state")["table"]["you"] is None
    with server.ws_connect(table) as plain:  # without it, the spectator's state at once
        assert plain.until(lambda m: m["type"] == "state")["table"]["you"] is None
