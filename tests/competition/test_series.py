"""A duplicate series' standings worked by hand: totals over the games, ties by tops then seed,
a removed player's percentage over the games they played, and the refusals."""

from __future__ import annotations

import pytest

from tablero.competition.series import SeriesScore, series_standings

PLAYERS = ["Ana", "Luis", "Eva", "Iker"]  # in seed order


def test_totals_tops_and_seed_rank_the_field() -> None:
    scores = [
        # game 1: top total 900
        SeriesScore(1, "Ana", 850, 900, tops=10),
        SeriesScore(1, "Luis", 800, 900, tops=8),
        SeriesScore(1, "Eva", 810, 900, tops=9),
        SeriesScore(1, "Iker", 700, 900, tops=5),
        # game 2: top total 1000; Iker was removed before it
        SeriesScore(2, "Ana", 900, 1000, tops=11),
        SeriesScore(2, "Luis", 960, 1000, tops=12),
        SeriesScore(2, "Eva", 950, 1000, tops=12),
        # game 3 is being played: it counts for nobody yet
        SeriesScore(3, "Ana"),
        SeriesScore(3, "Luis"),
        SeriesScore(3, "Eva"),
    ]
    table = series_standings(PLAYERS, scores)
    # Ana 1750 (21 tops), Luis 1760 (20), Eva 1760 (21), Iker 700 (5).
    # Luis and Eva are level on 1760: Eva found more tops, so Eva first.
    assert [(s.rank, s.player, s.total, s.tops, s.games) for s in table] == [
        (1, "Eva", 1760, 21, 2),
        (2, "Luis", 1760, 20, 2),
        (3, "Ana", 1750, 21, 2),
        (4, "Iker", 700, 5, 1),
    ]
    by_name = {s.player: s for s in table}
    assert by_name["Eva"].top_total == 1900 and by_name["Eva"].percent == 92.63  # 1760/1900
    # Iker's percentage is over the one game he played: 700/900.
    assert by_name["Iker"].top_total == 900 and by_name["Iker"].percent == 77.78


def test_level_on_total_and_tops_the_seed_decides() -> None:
    scores = [SeriesScore(1, "Iker", 500, 600, 3), SeriesScore(1, "Ana", 500, 600, 3)]
    table = series_standings(PLAYERS, scores)
    assert [s.player for s in table] == ["Ana", "Iker", "Luis", "Eva"]
    assert [s.percent for s in table] == [83.33, 83.33, 0.0, 0.0]


def test_a_stranger_or_a_player_twice_in_a_game_is_refused() -> None:
    with pytest.raises(ValueError, match="'Zoe' is not a player"):
        series_standings(PLAYERS, [SeriesScore(1, "Zoe", 10, 10)])
    with pytest.raises(ValueError, match="'Ana' is counted twice"):
        series_standings(PLAYERS, [SeriesScore(1, "Ana", 10, 10), SeriesScore(1, "Ana", 5, 10)])
    with pytest.raises(ValueError, match="listed twice"):
        series_standings(["Ana", "Ana"], [])
