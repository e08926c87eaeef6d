"""A table as the server holds it: its options and seats (what the game log cannot say).

Plain data shared by the store (which reads and writes it), the live rooms and the views.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field

from ...lexicon.amend import WordChanges
from ...variant import Variant

__all__ = ["DAY", "SeatInfo", "TableInfo", "hash_token", "new_table_id", "new_token"]

DAY = 86_400
"""Seconds in a day: a correspondence table's unit of time."""


def new_table_id() -> str:
    return secrets.token_hex(5)


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """Only the hash is stored: a leaked database does not seat anyone."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class SeatInfo:
    seat: int
    kind: str
    """open, human, bot."""
    nickname: str | None = None
    bot_level: int | None = None
    token_hash: str | None = None
    account_id: int | None = None
    """The account the seat belongs to (its session acts for the seat); None for guests."""

    def holds(self, token: str) -> bool:
        return self.token_hash is not None and hmac.compare_digest(
            self.token_hash, hash_token(token)
        )


@dataclass
class TableInfo:
    id: str
    variant_ref: str
    variant: Variant
    """The rule set with the table's time control applied."""
    title: str | None
    language: str | None
    clock_seconds: int | None
    dictionary_hints: bool
    state: str
    """waiting, playing, over."""
    created_at: float
    turn_started_at: float | None = None
    seats: list[SeatInfo] = field(default_factory=list)
    rated: bool = True
    """The table asks to be rated (whether it is depends on who sits: ``ratings``)."""
    quiet_spectators: bool = False
    """Spectators' chat is kept from the players while the game is in play."""
    hints: bool = False
    """Players may ask the engine for their best moves (never at a rated table)."""
    clock_per_move: bool = False
    """``clock_seconds`` is the time for each move: a correspondence game."""
    rematch_asked: tuple[int, ...] = ()
    """Seats that asked for a rematch of the finished game."""
    rematch_table: str | None = None
    """The rematch's table, once every player has asked."""
    word_changes: WordChanges = field(default_factory=WordChanges)
    """The words the table's creator added to the dictionary and banned from it (``variant``
    has them applied, with any of its rule file's own)."""

    @property
    def days_per_move(self) -> int | None:
        """A correspondence game's days for each move; None for any other table."""
        if not self.clock_per_move or self.clock_seconds is None:
            return None
        return self.clock_seconds // DAY

    @property
    def clock_minutes(self) -> int | None:
        """The minutes each player has for the game; None untimed or by correspondence."""
        if self.clock_per_move or self.clock_seconds is None:
            return None
        return max(1, round(self.clock_seconds / 60))

    def seat_of(self, token: str) -> SeatInfo | None:
        return next((s for s in self.seats if s.holds(token)), None)

    def seat_of_account(self, account_id: int) -> SeatInfo | None:
        return next((s for s in self.seats if s.account_id == account_id), None)

    @property
    def names(self) -> list[str]:
        return [s.nickname or f"Seat {s.seat + 1}" for s in self.seats]
