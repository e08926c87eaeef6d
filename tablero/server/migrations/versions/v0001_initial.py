"""The first schema: uploaded variants, tables, seats, and each table's event log.

Revision ID: v0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "uploaded_variants",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("toml", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "game_tables",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("variant_ref", sa.String(32), nullable=False),
        sa.Column("title", sa.String(240), nullable=True),
        sa.Column("language", sa.String(8), nullable=True),
        sa.Column("clock_seconds", sa.Integer, nullable=True),
        sa.Column("dictionary_hints", sa.Boolean, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("turn_started_at", sa.Float, nullable=True),
        sa.Column("clock_paused_at", sa.Float, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_game_tables_state", "game_tables", ["state"])
    op.create_index("ix_game_tables_created_at", "game_tables", ["created_at"])
    op.create_table(
        "seats",
        sa.Column(
            "table_id",
            sa.String(16),
            sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("nickname", sa.String(100), nullable=True),
        sa.Column("bot_level", sa.Integer, nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_table(
        "events",
        sa.Column(
            "table_id",
            sa.String(16),
            sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("events")
    op.drop_table("seats")
    op.drop_index("ix_game_tables_created_at", "game_tables")
    op.drop_index("ix_game_tables_state", "game_tables")
    op.drop_table("game_tables")
    op.drop_table("uploaded_variants")
