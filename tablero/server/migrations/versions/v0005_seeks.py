"""Seeks: open offers of a game, and the accounts that joined them.

Revision ID: v0005
Revises: v0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0005"
down_revision = "v0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("clock_minutes", sa.Integer, nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("table_id", sa.String(16), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_seeks_state", "seeks", ["state"])
    op.create_table(
        "seek_players",
        sa.Column(
            "seek_id",
            sa.String(16),
            sa.ForeignKey("seeks.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("joined_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("seek_players")
    op.drop_index("ix_seeks_state", "seeks")
    op.drop_table("seeks")
