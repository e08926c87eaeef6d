"""Simulation in C against the readable Python playout, and the expert bot on top of it.

With the bag empty and two players, nothing in a playout is random: the unseen tiles are the
opponent's rack. There the C loop (``simulate`` with the native generator) and
``PythonPlayout`` must give every candidate exactly the same value: the same replies, the same
end values for kept tiles, the same end of the game. That includes Crucigrama's CAMBIO, which
the C loop plays out as the position it leaves behind.
"""

from __future__ import annotations

from collections import Counter

import pytest

from tablero.alphabet import SPANISH
from tablero.board import Board, Tile
from tablero.engine.movegen.candidates import candidates, generator_for
from tablero.engine.players import Bot, seat_view, shipped_leaves
from tablero.engine.search.simulate import PythonPlayout, rival_gain, simulate, standings
from tablero.game import Game
from tablero.lexicon import LexiconInfo
from tablero.lexicon.graph import GraphLexicon
from tablero.lexicon.kwg import build_kwg
from tablero.position import Position
from tablero.variant import load_variant

from .small_lexicons import small_graph


def near_the_end(name: str, lexicon: GraphLexicon, seed: int) -> Game:
    """A game between hard bots, stopped on the first turn with the bag empty."""
    v = load_variant(name)
    game = Game(v, ["a", "b"], lexicon, seed=seed)
    bots = [Bot("hard", v, lexicon, seed=seed), Bot("hard", v, lexicon, seed=seed + 1)]
    while game.bag and not game.is_over:
        game.play(bots[game.to_move].choose(game))
    return game


@pytest.mark.parametrize("name", ["fise", "letras_top", "cuvinte", "intelect"])
def test_c_and_python_playouts_agree_when_nothing_is_random(name: str) -> None:
    v = load_variant(name)
    lexicon = small_graph(v.lexicon)
    leaves = shipped_leaves(name)
    gen = generator_for(v, lexicon)
    assert gen.name == "native"
    compared = 0
    for seed in (1, 2, 3):
        game = near_the_end(name, lexicon, seed)
        if game.is_over:
            continue
        position = seat_view(game)
        top = candidates(position, lexicon, leaves, generator=gen, top=8)
        in_c = simulate(position, top, lexicon, leaves, iterations=2, seed=5, generator=gen)
        playout = PythonPlayout(position, lexicon, leaves, 2, 2, gen)
        in_python = simulate(position, top, lexicon, leaves, iterations=2, playout=playout)
        by_move = {r.candidate.notation: r for r in in_python}
        for r in in_c:
            assert r.iterations == 2
            assert r.mean == pytest.approx(by_move[r.candidate.notation].mean), (
                seed,
                r.candidate.notation,
            )
            assert r.stderr == pytest.approx(0.0)
        compared += len(in_c)
    assert compared >= 8


def test_a_cambio_is_simulated_in_c_as_the_position_it_leaves() -> None:
    """Crucigrama, bag empty: CAMBIO I8 Z (PASO to PAZO, 15) and the pass, played out in C and
    in Python, come to the same values.

    Every tile but the bot's Z and the rival's seven is laid in the top rows, out of reach,
    so that the position is a whole one with nothing random in it; with PASO and PAZO the
    only words, nobody can place a tile afterwards."""
    words = ["PASO", "PAZO"]
    lexicon = GraphLexicon(
        build_kwg([SPANISH.encode(w) for w in words]), SPANISH, LexiconInfo("t", "", 2, "")
    )
    v = load_variant("crucigrama")
    board = Board(v.rows, v.columns)
    for i, letter in enumerate("PASO"):
        board[(7, 6 + i)] = Tile(letter)
    rest = Counter({t: n for t, (n, _) in v.tiles.items()})
    rest.subtract(["P", "A", "S", "O", "Z"])
    rival = ["Ñ", "X", "J", "Q", "H", "LL", "RR"]
    rest.subtract(rival)
    junk = sorted(rest.elements())
    squares = [(r, c) for r in (0, 1, 2, 3, 4, 5, 13, 14) for c in range(v.columns)]
    assert len(junk) <= len(squares)
    for square, tile in zip(squares, junk, strict=False):
        board[square] = Tile("A" if tile == "?" else tile, tile == "?")
    position = Position(v, board, [("Z",), ()], [100, 110], bag=0)
    assert sorted(position.unseen().elements()) == sorted(rival)
    gen = generator_for(v, lexicon)
    found = candidates(position, lexicon, None, generator=gen)
    cambio = next(c for c in found if c.notation == "CAMBIO I8 Z")
    passing = next(c for c in found if c.kind == "pass")
    in_c = {r.candidate.kind: r for r in simulate(position, [passing, cambio], lexicon, None)}
    playout = PythonPlayout(position, lexicon, None, 2, 2, gen)
    in_python = {
        r.candidate.kind: r.mean
        for r in simulate(position, [passing, cambio], lexicon, None, playout=playout)
    }
    assert {k: r.mean for k, r in in_c.items()} == pytest.approx(in_python)
    assert in_c["cambio"].iterations == in_c["pass"].iterations == 300
    # After the CAMBIO nobody can place: the rival passes, the bot passes, and the bot's S is
    # a debt of 10 + its points; after a pass the Z stays, a debt of 10 + its points.
    assert in_python == pytest.approx(
        {"cambio": 15 - (10 + v.value("S")), "pass": -(10 + v.value("Z"))}
    )


