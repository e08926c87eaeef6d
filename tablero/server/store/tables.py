"""Reading and writing tables in the database. Every function is one transaction, and runs
in a worker thread (the callers use ``asyncio.to_thread``): a move is committed before the
server acknowledges or broadcasts it.

Events are appended with their index as part of the primary key, so if two writers ever
raced on one table, the second would fail instead of forking the game.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, func, select, update
from sqlalchemy.orm import Session

from ...game import Event
from ..tables.info import SeatInfo
from .models import EventRow, SeatRow, TableRow, UploadedVariantRow

__all__ = [
    "StoredTable",
    "append_events",
    "create_table",
    "encode_event",
    "get_upload",
    "list_tables",
    "load_table",
    "pause_clocks",
    "playing_table_ids",
    "resume_clocks",
    "save_upload",
    "set_seat",
]


def encode_event(event: Event) -> str:
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))


@dataclass
class StoredTable:
    row: dict[str, Any]
    seats: list[SeatInfo]
    events: list[Event]


def _row_dict(row: TableRow) -> dict[str, Any]:
    return {c.key: getattr(row, c.key) for c in TableRow.__table__.columns}


def _seat_info(row: SeatRow) -> SeatInfo:
    return SeatInfo(row.seat, row.kind, row.nickname, row.bot_level, row.token_hash)


def save_upload(
    engine: Engine, upload_id: str, name: str, title: str, toml: str, now: float
) -> None:
    with Session(engine) as s, s.begin():
        s.add(UploadedVariantRow(id=upload_id, name=name, title=title, toml=toml, created_at=now))


def get_upload(engine: Engine, upload_id: str) -> str | None:
    with Session(engine) as s:
        row = s.get(UploadedVariantRow, upload_id)
        return None if row is None else row.toml


def create_table(
    engine: Engine,
    row: dict[str, Any],
    seats: Sequence[SeatInfo],
    events: Sequence[Event],
) -> None:
    with Session(engine) as s, s.begin():
        s.add(TableRow(**row))
        s.flush()
        for seat in seats:
            s.add(
                SeatRow(
                    table_id=row["id"],
                    seat=seat.seat,
                    kind=seat.kind,
                    nickname=seat.nickname,
                    bot_level=seat.bot_level,
                    token_hash=seat.token_hash,
                )
            )
        for i, e in enumerate(events):
            s.add(
                EventRow(
                    table_id=row["id"], idx=i, data=encode_event(e), created_at=row["created_at"]
                )
            )


def load_table(engine: Engine, table_id: str) -> StoredTable | None:
    with Session(engine) as s:
        row = s.get(TableRow, table_id)
        if row is None:
            return None
        seats = s.scalars(
            select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
        ).all()
        events = s.scalars(
            select(EventRow.data).where(EventRow.table_id == table_id).order_by(EventRow.idx)
        ).all()
        return StoredTable(
            _row_dict(row), [_seat_info(x) for x in seats], [json.loads(e) for e in events]
        )


def list_tables(
    engine: Engine, limit: int, finished_since: float
) -> list[tuple[dict[str, Any], list[SeatInfo], int]]:
    """Newest first: open and playing tables, and finished ones since ``finished_since``."""
    with Session(engine) as s:
        rows = s.scalars(
            select(TableRow)
            .where((TableRow.state != "over") | (TableRow.updated_at >= finished_since))
            .order_by(TableRow.created_at.desc())
            .limit(limit)
        ).all()
        ids = [r.id for r in rows]
        if not ids:
            return []
        seats: dict[str, list[SeatInfo]] = {i: [] for i in ids}
        for seat in s.scalars(
            select(SeatRow).where(SeatRow.table_id.in_(ids)).order_by(SeatRow.seat)
        ):
            seats[seat.table_id].append(_seat_info(seat))
        counts: dict[str, int] = {}
        for table_id, n in s.execute(
            select(EventRow.table_id, func.count())
            .where(EventRow.table_id.in_(ids))
            .group_by(EventRow.table_id)
        ):
            counts[table_id] = int(n)
        return [(_row_dict(r), seats[r.id], counts.get(r.id, 0)) for r in rows]


def set_seat(
    engine: Engine,
    table_id: str,
    seat: SeatInfo,
    expect_kind: str,
    table_changes: dict[str, Any],
    first_idx: int,
    events: Sequence[Event],
    now: float,
) -> bool:
    """Sit down or leave (the seat row must still be ``expect_kind``), starting the game with
    its first events when the table fills. False if someone else changed the seat first."""
    try:
        with Session(engine) as s, s.begin():
            _set_seat(s, table_id, seat, expect_kind, table_changes, first_idx, events, now)
    except _SeatChanged:
        return False
    return True


class _SeatChanged(Exception):
    """Someone else took or freed the seat first (the transaction is rolled back)."""


def _set_seat(
    s: Session,
    table_id: str,
    seat: SeatInfo,
    expect_kind: str,
    table_changes: dict[str, Any],
    first_idx: int,
    events: Sequence[Event],
    now: float,
) -> None:
    done = s.execute(
        update(SeatRow)
        .where(
            SeatRow.table_id == table_id,
            SeatRow.seat == seat.seat,
            SeatRow.kind == expect_kind,
        )
        .values(kind=seat.kind, nickname=seat.nickname, token_hash=seat.token_hash)
    )
    if done.rowcount != 1:  # type: ignore[attr-defined]
        raise _SeatChanged
    _append(s, table_id, first_idx, events, now)
    s.execute(
        update(TableRow).where(TableRow.id == table_id).values(updated_at=now, **table_changes)
    )


def append_events(
    engine: Engine,
    table_id: str,
    first_idx: int,
    events: Sequence[Event],
    table_changes: dict[str, Any],
    now: float,
) -> None:
    """One action's events and the table's new state, in one transaction."""
    with Session(engine) as s, s.begin():
        _append(s, table_id, first_idx, events, now)
        s.execute(
            update(TableRow).where(TableRow.id == table_id).values(updated_at=now, **table_changes)
        )


def _append(s: Session, table_id: str, first_idx: int, events: Sequence[Event], now: float) -> None:
    for i, e in enumerate(events):
        s.add(EventRow(table_id=table_id, idx=first_idx + i, data=encode_event(e), created_at=now))
    s.flush()


def playing_table_ids(engine: Engine) -> list[str]:
    with Session(engine) as s:
        return list(s.scalars(select(TableRow.id).where(TableRow.state == "playing")).all())


def pause_clocks(engine: Engine, now: float) -> None:
    """At a clean shutdown: remember when the clocks stopped."""
    with Session(engine) as s, s.begin():
        s.execute(
            update(TableRow)
            .where(
                TableRow.state == "playing",
                TableRow.turn_started_at.is_not(None),
                TableRow.clock_paused_at.is_(None),
            )
            .values(clock_paused_at=now)
        )


def resume_clocks(engine: Engine, now: float) -> None:
    """At start: the turns that were running go on as if the server had never stopped."""
    with Session(engine) as s, s.begin():
        s.execute(
            update(TableRow)
            .where(TableRow.clock_paused_at.is_not(None), TableRow.turn_started_at.is_not(None))
            .values(
                turn_started_at=TableRow.turn_started_at + (now - TableRow.clock_paused_at),
                clock_paused_at=None,
            )
        )
