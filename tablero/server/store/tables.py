"""Reading and writing tables in the database. Every function is one transaction, and runs
in a worker thread (the callers use ``asyncio.to_thread``): a move is committed before the
server acknowledges or broadcasts it.

Two refusals matter to callers, and both leave the database as it was:

- ``StorageUnavailable`` (503): the database could not be reached or failed. Whether a commit
  whose answer was lost landed is unknown, so the caller re-reads the table before its next
  write (``load_since``).
- ``StaleSeq`` (409): another writer (another process) stored events first. A table's row
  holds its event count, ``seq``; an append updates it only from the count the writer saw,
  which locks the row, so two writers never both append at one ``seq``. Events also have
  their index in the primary key, a second guard.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import Engine, delete, exists, func, insert, literal, or_, select, update
from sqlalchemy import exc as sa_exc
from sqlalchemy.orm import Session

from ...game import Event
from ..errors import ApiError
from ..tables.info import SeatInfo
from .db import one_at_a_time
from .models import EventRow, SeatRow, TableRow, UploadedVariantRow

__all__ = [
    "FinishedGame",
    "StaleSeq",
    "StorageUnavailable",
    "StoredTable",
    "account_finished_games",
    "account_tables",
    "append_events",
    "ask_rematch",
    "claim_tables",
    "count_bot_tables",
    "create_table",
    "encode_event",
    "expire_uploads",
    "get_upload",
    "guard",
    "guarded",
    "insert_table",
    "list_tables",
    "load_since",
    "load_table",
    "pause_clocks",
    "playing_table_ids",
    "release_leases",
    "renew_leases",
    "resume_clocks",
    "save_upload",
    "set_seat",
    "touch_upload",
]


P = ParamSpec("P")
R = TypeVar("R")


class StorageUnavailable(ApiError):
    """The database did not answer or failed; nothing the request asked for was stored."""

    def __init__(self) -> None:
        super().__init__(
            503,
            "storage_unavailable",
            "the game store is not answering; nothing was changed, try again in a moment",
        )


class StaleSeq(ApiError):
    """Another writer stored events on this table first."""

    def __init__(self, stored: int | None = None) -> None:
        extra = {} if stored is None else {"seq": stored}
        super().__init__(
            409, "stale_seq", "the table has moved on: look again and replay your move", **extra
        )


def guarded(fn: Callable[P, R]) -> Callable[P, R]:
    """Database failures become ``StorageUnavailable``; a clash of keys, ``StaleSeq``.
    On SQLite, one call at a time (``db.one_at_a_time``); the engine is the first argument."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        engine = args[0]
        assert isinstance(engine, Engine), f"{fn.__name__}: the engine comes first"
        try:
            with one_at_a_time(engine):
                return fn(*args, **kwargs)
        except sa_exc.IntegrityError:
            raise StaleSeq() from None
        except (sa_exc.DBAPIError, sa_exc.TimeoutError) as e:
            raise StorageUnavailable() from e

    return wrapper


class guard:
    """For other domains' stores: one transaction at a time on SQLite, and database failures
    as ``StorageUnavailable`` (an ``IntegrityError`` is left to the caller, which knows what
    a clash of keys means for it)."""

    def __init__(self, engine: Engine) -> None:
        self.lock = one_at_a_time(engine)

    def __enter__(self) -> None:
        self.lock.__enter__()

    def __exit__(self, kind: Any, error: Any, tb: Any) -> None:
        self.lock.__exit__(kind, error, tb)
        if isinstance(error, sa_exc.DBAPIError | sa_exc.TimeoutError) and not isinstance(
            error, sa_exc.IntegrityError
        ):
            raise StorageUnavailable() from error


def encode_event(event: Event) -> str:
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))


@dataclass
class StoredTable:
    row: dict[str, Any]
    seats: list[SeatInfo]
    events: list[Event]
    first: int = 0
    """The index of ``events[0]`` in the log (``load_since`` reads only the new ones)."""

    @property
    def seq(self) -> int:
        return int(self.row["seq"])


def _row_dict(row: TableRow) -> dict[str, Any]:
    return {c.key: getattr(row, c.key) for c in TableRow.__table__.columns}


def _seat_info(row: SeatRow) -> SeatInfo:
    return SeatInfo(row.seat, row.kind, row.nickname, row.bot_level, row.token_hash, row.account_id)


