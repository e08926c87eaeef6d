"""Ratings: each player's rating per game and every change; a table's rated option and
whether its finished game has been rated.

Revision ID: v0004
Revises: v0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0004"
down_revision = "v0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.true()))
        batch.add_column(sa.Column("rating", sa.String(8), nullable=True))
    # Games finished before ratings existed are not rated (nobody had an account then).
    op.execute("UPDATE game_tables SET rating = 'unrated' WHERE state = 'over'")
    op.create_index("ix_game_tables_state_rating", "game_tables", ["state", "rating"])
    op.create_table(
        "ratings",
        sa.Column("player", sa.String(40), primary_key=True),
        sa.Column("variant", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("player", sa.String(40), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("rating_before", sa.Integer, nullable=False),
        sa.Column("rating_after", sa.Integer, nullable=False),
        sa.Column("games_after", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("table_id", "seat", name="uq_rating_changes_table_seat"),
    )
    op.create_index("ix_rating_changes_player", "rating_changes", ["player"])


def downgrade() -> None:
    op.drop_index("ix_rating_changes_player", "rating_changes")
    op.drop_table("rating_changes")
    op.drop_table("ratings")
    op.drop_index("ix_game_tables_state_rating", "game_tables")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("rating")
        batch.drop_column("rated")
