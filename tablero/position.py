"""A position: what a player to move sees and needs to decide a move.

It is the board, the racks (the player to move first, as CGP writes them), the scores, how
many scoreless turns have passed, and the per-player counts that limit moves (exchanges in
Cuvinte în Cutie, CAMBIOs in Crucigrama). A ``Game`` holds more (the bag's order, the log,
clocks); a position is what CGP carries and what ``tablero score`` and ``tablero moves`` read.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .board import Board
from .variant import BLANK, Variant

__all__ = ["Position"]


@dataclass
class Position:
    variant: Variant
    board: Board
    racks: list[tuple[str, ...]]
    """Racks in turn order from the player to move; an opponent's may be empty (unknown)."""
    scores: list[int]
    scoreless_turns: int = 0
    lexicon: str | None = None
    exchanges_used: list[int] = field(default_factory=list)
    cambios_used: list[int] = field(default_factory=list)
    bag: int | None = None
    """Tiles in the bag, when known exactly (a Game knows; a CGP may say with ``bag N;``)."""

    def __post_init__(self) -> None:
        n = len(self.racks)
        if len(self.scores) != n:
            raise ValueError(f"{n} racks but {len(self.scores)} scores")
        self.exchanges_used = self.exchanges_used or [0] * n
        self.cambios_used = self.cambios_used or [0] * n

    @classmethod
    def empty(cls, variant: Variant, players: int = 2) -> Position:
        return cls(variant, Board(variant.rows, variant.columns), [()] * players, [0] * players)

    @property
    def rack(self) -> tuple[str, ...]:
        """The rack of the player to move."""
        return self.racks[0]

    @property
    def first_turn(self) -> bool:
        return self.board.is_empty()

    def unseen(self) -> Counter[str]:
        """Tiles not on the board nor on the player to move's rack: the bag and other racks."""
        left: Counter[str] = Counter({t: count for t, (count, _) in self.variant.tiles.items()})
        for _, tile in self.board.tiles():
            left[tile.rack_form] -= 1
        for t in self.rack:
            left[t] -= 1
        return +left

    def bag_count(self) -> int:
        """Tiles in the bag: exact if known, else what the unseen tiles leave after full racks."""
        if self.bag is not None:
            return self.bag
        unseen = sum(self.unseen().values())
        others = 0
        for rack in self.racks[1:]:
            others += len(rack) if rack else min(self.variant.rack_size, unseen - others)
        return max(0, unseen - others)

    def check_tiles(self) -> None:
        """Raise ValueError if the board and racks use more tiles than the set has."""
        used: Counter[str] = Counter(t.rack_form for _, t in self.board.tiles())
        for rack in self.racks:
            used.update(rack)
        for tile, n in used.items():
            have = self.variant.tiles.get(tile, (0, 0))[0]
            if n > have:
                what = "blanks" if tile == BLANK else f"{tile} tiles"
                raise ValueError(f"the position uses {n} {what}; {self.variant.title} has {have}")
