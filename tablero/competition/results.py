"""What a duplicate game gives: the moves received, each round scored, the ranking.

Plain frozen records, apart from the game that makes them (``duplicate``), so that a room, a
tournament's standings and the terminal read them without touching the game's state; each has
``to_dict`` where a server sends it as JSON.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

__all__ = [
    "BEST_SHOWN",
    "PlayerRound",
    "RoundMove",
    "RoundResult",
    "Standing",
    "Submission",
    "percent_of_top",
    "rack_notation",
]

BEST_SHOWN = 3
"""Moves of highest score a round's result lists (the top first)."""


def percent_of_top(total: int, top_total: int) -> float:
    """A total as a percentage of the tops' total, to two decimals (0 when that is 0): the
    duplicate measure of a player, in a game and over a series."""
    return round(100.0 * total / top_total, 2) if top_total else 0.0


def rack_notation(tiles: Sequence[str]) -> str:
    """A rack as CGP and GCG write it: ``AE?[CH]``."""
    return "".join(f"[{t}]" if len(t) > 1 else t for t in tiles)


@dataclass(frozen=True)
class Submission:
    """A player's move as received (not yet scored: that waits for the round's end)."""

    player: str
    round: int
    move: str
    """The move in canonical notation; ``-`` for nothing."""
    at: float
    """Seconds into the round, by the caller's clock."""


@dataclass(frozen=True)
class RoundMove:
    """A move the engine found, with its points."""

    move: str
    kind: str
    """``place`` or ``cambio``."""
    score: int

    def to_dict(self) -> dict[str, Any]:
        return {"move": self.move, "kind": self.kind, "score": self.score}


@dataclass(frozen=True)
class PlayerRound:
    """What one player did in a round, scored."""

    player: str
    move: str
    """As submitted (canonical notation), ``-`` for nothing."""
    score: int
    """The move's points by the game's rules; 0 for an illegal move or nothing."""
    rule: str = ""
    """For an illegal move, the broken rule's code (``tablero.rules``)."""
    reason: str = ""
    """For an illegal move, why, in words."""
    found_top: bool = False
    """The move scores as much as the top (not necessarily the move placed)."""
    solo: int = 0
    """The solo bonus earned: the only player of two or more who found a top."""
    at: float | None = None
    total: int = 0
    """The player's total after the round."""

    @property
    def points(self) -> int:
        """What the round added to the player's total."""
        return self.score + self.solo

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class RoundResult:
    """A closed round: the rack, the position, the top placed, and every player's play."""

    round: int
    rack: tuple[str, ...]
    cgp: str
    """The position before the round, with its rack."""
    top: RoundMove
    best: tuple[RoundMove, ...]
    """The moves of highest score, the top first (``BEST_SHOWN`` of them)."""
    plays: tuple[PlayerRound, ...]
    top_total: int
    """The top's total after the round."""
    redrawn: bool = False
    """The top covered an EX square (Cuvinte): the leave went back to the bag and the next
    rack was drawn whole."""

    def play_of(self, player: str) -> PlayerRound:
        for p in self.plays:
            if p.player == player:
                return p
        raise KeyError(player)

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "rack": rack_notation(self.rack),
            "cgp": self.cgp,
            "top": self.top.to_dict(),
            "best": [m.to_dict() for m in self.best],
            "plays": [p.to_dict() for p in self.plays],
            "top_total": self.top_total,
            "redrawn": self.redrawn,
        }


@dataclass(frozen=True)
class Standing:
    place: int
    """1 first; equal totals share a place and the next is skipped (1, 1, 3)."""
    player: str
    total: int
    percent: float
    """The total as a percentage of the top's total, to two decimals (0 when that is 0)."""
    tops: int
    """Rounds in which the player found a top-scoring move."""
    solos: int
