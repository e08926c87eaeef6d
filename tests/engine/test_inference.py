"""Rack inference (``search.inference``): what an opponent's last play says it kept.

The games are played by ``hard``, the static-equity player inference takes an opponent to be,
with the shipped FISE dictionary and leaves: every play it makes is, by construction, the best
by equity from its rack, so the leave it really kept must pass inference's test.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tablero.engine.movegen.native import learned_leave_values
from tablero.engine.players import Bot, seat_view, shipped_leaves
from tablero.engine.search.inference import MIN_KEPT, LastPlay, infer_kept, last_play
from tablero.engine.search.simulate import deal_unseen
from tablero.game import Game
from tablero.lexicon import Lexicon, load_lexicon
from tablero.position import Position
from tablero.variant import load_variant

pytest.importorskip("tablero.engine.movegen._native")

V = load_variant("fise")


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return load_lexicon(V.lexicon, V.alphabet)


def hard_turns(
    lexicon: Lexicon, seed: int, turns: int
) -> list[tuple[Position, LastPlay, tuple[str, ...]]]:
    """The first ``turns`` plays of a game between two ``hard`` players that inference can
    learn from: the position just after each as the next player sees it, what ``last_play``
    made of the game, and the leave the player really kept."""
    bots = [Bot("hard", V, lexicon, seed=seed + s) for s in range(2)]
    game = Game(V, ["a", "b"], lexicon, seed=seed)
    out = []
    while not game.is_over and len(out) < turns:
        seat = game.to_move
        before = game.board.copy()
        move = bots[seat].choose(game)
        kept = bots[seat].last_choice.leave if bots[seat].last_choice else None
        result = game.play(move)
        play = last_play(game)
        if result.kind != "placed":
            assert play is None
            continue
        if play is None:  # the bag ran out
            assert not game.bag
            continue
        assert play.board == before
        assert Counter(play.played) == Counter(t.rack_form for _, t in result.placed)
        assert play.score == result.score and play.seat == 1
        assert kept is not None
        out.append((seat_view(game), play, tuple(kept)))
    return out


def test_the_leave_a_static_player_kept_always_passes(lexicon: Lexicon) -> None:
    """The play's equity with the true leave is the best equity of the true rack: the test
    inference applies to each drawn leave keeps the right one, at any tolerance."""
    generator = Bot("hard", V, lexicon).generator.core
    values = learned_leave_values(shipped_leaves("fise"))
    turns = hard_turns(lexicon, seed=3, turns=12)
    assert len(turns) == 12
    for _, play, kept in turns:
        best = generator.best_equity(
            generator.board(play.board), play.played + kept, values, play.board.is_empty()
        )
        assert best == pytest.approx(play.score + values.value(kept))


def test_inferred_leaves_are_consistent_with_the_play(lexicon: Lexicon) -> None:
    """Every leave kept passes the test, checked again through the decoded best placements;
    an unbounded tolerance keeps every draw; a tolerance no play meets infers nothing."""
    generator = Bot("hard", V, lexicon).generator.core
    leaves = shipped_leaves("fise")
    values = learned_leave_values(leaves)
    informative = 0
    for position, play, _ in hard_turns(lexicon, seed=5, turns=6):
        unseen = position.unseen()
        inf = infer_kept(play, unseen, generator, leaves, V.rack_size, rng=random.Random(1))
        if inf is None:
            continue
        assert len(inf.kept) >= MIN_KEPT and inf.tried == 400
        for leave in set(inf.kept):
            assert not Counter(leave) - unseen
            assert len(leave) == V.rack_size - len(play.played)
            (best,) = generator.best(play.board, play.played + leave, 1, values)
            assert play.score + values.value(leave) >= best.equity - 3.0
        informative += len(inf.kept) < inf.tried
        every = infer_kept(
            play, unseen, generator, leaves, V.rack_size, rng=random.Random(1), tolerance=1e9
        )
        assert every is not None and len(every.kept) == every.tried == 400
        assert (
            infer_kept(
                play, unseen, generator, leaves, V.rack_size, rng=random.Random(1), tolerance=-1e9
            )
            is None
        )
    assert informative >= 3  # most plays rule some leaves out


def test_nothing_is_inferred_from_an_exchange_or_at_the_start() -> None:
    game = Game(V, ["a", "b"], load_lexicon(V.lexicon, V.alphabet), seed=1)
    assert last_play(game) is None
    game.play(f"- {''.join(game.current.rack[:3])}")
    assert last_play(game) is None


def test_a_deal_gives_the_opponent_the_known_tiles_and_keeps_the_counts(
    lexicon: Lexicon,
) -> None:
    position = hard_turns(lexicon, seed=7, turns=1)[0][0]
    unseen = position.unseen()
    known = ("E", "S")
    deal = deal_unseen(position, 2, random.Random(4), known, 1)
    (rack,) = deal.opponents
    assert len(rack) == V.rack_size and rack[:2] == known
    assert Counter(rack) + Counter(deal.bag) == unseen
    assert len(deal.bag) == position.bag_count()


def test_the_expert_infers_and_can_be_told_not_to(lexicon: Lexicon) -> None:
    game = Game(V, ["a", "b"], lexicon, seed=11)
    hard = Bot("hard", V, lexicon, seed=1)
    expert = Bot("expert", V, lexicon, seed=2)
    plain = Bot("expert", V, lexicon, seed=2, infer=False)
    inferred = 0
    for _ in range(6):
        game.play(hard.choose(game))
        position = seat_view(game)
        inference = expert.infer_from(game, position)
        inferred += inference is not None
        assert plain.infer_from(game, position) is None
        if inference is not None:
            assert inference.seat == 1 and 0 <= inference.frequency("E") <= 1
            choice = expert.choose_in(position, inference=inference)
            assert choice.move is not None
        game.play(hard.choose(game))  # the other seat, so that the same player plays next
    assert inferred >= 3
