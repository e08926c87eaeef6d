"""The ratings' tables: the current rating of each (player, game), and every change of it.

A player is a key (``players.py``): ``account:<id>`` or ``bot:<level name>``. The changes
are the history a profile draws, and they make rating a game happen once: ``(table_id,
seat)`` is unique, so a second attempt to rate the same game fails and changes nothing.
"""

from __future__ import annotations

from sqlalchemy import Float, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ..store.models import Base

__all__ = ["RatingChangeRow", "RatingRow"]


class RatingRow(Base):
    __tablename__ = "ratings"

    player: Mapped[str] = mapped_column(String(40), primary_key=True)
    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[float] = mapped_column(Float)


class RatingChangeRow(Base):
    __tablename__ = "rating_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int] = mapped_column(Integer)
    player: Mapped[str] = mapped_column(String(40), index=True)
    variant: Mapped[str] = mapped_column(String(32))
    place: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    rating_before: Mapped[int] = mapped_column(Integer)
    rating_after: Mapped[int] = mapped_column(Integer)
    games_after: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (UniqueConstraint("table_id", "seat", name="uq_rating_changes_table_seat"),)