@guarded
def save_upload(
    engine: Engine,
    upload_id: str,
    name: str,
    title: str,
    toml: str,
    now: float,
    creator: str | None = None,
    quota: int | None = None,
) -> bool:
    """Store a rule file; False (nothing stored) if ``creator`` already has ``quota`` uploads."""
    with Session(engine) as s, s.begin():
        if quota is not None and creator is not None:
            held = s.scalar(
                select(func.count())
                .select_from(UploadedVariantRow)
                .where(UploadedVariantRow.creator == creator)
            )
            if (held or 0) >= quota:
                return False
        s.add(
            UploadedVariantRow(
                id=upload_id,
                name=name,
                title=title,
                toml=toml,
                created_at=now,
                creator=creator,
                last_used_at=now,
            )
        )
        return True


@guarded
def get_upload(engine: Engine, upload_id: str) -> str | None:
    with Session(engine) as s:
        row = s.get(UploadedVariantRow, upload_id)
        return None if row is None else row.toml


@guarded
def touch_upload(engine: Engine, upload_id: str, now: float) -> None:
    """A table was made with it: it is in use."""
    with Session(engine) as s, s.begin():
        s.execute(
            update(UploadedVariantRow)
            .where(UploadedVariantRow.id == upload_id)
            .values(last_used_at=now)
        )


@guarded
def expire_uploads(engine: Engine, unused_since: float) -> int:
    """Delete the uploads no table uses and none has used since ``unused_since``."""
    with Session(engine) as s, s.begin():
        used = exists().where(TableRow.variant_ref == UploadedVariantRow.id)
        done = s.execute(
            delete(UploadedVariantRow).where(
                func.coalesce(UploadedVariantRow.last_used_at, UploadedVariantRow.created_at)
                < unused_since,
                ~used,
            )
        )
        return int(done.rowcount)  # type: ignore[attr-defined]


@guarded
def create_table(
    engine: Engine,
    row: dict[str, Any],
    seats: Sequence[SeatInfo],
    events: Sequence[Event],
) -> None:
    with Session(engine) as s, s.begin():
        insert_table(s, row, seats, events)


def insert_table(
    s: Session, row: dict[str, Any], seats: Sequence[SeatInfo], events: Sequence[Event]
) -> None:
    """A new table's rows, in the caller's transaction (a seek taken and its table created
    commit together)."""
    s.add(TableRow(**(row | {"seq": len(events)})))
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
                account_id=seat.account_id,
            )
        )
    for i, e in enumerate(events):
        s.add(
            EventRow(table_id=row["id"], idx=i, data=encode_event(e), created_at=row["created_at"])
        )


@guarded
def load_table(engine: Engine, table_id: str) -> StoredTable | None:
    return load_since(engine, table_id, 0)


@guarded
def load_since(engine: Engine, table_id: str, first: int) -> StoredTable | None:
    """The table's row and seats, and its events from index ``first`` on."""
    with Session(engine) as s:
        row = s.get(TableRow, table_id)
        if row is None:
            return None
        seats = s.scalars(
            select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
        ).all()
        events = s.scalars(
            select(EventRow.data)
            .where(EventRow.table_id == table_id, EventRow.idx >= first)
            .order_by(EventRow.idx)
        ).all()
        return StoredTable(
            _row_dict(row), [_seat_info(x) for x in seats], [json.loads(e) for e in events], first
        )


def _tables_with_seats(
    s: Session, ids: Sequence[str]
) -> list[tuple[dict[str, Any], list[SeatInfo], int]]:
    """The tables ``ids``, in that order, each with its seats and stored event count."""
    if not ids:
        return []
    rows = {r.id: r for r in s.scalars(select(TableRow).where(TableRow.id.in_(ids)))}
    seats: dict[str, list[SeatInfo]] = {i: [] for i in ids}
    for seat in s.scalars(select(SeatRow).where(SeatRow.table_id.in_(ids)).order_by(SeatRow.seat)):
        seats[seat.table_id].append(_seat_info(seat))
    return [(_row_dict(rows[i]), seats[i], rows[i].seq) for i in ids if i in rows]


@guarded
def list_tables(
    engine: Engine, limit: int, finished_since: float, waiting_per_creator: int
) -> list[tuple[dict[str, Any], list[SeatInfo], int]]:
    """Newest first: playing tables, finished ones since ``finished_since``, and waiting ones,
    at most ``waiting_per_creator`` of each creator (one address cannot fill the lobby)."""
    with Session(engine) as s:
        creator = func.coalesce(TableRow.creator, TableRow.id)
        rank = (
            func.row_number()
            .over(partition_by=(creator, TableRow.state), order_by=TableRow.created_at.desc())
            .label("rank")
        )
        ranked = (
            select(TableRow.id, TableRow.state, TableRow.created_at, rank)
            .where((TableRow.state != "over") | (TableRow.updated_at >= finished_since))
            .subquery()
        )
        ids_query = (
            select(ranked.c.id)
            .where((ranked.c.state != "waiting") | (ranked.c.rank <= waiting_per_creator))
            .order_by(ranked.c.created_at.desc())
            .limit(limit)
        )
        ids = list(s.scalars(ids_query).all())
        return _tables_with_seats(s, ids)


