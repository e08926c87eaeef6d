"""Word lists uploaded for rule files to play with.

Revision ID: v0012
Revises: v0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0012"
down_revision = "v0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "uploaded_word_lists",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("word_count", sa.Integer, nullable=False),
        sa.Column("packed", sa.LargeBinary, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("creator", sa.String(64), nullable=True),
    )
    op.create_index("ix_uploaded_word_lists_creator", "uploaded_word_lists", ["creator"])


def downgrade() -> None:
    op.drop_index("ix_uploaded_word_lists_creator", table_name="uploaded_word_lists")
    op.drop_table("uploaded_word_lists")
