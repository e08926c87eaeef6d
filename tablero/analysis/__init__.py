"""Post-game analysis: what the engine would have played at every move of a recorded game.

``analyse_gcg`` judges a GCG file move by move (``report.py`` says how), ``html.py`` draws the
report as a web page. ``tablero analyze`` is the command line for both.
"""

from __future__ import annotations

from .report import (
    MISTAKE_SIZES,
    Alternative,
    GameAnalysis,
    MoveAnalysis,
    PlayerSummary,
    analyse_gcg,
    positions_to_analyse,
)

__all__ = [
    "MISTAKE_SIZES",
    "Alternative",
    "GameAnalysis",
    "MoveAnalysis",
    "PlayerSummary",
    "analyse_gcg",
    "positions_to_analyse",
]
