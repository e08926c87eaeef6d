"""The exact endgame search: sound (an answer marked exact is the best the game allows) on a
position where it used to be wrong, and against a search with no pruning and no table on
small endgames from real games, where the game itself is the referee."""

from __future__ import annotations

import copy
import math
from functools import cache

import pytest

from tablero.engine.movegen.candidates import candidates
from tablero.engine.search.endgame import solve_endgame
from tablero.formats.cgp import read_cgp
from tablero.game import Game
from tablero.lexicon import Lexicon, load_lexicon
from tablero.moves import Pass

from .small_lexicons import small_graph

# Racks BLRZ (to move) and YQT, spread +67, bag empty. The search once answered 9C B(EN)
# for a final spread of +108, marked exact, where the best line reaches +110: the alpha-beta
# window of a reply left out the score of the move it replied to.
POSITION = (
    "7C7/1ÑO4U2C4/1AHELEArE1O4/7I2L4/3FUNDO2i4/7S2[LL]4/7E1TA3G/3PUNCE1ES3O/3EN4X4M/"
    "1REGIRE2T4A/3AD1DI[CH]OS3[RR]/2UTA4REVENA/2PIS3HILADOS/2EN1CAMAO5/3ADURI1SOBAJO "
    "BLRZ/YQT 466/399 0 var fise; lex es; bag 0;"
)


def game_at(cgp: str, lexicon: Lexicon) -> Game:
    """A game of the position's rules standing exactly at the position, player 0 to move."""
    position = read_cgp(cgp)
    game = Game(position.variant, ["Ana", "Luis"], lexicon, seed=1)
    game.board = position.board.copy()
    game.bag.clear()
    for player, rack, score in zip(game.players, position.racks, position.scores, strict=True):
        player.rack, player.score = list(rack), score
    game.to_move, game.scoreless_streak = 0, position.scoreless_turns
    return game


def test_the_position_that_was_answered_wrong_is_answered_exactly() -> None:
    lexicon = load_lexicon("es", read_cgp(POSITION).variant.alphabet)
    result = solve_endgame(read_cgp(POSITION), lexicon, time_limit=120)
    assert result is not None and result.exact
    assert result.spread == 110
    # The line it gives reaches that spread when the game plays it out.
    game = game_at(POSITION, lexicon)
    for move in result.line:
        if game.is_over:
            break
        game.play(move)
    assert game.is_over
    assert game.players[0].score - game.players[1].score == 110


def _best_final_spread(game: Game, memo: dict[tuple[object, ...], float]) -> float:
    """Player 0's final spread with best play by both, by trying every move (every placement
    and the pass) and letting the game score it: no pruning, no depth limit."""
    if game.is_over:
        return game.players[0].score - game.players[1].score
    key = (
        tuple(sorted((c, t.letter, t.blank) for c, t in game.board.tiles())),
        tuple(tuple(sorted(p.rack)) for p in game.players),
        tuple(p.score for p in game.players),
        game.to_move,
        game.scoreless_streak,
    )
    if key in memo:
        return memo[key]
    moves = [c.move for c in candidates(game.position(), game.lexicon) if c.kind == "place"]
    values = []
    for move in [*moves, Pass()]:
        child = copy.deepcopy(game)
        child.play(move)
        values.append(_best_final_spread(child, memo))
    value = max(values) if game.to_move == 0 else min(values)
    memo[key] = value
    return value


@cache
def _small_endgames(count: int) -> list[Game]:
    """Endgames from self-play with a small dictionary: the bag empty and at most three tiles
    on the two racks together, so that every line can be tried."""
    lexicon = small_graph("es")
    found: list[Game] = []
    seed = 0
    while len(found) < count:
        seed += 1
        game = Game("fise", ["Ana", "Luis"], lexicon, seed=seed)
        while not game.is_over:
            racks = sum(len(p.rack) for p in game.players)
            if not game.bag and racks <= 3 and all(p.rack for p in game.players):
                if game.to_move == 1:  # the searching side is player 0, as a position puts it
                    game.play(Pass())
                    continue
                found.append(game)
                break
            best = candidates(game.position(), lexicon, top=1)
            game.play(best[0].move if best else Pass())
    return found


@pytest.mark.parametrize("index", range(10))
def test_exact_answers_match_trying_every_line(index: int) -> None:
    game = copy.deepcopy(_small_endgames(10)[index])
    truth = _best_final_spread(game, {})
    result = solve_endgame(game.position(), game.lexicon, time_limit=None)
    assert result is not None and result.exact
    assert math.isclose(result.spread, truth), (game.position(), result, truth)
