"""A club's own words: a table may add words to its dictionary and ban others.

Revision ID: v0011
Revises: v0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0011"
down_revision = "v0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("word_changes", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("word_changes")
