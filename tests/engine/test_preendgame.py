"""The pre-endgame with one tile in the bag, solved (``search.preendgame``).

The positions come from a FISE game between two ``hard`` players, played until one tile is
left in the bag. Every future the solver builds is checked against the game itself: the game
is copied, its bag rigged to hold that tile, the placement played through ``Game.play`` (which
draws the tile and scores the play by the rules), and the endgame solved from the position
the game then shows the opponent.
"""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from tablero.engine.players import Bot, seat_view
from tablero.engine.search.endgame import solve_endgame
from tablero.engine.search.inference import Inference
from tablero.engine.search.preendgame import bag_tile_weights, solve_bag_of_one
from tablero.game import Game
from tablero.lexicon import Lexicon, load_lexicon
from tablero.moves import Move
from tablero.variant import load_variant

pytest.importorskip("tablero.engine.movegen._native")

V = load_variant("fise")
NODES = 20_000
"""Each endgame's node budget: a budget in nodes, unlike one in seconds, gives the same answer
on any machine."""


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return load_lexicon(V.lexicon, V.alphabet)


@pytest.fixture(scope="module")
def one_in_bag(lexicon: Lexicon) -> Game:
    """Seed 8's game between two ``hard`` players, stopped with one tile in the bag."""
    hard = Bot("hard", V, lexicon, seed=1)
    game = Game(V, ["a", "b"], lexicon, seed=8)
    while len(game.bag) != 1:
        assert not game.is_over, "the game ended without a bag of one"
        game.play(hard.choose(game))
    return game


def played_future(game: Game, tile: str, move: Move) -> Game:
    """A copy of ``game`` (one tile in the bag) rigged so that the bag holds ``tile`` and the
    opponent the rest of the unseen tiles, with ``move`` played through it."""
    me = game.to_move
    unseen = seat_view(game, me).unseen()
    future = copy.deepcopy(game)
    future.bag = [tile]
    future.players[1 - me].rack = list((unseen - Counter({tile: 1})).elements())
    future.play(move)
    return future


def solved_for(game: Game, seat: int, bot: Bot) -> float:
    """The final spread of ``seat``, to move in ``game`` with the bag empty, by the exact
    search on the node budget."""
    solved = solve_endgame(
        seat_view(game, seat),
        bot.lexicon,
        time_limit=None,
        max_nodes=NODES,
        generator=bot.generator,
        table_bits=18,
    )
    assert solved is not None
    return solved.spread


def test_weights_are_shares_of_the_unseen_tiles_without_inference() -> None:
    unseen = Counter({"A": 3, "E": 2, "Z": 1, "?": 2})
    weights = bag_tile_weights(unseen)
    assert weights == {"A": 3 / 8, "E": 2 / 8, "Z": 1 / 8, "?": 2 / 8}


def test_an_inferred_leave_cannot_be_in_the_bag() -> None:
    unseen = Counter({"A": 3, "E": 2, "Z": 1, "?": 2})
    # Every kept leave holds the Z: the opponent has it, so the bag cannot.
    inference = Inference(seat=1, kept=(("Z", "A"), ("Z", "E"), ("Z",)), tried=40)
    weights = bag_tile_weights(unseen, inference)
    assert "Z" not in weights or weights["Z"] == 0.0
    assert sum(weights.values()) == pytest.approx(1.0)
    # With ZA kept, the rest (A A E E ? ?) is split evenly between the draw and the bag; with
    # ZE kept, A A A E ? ?; with Z alone, A A A E E ? ?.
    assert weights["A"] == pytest.approx((2 / 6 + 3 / 6 + 3 / 7) / 3)
    # An inference about someone else (seat 2 at a larger table) says nothing here.
    assert bag_tile_weights(unseen, Inference(seat=2, kept=(("Z",),), tried=5)) == (
        bag_tile_weights(unseen)
    )


