"""Scripts written against the engine's old module names (the MAGPIE kit) still import."""

from __future__ import annotations

from tablero.engine import bots, endgame, native, players
from tablero.engine.movegen import native as movegen_native
from tablero.engine.search import endgame as search_endgame


def test_the_old_module_names_are_the_new_objects() -> None:
    assert bots.Bot is players.Bot and bots.seat_view is players.seat_view
    assert bots.shipped_leaves is players.shipped_leaves
    assert endgame.solve_endgame is search_endgame.solve_endgame
    assert native.NativeGenerator is movegen_native.NativeGenerator
    assert native.learned_leave_values is movegen_native.learned_leave_values
