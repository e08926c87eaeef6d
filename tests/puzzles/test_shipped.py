"""The shipped puzzle sets: every file loads, and a sample of each game's puzzles is checked
against the engine as `tablero moves` lists a position (its top is the answer, by the margin
and by score); a puzzle's recorded source replays to its position."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tablero.cli import main
from tablero.engine.movegen.candidates import candidates
from tablero.engine.players import Bot, ex_bonus_for, seat_view, shipped_leaves
from tablero.formats.cgp import write_cgp
from tablero.game import Game
from tablero.lexicon import load_lexicon
from tablero.puzzles.model import THEMES, puzzle_id
from tablero.puzzles.selection import EQUITY_MARGIN
from tablero.puzzles.shipped import find_puzzle, puzzle_games, shipped_puzzles
from tablero.variant import builtin_variant_names, load_variant

SAMPLE = 4
"""Puzzles checked against the engine per game (spread over the file)."""


def test_every_built_in_game_has_a_set_that_loads() -> None:
    assert puzzle_games() == sorted(builtin_variant_names())
    for name in puzzle_games():
        puzzles = shipped_puzzles(name)
        v = load_variant(name)
        assert 50 <= len(puzzles) <= 300, name
        assert len({p.id for p in puzzles}) == len(puzzles)
        themes = {p.theme for p in puzzles}
        assert themes <= set(THEMES) and "bingo" in themes and len(themes) >= 2
        for p in puzzles:
            assert (p.variant, p.language) == (name, v.language)
            assert p.id == puzzle_id(name, p.cgp)
            assert len(p.answers) == 1 and p.runner_up is not None
            assert p.seeds.equity_margin >= EQUITY_MARGIN and p.seeds.score_margin > 0
            assert p.rating == p.seeds.start_rating()
            position = p.position()
            assert position.bag is not None and position.bag > 0
            assert all(not rack for rack in position.racks[1:])  # the opponents' unknown
        assert find_puzzle(puzzles[0].id) == puzzles[0]
    assert find_puzzle("fise-0000000000") is None and find_puzzle("nonsense") is None


@pytest.mark.parametrize("name", builtin_variant_names())
def test_sampled_answers_are_the_engines_top(name: str) -> None:
    puzzles = shipped_puzzles(name)
    v = load_variant(name)
    lexicon = load_lexicon(v.lexicon, v.alphabet)
    step = len(puzzles) // SAMPLE
    for p in puzzles[::step][:SAMPLE]:
        position = p.position()
        found = candidates(position, lexicon, shipped_leaves(name), ex_bonus=ex_bonus_for(v))
        top, runner = found[0], found[1]
        assert (top.notation, top.score) == (p.answer.move, p.answer.score), p.id
        assert top.equity - runner.equity >= EQUITY_MARGIN
        assert max(c.score for c in found[1:]) < top.score
        assert (runner.notation, runner.score) == (p.runner_up.move, p.runner_up.score)  # type: ignore[union-attr]
    # `tablero moves` on the first sampled puzzle's CGP lists the answer first.
    result = CliRunner().invoke(main, ["moves", "--json", "--top", "1", puzzles[0].cgp])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)[0]["move"] == puzzles[0].answer.move


def test_a_puzzles_source_replays_to_its_position() -> None:
    # scripts/build_puzzles.py: two hard players, seeded by the game's seed; the position
    # before the recorded ply, as the player to move sees it.
    p = next(p for p in shipped_puzzles("fise") if p.source["ply"] <= 6)
    v = load_variant("fise")
    lexicon = load_lexicon("es", v.alphabet)
    seed, ply = p.source["seed"], p.source["ply"]
    game = Game(v, ["A", "B"], lexicon, seed=seed)
    bots = [Bot("hard", v, lexicon, seed=seed * 2 + k) for k in range(2)]
    for _ in range(ply - 1):
        game.play(bots[game.to_move].choose(game))
    assert write_cgp(seat_view(game)) == p.cgp


def test_a_one_tile_answer_is_right_written_either_way() -> None:
    # FISE's one-tile puzzle: an S ending CHIRRIAS down, which also ends ABISELARES across.
    from tablero.puzzles.judge import judge

    (p,) = [p for p in shipped_puzzles("fise") if p.seeds.tiles == 1]
    assert p.answer.move == "K6 ([CH]I[RR]IA)S"
    for written in ("K6 ([CH]I[RR]IA)S", "K6 CHIRRIAS", "11B (ABISELaRE)S", "11B ABISELaRES"):
        verdict = judge(p, written)
        assert (verdict.correct, verdict.move, verdict.score) == (
            True,
            p.answer.move,
            p.answer.score,
        )
