"""The web app: tables for 2–4 people and bots, played in the browser (``tablero serve``).

The server is authoritative for every rule; a game is its event log, stored in a database
(SQLite by default, PostgreSQL with ``--db postgresql://…``) before anything is acknowledged.
The API is specified in ``docs/web-api.md``; how to run it and how it keeps games safe, in
``docs/server.md``.

The app is imported lazily, so ``tablero`` commands that do not serve do not load the web stack.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    if name == "Settings":
        from .config import Settings

        return Settings
    raise AttributeError(name)
