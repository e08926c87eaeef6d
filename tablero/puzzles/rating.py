"""Ratings of solvers and puzzles: each attempt a game between the two.

The model is the web app's (``tablero.server.ratings.model``: OpenSkill's Weng–Lin
Plackett–Luce with its defaults written out, 1500 on the display scale for a newcomer). An
attempt is a two-seat game: a solver who finds the answer beats the puzzle (ranks 1, 2), one
who does not (a wrong move, or giving up) loses to it (2, 1). So a solve raises the solver and
lowers the puzzle, by more the more surprising it was; a puzzle that many strong solvers miss
climbs. Only the first attempt of a solver at a puzzle is rated: after it the answer is known.

A puzzle starts at the rating its seeds suggest (``Seeds.start_rating``), with a newcomer's
uncertainty, so its first attempts move it a lot. The next puzzle is chosen near the solver's
rating (``choose_next``).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..server.ratings.model import (
    DISPLAY_SCALE,
    DISPLAY_START,
    MU,
    SIGMA,
    Rating,
    display,
    is_provisional,
    update,
)

__all__ = [
    "NEAREST",
    "Rated",
    "Rating",
    "choose_next",
    "display",
    "is_provisional",
    "rate_attempt",
    "rating_at",
    "solver_json",
]


class SolverFigures(Protocol):
    """A solver's standing in one game, wherever it is kept (the terminal's history file, the
    server's table)."""

    @property
    def rating(self) -> Rating: ...
    @property
    def solved(self) -> int: ...
    @property
    def streak(self) -> int: ...
    @property
    def best_streak(self) -> int: ...


def solver_json(s: SolverFigures) -> dict[str, Any]:
    """A solver as ``tablero puzzle --json`` and the server's API both show it."""
    return {
        "rating": display(s.rating),
        "provisional": is_provisional(s.rating),
        "attempts": s.rating.games,
        "solved": s.solved,
        "streak": s.streak,
        "best_streak": s.best_streak,
    }


NEAREST = 8
"""The next puzzle is drawn at random among this many unplayed puzzles nearest the solver's
rating (not always the nearest one: two solvers of one rating get different puzzles)."""


def rating_at(shown: int, games: int = 0) -> Rating:
    """A rating whose displayed number is ``shown``, with a newcomer's uncertainty."""
    return Rating(MU + (shown - DISPLAY_START) / DISPLAY_SCALE, SIGMA, games)


@dataclass(frozen=True)
class Rated:
    """One rated attempt: both ratings before and after."""

    solver_before: Rating
    solver_after: Rating
    puzzle_before: Rating
    puzzle_after: Rating


def rate_attempt(solver: Rating, puzzle: Rating, solved: bool) -> Rated:
    """The new ratings after an attempt (the solver won if it ``solved``)."""
    ranks = [1, 2] if solved else [2, 1]
    new_solver, new_puzzle = update([solver, puzzle], ranks)
    return Rated(solver, new_solver, puzzle, new_puzzle)


def choose_next(
    puzzles: Sequence[tuple[str, int]],
    solver: int,
    played: Collection[str] = (),
    rng: random.Random | None = None,
) -> str | None:
    """The id of the next puzzle for a solver rated ``solver``: among ``puzzles`` (id and
    rating) not ``played``, one of the ``NEAREST`` nearest in rating, at random. When every
    puzzle has been played, the same among all of them. None when there are none."""
    if not puzzles:
        return None
    fresh = [p for p in puzzles if p[0] not in played] or list(puzzles)
    fresh.sort(key=lambda p: (abs(p[1] - solver), p[0]))
    return (rng or random.Random()).choice(fresh[:NEAREST])[0]
