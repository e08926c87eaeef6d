"""The rating model: one update per rated game of 2–4 seats, and the number people see.

The model is OpenSkill's Weng–Lin Plackett–Luce (Algorithm 4 of Weng & Lin 2011, "A Bayesian
Approximation Method for Online Ranking"). It ranks a whole 3- or 4-seat result in one update,
which pairwise systems (Elo, Glicko-2) cannot: they would have to split a game into made-up
two-player matches. Each player is a Gaussian belief about their skill, a mean ``mu`` and an
uncertainty ``sigma``; a game moves the means by how surprising its order was and shrinks the
uncertainties by how much it told. Every seat is one player (a team of one).

The parameters are OpenSkill's defaults, passed explicitly so that a new OpenSkill release
cannot change them under stored ratings (see ``docs/ratings.md``):

* ``mu = 25``, ``sigma = 25/3``: a new player;
* ``beta = 25/6``: how much a game's result varies around the players' skills (the luck of
  the tiles);
* ``kappa = 0.0001``: the floor of the factor that shrinks a variance, so it stays positive;
* ``tau = 25/300``: before each game every variance grows by ``tau²``, because people get
  better (or worse). Without it ``sigma`` would fall towards zero and a regular's number would
  stop moving. OpenSkill applies it by default; we keep it, and say so.
* ``limit_sigma = False``: ``sigma`` may grow a hair in a game that tells almost nothing (the
  ``tau`` step larger than what the game took away), as the model says it should.
* no margin of victory and no balancing: a game gives an order of seats, nothing more.

The displayed number (``display``) is ``mu`` on an Elo-like scale, 1500 for a new player;
``is_provisional`` says when it is still too early to trust it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

__all__ = [
    "BETA",
    "DISPLAY_SCALE",
    "DISPLAY_START",
    "KAPPA",
    "MAX_SEATS",
    "MIN_SEATS",
    "MU",
    "PROVISIONAL_GAMES",
    "SIGMA",
    "TAU",
    "Rating",
    "display",
    "is_provisional",
    "update",
    "validate_ranks",
]

MU = 25.0
"""A new player's mean skill."""
SIGMA = 25.0 / 3.0
"""A new player's uncertainty: three sigmas either side of 25 covers 0 to 50."""
BETA = 25.0 / 6.0
"""The spread of one game's performance around a player's skill."""
KAPPA = 0.0001
"""The smallest factor a game may multiply a variance by."""
TAU = 25.0 / 300.0
"""Added (squared) to every variance before a game: skills drift."""
LIMIT_SIGMA = False
"""OpenSkill's option to never let a game raise sigma; off, as the model has it."""

MIN_SEATS = 2
MAX_SEATS = 4

DISPLAY_START = 1500
"""What a new player shows."""
DISPLAY_SCALE = 400.0 / (math.log(10.0) * BETA * math.sqrt(2.0))
"""Display points per unit of mu (about 29.48). Between two players whose ratings have
settled (sigma small), the model gives the first the win with odds ``exp((mu1 - mu2) / c)``,
``c ≈ beta·√2``; Elo gives ``10 ** (D / 400)``. This scale makes the two agree: 400 points
are odds of 10 to 1, as people who know chess ratings expect."""
PROVISIONAL_GAMES = 10
"""Rated games before a number stops being provisional. After 10 two-seat games a newcomer's
sigma is about 5 (from 8.3); see docs/ratings.md."""

_MODEL = PlackettLuce(
    mu=MU,
    sigma=SIGMA,
    beta=BETA,
    kappa=KAPPA,
    tau=TAU,
    margin=0.0,
    limit_sigma=LIMIT_SIGMA,
    balance=False,
)
"""Never given ``tau`` or ``limit_sigma`` per call: ``rate(tau=0)`` falls back to the model's
tau, and ``rate(limit_sigma=...)`` changes the model for every later call."""


@dataclass(frozen=True)
class Rating:
    """One player's rating in one variant: the model's belief and how many rated games made it.

    Refuses what could not have come from the model (a non-finite mean, a sigma that is not
    positive, a negative count), so a bad row read from storage fails where it is read.
    """

    mu: float
    sigma: float
    games: int

    def __post_init__(self) -> None:
        _check_real("mu", self.mu)
        _check_real("sigma", self.sigma)
        if self.sigma <= 0:
            raise ValueError(f"a rating's sigma must be positive, not {self.sigma!r}")
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 0:
            raise ValueError(f"a rating's games must be a whole number ≥ 0, not {self.games!r}")

    @classmethod
    def new(cls) -> Rating:
        """A player with no rated game in this variant."""
        return cls(MU, SIGMA, 0)


