"""Playing through the API as a client would: only the table view (the board and the
player's own rack) is used to choose a move, with the reference move generator."""

from __future__ import annotations

import itertools
from typing import Any

from tablero.alphabet import SPANISH
from tablero.board import Board, Tile
from tablero.engine.movegen.reference import generate_placements
from tablero.lexicon import WordListLexicon
from tablero.rules import check_placement, resolve_place
from tablero.scoring import score_placement
from tablero.variant import Variant, square_name, variant_from_toml

from .harness import Server

MINI_TOML = """
name = "mini"
title = "Mini (tests)"
language = "es"
lexicon = "es"
players = [2, 4]
rack_size = 5
bingo_bonus = 20

[board]
rows = 9
columns = 9
start = ["E5"]
layout = '''
3W . . . 2W . . . 3W
. 2L . . . . . 2L .
. . 2W . . . 2W . .
. . . 3L . 3L . . .
2W . . . 2W . . . 2W
. . . 3L . 3L . . .
. . 2W . . . 2W . .
. 2L . . . . . 2L .
3W . . . 2W . . . 3W
'''

[squares]
"2L" = { kind = "letter", factor = 2 }
"3L" = { kind = "letter", factor = 3 }
"2W" = { kind = "word", factor = 2 }
"3W" = { kind = "word", factor = 3 }

[tiles]
A = [8, 1]
E = [6, 1]
O = [5, 2]
S = [5, 1]
L = [4, 3]
R = [4, 2]
"?" = [1, 0]

[exchange]
min_bag = 5

[end]
scoreless_rounds = 2
scoreless_kinds = ["pass", "exchange"]
"""


def mini_toml(extra: str = "", **replace: str) -> str:
    """The small test game, with whole TOML sections added (``[words]`` ...) or lines replaced."""
    text = MINI_TOML
    for old, new in replace.items():
        assert old in text, old
        text = text.replace(old, new)
    return text + extra


ZETA_TILES = '[start]\nrule = "random"\n\n[tiles]\nZ = [40, 10]\n'
"""A tile set of Zs only: no placement spells a word of the test dictionary."""


def zeta_toml(extra: str = "") -> str:
    start = MINI_TOML.index("[tiles]")
    end = MINI_TOML.index("[exchange]")
    return MINI_TOML[:start] + ZETA_TILES + "\n" + MINI_TOML[end:] + extra


def mini_variant(text: str = MINI_TOML) -> Variant:
    return variant_from_toml(text, source="test")


def upload(server: Server, text: str = MINI_TOML) -> str:
    r = server.post("/api/variants/upload", {"toml": text})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def two_players(server: Server, variant: str, **options: Any) -> tuple[str, dict[int, str]]:
    """A table with two people seated: (table id, token by seat)."""
    table = server.create(variant, [{"kind": "open"}, {"kind": "open"}], **options)
    return table, {0: server.sit(table, 0, "Ana"), 1: server.sit(table, 1, "Luis")}


def api_tiles(squares: list[str], rack: list[str]) -> list[dict[str, Any]]:
    """Rack tiles put on squares in a row, a blank standing for A. The tiles are taken in rack
    order, or in the first order that is a valid spelling: two L tiles side by side are not
    allowed in Spanish, where LL is a tile of its own (likewise RR, and C then H)."""
    letters = ["A" if t == "?" else t for t in rack]
    order = next(
        (
            p
            for p in itertools.permutations(range(len(rack)), min(len(squares), len(rack)))
            if SPANISH.is_canonical([letters[i] for i in p])
        ),
        tuple(range(min(len(squares), len(rack)))),
    )
    return [
        {"square": sq, "letter": letters[i], "blank": rack[i] == "?"}
        for sq, i in zip(squares, order, strict=False)
    ]


def board_of(view: dict[str, Any]) -> Board:
    board = Board(view["rows"], view["columns"])
    for r, row in enumerate(view["board"]):
        for c, cell in enumerate(row):
            if cell is not None:
                board[(r, c)] = Tile(cell["letter"], cell["blank"])
    return board


def best_placement(
    view: dict[str, Any], variant: Variant, lexicon: WordListLexicon
) -> tuple[dict[str, Any], int] | None:
    """The highest-scoring placement for the viewer's rack, as an API move, and its score."""
    board = board_of(view)
    rack = view["you"]["rack"]
    best: tuple[int, Any] | None = None
    for place in generate_placements(variant, board, rack, lexicon):
        chk = check_placement(variant, board, place, rack)
        total = score_placement(
            variant, list(chk.words), len(chk.new_tiles), board.is_empty()
        ).total
        if best is None or total > best[0]:
            best = (total, place)
    if best is None:
        return None
    new, _ = resolve_place(best[1], board)
    tiles = [
        {"square": square_name(coord), "letter": tile.letter, "blank": tile.blank}
        for coord, tile in new
    ]
    return {"kind": "place", "tiles": tiles}, best[0]


def play_turn(
    server: Server, table: str, token: str, variant: Variant, lexicon: WordListLexicon
) -> dict[str, Any]:
    """The player to move (holding ``token``) plays the best placement, or exchanges, or passes."""
    view = server.view(table, token)
    assert view["you"]["your_turn"]
    chosen = best_placement(view, variant, lexicon)
    if chosen is not None:
        move = chosen[0]
    elif view["bag_count"] >= variant.exchange.min_bag:
        move = {"kind": "exchange", "tiles": view["you"]["rack"]}
    else:
        move = {"kind": "pass"}
    r = server.move(table, token, move, view["seq"])
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    if chosen is not None:
        assert body["result"]["kind"] == "placed"
        assert body["result"]["score"] == chosen[1]
    return body
