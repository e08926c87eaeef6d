"""A tournament's standings: wins, then spread, from the boards of the rounds played.

A player's **points** are their wins, a draw counting half and a bye a whole win; their
**spread** is the sum of their score minus their opponent's over their games, a bye counting
``BYE_SPREAD``. Players are ranked by points, then spread, then seed (their place in the list
at the start: ``players`` is given in seed order), so every player has a place of their own.
docs/competition.md, "Tournaments", has the rules and every choice behind them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = ["BYE_SPREAD", "Played", "Standing", "bye", "standings"]

BYE_SPREAD = 50
"""The spread a bye is worth, with its win (as many clubs count it)."""


@dataclass(frozen=True)
class Played:
    """One board of a round: who moved first, who second (None: ``first`` had the bye), and
    the result once the game is over."""

    round: int
    first: str
    second: str | None = None
    points: float | None = None
    """The first player's result: 1 a win, 0.5 a draw, 0 a loss (the second's is 1 minus
    it); None while the game is being played. A bye: 1."""
    spread: int = 0
    """The first player's score minus the second's (the second's spread is its negative).
    A bye: ``BYE_SPREAD``."""

    @property
    def finished(self) -> bool:
        return self.points is not None

    @property
    def is_bye(self) -> bool:
        return self.second is None


def bye(round_number: int, player: str, spread: int = BYE_SPREAD) -> Played:
    """A bye: a win worth ``spread``."""
    return Played(round_number, player, None, 1.0, spread)


@dataclass(frozen=True)
class Standing:
    """Where a player stands, with what the pairing reads."""

    rank: int
    """1 for the leader; no two players share one (seed breaks the last ties)."""
    player: str
    seed: int
    """1 for the first player of the list the tournament started with."""
    points: float
    wins: int
    draws: int
    losses: int
    spread: int
    played: int
    """Results counted: games over and byes."""
    byes: int
    firsts: int
    """Games in which the player moved first (games still being played count: they have
    started)."""
    seconds: int
    starts: tuple[bool, ...]
    """Per game, in round order (byes left out): True where the player moved first."""
    opponents: tuple[str, ...]
    """Everyone the player has been paired with, in round order (repeats repeated)."""

    @property
    def balance(self) -> int:
        """Firsts minus seconds: the first-move balance the pairing keeps near 0."""
        return self.firsts - self.seconds


@dataclass
class _Tally:
    seed: int
    points: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    spread: int = 0
    played: int = 0
    byes: int = 0
    starts: list[tuple[int, bool]] = field(default_factory=list)
    opponents: list[tuple[int, str]] = field(default_factory=list)

    def result(self, points: float, spread: int) -> None:
        self.points += points
        self.spread += spread
        self.played += 1
        if points == 1:
            self.wins += 1
        elif points == 0:
            self.losses += 1
        else:
            self.draws += 1


def standings(players: Sequence[str], games: Iterable[Played]) -> list[Standing]:
    """Every player of ``players`` (in seed order), ranked by points, then spread, then seed.

    ``games``: every board of every round paired so far; unfinished ones count as started
    (first moves, opponents) but not in the results. A board naming a player who is not in
    ``players``, or a player twice in one round, is a ``ValueError``."""
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    tally = {p: _Tally(seed=i + 1) for i, p in enumerate(players)}
    seen: set[tuple[int, str]] = set()
    for g in games:
        names = [g.first] if g.second is None else [g.first, g.second]
        for name in names:
            if name not in tally:
                raise ValueError(f"round {g.round}: {name!r} is not a player")
            if (g.round, name) in seen:
                raise ValueError(f"round {g.round}: {name!r} is paired twice")
            seen.add((g.round, name))
        if g.points is not None and g.points not in (0, 0.5, 1):
            raise ValueError(f"round {g.round}: points are 1, 0.5 or 0, not {g.points}")
        first = tally[g.first]
        if g.second is None:
            if g.points is not None:
                first.byes += 1
                first.result(g.points, g.spread)
            continue
        second = tally[g.second]
        first.starts.append((g.round, True))
        second.starts.append((g.round, False))
        first.opponents.append((g.round, g.second))
        second.opponents.append((g.round, g.first))
        if g.points is not None:
            first.result(g.points, g.spread)
            second.result(1 - g.points, -g.spread)
    order = sorted(players, key=lambda p: (-tally[p].points, -tally[p].spread, tally[p].seed))
    out = []
    for rank, p in enumerate(order, 1):
        t = tally[p]
        starts = tuple(first for _, first in sorted(t.starts))
        out.append(
            Standing(
                rank=rank,
                player=p,
                seed=t.seed,
                points=t.points,
                wins=t.wins,
                draws=t.draws,
                losses=t.losses,
                spread=t.spread,
                played=t.played,
                byes=t.byes,
                firsts=sum(starts),
                seconds=len(starts) - sum(starts),
                starts=starts,
                opponents=tuple(o for _, o in sorted(t.opponents)),
            )
        )
    return out
