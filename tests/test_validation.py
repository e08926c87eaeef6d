"""Every placement rule names itself when broken, and a rejected move changes nothing."""

from __future__ import annotations

import pytest

from tablero.alphabet import ROMANIAN
from tablero.board import Tile
from tablero.game import Game
from tablero.rules import IllegalMove, check_placement, placement_from_squares
from tests.helpers import lay, rig, words

ES = words("CASA", "CASAS", "AS", "SA", "CHE", "OCA", "CHILLAR")


def game_with(rack: str, laid: tuple[str, ...] = (), variant: str = "fise") -> Game:
    game = Game(variant, ["Ana", "Luis"], ES, seed=2)
    for notation in laid:
        lay(game, notation)
    rig(game, game.to_move, rack)
    return game


@pytest.mark.parametrize(
    ("rack", "laid", "move", "rule", "says"),
    [
        ("CASAXYZ", (), "8A CASA", "start_square", "H8"),
        ("CASAXYZ", (), "8H C", "first_word_too_short", "2"),
        ("CASAXYZ", ("8H CASA",), "2B AS", "not_connected", "touch"),
        ("CASAXYZ", ("8H CASA",), "8G CASA", "board_mismatch", "holds"),
        ("CASAXYZ", ("8H CASA",), "8F AS", "word_incomplete", "H8"),
        ("CASAXYZ", ("8H CASA",), "H8 C(A)", "not_on_board", "empty"),
        ("CASAXYZ", ("8H CASA",), "8H (CASA)", "no_new_tiles", "no tile"),
        ("XYZQUEN", (), "8H CASA", "not_on_rack", "C"),
        ("CASAXYZ", (), "8N CASA", "off_board", "off the board"),
        ("CASAXYZ", (), "8H KASA", "no_such_tile", "K"),
        ("CASXYZ", (), "8H CASX", None, "not in the dictionary"),  # checked, not played
    ],
)
def test_each_rule_names_itself(
    rack: str, laid: tuple[str, ...], move: str, rule: str | None, says: str
) -> None:
    game = game_with(rack, laid)
    before = game.state()
    with pytest.raises(IllegalMove) as info:
        if rule is None:
            game.check(move)
        else:
            game.play(move)
    assert info.value.rule == (rule or "not_in_lexicon")
    assert says in info.value.message
    assert game.state() == before


def test_a_blank_must_be_on_the_rack() -> None:
    game = game_with("CASAXYZ")
    with pytest.raises(IllegalMove) as info:
        game.play("8H CASa")
    assert info.value.rule == "not_on_rack" and "blank" in info.value.message


def test_intelect_has_no_blanks() -> None:
    game = game_with("CASXYZA", variant="intelect")
    with pytest.raises(IllegalMove) as info:
        game.play("8H CASa")
    assert info.value.rule == "no_such_tile"


def test_cuvinte_first_letter_on_the_centre() -> None:
    ro = Game("cuvinte", ["Ana", "Ion"], words("CASA", alphabet=ROMANIAN), seed=1)
    rig(ro, ro.to_move, "CASAXZ")
    before = ro.state()
    with pytest.raises(IllegalMove) as info:
        ro.play("8H CASA")  # covers the centre I8 with its second letter
    assert info.value.rule == "first_letter_on_start" and "I8" in info.value.message
    assert ro.state() == before


def test_tiles_must_be_in_one_line_without_gaps() -> None:
    game = game_with("CASAXYZ", ("8H CASA",))
    with pytest.raises(IllegalMove) as info:
        placement_from_squares(game.board, [((8, 7), Tile("A")), ((9, 8), Tile("S"))])
    assert info.value.rule == "not_in_line"
    with pytest.raises(IllegalMove) as info:
        placement_from_squares(game.board, [((8, 7), Tile("A")), ((10, 7), Tile("S"))])
    assert info.value.rule == "gap" and "H10" in info.value.message


def test_placement_from_squares_reads_like_notation() -> None:
    game = game_with("SXYZ", ("8H CASA",))
    place = placement_from_squares(game.board, [((7, 11), Tile("S"))])
    assert place == game.parse("8H (CASA)S")
    assert game.play(place).score == game_with("SXYZ", ("8H CASA",)).play("8H (CASA)S").score


def test_digraph_words_must_use_the_digraph_tile() -> None:
    """C and H tiles side by side do not spell the CH of CHE."""
    game = game_with("CHEXYZ")
    place = placement_from_squares(
        game.board, [((7, 7), Tile("C")), ((7, 8), Tile("H")), ((7, 9), Tile("E"))]
    )
    with pytest.raises(IllegalMove) as info:
        check_placement(game.variant, game.board, place, game.current.rack)
    assert info.value.rule == "digraph_spelling" and "CH" in info.value.message


def test_digraph_tile_plays_a_digraph_word() -> None:
    game = game_with("[CH]I[LL]ARXY")
    result = game.play("8H CHILLAR")
    assert result.kind == "placed"
    assert [t.letter for _, t in game.board.tiles()] == ["CH", "I", "LL", "A", "R"]
