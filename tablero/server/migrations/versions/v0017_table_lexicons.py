"""A table, a duplicate room and a tournament may play with a dictionary the operator
installed (``tablero lexicon add fise2 …``) instead of the game's own: its name, or None.

Revision ID: v0017
Revises: v0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0017"
down_revision = "v0016"
branch_labels = None
depends_on = None

TABLES = ("game_tables", "duplicate_rooms", "tournaments")


def upgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("lexicon", sa.String(32), nullable=True))


def downgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            batch.drop_column("lexicon")