@guarded
def account_tables(
    engine: Engine, account_id: int, limit: int
) -> list[tuple[dict[str, Any], list[SeatInfo], int]]:
    """The tables waiting or in play where the account has a seat, newest first."""
    with Session(engine) as s:
        ids = list(
            s.scalars(
                select(TableRow.id)
                .join(SeatRow, SeatRow.table_id == TableRow.id)
                .where(SeatRow.account_id == account_id, TableRow.state != "over")
                .order_by(TableRow.updated_at.desc())
                .limit(limit)
            ).all()
        )
        return _tables_with_seats(s, ids)


@dataclass(frozen=True)
class FinishedGame:
    table_id: str
    variant_ref: str
    seat: int
    seats: int
    final: dict[str, Any]
    """The game's ``end`` event (final scores, ranks, reason)."""
    finished: float
    rating: str | None


@guarded
def account_finished_games(engine: Engine, account_id: int, limit: int) -> list[FinishedGame]:
    """The account's finished games, the latest first, each with its end event."""
    with Session(engine) as s:
        rows = s.execute(
            select(TableRow, SeatRow.seat, EventRow.data)
            .join(SeatRow, SeatRow.table_id == TableRow.id)
            .join(
                EventRow,
                (EventRow.table_id == TableRow.id) & (EventRow.idx == TableRow.seq - 1),
            )
            .where(SeatRow.account_id == account_id, TableRow.state == "over")
            .order_by(TableRow.updated_at.desc())
            .limit(limit)
        ).all()
        counts = dict(
            s.execute(
                select(SeatRow.table_id, func.count())
                .where(SeatRow.table_id.in_([r[0].id for r in rows]))
                .group_by(SeatRow.table_id)
            ).all()
        )
        return [
            FinishedGame(
                table.id,
                table.variant_ref,
                seat,
                int(counts.get(table.id, 0)),
                json.loads(data),
                table.updated_at,
                table.rating,
            )
            for table, seat, data in rows
        ]


@guarded
def ask_rematch(
    engine: Engine,
    table_id: str,
    seat: int,
    new_table: tuple[dict[str, Any], Sequence[SeatInfo], Sequence[Event]] | None,
) -> tuple[list[int], str | None, bool]:
    """Record that ``seat`` asks for a rematch of the finished game (once is enough), and,
    when every person at the table has asked and ``new_table`` is given, create it. The
    table's row is locked meanwhile: the last two to ask at once create one table between
    them. Returns (the seats that asked, the rematch's table, whether everyone has asked)."""
    with Session(engine) as s, s.begin():
        row = s.get(TableRow, table_id, with_for_update=True)
        if row is None or row.state != "over":
            raise ApiError(409, "not_over", "a rematch is asked for once the game is over")
        data = json.loads(row.rematch) if row.rematch else {}
        asked = sorted(set(data.get("asked", [])) | {seat})
        table = data.get("table")
        people = set(
            s.scalars(
                select(SeatRow.seat).where(SeatRow.table_id == table_id, SeatRow.kind == "human")
            )
        )
        everyone = people <= set(asked)
        if table is None and everyone and new_table is not None:
            table_row, seats, events = new_table
            insert_table(s, table_row, seats, events)
            table = str(table_row["id"])
        row.rematch = json.dumps({"asked": asked, "table": table})
        return asked, table, everyone


@guarded
def count_bot_tables(engine: Engine, creator: str | None) -> tuple[int, int]:
    """Tables in play with only computer players: (``creator``'s, everyone's)."""
    with Session(engine) as s:
        human = exists().where(SeatRow.table_id == TableRow.id, SeatRow.kind != "bot")
        base = select(func.count()).select_from(TableRow).where(TableRow.state == "playing", ~human)
        total = s.scalar(base) or 0
        mine = s.scalar(base.where(TableRow.creator == creator)) if creator else 0
        return int(mine or 0), int(total)


