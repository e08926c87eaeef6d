"""What a server instance is configured with: where its data lives and which dictionaries.

Kept apart from the app so tests and the command line build the same ``Settings`` and nothing
reads the environment behind their back (except the documented default data path).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..lexicon import Lexicon
from ..paths import data_dir

__all__ = ["Capacity", "Quotas", "Settings", "default_data_dir", "default_db_url"]


def default_data_dir() -> Path:
    """``$TABLERO_DATA``, else ``$XDG_DATA_HOME/tablero``, else ``~/.local/share/tablero``."""
    return data_dir()


def default_db_url() -> str:
    return f"sqlite:///{default_data_dir() / 'tablero.db'}"


@dataclass(frozen=True)
class Quotas:
    """What one address (and everyone together) may hold on a shared server."""

    lobby_waiting_per_address: int = 3
    """Waiting tables the lobby shows per creator's address (the newest ones)."""
    uploads_per_address: int = 20
    """Rule files one address may have stored at once."""
    upload_unused_days: float = 30.0
    """An uploaded rule file that no table uses is deleted after this many days unused."""
    word_lists_per_address: int = 5
    """Word lists one address may have stored (the same list sent again costs nothing)."""
    bot_tables_per_address: int = 2
    """Tables with only computer players in play at once, per creator's address."""
    bot_tables_total: int = 20
    """... and on the whole server: each keeps a bot worker busy."""


@dataclass(frozen=True)
class Capacity:
    """When one process refuses new work rather than let every answer wait (``web/load.py``)."""

    max_loop_lag: float = 0.5
    """Seconds the event loop may run late before new tables, sits, previews and sockets
    are refused."""
    max_actions_in_flight: int = 64
    """Moves, sits and creations under way at once before moves are refused too. A process
    stores 100–150 moves a second on a small machine (docs/deploy.md, "Figures"): 64 waiting
    is half a second of work, the most a mover should wait before being told to retry."""


@dataclass(frozen=True)
class Settings:
    db_url: str = field(default_factory=default_db_url)
    """A SQLAlchemy URL or a plain file path (SQLite); ``postgresql://`` uses psycopg 3."""
    lexicons: Mapping[str, Lexicon] = field(default_factory=dict)
    """Dictionaries by name (``es``, ``ro``) that replace the shipped ones (tests, clubs)."""
    bot_delay: float = 0.6
    """Seconds a bot waits before moving, so people can follow the game."""
    resume_on_start: bool = True
    """Load every table in play at start-up, so clocks and bots go on by themselves."""
    allowed_origins: tuple[str, ...] = ()
    """Other sites (``https://host[:port]``) whose pages may open WebSockets and write; the
    server's own origin is always allowed (docs/web-api.md, "Limits")."""
    redis_url: str | None = None
    """``redis://…``: table events pass between processes through Redis, so several
    processes (and machines) can serve one database. None: one process (``$TABLERO_REDIS``
    is read by ``tablero serve``)."""
    address_limit_scale: int = 1
    """Every per-address rate limit this many times higher (``--address-limit-scale``): for
    a club whose players all reach the server from one address."""
    quotas: Quotas = field(default_factory=Quotas)
    capacity: Capacity = field(default_factory=Capacity)
    """When this process refuses new work rather than let every answer wait (web/load.py)."""
    bot_workers: int = 1
    """Processes in which computer players think. Without Redis, a pool of the web process
    (0: a thread of it). With Redis, bots go through a job queue and these are the queue's
    worker processes the app starts (0: only ``tablero worker``s elsewhere)."""
    analysis_sim_iterations: int = 300
    """Deals per move when a game is analysed by simulation (``tablero analyze --sim``'s
    default; tests with a pure-Python dictionary take fewer)."""
