"""The list of a position's moves: every kind the rules allow, each scored as the game scores it."""

from __future__ import annotations

import math

import pytest

from tablero.alphabet import ROMANIAN
from tablero.engine.evaluation.leaves import LeaveTable, sub_leaves
from tablero.engine.movegen.candidates import (
    candidates,
    end_leave_value,
    exchange_candidates,
    generator_for,
    native_available,
)
from tablero.engine.players import Bot, seat_view
from tablero.game import Game
from tablero.moves import format_move
from tablero.rules import IllegalMove

from ..helpers import empty_bag, lay, rig, words
from .small_lexicons import small_graph


def midgame(name: str, turns: int = 8, seed: int = 3) -> Game:
    """A game of ``name`` after a few moves by hard bots, on the sampled real dictionary."""
    from tablero.variant import load_variant

    v = load_variant(name)
    lexicon = small_graph(v.lexicon)
    game = Game(v, ["a", "b"], lexicon, seed=seed)
    bots = [Bot("hard", v, lexicon, seed=1), Bot("hard", v, lexicon, seed=2)]
    for _ in range(turns):
        game.play(bots[game.to_move].choose(game))
    assert not game.is_over
    return game


@pytest.mark.parametrize("name", ["fise", "crucigrama", "cuvinte", "letras_top"])
def test_every_candidate_is_a_legal_move_worth_what_the_game_says(name: str) -> None:
    game = midgame(name)
    found = candidates(seat_view(game), game.lexicon)
    kinds = {c.kind for c in found}
    assert "place" in kinds and "pass" in kinds
    for c in found:
        if c.kind == "exchange" and len(c.move.tiles) > 2:  # type: ignore[union-attr]
            continue  # a sample is enough: they differ only in tiles
        score = game.check(c.notation)  # raises IllegalMove if it is not legal
        if c.kind in ("place", "cambio"):
            assert score is not None and score.total == c.score, c.notation
    assert [c.notation for c in found] == [
        c.notation for c in sorted(found, key=lambda c: -c.equity)
    ]


def test_equity_is_the_score_plus_the_value_of_the_tiles_kept() -> None:
    game = midgame("fise")
    rack = game.current.rack
    table = LeaveTable.from_values(
        {
            leave: float(len(leave)) - 2.5 * leave.count("?")
            for leave in sub_leaves(rack, game.variant.alphabet)
            if leave
        },
        game.variant.alphabet,
    )
    found = candidates(seat_view(game), game.lexicon, table)
    for c in found:
        expected = c.score + table.value(c.leave)  # a pass keeps the whole rack
        assert c.equity == pytest.approx(expected), c.notation
        kept = list(c.leave)
        if c.kind == "place":
            assert len(kept) + c.tiles_played == len(rack)


@pytest.mark.skipif(not native_available(), reason="the native generator is not built")
def test_the_native_and_reference_generators_give_the_same_moves() -> None:
    game = midgame("crucigrama", turns=6)
    pos = seat_view(game)
    got = {}
    for kind in ("native", "reference"):
        gen = generator_for(pos.variant, game.lexicon, kind)
        got[kind] = sorted(
            (format_move(c.move), c.score, c.leave)
            for c in candidates(pos, game.lexicon, generator=gen)
        )
    assert got["native"] == got["reference"]


# -- exchanges: every rule of ExchangeRules -------------------------------------------------------

LEX = words("CASA", "CASAS", "ASA", "AS", "SE", "ESA", "OSA", "SAL", "LA", "AL")


def exchanges(game: Game) -> list[str]:
    return [c.notation for c in candidates(seat_view(game), game.lexicon) if c.kind == "exchange"]


def test_every_distinct_exchange_once() -> None:
    game = Game("fise", ["a", "b"], LEX, seed=1)
    rig(game, 0 if game.to_move == 0 else 1, "AAEESS?")
    found = exchanges(game)
    assert len(found) == len(set(found)) == 3 * 3 * 3 * 2 - 1  # AA, EE, SS, ? kept 0..n
    for notation in found:
        game.check(notation)


def test_no_exchange_with_too_few_tiles_in_the_bag() -> None:
    game = Game("fise", ["a", "b"], LEX, seed=1)
    empty_bag(game, leave=6)
    assert exchanges(game) == []
    with pytest.raises(IllegalMove):
        game.check("-A" if "A" in game.current.rack else "-" + game.current.rack[0])


def test_crucigrama_exchanges_at_most_three_tiles() -> None:
    game = Game("crucigrama", ["a", "b"], LEX, seed=1)
    rig(game, game.to_move, "ABCDEFG")
    found = exchanges(game)
    assert len(found) == 7 + 21 + 35  # one, two or three of seven different tiles
    assert all(len(n) - 1 <= 3 for n in found)


def test_cuvinte_exchanges_three_times_a_game() -> None:
    game = Game("cuvinte", ["a", "b"], words("CASA", alphabet=ROMANIAN), seed=1)
    assert exchanges(game)
    game.current.exchanges = 3
    assert exchanges(game) == []