def _check_real(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"a rating's {name} must be a number, not {value!r}")
    if not math.isfinite(value):
        raise ValueError(f"a rating's {name} must be finite, not {value!r}")


def display(rating: Rating) -> int:
    """The one number people see: 1500 for a new player, mu on an Elo-like scale.

    The mean, not a conservative ``mu - 3·sigma``: that one starts every newcomer far below
    the regulars and then climbs by itself as sigma shrinks, so a player who loses as often as
    they win would watch their number rise; people read a rating as "how strong", and the mean
    is the model's answer. The uncertainty is shown apart, as ``is_provisional``.
    """
    return round(DISPLAY_START + DISPLAY_SCALE * (rating.mu - MU))


def is_provisional(rating: Rating) -> bool:
    """Whether the number is still a first guess (fewer than ``PROVISIONAL_GAMES`` games).

    A count, not a sigma threshold, so that people can tell when the mark will go: "10 rated
    games". Leaderboards should leave provisional ratings out.
    """
    return rating.games < PROVISIONAL_GAMES


def validate_ranks(ranks: Sequence[int]) -> None:
    """Refuse a rank list that cannot be a game's result, with ValueError saying why.

    One rank per seat, 2–4 seats, whole numbers, 1 for the best, equal ranks a tie. Both ways of
    writing a tie are accepted, as standard competition ranking (1, 2, 2, 4) or dense (1, 2, 2,
    3), since the model uses only the order; anything else (a gap no tie explains, no seat
    first) is a bug in the caller, and guessing what it meant would rate a wrong result.
    """
    if not MIN_SEATS <= len(ranks) <= MAX_SEATS:
        raise ValueError(f"a rated game has {MIN_SEATS} to {MAX_SEATS} seats, not {len(ranks)}")
    for seat, rank in enumerate(ranks):
        if isinstance(rank, bool) or not isinstance(rank, int):
            raise ValueError(f"seat {seat}'s rank must be a whole number, not {rank!r}")
        if rank < 1:
            raise ValueError(f"ranks start at 1 for the winner; seat {seat} has {rank}")
    given = tuple(ranks)
    if given not in (_competition_ranks(given), _dense_ranks(given)):
        raise ValueError(
            f"ranks {given} skip places: write ties as (1, 2, 2, 4) or (1, 2, 2, 3), "
            f"and give the best seat 1"
        )


def _competition_ranks(ranks: tuple[int, ...]) -> tuple[int, ...]:
    """Each seat's 1 + the number of seats strictly ahead of it."""
    return tuple(1 + sum(other < rank for other in ranks) for rank in ranks)


def _dense_ranks(ranks: tuple[int, ...]) -> tuple[int, ...]:
    """Each seat's 1 + the number of distinct places ahead of it."""
    places = sorted(set(ranks))
    return tuple(1 + places.index(rank) for rank in ranks)


def update(ratings: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """The seats' ratings after one rated game, in seat order, each with one more game.

    ``ratings[i]`` is seat i's rating before the game and ``ranks[i]`` its place (1 = best,
    equal = tie). Resignations and timeouts are not special here: the game has already placed
    those seats, and the model sees only the order.
    """
    if len(ratings) != len(ranks):
        raise ValueError(f"{len(ratings)} ratings but {len(ranks)} ranks: one rank per seat")
    validate_ranks(ranks)
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    try:
        rated = _MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    except OverflowError:
        raise ValueError("ratings too far apart for the model to compare") from None
    return [
        _after(before, team[0].mu, team[0].sigma)
        for before, team in zip(ratings, rated, strict=True)
    ]


def _after(before: Rating, mu: float, sigma: float) -> Rating:
    """The new rating, or ValueError if the model's arithmetic failed (it should not)."""
    if not (math.isfinite(mu) and math.isfinite(sigma) and sigma > 0):
        raise ValueError(f"the update gave mu {mu!r}, sigma {sigma!r} from {before}")
    return Rating(mu, sigma, before.games + 1)
