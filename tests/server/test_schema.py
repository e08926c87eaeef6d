"""The migrations build exactly the schema the ORM models describe, on both databases."""

from __future__ import annotations

import time
from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from tablero.game import Game
from tablero.lexicon import WordListLexicon
from tablero.server.accounts import models as _accounts  # noqa: F401  (its tables)
from tablero.server.analysis import models as _analysis  # noqa: F401  (its tables)
from tablero.server.chat import models as _chat  # noqa: F401  (its tables)
from tablero.server.club import models as _club  # noqa: F401  (its tables)
from tablero.server.duplicate import models as _duplicate  # noqa: F401  (its tables)
from tablero.server.puzzles import models as _puzzles  # noqa: F401  (its tables)
from tablero.server.ratings import models as _ratings  # noqa: F401  (its tables)
from tablero.server.store.db import make_engine, migrate, migration_config
from tablero.server.store.models import Base
from tablero.server.store.tables import encode_event
from tablero.server.tables.info import hash_token
from tablero.server.tournaments import models as _tournaments  # noqa: F401  (its tables)

from .harness import Server

LATEST = "v0017"
"""The newest migration: every database ends there."""


def test_migrations_match_the_models(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        migrate(engine)
        migrate(engine)  # a second start finds nothing to do
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
            assert diff == []
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == LATEST
        tables = set(inspect(engine).get_table_names())
        assert {"game_tables", "seats", "events", "uploaded_variants", "accounts", "sessions"} <= (
            tables
        )
    finally:
        engine.dispose()


def _migrate_in_a_process(url: str) -> str:
    from tablero.server.store.db import make_engine, migrate

    engine = make_engine(url)
    try:
        migrate(engine)
        return "ok"
    except Exception as e:  # reported to the test, which shows it
        return f"{type(e).__name__}: {e}"
    finally:
        engine.dispose()


def test_processes_starting_together_migrate_a_new_database_once(
    pg_base_url: str | None,
) -> None:
    """``--workers`` starts several processes on one new PostgreSQL database at once: each
    must start (without the migration lock, about one round in two had one crash)."""
    import multiprocessing
    import os

    import psycopg
    import pytest

    if pg_base_url is None:
        pytest.skip("PostgreSQL is not installed")
    admin = pg_base_url.replace("postgresql+psycopg://", "postgresql://")
    context = multiprocessing.get_context("spawn")
    for round_ in range(6):
        name = f"mig{os.getpid()}_{round_}"
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        url = pg_base_url.rsplit("/", 1)[0] + "/" + name
        try:
            with context.Pool(3) as pool:
                assert pool.map(_migrate_in_a_process, [url] * 3) == ["ok"] * 3
        finally:
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _upgrade_to(engine: Any, revision: str) -> None:
    """The schema as it was at ``revision`` (as a server of that version left it)."""
    cfg = migration_config()
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, revision)


def test_a_database_of_before_accounts_upgrades_in_place_with_its_games(
    db_url: str, mini_es: WordListLexicon, mini_ro: WordListLexicon
) -> None:
    """A database a v0002 server wrote (a game in play, guests' seats) is migrated when the
    new server starts: the game loads, its players act with their tokens as before."""
    engine = make_engine(db_url)
    game = Game("fise", ["Ana", "Luis"], mini_es, seed=7)
    now = time.time()
    try:
        _upgrade_to(engine, "v0002")
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO game_tables (id, variant_ref, dictionary_hints, state, "
                    "turn_started_at, created_at, updated_at, seq) VALUES "
                    "('old1', 'fise', false, 'playing', :now, :now, :now, :seq)"
                ),
                {"now": now, "seq": len(game.log)},
            )
            for seat, name in enumerate(["Ana", "Luis"]):
                conn.execute(
                    text(
                        "INSERT INTO seats (table_id, seat, kind, nickname, token_hash) "
                        "VALUES ('old1', :seat, 'human', :name, :hash)"
                    ),
                    {"seat": seat, "name": name, "hash": hash_token(f"token-{seat}")},
                )
            for i, event in enumerate(game.log):
                conn.execute(
                    text(
                        "INSERT INTO events (table_id, idx, data, created_at) "
                        "VALUES ('old1', :i, :data, :now)"
                    ),
                    {"i": i, "data": encode_event(event), "now": now},
                )
    finally:
        engine.dispose()
    server = Server(db_url, {"es": mini_es, "ro": mini_ro})
    server.start()
    try:
        mover = game.to_move
        view = server.view("old1", f"token-{mover}")
        assert view["seq"] == len(game.log) and view["you"]["rack"] == game.players[mover].rack
        assert [s["account"] for s in view["seats"]] == [False, False]
        r = server.move("old1", f"token-{mover}", {"kind": "pass"}, view["seq"])
        assert r.status_code == 200, r.text
    finally:
        server.stop()
    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == LATEST
            seats = conn.execute(text("SELECT account_id FROM seats")).scalars().all()
            assert seats == [None, None]
    finally:
        engine.dispose()
