"""Correspondence games: a table's clock may be a time per move (N days), and a seek may
offer one.

Revision ID: v0008
Revises: v0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0008"
down_revision = "v0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(
            sa.Column("clock_per_move", sa.Boolean, nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("seeks") as batch:
        batch.add_column(sa.Column("days_per_move", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seeks") as batch:
        batch.drop_column("days_per_move")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("clock_per_move")
