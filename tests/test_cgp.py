"""CGP positions: the reference positions read, and write→read gives the same position."""

from __future__ import annotations

import json
import lzma
from pathlib import Path

import pytest

from tablero.formats.cgp import CgpError, read_cgp, write_cgp


def _reference_cgps() -> list[str]:
    path = Path(__file__).parent / "data" / "bench" / "fise_positions.jsonl.xz"
    with lzma.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line)["cgp"] for line in f]


POSITIONS = _reference_cgps()


@pytest.mark.parametrize("cgp", POSITIONS[:10])
def test_reference_positions_round_trip(cgp: str) -> None:
    position = read_cgp(cgp)
    again = read_cgp(write_cgp(position))
    assert again.board == position.board
    assert again.racks == position.racks and again.scores == position.scores
    assert write_cgp(again) == write_cgp(position)


def test_digraphs_and_blanks_on_the_board() -> None:
    position = read_cgp(POSITIONS[0])
    tiles = {t.notation() for _, t in position.board.tiles()}
    assert {"[LL]", "[CH]", "[RR]", "a", "r"} <= tiles
    assert position.rack == ("F", "S", "S", "T", "U")


def test_four_players_and_our_operations() -> None:
    cgp = (
        "15/" * 14
        + "15 AB/CD/EF/GH 1/2/3/-4 0 var crucigrama; cambio 1/0/0/2; exch 0/1/0/0; bag 70;"
    )
    position = read_cgp(cgp)
    assert position.cambios_used == [1, 0, 0, 2] and position.scores == [1, 2, 3, -4]
    assert position.bag_count() == 70
    assert read_cgp(write_cgp(position)).cambios_used == [1, 0, 0, 2]


def test_one_player_round_trips() -> None:
    """A position with one rack (solo play, a duplicate round) is written without the trailing
    slash that would announce a second, unknown rack."""
    cgp = "15/" * 14 + "15 AB[CH]?/ 0/0 0 var fise;"
    solo = read_cgp(cgp)
    solo.racks, solo.scores = solo.racks[:1], [12]
    written = write_cgp(solo)
    assert " AB[CH]? 12 0 " in written
    again = read_cgp(written)
    assert again.racks == [("A", "B", "CH", "?")] and again.scores == [12]


@pytest.mark.parametrize(
    ("cgp", "says"),
    [
        ("15/15 A/ 0/0 0", "rows"),
        ("15/" * 14 + "16 A/ 0/0 0", "row 15"),
        ("15/" * 14 + "15 A/ 0 0", "racks but"),
        ("15/" * 14 + "15 A/ x/0 0", "scores"),
        ("15/" * 14 + "1ZZZZZZZZZZZZZZ A/ 0/0 0", "Z tiles"),
        ("15/" * 14 + "15 ABCDEFGH/ 0/0 0", "rack of 8"),
        ("15/" * 14 + "15 A/ 0/0 0 var nada;", "unknown variant"),
        ("15/" * 14 + "14% A/ 0/0 0", "not a tile"),
        ("nonsense", "four fields"),
    ],
)
def test_malformed_cgp_says_what_is_wrong(cgp: str, says: str) -> None:
    with pytest.raises(CgpError) as info:
        read_cgp(cgp)
    assert says in str(info.value)
