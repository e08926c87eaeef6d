"""The engine's module layout before 2026-11-25: ``tablero.engine.native`` is now
``tablero.engine.movegen.native``.

Kept so that scripts written against the old names still run (the MAGPIE side-by-side kit in
``../shared/magpie`` imports it); new code imports ``tablero.engine.movegen.native``.
"""

from .movegen.native import NativeGenerator, learned_leave_values

__all__ = ["NativeGenerator", "learned_leave_values"]
