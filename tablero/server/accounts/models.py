"""The accounts' tables (SQLAlchemy 2 ORM), beside the tables' own in ``store/models.py``.

Secrets are stored as hashes only: the password as Argon2id, a session id as SHA-256 (a
session id is 256 random bits: a fast hash is enough, and a leaked database logs no one in).
"""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..store.models import Base

__all__ = ["AccountRow", "SessionRow"]


class AccountRow(Base):
    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    username: Mapped[str] = mapped_column(String(80))
    """As its owner wrote it (NFC): shown on profiles and at tables."""
    username_key: Mapped[str] = mapped_column(String(80), unique=True)
    """The case-folded name (``names.username_key``): one account per name, whatever the case."""
    password_hash: Mapped[str] = mapped_column(String(255))
    prefs: Mapped[str] = mapped_column(Text, default="{}")
    """Personal options as JSON (``prefs.Prefs``)."""
    created_at: Mapped[float] = mapped_column(Float)


class SessionRow(Base):
    __tablename__ = "sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float, index=True)
    """Pushed forward as the session is used (at most once an hour): it ends after
    ``sessions.IDLE_DAYS`` without use."""
