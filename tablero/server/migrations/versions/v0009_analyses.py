"""Post-game analyses: one per finished game and method, with its progress and result.

Revision ID: v0009
Revises: v0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0009"
down_revision = "v0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column(
            "table_id",
            sa.String(16),
            sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("method", sa.String(8), primary_key=True),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("moves", sa.Text, nullable=False),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("owner", sa.String(64), nullable=True),
        sa.Column("beat_at", sa.Float, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analyses")
