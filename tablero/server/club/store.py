"""Seeks in the database. Taking a seek and creating its table commit together: the seek's
row is locked while an acceptor joins, so two players who accept the last place at once
(on one process or two) cannot both get it, and a taken seek always has its table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Engine, delete, func, select
from sqlalchemy import exc as sa_exc
from sqlalchemy.orm import Session

from ...game import Event
from ..accounts.models import AccountRow
from ..store.tables import guard, insert_table
from ..tables.info import SeatInfo
from .models import SeekPlayerRow, SeekRow

__all__ = [
    "Seek",
    "SeekClash",
    "cancel_seek",
    "count_open",
    "create_seek",
    "get_seek",
    "list_open",
    "take_or_join",
]


@dataclass(frozen=True)
class Seek:
    id: str
    account_id: int
    seeker: str
    variant: str
    seats: int
    clock_minutes: int | None
    days_per_move: int | None
    rated: bool
    state: str
    table_id: str | None
    created_at: float
    players: tuple[tuple[str, int], ...]
    """(username, account id) of everyone in it, the seeker first, then in joining order."""


class SeekClash(Exception):
    """The seek changed between the acceptor's look and its accept (someone else joined):
    the caller looks again."""


def _players(s: Session, seek: SeekRow) -> tuple[tuple[str, int], ...]:
    rows = s.execute(
        select(AccountRow.username, AccountRow.id)
        .join(SeekPlayerRow, SeekPlayerRow.account_id == AccountRow.id)
        .where(SeekPlayerRow.seek_id == seek.id)
        .order_by(SeekPlayerRow.joined_at, SeekPlayerRow.account_id)
    ).all()
    joined = [(name, i) for name, i in rows if i != seek.account_id]
    seeker = s.scalar(select(AccountRow.username).where(AccountRow.id == seek.account_id))
    return ((seeker or "?", seek.account_id), *joined)


def _seek(s: Session, row: SeekRow) -> Seek:
    players = _players(s, row)
    return Seek(
        row.id,
        row.account_id,
        players[0][0],
        row.variant,
        row.seats,
        row.clock_minutes,
        row.days_per_move,
        row.rated,
        row.state,
        row.table_id,
        row.created_at,
        players,
    )


def create_seek(
    engine: Engine,
    seek_id: str,
    account_id: int,
    variant: str,
    seats: int,
    clock_minutes: int | None,
    days_per_move: int | None,
    rated: bool,
    now: float,
) -> None:
    with guard(engine), Session(engine) as s, s.begin():
        s.add(
            SeekRow(
                id=seek_id,
                account_id=account_id,
                variant=variant,
                seats=seats,
                clock_minutes=clock_minutes,
                days_per_move=days_per_move,
                rated=rated,
                state="open",
                table_id=None,
                created_at=now,
            )
        )
        s.flush()
        s.add(SeekPlayerRow(seek_id=seek_id, account_id=account_id, joined_at=now))


def count_open(engine: Engine, account_id: int) -> int:
    with guard(engine), Session(engine) as s:
        return int(
            s.scalar(
                select(func.count())
                .select_from(SeekRow)
                .where(SeekRow.account_id == account_id, SeekRow.state == "open")
            )
            or 0
        )


def get_seek(engine: Engine, seek_id: str) -> Seek | None:
    with guard(engine), Session(engine) as s:
        row = s.get(SeekRow, seek_id)
        return _seek(s, row) if row else None


def list_open(engine: Engine, limit: int = 200) -> list[Seek]:
    """Open seeks, the newest first."""
    with guard(engine), Session(engine) as s:
        rows = s.scalars(
            select(SeekRow)
            .where(SeekRow.state == "open")
            .order_by(SeekRow.created_at.desc())
            .limit(limit)
        ).all()
        return [_seek(s, r) for r in rows]


def take_or_join(
    engine: Engine,
    seek_id: str,
    account_id: int,
    seen_players: int,
    table: tuple[dict[str, object], Sequence[SeatInfo], Sequence[Event]] | None,
    now: float,
) -> Seek:
    """Join the seek; if that fills it, create its table (``table``: the rows ``plan_table``
    made for exactly these players) and mark it taken, in one transaction. ``SeekClash`` if
    the seek no longer has ``seen_players`` players (the caller looks again)."""
    with guard(engine), Session(engine) as s, s.begin():
        row = s.get(SeekRow, seek_id, with_for_update=True)
        if row is None:
            raise LookupError(seek_id)
        current = _players(s, row)
        if row.state != "open":
            return _seek(s, row)
        if len(current) != seen_players:
            raise SeekClash()
        try:
            s.add(SeekPlayerRow(seek_id=seek_id, account_id=account_id, joined_at=now))
            s.flush()
        except sa_exc.IntegrityError:
            raise SeekClash() from None
        if seen_players + 1 == row.seats:
            assert table is not None, "the last place needs the table"
            table_row, seats, events = table
            insert_table(s, dict(table_row), seats, events)
            row.state = "taken"
            row.table_id = str(table_row["id"])
        return _seek(s, row)


def cancel_seek(engine: Engine, seek_id: str) -> bool:
    """Withdraw an open seek (its joiners leave it). False if it is no longer open."""
    with guard(engine), Session(engine) as s, s.begin():
        row = s.get(SeekRow, seek_id, with_for_update=True)
        if row is None or row.state != "open":
            return False
        row.state = "cancelled"
        s.execute(delete(SeekPlayerRow).where(SeekPlayerRow.seek_id == seek_id))
        return True