def test_needs_one_tile_in_the_bag(lexicon: Lexicon, one_in_bag: Game) -> None:
    game = copy.deepcopy(one_in_bag)
    hard = Bot("hard", V, lexicon, seed=1)
    game.play(hard.choose(game))
    position = seat_view(game, game.to_move)
    with pytest.raises(ValueError, match="one tile in the bag"):
        solve_bag_of_one(position, hard.rank(position), lexicon, hard.generator)


def test_every_future_is_the_game_played_with_that_tile_in_the_bag(
    lexicon: Lexicon, one_in_bag: Game
) -> None:
    bot = Bot("expert", V, lexicon, seed=3, threads=1)
    position = seat_view(one_in_bag, one_in_bag.to_move)
    places = [c for c in bot.rank(position) if c.kind == "place"][:3]
    results = solve_bag_of_one(
        position, places, lexicon, bot.generator, endgame_time=None, endgame_nodes=NODES
    )
    assert sorted(r.candidate.notation for r in results) == sorted(c.notation for c in places)
    assert [r.rank_value for r in results] == sorted((r.rank_value for r in results), reverse=True)
    unseen = position.unseen()
    me = one_in_bag.to_move
    for result in results:
        assert set(result.futures) == set(unseen)
        won = 0.0
        for tile, spread in result.futures.items():
            game = played_future(one_in_bag, tile, result.candidate.move)
            assert not game.bag
            assert sorted(game.players[me].rack) == sorted((*result.candidate.leave, tile))
            assert spread == -solved_for(game, 1 - me, bot)
            won += unseen[tile] / sum(unseen.values()) * (spread > 0 or 0.5 * (spread == 0))
        assert result.win == pytest.approx(won)


def test_the_bot_plays_the_solved_best_with_one_tile_in_the_bag(
    lexicon: Lexicon, one_in_bag: Game
) -> None:
    position = seat_view(one_in_bag, one_in_bag.to_move)
    bot = Bot("expert", V, lexicon, seed=3, threads=1, solve_bag_of_one=True, sim_candidates=3)
    bot.bag_of_one_nodes = NODES
    bot.bag_of_one_time = None
    chosen = bot.choose_in(position)
    places = [c for c in bot.rank(position) if c.kind == "place"][:3]
    best = solve_bag_of_one(
        position, places, lexicon, bot.generator, endgame_time=None, endgame_nodes=NODES
    )[0]
    assert chosen.notation == best.candidate.notation


def test_a_static_reply_is_played_then_our_endgame_solved(
    lexicon: Lexicon, one_in_bag: Game
) -> None:
    """With ``reply`` the opponent's move in each future is the static player's; where it goes
    out the game's own end gives the spread, else our exact search from the position after."""
    bot = Bot("expert", V, lexicon, seed=3, threads=1)
    hard = Bot("hard", V, lexicon, leaves=bot.leaves)
    position = seat_view(one_in_bag, one_in_bag.to_move)
    places = [c for c in bot.rank(position) if c.kind == "place"][:4]
    results = solve_bag_of_one(
        position,
        places,
        lexicon,
        bot.generator,
        endgame_time=None,
        endgame_nodes=NODES,
        reply=hard.choose_in,
    )
    me = one_in_bag.to_move
    went_out = 0
    for result in results:
        for tile, spread in result.futures.items():
            game = played_future(one_in_bag, tile, result.candidate.move)
            game.play(hard.choose(game))
            if game.is_over:
                went_out += 1
                final = game.result.final_scores
                assert spread == final[me] - final[1 - me]
                continue
            assert spread == solved_for(game, me, bot)
    assert went_out > 0, "no future where the reply goes out: pick a position that has one"


def test_the_reply_model_is_checked_by_name(lexicon: Lexicon) -> None:
    with pytest.raises(ValueError, match="bag_of_one_reply: best or static, not 'perfect'"):
        Bot("expert", V, lexicon, solve_bag_of_one=True, bag_of_one_reply="perfect")
    bot = Bot("expert", V, lexicon, solve_bag_of_one=True, bag_of_one_reply="static")
    assert bot.bag_of_one_reply == "static"
    assert Bot("expert", V, lexicon).solve_bag_of_one is False