@guarded
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
    its first events when the table fills. False, and nothing changed, if someone else
    changed the seat first."""
    with Session(engine) as s, s.begin():
        done = s.execute(
            update(SeatRow)
            .where(
                SeatRow.table_id == table_id,
                SeatRow.seat == seat.seat,
                SeatRow.kind == expect_kind,
            )
            .values(
                kind=seat.kind,
                nickname=seat.nickname,
                token_hash=seat.token_hash,
                account_id=seat.account_id,
            )
        )
        if done.rowcount != 1:  # type: ignore[attr-defined]
            return False  # the update matched no row: there is nothing to roll back
        _append(s, table_id, first_idx, events, now, table_changes)
    return True


@guarded
def append_events(
    engine: Engine,
    table_id: str,
    first_idx: int,
    events: Sequence[Event],
    table_changes: dict[str, Any],
    now: float,
) -> None:
    """One action's events and the table's new state, in one transaction; ``StaleSeq`` if
    the table does not hold exactly ``first_idx`` events."""
    with Session(engine) as s, s.begin():
        _append(s, table_id, first_idx, events, now, table_changes)


def _append(
    s: Session,
    table_id: str,
    first_idx: int,
    events: Sequence[Event],
    now: float,
    table_changes: dict[str, Any],
) -> None:
    # The conditional update comes first: it takes the row's lock, so a second writer waits
    # here and then finds the count changed. Core statements on the session's connection,
    # not the ORM's bulk paths: this runs for every move, and on SQLite while every other
    # writer waits (the ORM's bookkeeping was a quarter of the time the database was held).
    connection = s.connection()
    done = connection.execute(
        update(TableRow)
        .where(TableRow.id == table_id, TableRow.seq == first_idx)
        .values(updated_at=now, seq=first_idx + len(events), **table_changes)
    )
    if done.rowcount != 1:
        stored = connection.scalar(select(TableRow.seq).where(TableRow.id == table_id))
        raise StaleSeq(stored)
    if events:  # (an empty list would insert one row of nulls)
        connection.execute(
            insert(EventRow),
            [
                {
                    "table_id": table_id,
                    "idx": first_idx + i,
                    "data": encode_event(e),
                    "created_at": now,
                }
                for i, e in enumerate(events)
            ],
        )


@guarded
def playing_table_ids(engine: Engine) -> list[str]:
    with Session(engine) as s:
        return list(s.scalars(select(TableRow.id).where(TableRow.state == "playing")).all())


# -- leases: which process keeps a table's clock and bots -----------------------------------


@guarded
def claim_tables(
    engine: Engine, owner: str, now: float, until: float, force: bool = False
) -> list[str]:
    """Take the lease of the tables in play whose lease is free or ran out (this process's
    own live leases are renewed by ``renew_leases``, not claimed again). Each is a
    conditional update, so two processes never both win one.
    ``force`` takes every table in play: a single process starting after a crash does not
    wait for its dead predecessor's leases to run out."""
    free = or_(TableRow.lease_until.is_(None), TableRow.lease_until < now, literal(force))
    with Session(engine) as s, s.begin():
        claimed = []
        query = select(TableRow.id).where(TableRow.state == "playing", free)
        for table_id in s.scalars(query).all():
            done = s.execute(
                update(TableRow)
                .where(TableRow.id == table_id, free)
                .values(owner=owner, lease_until=until)
            )
            if done.rowcount == 1:  # type: ignore[attr-defined]
                claimed.append(table_id)
        return claimed


@guarded
def renew_leases(engine: Engine, owner: str, ids: Sequence[str], until: float) -> list[str]:
    """Extend this process's leases; the ids still held (a lease lost to a takeover is not)."""
    if not ids:
        return []
    with Session(engine) as s, s.begin():
        s.execute(
            update(TableRow)
            .where(TableRow.owner == owner, TableRow.id.in_(list(ids)))
            .values(lease_until=until)
        )
        return list(
            s.scalars(
                select(TableRow.id).where(TableRow.owner == owner, TableRow.id.in_(list(ids)))
            ).all()
        )


@guarded
def release_leases(engine: Engine, owner: str) -> None:
    """At a clean shutdown: another process may take the tables at once."""
    with Session(engine) as s, s.begin():
        s.execute(
            update(TableRow).where(TableRow.owner == owner).values(owner=None, lease_until=None)
        )


# -- clocks across a restart ------------------------------------------------------------------


@guarded
def pause_clocks(engine: Engine, now: float) -> None:
    """At a clean shutdown of the last process: remember when the clocks stopped."""
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


@guarded
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
