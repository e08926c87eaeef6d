"""A finished game stays readable: step by step for the replay page, and the position at any
step as CGP for the engine; never a rack of a game still in play."""

from __future__ import annotations

from typing import Any

from tablero.formats.cgp import read_cgp
from tablero.lexicon import WordListLexicon

from .games import mini_toml, mini_variant, play_turn, two_players, upload
from .harness import Server


def error(r: Any) -> dict[str, Any]:
    return dict(r.json()["error"])


def test_a_whole_game_replays_frame_by_frame(server: Server, mini_es: WordListLexicon) -> None:
    text = mini_toml()
    variant = mini_variant(text)
    table, tokens = two_players(server, upload(server, text))
    r = server.get(f"/api/tables/{table}/replay")
    assert r.status_code == 409 and error(r)["code"] == "not_over"
    r = server.get(f"/api/tables/{table}/cgp?ply=0")
    assert r.status_code == 409
    while (view := server.view(table))["state"] == "playing":
        play_turn(server, table, tokens[view["to_move"]], variant, mini_es)
    final = server.view(table)
    replay = server.get(f"/api/tables/{table}/replay").json()
    frames = replay["frames"]
    assert frames[0]["ply"] == 0 and frames[0]["moves"] == []
    assert all(cell is None for row in frames[0]["board"] for cell in row)
    assert [f["ply"] for f in frames] == list(range(len(frames)))
    # Every history entry is in exactly one frame, in order; the last frame is the end.
    assert [m for f in frames for m in f["moves"]] == final["history"]
    assert frames[-1]["board"] == final["board"]
    assert frames[-1]["scores"] == [s["score"] for s in final["seats"]]
    assert replay["result"] == final["result"]
    assert replay["seats"] == final["seats"] and replay["rows"] == final["rows"]
    # Tiles on the board plus racks plus bag are the whole set at every step.
    total = sum(count for count, _ in variant.tiles.values())
    for f in frames:
        on_board = sum(1 for row in f["board"] for cell in row if cell is not None)
        assert on_board + sum(map(len, f["racks"])) + f["bag_count"] == total, f["ply"]
    # The position at a step, as CGP: the board of that frame, the rack of its player to move.
    middle = frames[len(frames) // 2]
    r = server.get(f"/api/tables/{table}/cgp?ply={middle['ply']}")
    assert r.status_code == 200, r.text
    position = read_cgp(r.text.strip(), variant)
    mover = middle["to_move"]
    assert list(position.racks[0]) == middle["racks"][mover]
    assert all(rack == () for rack in position.racks[1:])
    for rr, row in enumerate(middle["board"]):
        for cc, cell in enumerate(row):
            tile = position.board[rr, cc]
            assert (tile is None) == (cell is None)
    for bad in (-1, len(frames), "x"):
        r = server.get(f"/api/tables/{table}/cgp?ply={bad}")
        assert r.status_code == 422, (bad, r.text)


def test_a_resigned_game_replays_too(server: Server) -> None:
    table, tokens = two_players(server, "fise")
    view = server.view(table)
    r = server.move(table, tokens[view["to_move"]], {"kind": "pass"}, view["seq"])
    assert r.status_code == 200
    r = server.move(table, tokens[0], {"kind": "resign"}, view["seq"] + 1)
    assert r.status_code == 200, r.text
    frames = server.get(f"/api/tables/{table}/replay").json()["frames"]
    assert [m["kind"] for f in frames for m in f["moves"]] == ["passed", "resigned"]
    assert frames[-1]["to_move"] is None
    assert server.get("/t/" + table + "/replay").status_code == 200  # the page