def test_the_expert_simulates_with_the_native_core_and_finds_the_bingo() -> None:
    v = load_variant("fise")
    lexicon = small_graph("es")
    game = Game(v, ["a", "b"], lexicon, seed=4)
    bot = Bot("hard", v, lexicon, seed=4)
    while len(game.bag) > 60:  # a few moves in, so the board has hooks
        game.play(bot.choose(game))
    expert = Bot("expert", v, lexicon, seed=2, sim_iterations=64, time_limit=30)
    position = seat_view(game)
    ranked = expert.rank(position)
    choice = expert.choose_in(position)
    assert choice in ranked[: expert.sim_candidates]
    assert game.play(choice.move).kind == "placed" or choice.kind in ("exchange", "pass")


# -- at a table of three or four: the race against whoever will be ahead ------------------------


def test_the_rival_is_the_opponent_who_will_lead() -> None:
    """Worked by hand. Two opponents, 30 ahead of the mover and 10 behind, score 5 and 20 in a
    playout: the first still leads (35 against 10), so it is the rival, and it gained 5 on
    the lead it had (30): the mover's points are measured against 5."""
    assert rival_gain([0, 30, -10], [5, 20]) == 5
    # Far behind, the first opponent's points do not count: the other one leads either way.
    assert rival_gain([0, -50, 20], [40, 0]) == 0
    # The lead changes hands: the second finishes on 10 + 35 = 45, 15 past the old lead.
    assert rival_gain([0, 30, 10], [0, 35]) == 15
    # One opponent: its points, whatever the score.
    assert rival_gain([0, 17], [12]) == 12
    assert rival_gain([0], []) == 0


def _three_player_endings(name: str, lexicon: GraphLexicon) -> list[Position]:
    """Positions of three-player games with the bag empty and at most a rack of unseen
    tiles: the first opponent holds them all and the second none, whoever deals."""
    v = load_variant(name)
    found = []
    for seed in range(1, 40):
        game = Game(v, ["a", "b", "c"], lexicon, seed=seed)
        bots = [Bot("hard", v, lexicon, seed=seed + i) for i in range(3)]
        while not game.is_over and len(found) < 6:
            position = seat_view(game)
            held = sum(position.unseen().values())
            if not game.bag and 0 < held <= v.rack_size and position.scores[1] != 0:
                found.append(position)
                break
            game.play(bots[game.to_move].choose(game))
        if len(found) >= 6:
            break
    return found


def test_c_and_python_playouts_agree_at_a_table_of_three() -> None:
    """With the standings counted (``behind``), the C loop and the Python playout give every
    candidate the same value when nothing is random."""
    v = load_variant("fise")
    lexicon = small_graph("es")
    leaves = shipped_leaves("fise")
    gen = generator_for(v, lexicon)
    positions = _three_player_endings("fise", lexicon)
    assert len(positions) >= 3
    for position in positions:
        assert standings(position, 3) == [s - position.scores[0] for s in position.scores]
        top = candidates(position, lexicon, leaves, generator=gen, top=6)
        in_c = simulate(position, top, lexicon, leaves, players=3, iterations=2, generator=gen)
        playout = PythonPlayout(position, lexicon, leaves, 3, 2, gen)
        in_python = simulate(
            position, top, lexicon, leaves, players=3, iterations=2, playout=playout
        )
        by_move = {r.candidate.notation: r.mean for r in in_python}
        for r in in_c:
            assert r.mean == pytest.approx(by_move[r.candidate.notation]), r.candidate.notation


def test_threads_share_out_the_candidates_and_change_no_result() -> None:
    """Each candidate's playouts depend only on the deals' seeds: simulated in two threads,
    every candidate gets exactly what one thread gives it."""
    v = load_variant("fise")
    lexicon = small_graph("es")
    leaves = shipped_leaves("fise")
    gen = generator_for(v, lexicon)
    game = Game(v, ["a", "b"], lexicon, seed=12)
    bots = [Bot("hard", v, lexicon, seed=12), Bot("hard", v, lexicon, seed=13)]
    for _ in range(6):
        game.play(bots[game.to_move].choose(game))
    position = seat_view(game)
    top = candidates(position, lexicon, leaves, generator=gen, top=7)
    one = simulate(position, top, lexicon, leaves, iterations=40, seed=3, generator=gen)
    two = simulate(position, top, lexicon, leaves, iterations=40, seed=3, generator=gen, threads=2)
    assert [(r.candidate.notation, r.mean, r.stderr) for r in one] == [
        (r.candidate.notation, r.mean, r.stderr) for r in two
    ]
    with pytest.raises(ValueError, match="threads: at least 1"):
        simulate(position, top, lexicon, leaves, generator=gen, threads=0)


