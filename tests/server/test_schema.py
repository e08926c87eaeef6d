"""The migrations build exactly the schema the ORM models describe, on both databases."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from tablero.server.store.db import make_engine, migrate
from tablero.server.store.models import Base


def test_migrations_match_the_models(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        migrate(engine)
        migrate(engine)  # a second start finds nothing to do
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
            assert diff == []
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "v0002"
        tables = set(inspect(engine).get_table_names())
        assert {"game_tables", "seats", "events", "uploaded_variants"} <= tables
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
