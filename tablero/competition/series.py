"""A duplicate series' standings: the players' totals over its games.

In a duplicate series every player plays every game (a duplicate game of the whole field,
one per round of the tournament), so the ranking is a sum: a player's **total** is the sum of
their scores over the games counted, shown against the **top total**, the sum of those games'
tops. Players are ranked by total, then by the rounds in which they found a top, then by seed
(their place in the list at the start), so every player has a place of their own.

A player removed part-way keeps the games they played; a game they were not in counts for
nobody's total but theirs is simply smaller (the percentage is over the games they played).
docs/competition.md, "A duplicate series", has the rules and the choices behind them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .results import percent_of_top

__all__ = ["SeriesScore", "SeriesStanding", "series_standings"]


@dataclass(frozen=True)
class SeriesScore:
    """One player's result in one game of the series (None while the game is played)."""

    round: int
    player: str
    score: int | None = None
    """The player's total in that game, solo bonuses included."""
    top_total: int | None = None
    """The game's top total (the same for every player of the game)."""
    tops: int = 0
    """Rounds of that game in which the player found a top-scoring move."""

    @property
    def finished(self) -> bool:
        return self.score is not None


@dataclass(frozen=True)
class SeriesStanding:
    rank: int
    """1 for the leader; no two players share one (seed breaks the last ties)."""
    player: str
    seed: int
    total: int
    top_total: int
    """The tops' total over the games this player's total counts."""
    games: int
    """Games counted (over, and this player in them)."""
    tops: int

    @property
    def percent(self) -> float:
        """The total as a percentage of the top total, to two decimals (0 when that is 0)."""
        return percent_of_top(self.total, self.top_total)


def series_standings(players: Sequence[str], scores: Iterable[SeriesScore]) -> list[SeriesStanding]:
    """Every player of ``players`` (in seed order) ranked by total, then tops, then seed.

    ``scores``: a player's result in each game they are in; unfinished ones do not count. A
    score naming a player not in ``players``, or a player twice in one game, is a
    ``ValueError``."""
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    seed = {p: i + 1 for i, p in enumerate(players)}
    total = dict.fromkeys(players, 0)
    top_total = dict.fromkeys(players, 0)
    games = dict.fromkeys(players, 0)
    tops = dict.fromkeys(players, 0)
    seen: set[tuple[int, str]] = set()
    for s in scores:
        if s.player not in seed:
            raise ValueError(f"game {s.round}: {s.player!r} is not a player")
        if (s.round, s.player) in seen:
            raise ValueError(f"game {s.round}: {s.player!r} is counted twice")
        seen.add((s.round, s.player))
        if s.score is None:
            continue
        total[s.player] += s.score
        top_total[s.player] += s.top_total or 0
        games[s.player] += 1
        tops[s.player] += s.tops
    order = sorted(players, key=lambda p: (-total[p], -tops[p], seed[p]))
    return [
        SeriesStanding(rank, p, seed[p], total[p], top_total[p], games[p], tops[p])
        for rank, p in enumerate(order, 1)
    ]
