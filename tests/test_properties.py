"""Properties of random games, in all six variants.

* tiles are conserved: bag + racks + board is always the variant's tile set;
* a rejected action leaves the game exactly as it was;
* the log replays to the same state;
* a position written as CGP reads back the same.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablero.alphabet import ROMANIAN, SPANISH
from tablero.board import Tile
from tablero.engine.movegen.reference import generate_placements
from tablero.formats.cgp import read_cgp, write_cgp
from tablero.game import Game
from tablero.lexicon import WordListLexicon
from tablero.moves import Cambio, Exchange, NotationError, Pass
from tablero.rules import IllegalMove

VARIANTS = ["fise", "bisonte", "crucigrama", "intelect", "letras_top", "cuvinte"]


@pytest.fixture(scope="module")
def lexicons(es_words: WordListLexicon) -> dict[str, WordListLexicon]:
    """Short words only, so random games stay fast; a Romanian-alphabet list made of the
    Spanish words it can spell (the rules do not care which language the words are)."""
    short = [w for w in es_words if len(w) <= 5]
    plain = [w for w in short if not any(d in w for d in ("CH", "LL", "RR", "Ñ"))]
    return {
        "es": WordListLexicon.from_words(short, SPANISH, name="short-es"),
        "ro": WordListLexicon.from_words(plain, ROMANIAN, name="short-ro"),
    }


def tile_set(game: Game) -> Counter[str]:
    return Counter({t: n for t, (n, _) in game.variant.tiles.items() if n})


def random_action(game: Game, rng: random.Random) -> object:
    """A random action: mostly legal placements, sometimes passes, exchanges, CAMBIOs,
    challenges, and deliberately broken moves."""
    roll = rng.random()
    rack = game.current.rack
    if roll < 0.55:
        moves = list(generate_placements(game.variant, game.board, rack, game.lexicon))
        if moves:
            return rng.choice(moves)
    if roll < 0.65 and rack:
        return Exchange(tuple(rng.sample(rack, rng.randint(1, len(rack)))))
    if roll < 0.72 and game.variant.word_check == "challenge":
        return "CHALLENGE"
    if roll < 0.80:
        tiles = list(game.board.tiles())
        if tiles:
            coord, _ = rng.choice(tiles)
            letter = rng.choice(game.variant.letters())
            return Cambio(coord, Tile(letter))
    if roll < 0.90:
        # a placement that is likely illegal: random tiles at a random square
        r, c = rng.randrange(game.variant.rows), rng.randrange(game.variant.columns)
        word = "".join(rng.choice(game.variant.letters()) for _ in range(rng.randint(1, 4)))
        return f"{r + 1}{chr(65 + c)} {word}"
    return Pass()


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_random_games_keep_every_invariant(
    lexicons: dict[str, WordListLexicon], variant: str, seed: int, players: int
) -> None:
    lexicon = lexicons["ro" if variant == "cuvinte" else "es"]
    game = Game(variant, [f"P{i}" for i in range(players)], lexicon, seed=seed)
    rng = random.Random(seed)
    full = tile_set(game)
    for _ in range(25):
        if game.is_over:
            break
        action = random_action(game, rng)
        before = game.state()
        try:
            game.play(action)  # type: ignore[arg-type]
        except (IllegalMove, NotationError):
            assert game.state() == before, f"a rejected {action!r} changed the game"
        assert game.tiles_in_play() == full
        position = game.position()
        again = read_cgp(write_cgp(position))
        assert again.board == position.board
        assert again.racks == position.racks and again.scores == position.scores
    replayed = Game.replay(game.log, lexicon)
    assert replayed.state() == game.state()
