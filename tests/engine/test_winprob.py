"""The win-probability table: its samples, its fit, its file, and the shipped one."""

from __future__ import annotations

import math

import pytest

from tablero.engine.evaluation.winprob import (
    WinTable,
    WinTableError,
    collect_samples,
    fit_win_table,
    game_samples,
    shipped_win_table,
)


def test_the_samples_of_a_game_worked_by_hand() -> None:
    """A game of 20 tiles, racks of 3. Seat 0 plays 2 tiles for 10 (bag 14 → 12), seat 1
    exchanges, seat 0 plays 3 for 5 (bag 12 → 9), seat 1 goes out… (the last turn, no sample).

    After turn 1, seat 0 sees its 3 tiles and the 2 on the board: 15 unseen, lead +10.
    After turn 2, seat 1 sees its 3 and the 2 on the board: 15 unseen, lead −10.
    After turn 3, seat 0: 20 − 5 on the board − 3 on its rack = 12 unseen, lead +15.
    Seat 1 won (final 20 to 18): seat 0's samples are losses, seat 1's a win."""
    turns = [
        (0, "place", 10, 2, 14),
        (1, "exchange", 0, 0, 12),
        (0, "place", 5, 3, 12),
        (1, "place", 30, 3, 9),
    ]
    samples = game_samples(turns, [18, 20], total_tiles=20, rack_size=3)
    assert [(s.unseen, s.lead, s.result) for s in samples] == [
        (15, 10, 0.0),
        (15, -10, 1.0),
        (12, 15, 0.0),
    ]
    tie = game_samples(turns, [20, 20], total_tiles=20, rack_size=3)
    assert {s.result for s in tie} == {0.5}


def test_the_fit_finds_the_curve_the_samples_were_drawn_from() -> None:
    """Counts that follow a logistic curve exactly (wins = samples × P) give that curve back."""
    counts: dict[tuple[int, int], list[float]] = {}
    for unseen, centre, scale in ((10, 12.0, 20.0), (50, 25.0, 60.0)):
        for lead in range(-200, 201, 5):
            p = 1 / (1 + math.exp(-(lead - centre) / scale))
            counts[(unseen, lead)] = [5000.0, 5000.0 * p]
    table = fit_win_table("test", counts)
    assert len(table.centre) == 51
    assert table.centre[10] == pytest.approx(12.0, abs=0.01)
    assert table.scale[10] == pytest.approx(20.0, abs=0.01)
    assert table.centre[50] == pytest.approx(25.0, abs=0.01)
    assert table.scale[50] == pytest.approx(60.0, abs=0.01)
    assert table.probability(12.0, 10) == pytest.approx(0.5)
    assert table.probability(25.0 + 60.0, 50) == pytest.approx(1 / (1 + math.exp(-1)))
    # Beyond the table, its last count.
    assert table.probability(30, 99) == table.probability(30, 50)


def test_a_table_survives_its_file_and_a_bad_file_says_what_is_wrong(tmp_path) -> None:  # type: ignore[no-untyped-def]
    table = WinTable("fise", (10.0, 20.5), (8.0, 30.25), {"games": 12})
    path = tmp_path / "t.toml"
    table.save(path)
    again = WinTable.load(path)
    assert again == table and again.meta["games"] == 12
    with pytest.raises(WinTableError, match="missing scale"):
        WinTable.from_toml('game = "x"\ncentre = [1.0]\n')
    with pytest.raises(WinTableError, match="positive number; not at unseen count 1"):
        WinTable.from_toml('game = "x"\ncentre = [1.0, 2.0]\nscale = [3.0, -1.0]\n')
    with pytest.raises(WinTableError, match="centre must be a list of numbers"):
        WinTable.from_toml('game = "x"\ncentre = ["a"]\nscale = [3.0]\n')
    with pytest.raises(WinTableError, match="not TOML"):
        WinTable.from_toml("centre = [")
    with pytest.raises(WinTableError, match="cannot read"):
        WinTable.load(tmp_path / "missing.toml")


def test_the_shipped_fise_table_says_what_a_lead_is_worth() -> None:
    table = shipped_win_table("fise")
    assert table is not None and table.game == "fise"
    for unseen in (7, 20, 50, 80):
        # More lead, more wins; level, the player who has just moved is behind (the other
        # moves next); and a lead matters more as the tiles run out.
        p = [table.probability(lead, unseen) for lead in range(-100, 101, 10)]
        assert p == sorted(p) and p[0] < 0.25 and p[-1] > 0.7
        assert table.probability(0, unseen) < 0.5
    assert table.probability(40, 10) > table.probability(40, 60) > 0.5


def test_self_play_samples_cover_the_game() -> None:
    counts = collect_samples("fise", 20, seed=3)
    samples = sum(n for n, _ in counts.values())
    assert 20 * 10 <= samples <= 20 * 40
    unseen = {u for u, _ in counts}
    # From the first turns (100 tiles less a few on the board and the rack) to the last ones.
    assert max(unseen) >= 80 and min(unseen) <= 10
    assert all(0 <= wins <= n for n, wins in counts.values())


def test_at_a_table_of_three_the_lead_is_over_the_best_of_the_others() -> None:
    """30 tiles, racks of 3, three players. Seat 0 plays 3 for 12 (bag 21 → 18), seat 1 plays
    1 for 20 (bag 18 → 17), seat 2 passes, seat 0 goes out… (last turn: no sample).

    After turn 1, seat 0: 30 − 3 on the board − 3 on its rack = 24 unseen, lead 12 − 0.
    After turn 2, seat 1: 30 − 4 − 3 = 23 unseen, lead 20 − 12 = +8.
    After turn 3, seat 2: 30 − 4 − 3 = 23 unseen, lead 0 − 20 = −20.
    Final 40, 40, 10: seats 0 and 1 share first place (½ each), seat 2 lost."""
    turns = [
        (0, "place", 12, 3, 21),
        (1, "place", 20, 1, 18),
        (2, "pass", 0, 0, 17),
        (0, "place", 28, 3, 17),
    ]
    samples = game_samples(turns, [40, 40, 10], total_tiles=30, rack_size=3, players=3)
    assert [(s.unseen, s.lead, s.result) for s in samples] == [
        (24, 12, 0.5),
        (23, 8, 0.5),
        (23, -20, 0.0),
    ]
    table = WinTable("cuvinte", (1.0,), (2.0,), players=4)
    assert WinTable.from_toml(table.to_toml()).players == 4
    with pytest.raises(WinTableError, match="players: 2 to 4, not 5"):
        WinTable.from_toml('game = "x"\nplayers = 5\ncentre = [1.0]\nscale = [3.0]\n')
