"""The database: engine set-up for SQLite and PostgreSQL, and schema migrations on start.

SQLite is the default because a person running ``tablero serve`` at home should need nothing
else; it is configured for durability (WAL with full sync: a committed move survives a power
cut). PostgreSQL URLs are routed to psycopg 3.
"""

from __future__ import annotations

import contextlib
import threading
import weakref
from contextlib import AbstractContextManager
from importlib import resources
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url

__all__ = [
    "MIGRATION_LOCK",
    "make_engine",
    "migrate",
    "migration_config",
    "normalize_url",
    "one_at_a_time",
]


def normalize_url(url_or_path: str) -> str:
    """A SQLAlchemy URL from what a person types: a URL, or a path to an SQLite file."""
    text = url_or_path.strip()
    if not text:
        raise ValueError("the database URL is empty")
    if "://" not in text:
        return f"sqlite:///{Path(text).expanduser().resolve()}"
    if text.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + text.split("://", 1)[1]
    return text


def make_engine(url_or_path: str) -> Engine:
    url = make_url(normalize_url(url_or_path))
    if url.get_backend_name() == "sqlite":
        if url.database and url.database != ":memory:":
            Path(url.database).parent.mkdir(parents=True, exist_ok=True)
        # No pre-ping: a file does not drop connections, and the ping is a statement more
        # for every move while the database is held (see ``one_at_a_time``).
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True)


_SQLITE_LOCKS: weakref.WeakKeyDictionary[Engine, threading.RLock] = weakref.WeakKeyDictionary()
_SQLITE_LOCKS_LOCK = threading.Lock()


def one_at_a_time(engine: Engine) -> AbstractContextManager[object]:
    """Hold this while using an SQLite database from a thread: one transaction at a time.

    SQLite lets one writer in at a time and makes the others wait in its busy handler, which
    sleeps (up to 100 ms a try) instead of waking when the lock is free: with 100 moves a
    second stored from a pool of threads, moves waited 350 ms for a commit that takes 0.4 ms
    (``benchmarks/bench_server.py --tables 1000``). A Python lock hands the database to the
    next thread at once. PostgreSQL needs no such thing: it runs transactions side by side.
    """
    if engine.dialect.name != "sqlite":
        return contextlib.nullcontext()
    with _SQLITE_LOCKS_LOCK:
        lock = _SQLITE_LOCKS.get(engine)
        if lock is None:
            lock = _SQLITE_LOCKS[engine] = threading.RLock()
    return lock


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


MIGRATION_LOCK = 0x7461626C65726F  # "tablero": the advisory lock that serialises migrations


def migration_config() -> Config:
    """Alembic's configuration: the migrations that ship inside the package."""
    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("tablero.server") / "migrations"))
    return cfg


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest revision (the migrations ship inside the package).

    Several processes start together (``--workers``, or machines): on PostgreSQL each takes an
    advisory lock for its migration transaction, so the first migrates and the others, once
    it has committed, find nothing to do (two at once would both create the tables).
    """
    cfg = migration_config()
    if engine.dialect.name == "sqlite":
        _migrate_sqlite(engine, cfg)
        return
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "head")


def _migrate_sqlite(engine: Engine, cfg: Config) -> None:
    """SQLite changes a table's columns by building a new table and dropping the old one; with
    foreign keys on, dropping ``game_tables`` would delete every seat and event with it (ON
    DELETE CASCADE). So the migrations run with foreign keys off (SQLite's own advice for
    such changes), and are checked before they commit: a broken reference undoes them all."""
    with engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")  # outside a transaction
        connection.commit()  # (SQLAlchemy began one of its own; SQLite had not)
        try:
            with connection.begin():
                cfg.attributes["connection"] = connection
                command.upgrade(cfg, "head")
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                if broken:
                    raise RuntimeError(f"the migration broke references: {broken[:5]}")
        finally:
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            connection.commit()
