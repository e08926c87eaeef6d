"""Hints: a table may let its players ask the engine for their best moves.

Revision ID: v0010
Revises: v0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0010"
down_revision = "v0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("hints")
