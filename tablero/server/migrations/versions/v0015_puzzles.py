"""Puzzles: the puzzles served, their solvers' ratings, every attempt, the games scanned.

Revision ID: v0015
Revises: v0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0015"
down_revision = "v0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzles",
        sa.Column("id", sa.String(48), primary_key=True),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("origin", sa.String(12), nullable=False),
        sa.Column(
            "table_id",
            sa.String(16),
            sa.ForeignKey("game_tables.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_puzzles_variant_rating", "puzzles", ["variant", "rating"])
    op.create_index("ix_puzzles_table_id", "puzzles", ["table_id"])
    op.create_table(
        "puzzle_solvers",
        sa.Column("player", sa.String(48), primary_key=True),
        sa.Column("variant", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("streak", sa.Integer, nullable=False),
        sa.Column("best_streak", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_puzzle_solvers_updated_at", "puzzle_solvers", ["updated_at"])
    op.create_table(
        "puzzle_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "puzzle_id",
            sa.String(48),
            sa.ForeignKey("puzzles.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("player", sa.String(48), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("move", sa.String(200), nullable=True),
        sa.Column("correct", sa.Boolean, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("solver_before", sa.Integer, nullable=True),
        sa.Column("solver_after", sa.Integer, nullable=True),
        sa.Column("puzzle_before", sa.Integer, nullable=True),
        sa.Column("puzzle_after", sa.Integer, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_puzzle_attempts_player_puzzle", "puzzle_attempts", ["player", "puzzle_id"])
    op.create_table(
        "puzzle_scans",
        sa.Column(
            "table_id",
            sa.String(16),
            sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("owner", sa.String(64), nullable=True),
        sa.Column("found", sa.Integer, nullable=False),
        sa.Column("reason", sa.String(200), nullable=True),
        sa.Column("updated_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("puzzle_scans")
    op.drop_index("ix_puzzle_attempts_player_puzzle", "puzzle_attempts")
    op.drop_table("puzzle_attempts")
    op.drop_index("ix_puzzle_solvers_updated_at", "puzzle_solvers")
    op.drop_table("puzzle_solvers")
    op.drop_index("ix_puzzles_table_id", "puzzles")
    op.drop_index("ix_puzzles_variant_rating", "puzzles")
    op.drop_table("puzzles")
