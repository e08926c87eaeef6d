"""The tables in the database (SQLAlchemy 2 ORM).

A game is its event log: ``events`` holds every event of ``Game.log`` as JSON text, numbered
from 0, and a table's state is rebuilt with ``Game.replay``. Everything else is what the log
cannot hold: who sits where (and the hash of their secret token), the table's options, and
the time the current turn started (the clocks). Times are Unix seconds.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, LargeBinary, String, Text
from sqlalchemy import false as sa_false
from sqlalchemy import true as sa_true
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "Base",
    "EventRow",
    "SeatRow",
    "TableRow",
    "UploadedVariantRow",
    "UploadedWordListRow",
]


class Base(DeclarativeBase):
    pass


class UploadedVariantRow(Base):
    __tablename__ = "uploaded_variants"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    title: Mapped[str] = mapped_column(String(200))
    toml: Mapped[str] = mapped_column(Text)
    created_at: Mapped[float] = mapped_column(Float)
    creator: Mapped[str | None] = mapped_column(String(64))
    """A hash of the uploader's address: uploads are counted per address (a quota)."""
    last_used_at: Mapped[float | None] = mapped_column(Float)
    """When a table last used it; an upload unused for long is deleted."""

    __table_args__ = (Index("ix_uploaded_variants_creator", "creator"),)


class UploadedWordListRow(Base):
    """A word list uploaded for rule files to play with (``server/wordlists.py``)."""

    __tablename__ = "uploaded_word_lists"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    """``wl-`` and 16 hex digits of the list's digest: the name rule files give it."""
    name: Mapped[str] = mapped_column(String(100))
    language: Mapped[str] = mapped_column(String(8))
    word_count: Mapped[int] = mapped_column(Integer)
    packed: Mapped[bytes] = mapped_column(LargeBinary)
    """The words, normalised and sorted, one per line, packed with xz."""
    created_at: Mapped[float] = mapped_column(Float)
    creator: Mapped[str | None] = mapped_column(String(64))
    """A hash of the uploader's address: lists are counted per address (a quota)."""

    __table_args__ = (Index("ix_uploaded_word_lists_creator", "creator"),)


class TableRow(Base):
    __tablename__ = "game_tables"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    variant_ref: Mapped[str] = mapped_column(String(32))
    """A built-in variant name or an uploaded variant's id."""
    title: Mapped[str | None] = mapped_column(String(240))
    language: Mapped[str | None] = mapped_column(String(8))
    clock_seconds: Mapped[int | None] = mapped_column(Integer)
    """Each player's time (None: untimed); the timeout rule is the variant's."""
    clock_per_move: Mapped[bool] = mapped_column(Boolean, server_default=sa_false())
    """``clock_seconds`` is the time for each move (correspondence: days per move)."""
    dictionary_hints: Mapped[bool] = mapped_column(Boolean, default=False)
    state: Mapped[str] = mapped_column(String(16), index=True)
    """waiting, playing, over."""
    turn_started_at: Mapped[float | None] = mapped_column(Float)
    to_move: Mapped[int | None] = mapped_column(Integer)
    """The seat whose turn it is while the game is played (for lists such as "my games",
    which must not replay every game to know it)."""
    clock_paused_at: Mapped[float | None] = mapped_column(Float)
    """Set at a clean shutdown: the time until the next start is not charged to anyone."""
    created_at: Mapped[float] = mapped_column(Float, index=True)
    updated_at: Mapped[float] = mapped_column(Float)
    seq: Mapped[int] = mapped_column(Integer, server_default="0")
    """How many events are stored. A writer appends only if it saw this count: two processes
    never both store a move at the same ``seq`` (the update locks the row)."""
    owner: Mapped[str | None] = mapped_column(String(64))
    """The process that keeps this table's clock and bots, while ``lease_until`` is ahead."""
    lease_until: Mapped[float | None] = mapped_column(Float)
    creator: Mapped[str | None] = mapped_column(String(64))
    """A hash of the creator's address: the lobby shows a few waiting tables per address."""
    quiet_spectators: Mapped[bool] = mapped_column(Boolean, server_default=sa_false())
    hints: Mapped[bool] = mapped_column(Boolean, server_default=sa_false())
    """Players may ask the engine for their best moves (the table is then never rated)."""
    """The players do not get the spectators' chat while the game is in play."""
    rated: Mapped[bool] = mapped_column(Boolean, server_default=sa_true())
    """The table's option: rated if who sits allows it (``ratings/store.py``)."""
    rematch: Mapped[str | None] = mapped_column(Text)
    """Once the game is over: ``{"asked": [seats], "table": id or null}``, the players who
    asked for a rematch and the new table once all have (``tables.ask_rematch``)."""
    word_changes: Mapped[str | None] = mapped_column(Text)
    """The club's words the table adds to its dictionary and bans from it, as JSON
    ``{"add": [...], "remove": [...]}`` (normalised: as the game's tiles spell them); None
    for a table that plays by the dictionary as it is."""
    lexicon: Mapped[str | None] = mapped_column(String(32))
    """The dictionary the table chose (``tablero lexicon add`` installed it on the server);
    None: the game's own."""
    rating: Mapped[str | None] = mapped_column(String(8))
    """Once the game is over: ``rated`` (the ratings were updated) or ``unrated``; None
    until then, and while a finished game waits for its ratings (they are retried)."""

    __table_args__ = (
        Index("ix_game_tables_creator", "creator", "state"),
        Index("ix_game_tables_state_rating", "state", "rating"),
    )


class SeatRow(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    """open, human, bot."""
    nickname: Mapped[str | None] = mapped_column(String(100))
    bot_level: Mapped[int | None] = mapped_column(Integer)
    token_hash: Mapped[str | None] = mapped_column(String(64))
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), index=True
    )
    """The account whose seat this is (None: a guest's or a bot's): its session cookie acts
    for the seat, from any browser."""


class EventRow(Base):
    __tablename__ = "events"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    """The event's index in the game log; the primary key makes a second writer fail."""
    data: Mapped[str] = mapped_column(Text)
    created_at: Mapped[float] = mapped_column(Float)
