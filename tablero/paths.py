"""Where tablero keeps a person's data: one rule for every part that writes there.

``$TABLERO_DATA``, else ``$XDG_DATA_HOME/tablero``, else ``~/.local/share/tablero``. The server
keeps its database there, and ``tablero lexicon add`` its installed dictionaries, so one
variable moves both.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["data_dir"]


def data_dir() -> Path:
    """The data directory (see the module's text); not created here."""
    if env := os.environ.get("TABLERO_DATA"):
        return Path(env)
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "share"
    return base / "tablero"
