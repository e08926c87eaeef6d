"""The engine's module layout before 2026-11-25: ``tablero.engine.bots`` is now
``tablero.engine.players``.

Kept so that scripts written against the old names still run (the MAGPIE side-by-side kit in
``../shared/magpie`` imports it); new code imports ``tablero.engine.players``.
"""

from .players import Bot, seat_view, shipped_leaves

__all__ = ["Bot", "seat_view", "shipped_leaves"]
