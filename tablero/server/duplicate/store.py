"""Duplicate rooms in the database: each function one transaction, called in a worker thread.

Every change goes through ``update``: it takes the room's row lock (``SELECT … FOR UPDATE`` on
PostgreSQL; SQLite has one writer at a time), reads the room as stored (its players, the
times of its rounds, the log's events the caller does not hold yet), lets the caller decide
the change under the lock, and writes it: the new events, the room's new columns, a player
who joined, a round's times. A caller that refuses raises ``ApiError``: the transaction
rolls back, nothing changes. So two submissions, a submission and the round's close by the
timer, or two processes closing one round, are always one after the other, and a round is
closed once.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, func, select
from sqlalchemy import exc as sa_exc
from sqlalchemy.orm import Session

from ..errors import ApiError
from ..store.tables import encode_event, guard
from .models import DuplicateEventRow, DuplicatePlayerRow, DuplicateRoomRow, DuplicateRoundRow

__all__ = [
    "Change",
    "NewPlayer",
    "Player",
    "Room",
    "RoundTimes",
    "Snapshot",
    "create_room",
    "insert_room",
    "list_rooms",
    "load",
    "overdue",
    "update",
]

Event = dict[str, Any]


@dataclass(frozen=True)
class Room:
    id: str
    variant: str
    title: str | None
    state: str
    creator: str
    round_seconds: int
    max_rounds: int | None
    solo_bonus: int
    pause_seconds: int
    seq: int
    round: int
    opens_at: float | None
    deadline: float | None
    created_at: float
    started_at: float | None
    finished_at: float | None
    tournament_id: str | None = None
    """The duplicate series the room is a game of: only its players play, nobody creates."""
    lexicon: str | None = None
    """The dictionary installed on the server the room plays with (None: the game's own)."""


@dataclass(frozen=True)
class Player:
    position: int
    name: str
    account_id: int | None
    token_hash: str | None
    joined_at: float


@dataclass(frozen=True)
class RoundTimes:
    round: int
    opens_at: float
    deadline: float
    closed_at: float | None = None
    closed_by: str | None = None


@dataclass(frozen=True)
class Snapshot:
    room: Room
    players: tuple[Player, ...]
    """In the order they joined (the game's order)."""
    rounds: tuple[RoundTimes, ...]
    """Every round opened so far, the first first."""
    events: tuple[Event, ...]
    """The log's events from the ``since`` asked for to ``room.seq``."""
    since: int = 0


@dataclass(frozen=True)
class NewPlayer:
    name: str
    account_id: int | None
    token_hash: str | None


@dataclass
class Change:
    """What an action writes."""

    events: list[Event] = field(default_factory=list)
    """New events of the game's log (stored from ``room.seq`` on)."""
    room: dict[str, Any] = field(default_factory=dict)
    """The room's columns that change (``seq`` is set from the events)."""
    player: NewPlayer | None = None
    rounds: list[RoundTimes] = field(default_factory=list)
    """Rounds' times, new or changed (a round opened, opened sooner, closed)."""


def _room(row: DuplicateRoomRow) -> Room:
    return Room(
        row.id,
        row.variant,
        row.title,
        row.state,
        row.creator,
        row.round_seconds,
        row.max_rounds,
        row.solo_bonus,
        row.pause_seconds,
        row.seq,
        row.round,
        row.opens_at,
        row.deadline,
        row.created_at,
        row.started_at,
        row.finished_at,
        row.tournament_id,
        row.lexicon,
    )


def _snapshot(s: Session, row: DuplicateRoomRow, since: int) -> Snapshot:
    room = _room(row)
    players = tuple(
        Player(p.position, p.name, p.account_id, p.token_hash, p.joined_at)
        for p in s.scalars(
            select(DuplicatePlayerRow)
            .where(DuplicatePlayerRow.room_id == room.id)
            .order_by(DuplicatePlayerRow.position)
        )
    )
    rounds = tuple(
        RoundTimes(r.round, r.opens_at, r.deadline, r.closed_at, r.closed_by)
        for r in s.scalars(
            select(DuplicateRoundRow)
            .where(DuplicateRoundRow.room_id == room.id)
            .order_by(DuplicateRoundRow.round)
        )
    )
    # Only the events the room's row counts: a commit landing between the two reads adds
    # events this snapshot does not speak for.
    events = tuple(
        json.loads(data)
        for data in s.scalars(
            select(DuplicateEventRow.data)
            .where(
                DuplicateEventRow.room_id == room.id,
                DuplicateEventRow.idx >= since,
                DuplicateEventRow.idx < room.seq,
            )
            .order_by(DuplicateEventRow.idx)
        )
    )
    if len(events) != room.seq - since:
        raise RuntimeError(f"duplicate room {room.id}: {len(events)} events from {since}")
    return Snapshot(room, players, rounds, events, since)


def create_room(
    engine: Engine, values: dict[str, Any], creator: NewPlayer, events: list[Event], now: float
) -> None:
    """A new room (its columns in ``values``, ``seq`` from the events), its creator the first
    player, and its game's log so far."""
    with guard(engine), Session(engine) as s, s.begin():
        insert_room(s, values, [creator], events, (), now)


def insert_room(
    s: Session,
    values: dict[str, Any],
    players: Sequence[NewPlayer],
    events: list[Event],
    rounds: Sequence[RoundTimes],
    now: float,
) -> None:
    """A new room in the caller's transaction: its columns (``seq`` from the events), its
    players in the game's order, its game's log so far and the times of the rounds opened
    (a duplicate series stores its rooms with the round of the tournament that starts them)."""
    s.add(DuplicateRoomRow(**values, seq=len(events)))
    s.flush()
    for position, player in enumerate(players):
        _add_player(s, values["id"], position, player, now)
    _add_events(s, values["id"], 0, events)
    for t in rounds:
        s.add(
            DuplicateRoundRow(
                room_id=values["id"],
                round=t.round,
                opens_at=t.opens_at,
                deadline=t.deadline,
                closed_at=t.closed_at,
                closed_by=t.closed_by,
            )
        )


def _add_player(s: Session, room_id: str, position: int, player: NewPlayer, now: float) -> None:
    s.add(
        DuplicatePlayerRow(
            room_id=room_id,
            position=position,
            name=player.name,
            name_key=player.name.casefold(),
            account_id=player.account_id,
            token_hash=player.token_hash,
            joined_at=now,
        )
    )


def _add_events(s: Session, room_id: str, first: int, events: list[Event]) -> None:
    for i, event in enumerate(events):
        s.add(DuplicateEventRow(room_id=room_id, idx=first + i, data=encode_event(event)))


def load(engine: Engine, room_id: str, since: int = 0) -> Snapshot | None:
    """The room as stored, with the log's events from ``since``."""
    with guard(engine), Session(engine) as s:
        row = s.get(DuplicateRoomRow, room_id)
        return None if row is None else _snapshot(s, row, since)


def update(
    engine: Engine, room_id: str, since: int, decide: Callable[[Snapshot], Change], now: float
) -> Snapshot:
    """Under the room's lock: ``decide`` sees the room as stored (events from ``since``) and
    says what changes, or raises ``ApiError`` (nothing changes). Returns the room after (its
    events from ``since``: the caller's and the new ones)."""
    try:
        with guard(engine), Session(engine) as s, s.begin():
            row = s.get(DuplicateRoomRow, room_id, with_for_update=True)
            if row is None:
                raise ApiError(404, "not_found", "no such duplicate room")
            before = _snapshot(s, row, since)
            change = decide(before)
            if change.player is not None:
                _add_player(s, room_id, len(before.players), change.player, now)
            _add_events(s, room_id, row.seq, change.events)
            values = dict(change.room)
            values["seq"] = row.seq + len(change.events)
            for name, value in values.items():
                setattr(row, name, value)
            for times in change.rounds:
                stored = s.get(DuplicateRoundRow, (room_id, times.round))
                if stored is None:
                    s.add(
                        DuplicateRoundRow(
                            room_id=room_id,
                            round=times.round,
                            opens_at=times.opens_at,
                            deadline=times.deadline,
                            closed_at=times.closed_at,
                            closed_by=times.closed_by,
                        )
                    )
                else:
                    stored.opens_at = times.opens_at
                    stored.deadline = times.deadline
                    stored.closed_at = times.closed_at
                    stored.closed_by = times.closed_by
            s.flush()
            return _snapshot(s, row, since)
    except sa_exc.IntegrityError:
        # Only a name or an account taken in the same instant by another process's request
        # can clash here (the row lock orders everything else).
        raise ApiError(
            409, "name_taken", "that name or account joined this room just now"
        ) from None


def list_rooms(engine: Engine, since: float, limit: int = 50) -> list[tuple[Room, int]]:
    """Rooms waiting or in play created after ``since``, newest first, each with its number
    of players."""
    with guard(engine), Session(engine) as s:
        rows = list(
            s.scalars(
                select(DuplicateRoomRow)
                .where(DuplicateRoomRow.state != "over", DuplicateRoomRow.created_at >= since)
                .order_by(DuplicateRoomRow.created_at.desc())
                .limit(limit)
            )
        )
        ids = [r.id for r in rows]
        counts = dict(
            s.execute(
                select(DuplicatePlayerRow.room_id, func.count())
                .where(DuplicatePlayerRow.room_id.in_(ids))
                .group_by(DuplicatePlayerRow.room_id)
            ).all()
        )
        return [(_room(r), int(counts.get(r.id, 0))) for r in rows]


def overdue(engine: Engine, now: float, limit: int = 100) -> list[str]:
    """Rooms in play whose round should have closed by ``now``."""
    with guard(engine), Session(engine) as s:
        return list(
            s.scalars(
                select(DuplicateRoomRow.id)
                .where(DuplicateRoomRow.state == "playing", DuplicateRoomRow.deadline <= now)
                .order_by(DuplicateRoomRow.deadline)
                .limit(limit)
            )
        )
