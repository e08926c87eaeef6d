"""Duplicate series: a tournament's games played as duplicate rooms of its whole field.

A tournament gains ``round_seconds`` (a duplicate round's time; None for Swiss and round
robin) and ``game_rounds`` (a series' games stop after so many rounds; None: to the end); a
duplicate room the ``tournament_id`` of the series it belongs to (only its players play in
it); each game of a series is a row of ``tournament_series_games`` (the round of the
tournament and its room) and each player's result in it a row of
``tournament_series_scores``.

Revision ID: v0016
Revises: v0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0016"
down_revision = "v0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("round_seconds", sa.Integer, nullable=True))
        batch.add_column(sa.Column("game_rounds", sa.Integer, nullable=True))
    with op.batch_alter_table("duplicate_rooms") as batch:
        batch.add_column(sa.Column("tournament_id", sa.String(16), nullable=True))
        batch.create_foreign_key(
            "fk_duplicate_rooms_tournament_id",
            "tournaments",
            ["tournament_id"],
            ["id"],
            ondelete="CASCADE",
        )
    op.create_table(
        "tournament_series_games",
        sa.Column(
            "tournament_id",
            sa.String(16),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column(
            "room_id",
            sa.String(16),
            sa.ForeignKey("duplicate_rooms.id", ondelete="CASCADE"),
            nullable=False,
            unique=True,
        ),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("ended_at", sa.Float, nullable=True),
    )
    op.create_table(
        "tournament_series_scores",
        sa.Column(
            "tournament_id",
            sa.String(16),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("score", sa.Integer, nullable=True),
        sa.Column("top_total", sa.Integer, nullable=True),
        sa.Column("tops", sa.Integer, nullable=True),
        sa.Column("source", sa.String(12), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("tournament_series_scores")
    op.drop_table("tournament_series_games")
    with op.batch_alter_table("duplicate_rooms") as batch:
        batch.drop_constraint("fk_duplicate_rooms_tournament_id", type_="foreignkey")
        batch.drop_column("tournament_id")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("game_rounds")
        batch.drop_column("round_seconds")
