"""Post-game analysis: what the engine would have played at every move of a recorded game.

``analyse_gcg`` judges a GCG file move by move (``report.py`` says how), ``html.py`` draws the
report as a web page. ``tablero analyze`` is the command line for both.
"""

from __future__ import annotations

from . import report
from .report import *  # noqa: F403  (the public names are report's)

__all__ = list(report.__all__)
