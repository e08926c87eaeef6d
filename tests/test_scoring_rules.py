"""Each square kind and bonus, on the real boards of the variants that have it.

Edge cases the rule books single out: a blank on a word square still multiplies; a blank on
a letter square adds nothing; a blank on ±N still adds or subtracts; 4W counts only for a word
that starts or ends on it; premiums count only when first covered; first-turn doubling and
bonuses; bingo bonus per game.
"""

from __future__ import annotations

import pytest

from tablero.alphabet import ROMANIAN
from tablero.game import Game
from tablero.variant import Coord, load_variant, square_name
from tests.helpers import lay, rig, words

HOOK_WORDS = words("AS", "SA", "CASA", "CASITAS", "MASA", "CAS", "CASAS")


def find(variant: str, code: str) -> Coord:
    """A square of that code with room around it for the hooking test below."""
    v = load_variant(variant)
    for r in range(v.rows - 1):
        for c in range(1, v.columns - 2):
            if v.layout[r][c] == code and v.layout[r][c - 1] == "." and v.layout[r][c + 1] == ".":
                return r, c
    raise AssertionError(f"no {code} square to test on in {variant}")


def hook(variant: str, code: str, tile: str) -> int:
    """Score of a down word made by one tile (``tile``, lowercase = blank) put on a square of
    that code, above an A laid earlier: the word is SA (blank s: 0 + 1)."""
    r, c = find(variant, code)
    game = Game(variant, ["Ana", "Luis"], HOOK_WORDS, seed=5)
    lay(game, f"{r + 2}{chr(65 + c)} AS")  # A right below the square, S to its right
    rig(game, game.to_move, "?S" if tile.islower() else "SS")
    result = game.play(f"{square_name((r, c))} {tile}(A)")
    assert result.kind == "placed", result.reason
    return result.score


@pytest.mark.parametrize(
    ("variant", "code", "tile", "expected"),
    [
        ("fise", "2W", "S", (1 + 1) * 2),
        ("fise", "2W", "s", (0 + 1) * 2),  # a blank on a word square multiplies the word
        ("fise", "3W", "s", (0 + 1) * 3),
        ("fise", "2L", "S", 1 * 2 + 1),
        ("fise", "2L", "s", 0 + 1),  # a blank on a letter square adds nothing
        ("fise", "3L", "s", 0 + 1),
        ("letras_top", "+10", "S", 1 + 1 + 10),
        ("letras_top", "+10", "s", 0 + 1 + 10),  # a blank on +10 still adds
        ("letras_top", "-5", "s", 0 + 1 - 5),  # and on -5 still subtracts
        ("letras_top", "-5", "S", 1 + 1 - 5),
    ],
)
def test_square_kinds(variant: str, code: str, tile: str, expected: int) -> None:
    assert hook(variant, code, tile) == expected


def test_plus_n_is_added_after_multiplication() -> None:
    """MORAS on letras_top covers 2W, -5 and 3W: 7 × 2 × 3 - 5 = 37 (not (7 - 5) × 6)."""
    game = Game("letras_top", ["Ana", "Luis"], words("ROSAS", "MORAS"), seed=1)
    lay(game, "H5 ROSAS")
    rig(game, game.to_move, "MRASXZY")
    assert game.play("6G M(O)RAS").score == 37


ROMANIAN_WORDS = words("CASA", "CASAS", "MASA", "CAS", "CASE", alphabet=ROMANIAN)


def _cuvinte() -> Game:
    return Game("cuvinte", ["Ana", "Ion"], ROMANIAN_WORDS, seed=2)


def test_4w_counts_for_a_word_that_starts_on_it() -> None:
    game = _cuvinte()
    lay(game, "D5 MASA")  # its A on D8
    rig(game, game.to_move, "CASXZ")
    result = game.play("8A CAS(A)")  # C on A8, a 4W square: the word starts there
    assert result.score == (1 + 1 + 1 + 1) * 4


def test_4w_counts_for_a_word_that_ends_on_it() -> None:
    game = _cuvinte()
    lay(game, "A5 CA")
    rig(game, game.to_move, "SAXZ")
    result = game.play("A5 (CA)SA")  # the last A lands on A8 (4W): CASA ends there
    assert result.score == 4 * 4


def test_4w_in_the_middle_of_a_word_does_nothing() -> None:
    game = _cuvinte()
    lay(game, "A5 CA")
    rig(game, game.to_move, "SASXZ")
    result = game.play("A5 (CA)SAS")  # A8 is the fourth of five letters
    assert result.score == 5
    assert result.breakdown is not None
    assert "not at an end" in result.breakdown.words[0].squares[3].effect


def test_premiums_count_only_when_first_covered() -> None:
    """FISE: CASA on the centre 2W doubles; CASAS through it later does not double again."""
    game = Game("fise", ["Ana", "Luis"], HOOK_WORDS, seed=1)
    rig(game, game.to_move, "CASAXYZ")
    assert game.play("8H CASA").score == (3 + 1 + 1 + 1) * 2
    rig(game, game.to_move, "SXYZ")
    # The centre's 2W is not counted again; the new S lands on L8, a 2L square.
    assert game.play("8H (CASA)S").score == 3 + 1 + 1 + 1 + 1 * 2


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        ("fise", (3 + 1 + 1 + 1) * 2),  # centre 2W square
        ("bisonte", (3 + 1 + 1 + 1) * 2),  # plain centre, first turn doubled by rule
        ("intelect", (3 + 1 + 1 + 1) * 2),
        ("crucigrama", 2 + 1 + 1 + 1),  # C is 2 in Crucigrama; no doubling
    ],
)
def test_first_turn(variant: str, expected: int) -> None:
    game = Game(variant, ["Ana", "Luis"], HOOK_WORDS, seed=1)
    rig(game, game.to_move, "CASAXYZ")
    assert game.play("8H CASA").score == expected


def test_letras_top_opening_bonus_goes_to_whoever_opens() -> None:
    """The player due to open passes; the next opens and still gets the +10."""
    game = Game("letras_top", ["Ana", "Luis"], words("ROSAS"), seed=1)
    opener = game.to_move
    game.play("-")
    assert game.to_move != opener
    rig(game, game.to_move, "ROSASXZ")
    result = game.play("H5 ROSAS")
    assert result.score == 5 + 10
    assert result.breakdown is not None and result.breakdown.first_turn_bonus == 10


def test_letras_top_second_start_square_later_gives_nothing() -> None:
    game = Game("letras_top", ["Ana", "Luis"], words("ROSAS", "SOL", "LOS"), seed=1)
    lay(game, "H5 ROSAS")
    lay(game, "9H (S)OL")  # L on J9
    rig(game, game.to_move, "OSXZ")
    result = game.play("J9 (L)OS")  # S lands on J11, the second start square
    assert result.score == 1 + 1 + 1
    assert result.breakdown is not None and result.breakdown.first_turn_bonus == 0


@pytest.mark.parametrize(("variant", "bonus"), [("crucigrama", 20), ("fise", 50), ("bisonte", 50)])
def test_bingo_bonus_per_game(variant: str, bonus: int) -> None:
    game = Game(variant, ["Ana", "Luis"], HOOK_WORDS, seed=1)
    rig(game, game.to_move, "CASITAS")
    result = game.play("8H CASITAS")
    assert result.breakdown is not None
    assert result.breakdown.bingo_bonus == bonus
    assert (
        result.score
        == result.breakdown.words_total * result.breakdown.first_turn_multiplier + bonus
    )
