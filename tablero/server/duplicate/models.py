"""The duplicate rooms' tables: a room, its players, the game's log, and the times of its rounds.

A room's game is the library's log (``DuplicateGame.to_json()["log"]``), one JSON event per row
of ``duplicate_events``, numbered from 0 (the ``start`` event, which holds the seed): the
game is rebuilt by replaying it (``DuplicateGame.replay``), so a restarted server loses
nothing. The rest is what the log cannot hold: who a player is (a guest's token hash, an
account), the room's options, and when each round opens and must close (the server's clock).
"""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ..store.models import Base

__all__ = ["DuplicateEventRow", "DuplicatePlayerRow", "DuplicateRoomRow", "DuplicateRoundRow"]


class DuplicateRoomRow(Base):
    __tablename__ = "duplicate_rooms"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    variant: Mapped[str] = mapped_column(String(32))
    """A built-in game's name."""
    lexicon: Mapped[str | None] = mapped_column(String(32))
    """A dictionary installed on the server, played instead of the game's own (None)."""
    title: Mapped[str | None] = mapped_column(String(80))
    state: Mapped[str] = mapped_column(String(12))
    """waiting (players join; the creator starts it), playing, over."""
    creator: Mapped[str] = mapped_column(String(40))
    """The creator's name as a player of the room (the first to join)."""
    round_seconds: Mapped[int] = mapped_column(Integer)
    max_rounds: Mapped[int | None] = mapped_column(Integer)
    """None: play until the rack rule ends the game."""
    solo_bonus: Mapped[int] = mapped_column(Integer)
    pause_seconds: Mapped[int] = mapped_column(Integer)
    """Between a round's close and the next round's opening (the creator may open it sooner)."""
    seq: Mapped[int] = mapped_column(Integer)
    """Events of the game's log stored."""
    round: Mapped[int] = mapped_column(Integer)
    """The round being played or about to open (0 while waiting; the last one once over)."""
    opens_at: Mapped[float | None] = mapped_column(Float)
    """When the current round's rack is shown and submissions open (after the pause)."""
    deadline: Mapped[float | None] = mapped_column(Float)
    """When the current round closes at the latest: ``opens_at + round_seconds``."""
    created_at: Mapped[float] = mapped_column(Float)
    started_at: Mapped[float | None] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float)
    tournament_id: Mapped[str | None] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE")
    )
    """The duplicate series this room is a game of (only its players play; no creator)."""

    __table_args__ = (Index("ix_duplicate_rooms_state_deadline", "state", "deadline"),)


class DuplicatePlayerRow(Base):
    __tablename__ = "duplicate_players"

    room_id: Mapped[str] = mapped_column(
        ForeignKey("duplicate_rooms.id", ondelete="CASCADE"), primary_key=True
    )
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    """0 for the creator, then in the order they joined (the game's order)."""
    name: Mapped[str] = mapped_column(String(40))
    """As the game knows the player: an account's username, a guest's nickname."""
    name_key: Mapped[str] = mapped_column(String(40))
    """The name case-folded: unique in a room (the game's rule)."""
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    token_hash: Mapped[str | None] = mapped_column(String(64))
    """A guest's secret token, hashed (SHA-256); None for an account."""
    joined_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (
        UniqueConstraint("room_id", "name_key", name="uq_duplicate_players_name"),
        UniqueConstraint("room_id", "account_id", name="uq_duplicate_players_account"),
    )


class DuplicateEventRow(Base):
    __tablename__ = "duplicate_events"

    room_id: Mapped[str] = mapped_column(
        ForeignKey("duplicate_rooms.id", ondelete="CASCADE"), primary_key=True
    )
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    data: Mapped[str] = mapped_column(Text)
    """One event of the library's log, as JSON."""


class DuplicateRoundRow(Base):
    __tablename__ = "duplicate_rounds"

    room_id: Mapped[str] = mapped_column(
        ForeignKey("duplicate_rooms.id", ondelete="CASCADE"), primary_key=True
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    opens_at: Mapped[float] = mapped_column(Float)
    deadline: Mapped[float] = mapped_column(Float)
    closed_at: Mapped[float | None] = mapped_column(Float)
    closed_by: Mapped[str | None] = mapped_column(String(8))
    """time (the limit passed), all (every player had played), stop (the creator ended the
    game: the round was not played)."""
