"""A tournament game's result, from the end of its game or from the director's scores.

**From a game.** The game's own ranking decides who won (``GameResult.ranks`` in its end
event: a resignation loses whatever the scores, a tie on the scores is broken where the rules
break it); the spread is the first player's final score minus the second's. When the two
disagree — the player who resigned was ahead — the spread counts 0: a win never lowers the
winner's spread, a loss never raises the loser's.

**From the director.** The scores the director gives decide: the higher wins, equal is a
draw, the spread is their difference.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["GameScore", "from_end_event", "from_scores"]


@dataclass(frozen=True)
class GameScore:
    first_score: int
    second_score: int
    points: float
    """The first player's: 1, 0.5 or 0."""
    spread: int
    """The first player's, as counted."""


def from_scores(first_score: int, second_score: int) -> GameScore:
    points = 1.0 if first_score > second_score else 0.0 if first_score < second_score else 0.5
    return GameScore(first_score, second_score, points, first_score - second_score)


def from_end_event(end: Mapping[str, Any], first_seat: int, second_seat: int) -> GameScore:
    """The result of a two-seat game from its ``end`` event (``Game.log``'s last event)."""
    final: Sequence[int] = [int(x) for x in end["final"]]
    ranks: Sequence[int] = [int(x) for x in end.get("ranks") or ()]
    a, b = final[first_seat], final[second_seat]
    if len(ranks) == len(final):
        ra, rb = ranks[first_seat], ranks[second_seat]
    else:  # a log from before ranks were recorded: the scores rank
        ra, rb = (1, 2) if a > b else (2, 1) if a < b else (1, 1)
    points = 1.0 if ra < rb else 0.0 if ra > rb else 0.5
    spread = a - b
    if (points == 1 and spread < 0) or (points == 0 and spread > 0):
        spread = 0
    return GameScore(a, b, points, spread)