def _mid_game(seed: int = 12, turns: int = 6) -> tuple[Position, GraphLexicon, list]:  # type: ignore[type-arg]
    v = load_variant("fise")
    lexicon = small_graph("es")
    game = Game(v, ["a", "b"], lexicon, seed=seed)
    bots = [Bot("hard", v, lexicon, seed=seed), Bot("hard", v, lexicon, seed=seed + 1)]
    for _ in range(turns):
        game.play(bots[game.to_move].choose(game))
    position = seat_view(game)
    top = candidates(position, lexicon, shipped_leaves("fise"), top=10)
    return position, lexicon, top


def test_per_deal_values_are_the_playouts_the_statistics_come_from() -> None:
    position, lexicon, top = _mid_game()
    gen = generator_for(position.variant, lexicon)
    core = gen.core  # type: ignore[attr-defined]
    moves = [c.move for c in top[:4]]
    plain = core.simulate(position.board, position.rack, position.unseen(), moves, iterations=24)
    each = core.simulate(
        position.board, position.rack, position.unseen(), moves, iterations=24, per_deal=True
    )
    for a, b in zip(plain, each, strict=True):
        assert a.values is None and a.unseen_end is None
        assert b.values is not None and b.unseen_end is not None
        assert len(b.values) == len(b.unseen_end) == 24
        assert sum(b.values) / 24 == pytest.approx(a.mean)
        # Mid-game two plies on: the bag still holds tiles, so nobody went out; what the mover
        # cannot see is at least the opponent's full rack and at most what was unseen before.
        assert all(7 <= u <= sum(position.unseen().values()) for u in b.unseen_end)


def test_pruning_drops_the_clearly_worse_and_changes_nothing_for_the_rest() -> None:
    """A candidate's playouts depend only on the deals, so the candidates that run to the end
    get exactly the values they get without pruning; a pass (worth nothing against moves of
    twenty points and more) is among the dropped."""
    position, lexicon, top = _mid_game()
    leaves = shipped_leaves("fise")
    passes = [c for c in candidates(position, lexicon, leaves) if c.kind == "pass"]
    cands = top[:8] + passes
    full = simulate(position, cands, lexicon, leaves, iterations=192, seed=9)
    pruned = simulate(position, cands, lexicon, leaves, iterations=192, seed=9, prune=True)
    by_move = {r.candidate.notation: r for r in full}
    kept = [r for r in pruned if not r.pruned]
    dropped = [r for r in pruned if r.pruned]
    assert dropped and kept
    assert "pass" in {r.candidate.kind for r in dropped}
    assert sum(r.iterations for r in pruned) < sum(r.iterations for r in full)
    for r in kept:
        if r.iterations == 192:
            assert r.mean == pytest.approx(by_move[r.candidate.notation].mean)
    # The dropped come last, and each was behind the winner when it was dropped.
    assert pruned[0] in kept
    assert all(r.iterations < 192 for r in dropped)


def test_a_playout_budget_stops_the_simulation() -> None:
    position, lexicon, top = _mid_game()
    leaves = shipped_leaves("fise")
    results = simulate(
        position, top[:6], lexicon, leaves, iterations=600, seed=4, max_playouts=6 * 64
    )
    assert {r.iterations for r in results} == {64}


def test_with_a_win_table_candidates_are_ranked_by_the_chance_of_winning() -> None:
    from tablero.engine.evaluation.winprob import shipped_win_table
    from tablero.engine.search.simulate import POINT_WORTH

    table = shipped_win_table("fise")
    assert table is not None
    position, lexicon, top = _mid_game()
    leaves = shipped_leaves("fise")
    results = simulate(position, top[:6], lexicon, leaves, iterations=64, seed=2, win_table=table)
    rates = [r.win_rate for r in results]
    assert all(rate is not None and 0.0 <= rate <= 1.0 for rate in rates)
    keys = [r.rank_value for r in results]
    assert keys == sorted(keys, reverse=True)
    for r in results:
        assert r.rank_value == pytest.approx(r.win_rate + POINT_WORTH * r.mean)  # type: ignore[operator]
    # Without the table the same playouts rank by points.
    plain = simulate(position, top[:6], lexicon, leaves, iterations=64, seed=2)
    assert all(r.win_rate is None for r in plain)
    assert {r.candidate.notation: r.mean for r in plain} == pytest.approx(
        {r.candidate.notation: r.mean for r in results}
    )
