"""More than one process, and limits: each table's stored event count (``seq``), the lease of
the process that keeps its clock and bots, and who created tables and uploads.

Revision ID: v0002
Revises: v0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0002"
down_revision = "v0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("seq", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("owner", sa.String(64), nullable=True))
        batch.add_column(sa.Column("lease_until", sa.Float, nullable=True))
        batch.add_column(sa.Column("creator", sa.String(64), nullable=True))
    op.execute(
        "UPDATE game_tables SET seq = "
        "(SELECT COUNT(*) FROM events WHERE events.table_id = game_tables.id)"
    )
    op.create_index("ix_game_tables_creator", "game_tables", ["creator", "state"])
    with op.batch_alter_table("uploaded_variants") as batch:
        batch.add_column(sa.Column("creator", sa.String(64), nullable=True))
        batch.add_column(sa.Column("last_used_at", sa.Float, nullable=True))
    op.execute("UPDATE uploaded_variants SET last_used_at = created_at")
    op.create_index("ix_uploaded_variants_creator", "uploaded_variants", ["creator"])


def downgrade() -> None:
    op.drop_index("ix_uploaded_variants_creator", "uploaded_variants")
    with op.batch_alter_table("uploaded_variants") as batch:
        batch.drop_column("last_used_at")
        batch.drop_column("creator")
    op.drop_index("ix_game_tables_creator", "game_tables")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("creator")
        batch.drop_column("lease_until")
        batch.drop_column("owner")
        batch.drop_column("seq")
