"""A clock per move (correspondence games: N days for each move): every turn starts with the
whole time, and a turn not played in time is lost, not the game."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import tablero
from tablero.alphabet import ROMANIAN
from tablero.game import Game
from tablero.rules import IllegalMove
from tablero.variant import Clock, VariantError, load_variant, variant_from_toml
from tests.helpers import words

DAY = 86_400
VARIANTS = Path(tablero.__file__).parent / "variants"
RO = words("CASA", "CASAS", "CAS", "MASA", "AS", alphabet=ROMANIAN)


def correspondence(name: str, days: int) -> Game:
    base = load_variant(name)
    clock = Clock(initial_seconds=days * DAY, per_move=True)
    return Game(dataclasses.replace(base, clock=clock), ["Ana", "Ion", "Eva"], RO, seed=4)


def test_each_turn_starts_with_the_whole_time() -> None:
    game = correspondence("cuvinte", 2)
    first = game.to_move
    game.play("-", elapsed=1.5 * DAY)
    assert [p.clock for p in game.players] == [2.0 * DAY] * 3
    second = game.to_move
    assert second != first
    game.play("-", elapsed=DAY + 7)
    assert game.players[second].clock == 2.0 * DAY, "what a turn left is not carried over"


def test_a_move_after_the_days_ran_out_is_refused_and_changes_nothing() -> None:
    game = correspondence("cuvinte", 1)
    before = game.state()
    with pytest.raises(IllegalMove) as refused:
        game.play("-", elapsed=DAY)
    assert refused.value.rule == "out_of_time"
    assert game.state() == before


def test_a_timeout_loses_the_turn_and_the_player_plays_the_next_one() -> None:
    game = correspondence("cuvinte", 3)
    late = game.to_move
    game.timeout()
    player = game.players[late]
    assert game.to_move != late and not player.out_of_time
    assert player.clock == 3.0 * DAY
    assert game.scoreless_streak == 1, "a lost turn counts as a pass"
    game.play("-")
    game.play("-")
    assert game.to_move == late, "a player late once is not passed over for good"
    game.play("-", elapsed=2 * DAY)
    assert not game.is_over


def test_a_table_where_nobody_plays_ends_by_the_scoreless_rule() -> None:
    game = correspondence("cuvinte", 1)
    turns = 0
    while not game.is_over:
        game.timeout()
        turns += 1
    # Cuvinte: every player passes in two successive rounds; three players.
    assert turns == 6
    assert game.result is not None and game.result.reason == "scoreless_rounds"


def _fise_with_clock(lines: str) -> str:
    """FISE's rule file with its ``[clock]`` section replaced."""
    text = (VARIANTS / "fise.toml").read_text(encoding="utf-8")
    start = text.index("[clock]")
    end = text.index("\n[", start)
    return text[:start] + "[clock]\n" + lines + "\n" + text[end:]


def test_a_rule_file_cannot_pair_a_clock_per_move_with_a_penalty() -> None:
    with pytest.raises(VariantError) as problem:
        variant_from_toml(
            _fise_with_clock('initial_seconds = 600\nper_move = true\non_timeout = "penalty"')
        )
    assert "clock.per_move" in str(problem.value) and "skip" in str(problem.value)
    per_move = variant_from_toml(_fise_with_clock("initial_seconds = 86400\nper_move = true"))
    assert per_move.clock == Clock(initial_seconds=86_400, per_move=True)
