"""Hints: a player at a table that allows them asks for their best moves.

The moves are what ``tablero moves`` lists for the position the player sees (their rack, the
others' unknown): every move by static equity, the best ``count``. Each comes with the squares
and tiles a placement puts down, so the table can draw it on the board. The search takes
milliseconds with the native generator; it still runs in a thread, never on the event loop.
"""

from __future__ import annotations

from typing import Any

from ...engine.movegen.candidates import candidates
from ...engine.players import ex_bonus_for, shipped_leaves
from ...lexicon import Lexicon
from ...position import Position
from ..workers.positions import move_json

__all__ = ["MAX_HINTS", "hint_moves"]

MAX_HINTS = 10


def hint_moves(position: Position, lexicon: Lexicon, count: int) -> list[dict[str, Any]]:
    """The ``count`` best moves of the player to move in ``position``, best first."""
    v = position.variant
    found = candidates(
        position, lexicon, shipped_leaves(v.name), ex_bonus=ex_bonus_for(v), top=count
    )
    return [move_json(c, position) for c in found[:count]]
