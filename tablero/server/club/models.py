"""The seeks' tables: an offer of a game, and the accounts that have joined it."""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..store.models import Base

__all__ = ["SeekPlayerRow", "SeekRow"]


class SeekRow(Base):
    __tablename__ = "seeks"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    """Who offers the game (it sits at the first seat)."""
    variant: Mapped[str] = mapped_column(String(32))
    seats: Mapped[int] = mapped_column(Integer)
    clock_minutes: Mapped[int | None] = mapped_column(Integer)
    days_per_move: Mapped[int | None] = mapped_column(Integer)
    """A correspondence game (then ``clock_minutes`` is None)."""
    rated: Mapped[bool] = mapped_column(Boolean)
    state: Mapped[str] = mapped_column(String(12), index=True)
    """open, taken (its table exists: ``table_id``), cancelled."""
    table_id: Mapped[str | None] = mapped_column(String(16))
    created_at: Mapped[float] = mapped_column(Float)


class SeekPlayerRow(Base):
    __tablename__ = "seek_players"

    seek_id: Mapped[str] = mapped_column(
        ForeignKey("seeks.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    joined_at: Mapped[float] = mapped_column(Float)
