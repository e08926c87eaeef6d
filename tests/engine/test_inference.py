"""Rack inference (``search.inference``): what an opponent's last play says it kept.

The games are played by ``hard``, the static-equity player inference takes an opponent to be,
with the shipped FISE dictionary and leaves: every play it makes is, by construction, the best
by equity from its rack, so the leave it really kept must pass inference's test.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tablero.board import Board
from tablero.engine.movegen.native import learned_leave_values
from tablero.engine.players import Bot, seat_view, shipped_leaves
from tablero.engine.search.inference import (
    MIN_KEPT,
    Inference,
    LastPlay,
    infer_kept,
    infer_recent,
    last_play,
    recent_plays,
)
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


def test_recent_plays_rebuild_the_boards_each_play_was_made_on(lexicon: Lexicon) -> None:
    """Through a game between two ``hard`` players: every play ``recent_plays`` finds is one
    the last mover made, newest first, on the very board it moved on, with the tiles it
    played; and the chain is as long as that player's run of placements allows."""
    bots = [Bot("hard", V, lexicon, seed=40 + s) for s in range(2)]
    game = Game(V, ["a", "b"], lexicon, seed=40)
    turns: list[tuple[int, Board, tuple[str, ...] | None]] = []  # seat, board before, played
    longest = 0
    while not game.is_over and game.bag:
        seat = game.to_move
        before = game.board.copy()
        result = game.play(bots[seat].choose(game))
        placed = tuple(t.rack_form for _, t in result.placed)
        turns.append((seat, before, placed if result.kind == "placed" else None))
        plays = recent_plays(game, 4)
        if not game.bag:
            assert plays == ()
            break
        own = [t for t in turns if t[0] == seat]
        run = 0
        for _, _, played in reversed(own):  # the mover's placements since its last other turn
            if played is None:
                break
            run += 1
        assert len(plays) == min(run, 4)
        for play, (_, board, played) in zip(plays, reversed(own), strict=False):
            assert play.board == board and play.seat == 1
            assert played is not None and Counter(play.played) == Counter(played)
        longest = max(longest, len(plays))
    assert longest == 4


def test_the_chain_stops_at_the_players_exchange(lexicon: Lexicon) -> None:
    game = Game(V, ["a", "b"], lexicon, seed=12)
    hard = Bot("hard", V, lexicon, seed=1)
    first = game.to_move
    for turn in range(5):
        if turn == 2:  # the first player exchanges on its second turn
            game.play(f"- {''.join(game.current.rack[:2])}")
        else:
            assert game.play(hard.choose(game)).kind == "placed"
    assert game.to_move != first
    assert len(recent_plays(game)) == 1  # the exchange before the last play ends the chain


def chained_turn(lexicon: Lexicon) -> tuple[Position, tuple[LastPlay, ...], tuple[str, ...]]:
    """A position after a ``hard`` play whose player kept, at its play before, a tile this
    play did not use: the position, the plays found, and what was kept at the earlier play."""
    bots = [Bot("hard", V, lexicon, seed=60 + s) for s in range(2)]
    game = Game(V, ["a", "b"], lexicon, seed=60)
    kept_at: dict[int, tuple[str, ...]] = {}
    while game.bag:
        seat = game.to_move
        move = bots[seat].choose(game)
        choice = bots[seat].last_choice
        result = game.play(move)
        plays = recent_plays(game, 2)
        if result.kind != "placed" or choice is None:
            kept_at.pop(seat, None)
            continue
        earlier = kept_at.get(seat)
        kept_at[seat] = tuple(choice.leave)
        if len(plays) == 2 and earlier and Counter(earlier) - Counter(plays[0].played):
            return seat_view(game), plays, earlier
    raise AssertionError("no such turn in the game")


def test_a_chain_deals_the_tiles_kept_before_that_the_last_play_did_not_use(
    lexicon: Lexicon,
) -> None:
    """Told exactly what the opponent kept at its play before (a prior of one leave), every
    leave inferred holds the tiles of it the last play did not use; a uniform draw does not."""
    generator = Bot("hard", V, lexicon).generator.core
    leaves = shipped_leaves("fise")
    position, plays, earlier = chained_turn(lexicon)
    carried = Counter(earlier) - Counter(plays[0].played)
    unseen = position.unseen()
    prior = Inference(1, (earlier,) * 20, 20)
    chained = infer_kept(
        plays[0], unseen, generator, leaves, V.rack_size,
        rng=random.Random(1), prior=prior, tolerance=1e9,
    )  # fmt: skip
    assert chained is not None and len(chained.kept) == 400
    for leave in chained.kept:
        assert not carried - Counter(leave)
        assert not Counter(leave) - unseen
        assert len(leave) == V.rack_size - len(plays[0].played)
    uniform = infer_kept(
        plays[0], unseen, generator, leaves, V.rack_size, rng=random.Random(1), tolerance=1e9
    )
    assert uniform is not None
    assert any(carried - Counter(leave) for leave in uniform.kept)


def test_a_prior_that_cannot_be_falls_back_to_the_uniform_one(lexicon: Lexicon) -> None:
    """Two Zs (FISE has one) cannot have been kept: the leaves come from the uniform prior,
    the very ones drawn without a prior; and ``infer_recent`` of one play is ``infer_kept``."""
    generator = Bot("hard", V, lexicon).generator.core
    leaves = shipped_leaves("fise")
    position, plays, _ = chained_turn(lexicon)
    unseen = position.unseen()
    impossible = Inference(1, (("Z", "Z"),) * 20, 20)
    args = (plays[0], unseen, generator, leaves, V.rack_size)
    plain = infer_kept(*args, rng=random.Random(3))
    assert plain is not None
    assert infer_kept(*args, rng=random.Random(3), prior=impossible) == plain
    assert (
        infer_recent(plays[:1], unseen, generator, leaves, V.rack_size, rng=random.Random(3))
        == plain
    )
    chained = infer_recent(plays, unseen, generator, leaves, V.rack_size, rng=random.Random(3))
    assert chained is not None and chained.seat == 1
