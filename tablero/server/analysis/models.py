"""The analyses' table: one per finished game and method, its progress and its result."""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..store.models import Base

__all__ = ["AnalysisRow"]


class AnalysisRow(Base):
    __tablename__ = "analyses"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    method: Mapped[str] = mapped_column(String(8), primary_key=True)
    """static or sim."""
    state: Mapped[str] = mapped_column(String(10))
    """running, done or failed."""
    done: Mapped[int] = mapped_column(Integer)
    """Moves judged so far."""
    total: Mapped[int] = mapped_column(Integer)
    moves: Mapped[str] = mapped_column(Text)
    """The moves judged so far, as a JSON list: a run that stops goes on from them."""
    result: Mapped[str | None] = mapped_column(Text)
    """The whole analysis as JSON, once done."""
    error: Mapped[str | None] = mapped_column(Text)
    owner: Mapped[str | None] = mapped_column(String(64))
    """The process running it; another takes over when ``beat_at`` is older than
    ``service.STALE_AFTER``."""
    beat_at: Mapped[float] = mapped_column(Float)
    created_at: Mapped[float] = mapped_column(Float)
