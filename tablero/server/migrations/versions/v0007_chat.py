"""Table chat: every line said at a table; a table may keep spectators' lines from the
players during the game.

Revision ID: v0007
Revises: v0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0007"
down_revision = "v0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_lines",
        sa.Column(
            "table_id",
            sa.String(16),
            sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("author", sa.String(100), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(
            sa.Column("quiet_spectators", sa.Boolean, nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("quiet_spectators")
    op.drop_table("chat_lines")
