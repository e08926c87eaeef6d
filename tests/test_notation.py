"""Reading and writing moves in the notation."""

from __future__ import annotations

import pytest

from tablero.alphabet import SPANISH
from tablero.board import Tile
from tablero.moves import (
    Cambio,
    Challenge,
    Exchange,
    Letter,
    NotationError,
    Pass,
    Place,
    format_move,
    parse_move,
    parse_rack,
)


def parse(text: str, columns: int = 15) -> object:
    return parse_move(text, SPANISH, 15, columns)


def test_across_and_down() -> None:
    across = parse("8H CASA")
    down = parse("H8 CASA")
    assert isinstance(across, Place) and isinstance(down, Place)
    assert (across.start, across.across) == ((7, 7), True)
    assert (down.start, down.across) == ((7, 7), False)


def test_blanks_digraphs_and_board_letters() -> None:
    move = parse("8H [CH]i(LL)ar")
    assert isinstance(move, Place)
    assert move.letters == (
        Letter(Tile("CH")),
        Letter(Tile("I", True)),
        Letter(Tile("LL"), True),
        Letter(Tile("A", True)),
        Letter(Tile("R", True)),
    )


def test_plain_digraphs_read_greedily() -> None:
    move = parse("8H CHILLAR")
    assert isinstance(move, Place)
    assert [x.tile.letter for x in move.letters if x.tile] == ["CH", "I", "LL", "A", "R"]


def test_dot_is_a_board_letter() -> None:
    move = parse("8H CA.A")
    assert isinstance(move, Place) and move.letters[2] == Letter(None, True)


def test_accents_fold_but_n_tilde_stays() -> None:
    move = parse("8H ÑANDÚ")
    assert isinstance(move, Place)
    assert "".join(x.tile.letter for x in move.letters if x.tile) == "ÑANDU"


def test_exchange_pass_cambio_challenge() -> None:
    assert parse("-") == Pass()
    assert parse("-AB?[CH]") == Exchange(("A", "B", "?", "CH"))
    assert parse("-LL") == Exchange(("L", "L"))  # on a rack, LL is two L tiles
    assert parse("CAMBIO H8 D") == Cambio((7, 7), Tile("D"))
    assert parse("CAMBIO H8 d") == Cambio((7, 7), Tile("D", True))
    assert parse("challenge") == Challenge()


def test_seventeen_columns() -> None:
    move = parse("8Q AS", columns=17)
    assert isinstance(move, Place) and move.start == (7, 16)
    with pytest.raises(NotationError, match="off the board"):
        parse("8R AS", columns=17)


@pytest.mark.parametrize(
    "text",
    ["", "8H", "Z99 CASA", "8H CA(SA", "8H CA)SA", "8H C?SA", "CAMBIO H8", "8H CA-SA", "-1"],
)
def test_malformed_notation_says_what_is_wrong(text: str) -> None:
    with pytest.raises(NotationError) as info:
        parse(text)
    assert str(info.value)


@pytest.mark.parametrize(
    "text",
    ["8H CASA", "H8 CA(S)A", "8H [CH]i([LL])ar", "-", "-AB?[CH]", "CAMBIO H8 d", "CHALLENGE"],
)
def test_format_round_trips(text: str) -> None:
    move = parse(text)
    assert parse(format_move(move)) == move  # type: ignore[arg-type]
    assert format_move(move) == text  # type: ignore[arg-type]


def test_rack_notation() -> None:
    assert parse_rack("AB?[CH]Ñ", SPANISH) == ("A", "B", "?", "CH", "Ñ")
    assert parse_rack("", SPANISH) == ()
    with pytest.raises(NotationError):
        parse_rack("A1", SPANISH)
