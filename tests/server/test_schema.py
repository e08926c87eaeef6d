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