def test_intelect_exchanges_only_when_blocked() -> None:
    game = Game("intelect", ["a", "b"], LEX, seed=1)
    seat = game.to_move
    lay(game, "8G CASA")
    rig(game, seat, "SBDFGHJ")  # S makes CASAS: a placement exists
    assert any(c.kind == "place" for c in candidates(seat_view(game), LEX))
    assert exchanges(game) == []
    rig(game, seat, "BDFGHJM")  # nothing fits
    pos = seat_view(game)
    assert not any(c.kind == "place" for c in candidates(pos, LEX))
    assert exchanges(game)
    assert exchange_candidates(pos, None, has_placement=True) == []
    game.check(exchanges(game)[0])


# -- the pass, the end of the bag, CAMBIO -------------------------------------------------------


def test_letras_top_values_passing_the_opening() -> None:
    """On the empty board the pass keeps the rack for later and hands the +10 over."""
    game = Game("letras_top", ["a", "b"], LEX, seed=1)
    rig(game, game.to_move, "AAEESS?")
    rack = game.current.rack
    table = LeaveTable.from_values(
        {leave: 5.0 for leave in sub_leaves(rack, game.variant.alphabet) if leave},
        game.variant.alphabet,
    )
    found = candidates(seat_view(game), LEX, table)
    passing = next(c for c in found if c.kind == "pass")
    assert passing.equity == pytest.approx(5.0 - 10)
    game.scoreless_streak = 1  # the other player already passed it: no passing back and forth
    again = next(c for c in candidates(seat_view(game), LEX, table) if c.kind == "pass")
    assert again.equity < -100


def test_with_the_bag_empty_kept_tiles_are_a_debt() -> None:
    game = Game("fise", ["a", "b"], LEX, seed=1)
    seat = game.to_move
    lay(game, "8G CASA")
    rig(game, seat, "SAL")
    rig(game, 1 - seat, "QE")
    empty_bag(game)
    pos = seat_view(game)
    assert pos.bag_count() == 0
    found = candidates(pos, LEX)
    out = [c for c in found if c.kind == "place" and not c.leave]
    assert out, "SAL can go out"
    v = game.variant
    others = list(pos.unseen().elements())
    for c in found:
        if c.kind == "place":
            assert c.equity == pytest.approx(c.score + end_leave_value(v, c.leave, others))
    # Going out: the opponent's tiles are subtracted from them and added to us.
    assert end_leave_value(v, (), ["Q", "E"]) == 2 * (v.value("Q") + v.value("E"))
    assert end_leave_value(v, ("S",), ["Q"]) == -(10 + 2 * v.value("S"))
    assert not any(c.kind == "exchange" for c in found)


def test_cambio_candidates_are_the_games_own_cambios() -> None:
    lexicon = words("PASO", "PAZO", "PESO", "PISO", "POSO", "PASA", "OSO", "PAVO")
    game = Game("crucigrama", ["a", "b"], lexicon, seed=1)
    seat = game.to_move
    lay(game, "8G PASO")
    rig(game, seat, "ZEI?BCD")
    found = [c for c in candidates(seat_view(game), lexicon) if c.kind == "cambio"]
    names = {c.notation for c in found}
    # P-A-S-O on G8-J8: PAZO, PESO, PISO from the rack; PAVO, POSO, PASA with the blank.
    assert {"CAMBIO I8 Z", "CAMBIO H8 E", "CAMBIO H8 I"} <= names
    assert {"CAMBIO I8 v", "CAMBIO H8 o", "CAMBIO J8 a", "CAMBIO H8 e"} <= names
    assert not any(n.startswith("CAMBIO G8") for n in names)  # no word starts ?ASO here
    for c in found:
        score = game.check(c.notation)
        assert score is not None and score.total == c.score
    pazo = next(c for c in found if c.notation == "CAMBIO I8 Z")
    assert pazo.score == sum(game.variant.value(t) for t in "PAZO")
    assert "S" in pazo.leave and "Z" not in pazo.leave  # the S comes back to the rack
    game.current.cambios = 3
    assert not any(c.kind == "cambio" for c in candidates(seat_view(game), lexicon))


def test_no_cambio_where_the_game_has_none() -> None:
    lexicon = words("PASO", "PAZO")
    game = Game("fise", ["a", "b"], lexicon, seed=1)
    lay(game, "8G PASO")
    rig(game, game.to_move, "ZEIABCD")
    assert not any(c.kind == "cambio" for c in candidates(seat_view(game), lexicon))
    assert math.isfinite(candidates(seat_view(game), lexicon)[0].equity)


@pytest.mark.skipif(not native_available(), reason="the native generator is not built")
def test_one_generator_serves_several_threads() -> None:
    """The web server's bots share a generator between threads: each call reads its own
    board, so two positions asked at once get their own answers."""
    import threading

    games = [midgame("fise", turns=4, seed=3), midgame("fise", turns=7, seed=4)]
    positions = [seat_view(g) for g in games]
    gen = generator_for(positions[0].variant, games[0].lexicon)
    expected = [
        [format_move(p.place) for p in gen.best(pos.board, pos.rack, 5)] for pos in positions
    ]
    errors: list[str] = []

    def work(i: int) -> None:
        pos = positions[i]
        for _ in range(40):
            got = [format_move(p.place) for p in gen.best(pos.board, pos.rack, 5)]
            if got != expected[i]:
                errors.append(f"thread {i}: {got} != {expected[i]}")

    threads = [threading.Thread(target=work, args=(i % 2,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
