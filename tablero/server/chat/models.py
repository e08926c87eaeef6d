"""The chat's table: every line said at a table, numbered from 1."""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..store.models import Base

__all__ = ["ChatLineRow"]


class ChatLineRow(Base):
    __tablename__ = "chat_lines"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    """The line's number at its table, from 1; the key makes two writers of one number fail."""
    seat: Mapped[int | None] = mapped_column(Integer)
    """The author's seat, or None for a spectator."""
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"))
    author: Mapped[str] = mapped_column(String(100))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[float] = mapped_column(Float)
