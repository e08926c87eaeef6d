"""Tournaments: the tournament, its players, the boards of its rounds, the director's audit.

Revision ID: v0013
Revises: v0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0013"
down_revision = "v0012"
branch_labels = None
depends_on = None


def _account(name: str, nullable: bool = False, primary_key: bool = False) -> sa.Column[int]:
    return sa.Column(
        name,
        sa.Integer,
        sa.ForeignKey("accounts.id", ondelete="CASCADE"),
        nullable=nullable,
        primary_key=primary_key,
    )


def _tournament(primary_key: bool = False) -> sa.Column[str]:
    return sa.Column(
        "tournament_id",
        sa.String(16),
        sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
        nullable=False,
        primary_key=primary_key,
    )


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        _account("director_id"),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("rounds", sa.Integer, nullable=True),
        sa.Column("clock_minutes", sa.Integer, nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("max_players", sa.Integer, nullable=False),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("paused", sa.Boolean, nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("started_at", sa.Float, nullable=True),
        sa.Column("finished_at", sa.Float, nullable=True),
    )
    op.create_index("ix_tournaments_state", "tournaments", ["state"])
    op.create_table(
        "tournament_players",
        _tournament(primary_key=True),
        _account("account_id", primary_key=True),
        sa.Column("registered_at", sa.Float, nullable=False),
        sa.Column("seed", sa.Integer, nullable=True),
        sa.Column("removed_after", sa.Integer, nullable=True),
    )
    op.create_table(
        "tournament_games",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _tournament(),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("board", sa.Integer, nullable=False),
        _account("first_id"),
        _account("second_id", nullable=True),
        sa.Column(
            "table_id", sa.String(16), sa.ForeignKey("game_tables.id"), nullable=True, unique=True
        ),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("first_score", sa.Integer, nullable=True),
        sa.Column("second_score", sa.Integer, nullable=True),
        sa.Column("points", sa.Float, nullable=True),
        sa.Column("spread", sa.Integer, nullable=True),
        sa.Column("source", sa.String(12), nullable=True),
        sa.Column("ended_at", sa.Float, nullable=True),
        sa.UniqueConstraint("tournament_id", "round", "board", name="uq_tournament_games_board"),
    )
    op.create_index("ix_tournament_games_tournament_id", "tournament_games", ["tournament_id"])
    op.create_table(
        "tournament_audit",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _tournament(),
        sa.Column("at", sa.Float, nullable=False),
        _account("account_id"),
        sa.Column("action", sa.String(24), nullable=False),
        sa.Column("round", sa.Integer, nullable=True),
        sa.Column("board", sa.Integer, nullable=True),
        _account("player_id", nullable=True),
        sa.Column("reason", sa.String(200), nullable=True),
        sa.Column("before", sa.Text, nullable=True),
        sa.Column("after", sa.Text, nullable=True),
    )
    op.create_index("ix_tournament_audit_tournament_id", "tournament_audit", ["tournament_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_audit_tournament_id", "tournament_audit")
    op.drop_table("tournament_audit")
    op.drop_index("ix_tournament_games_tournament_id", "tournament_games")
    op.drop_table("tournament_games")
    op.drop_table("tournament_players")
    op.drop_index("ix_tournaments_state", "tournaments")
    op.drop_table("tournaments")
