"""The engine's module layout before 2026-11-25: ``tablero.engine.endgame`` is now
``tablero.engine.search.endgame``.

Kept so that scripts written against the old names still run (the MAGPIE side-by-side kit in
``../shared/magpie`` imports it); new code imports ``tablero.engine.search.endgame``.
"""

from .search.endgame import solve_endgame

__all__ = ["solve_endgame"]
