"""Hints (a table option: a player asks for their best moves) and the unseen tiles every
table view carries (the set less the board less one's own rack)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tablero.lexicon import WordListLexicon

from .games import best_placement, board_of, mini_variant, play_turn, two_players, upload
from .harness import Server
from .test_accounts import error


def hint(server: Server, table: str, token: str | None, **body: Any) -> Any:
    return server.post(f"/api/tables/{table}/hint", body, token=token)


def test_a_player_asks_for_the_best_moves_at_a_table_with_hints(
    server: Server, mini_es: WordListLexicon
) -> None:
    ref = upload(server)
    table, tokens = two_players(server, ref, hints=True, rated=True)
    view = server.view(table)
    assert view["hints"] is True and view["rated"] is False, "a table with hints is casual"
    lobby = {t["id"]: t for t in server.get("/api/tables").json()}
    assert (lobby[table]["hints"], lobby[table]["rated"]) == (True, False)
    mover = view["to_move"]
    r = hint(server, table, tokens[mover], count=3)
    assert r.status_code == 200, r.text
    moves = r.json()["moves"]
    assert len(moves) == 3
    equities = [m["equity"] for m in moves]
    assert equities == sorted(equities, reverse=True)
    # No leave values for this game: the best hint is the highest score any placement makes
    # (found here by trying every placement, independently of the engine).
    mine = server.view(table, tokens[mover])
    best = best_placement(mine, mini_variant(), mini_es)
    assert best is not None and moves[0]["score"] == best[1]
    rack = Counter(mine["you"]["rack"])
    for m in moves:
        used = Counter("?" if t["blank"] else t["letter"] for t in m["tiles"])
        assert not used - rack, "a hint plays tiles of the player's own rack"
    # The best hint, played, scores what it said.
    r = server.move(
        table, tokens[mover], {"kind": "place", "tiles": moves[0]["tiles"]}, view["seq"]
    )
    assert r.status_code == 200 and r.json()["result"]["score"] == moves[0]["score"]
    # Not one's turn: hints still come, for the position one sees.
    assert hint(server, table, tokens[mover]).status_code == 200


def test_hint_refusals_change_nothing(server: Server) -> None:
    ref = upload(server)
    plain, tokens = two_players(server, ref)
    before = server.view(plain)
    r = hint(server, plain, tokens[0])
    assert r.status_code == 409 and error(r)["code"] == "hints_off"
    table, tokens = two_players(server, ref, hints=True)
    for count in (0, 11, "many"):
        r = hint(server, table, tokens[0], count=count)
        assert r.status_code == 422 and error(r)["field"] == "count", r.text
    r = hint(server, table, None)
    assert r.status_code == 401
    r = hint(server, table, "not-a-token")
    assert r.status_code in (401, 403)
    r = server.move(table, tokens[0], {"kind": "resign"}, server.view(table)["seq"])
    assert r.status_code == 200
    r = hint(server, table, tokens[1])
    assert r.status_code == 409 and error(r)["code"] == "game_over"
    assert server.view(plain)["seq"] == before["seq"]


def _pool(server: Server, ref: str) -> Counter[str]:
    variant = server.get(f"/api/variants/{ref}").json()
    return Counter({t["letter"]: t["count"] for t in variant["tiles"]})


def test_the_unseen_tiles_are_the_set_less_the_board_less_ones_rack(
    server: Server, mini_es: WordListLexicon
) -> None:
    ref = upload(server)
    table, tokens = two_players(server, ref)
    for _ in range(3):  # known moves, then the counts
        play_turn(server, table, tokens[server.view(table)["to_move"]], mini_variant(), mini_es)
    pool = _pool(server, ref)
    spectator = server.view(table)
    on_board = Counter(t.rack_form for _, t in board_of(spectator).tiles())
    assert sum(on_board.values()) > 0
    assert Counter(spectator["unseen"]["tiles"]) == +(pool - on_board)
    for seat, token in tokens.items():
        view = server.view(table, token)
        unseen = view["unseen"]
        expected = +(pool - on_board - Counter(view["you"]["rack"]))
        assert Counter(unseen["tiles"]) == expected
        other = view["seats"][1 - seat]["rack_count"]
        assert unseen["total"] == view["bag_count"] + other
        assert unseen["vowels"] == sum(n for t, n in expected.items() if t in "AEIOU")
        assert unseen["vowels"] + unseen["consonants"] + unseen["blanks"] == unseen["total"]
        assert list(unseen["tiles"]) == sorted(unseen["tiles"], key=_alphabetical)
    # Over the WebSocket too, each seat its own.
    with server.ws(table, tokens[0]) as sock:
        state = sock.state_until(lambda t: True)
        assert Counter(state["unseen"]["tiles"]) == +(
            pool - on_board - Counter(server.view(table, tokens[0])["you"]["rack"])
        )


def _alphabetical(tile: str) -> tuple[bool, str]:
    return (tile == "?", tile)
