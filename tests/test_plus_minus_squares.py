"""Letras Top's ±N squares when the new tile forms two words: "A new tile on ±N that forms two
words adds or subtracts in each word, as letter and word premiums do" (VARIANTS.md, 003)."""

from __future__ import annotations

import pytest

from tablero.game import Game
from tablero.variant import load_variant, square_name
from tests.helpers import lay, rig, words

LEXICON = words("AS", "SA")


@pytest.mark.parametrize(
    ("square", "code", "amount"),
    [((10, 3), "+10", 10), ((1, 1), "-5", -5)],  # D11 and B2
)
def test_a_tile_on_a_plus_minus_square_counts_in_both_words(
    square: tuple[int, int], code: str, amount: int
) -> None:
    """An A above the square and an A right of it; an S on the square makes AS down and SA
    across, each 1 + 1 + amount."""
    v = load_variant("letras_top")
    r, c = square
    assert v.square_code((r, c)) == code
    neighbours = [(r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)]
    assert all(v.square_code(n) == "." for n in neighbours)  # no other premium in the words
    game = Game("letras_top", ["Ana", "Luis"], LEXICON, seed=1)
    lay(game, f"{square_name((r - 1, c))} A")  # above
    lay(game, f"{square_name((r, c + 1))} A")  # to the right
    rig(game, game.to_move, "SXYZ")
    result = game.play(f"{square_name((r - 1, c))} (A)S")
    assert result.kind == "placed", result.reason
    assert result.breakdown is not None
    assert sorted((w.word, w.score) for w in result.breakdown.words) == [
        ("AS", 1 + 1 + amount),
        ("SA", 1 + 1 + amount),
    ]
    assert result.score == 2 * (1 + 1 + amount)
