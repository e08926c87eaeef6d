"""Duplicate rooms: the room, its players, its game's log, the times of its rounds.

Revision ID: v0014
Revises: v0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0014"
down_revision = "v0013"
branch_labels = None
depends_on = None


def _room(primary_key: bool = True) -> sa.Column[str]:
    return sa.Column(
        "room_id",
        sa.String(16),
        sa.ForeignKey("duplicate_rooms.id", ondelete="CASCADE"),
        nullable=False,
        primary_key=primary_key,
    )


def upgrade() -> None:
    op.create_table(
        "duplicate_rooms",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("title", sa.String(80), nullable=True),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("creator", sa.String(40), nullable=False),
        sa.Column("round_seconds", sa.Integer, nullable=False),
        sa.Column("max_rounds", sa.Integer, nullable=True),
        sa.Column("solo_bonus", sa.Integer, nullable=False),
        sa.Column("pause_seconds", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("opens_at", sa.Float, nullable=True),
        sa.Column("deadline", sa.Float, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("started_at", sa.Float, nullable=True),
        sa.Column("finished_at", sa.Float, nullable=True),
    )
    op.create_index("ix_duplicate_rooms_state_deadline", "duplicate_rooms", ["state", "deadline"])
    op.create_table(
        "duplicate_players",
        _room(),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False),
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=True,
        ),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("joined_at", sa.Float, nullable=False),
        sa.UniqueConstraint("room_id", "name_key", name="uq_duplicate_players_name"),
        sa.UniqueConstraint("room_id", "account_id", name="uq_duplicate_players_account"),
    )
    op.create_table(
        "duplicate_events",
        _room(),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("data", sa.Text, nullable=False),
    )
    op.create_table(
        "duplicate_rounds",
        _room(),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("opens_at", sa.Float, nullable=False),
        sa.Column("deadline", sa.Float, nullable=False),
        sa.Column("closed_at", sa.Float, nullable=True),
        sa.Column("closed_by", sa.String(8), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("duplicate_rounds")
    op.drop_table("duplicate_events")
    op.drop_table("duplicate_players")
    op.drop_index("ix_duplicate_rooms_state_deadline", "duplicate_rooms")
    op.drop_table("duplicate_rooms")
