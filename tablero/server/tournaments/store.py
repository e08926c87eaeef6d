"""Tournaments in the database: each function one transaction, called in a worker thread.

Every change takes the tournament's row lock first (``SELECT … FOR UPDATE`` on PostgreSQL;
SQLite has one writer at a time), then checks what it needs under the lock and refuses with
an ``ApiError`` — the transaction rolls back, nothing changes. So a registration and the
start cannot cross, two starts of one round give one round, and a game's result is recorded
once. A round's tables are created in the same transaction as its boards: a round has all
its tables or none.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, delete, func, select
from sqlalchemy.orm import Session

from ...game import Event
from ..accounts.models import AccountRow
from ..duplicate.models import DuplicateEventRow, DuplicatePlayerRow, DuplicateRoomRow
from ..duplicate.store import NewPlayer, RoundTimes, insert_room
from ..errors import ApiError
from ..store.models import EventRow, SeatRow, TableRow
from ..store.tables import guard, insert_table
from ..tables.info import SeatInfo
from .models import (
    TournamentAuditRow,
    TournamentGameRow,
    TournamentPlayerRow,
    TournamentRow,
    TournamentSeriesGameRow,
    TournamentSeriesScoreRow,
)
from .results import GameScore, from_end_event

__all__ = [
    "AuditEntry",
    "Board",
    "Clash",
    "Entrant",
    "NewBoard",
    "NewRoom",
    "RoomResult",
    "SeriesGame",
    "SeriesResult",
    "Snapshot",
    "Tournament",
    "audit_of",
    "count_directing",
    "create_tournament",
    "fix_result",
    "fix_score",
    "list_tournaments",
    "load",
    "record_room",
    "record_table",
    "register",
    "remove_player",
    "set_paused",
    "settle",
    "start_round",
    "unrecorded_rooms",
    "withdraw",
]


@dataclass(frozen=True)
class Tournament:
    id: str
    name: str
    director_id: int
    director: str
    variant: str
    format: str
    rounds: int | None
    clock_minutes: int | None
    round_seconds: int | None
    game_rounds: int | None
    rated: bool
    max_players: int
    state: str
    paused: bool
    round: int
    created_at: float
    started_at: float | None
    finished_at: float | None
    lexicon: str | None = None
    """A dictionary installed on the server for every game (None: the game's own)."""


@dataclass(frozen=True)
class Entrant:
    account_id: int
    username: str
    registered_at: float
    seed: int | None
    removed_after: int | None


@dataclass(frozen=True)
class Board:
    round: int
    board: int
    first_id: int
    first: str
    second_id: int | None
    second: str | None
    table_id: str | None
    state: str
    first_score: int | None
    second_score: int | None
    points: float | None
    spread: int | None
    source: str | None


@dataclass(frozen=True)
class SeriesGame:
    """A game of a duplicate series: a duplicate room of the whole field."""

    round: int
    room_id: str
    state: str
    """playing, over."""


@dataclass(frozen=True)
class SeriesResult:
    round: int
    account_id: int
    username: str
    score: int | None
    top_total: int | None
    tops: int | None
    source: str | None
    """game, director; None while the game is played."""


@dataclass(frozen=True)
class Snapshot:
    tournament: Tournament
    players: tuple[Entrant, ...]
    """By seed once started, by registration before."""
    boards: tuple[Board, ...]
    """By round, then board (none in a duplicate series)."""
    series: tuple[SeriesGame, ...] = ()
    """A duplicate series' games, by round."""
    scores: tuple[SeriesResult, ...] = ()
    """A duplicate series: each player's result in each game, by round, then seed."""

    @property
    def in_play(self) -> bool:
        """Whether a game of the current round is still being played."""
        return any(b.state == "playing" for b in self.boards) or any(
            g.state == "playing" for g in self.series
        )


@dataclass(frozen=True)
class AuditEntry:
    at: float
    by: str
    action: str
    round: int | None
    board: int | None
    player: str | None
    reason: str | None
    before: dict[str, Any] | None
    after: dict[str, Any] | None


@dataclass(frozen=True)
class NewBoard:
    """A board of a round about to start: a game at a new table (its rows as
    ``Hub.plan_table`` made them) or a bye (no table, its result at once)."""

    board: int
    first_id: int
    second_id: int | None
    table: tuple[dict[str, Any], Sequence[SeatInfo], Sequence[Event]] | None = None
    bye_spread: int = 0


@dataclass(frozen=True)
class NewRoom:
    """The duplicate room of a series' round about to start: its columns, its players (the
    field, in seed order: the game's order), its game's log so far and its first round's
    times, stored with the round (``duplicate.store.insert_room``)."""

    values: dict[str, Any]
    players: tuple[tuple[NewPlayer, int], ...]
    """Each player of the room with its account."""
    events: list[Event]
    rounds: tuple[RoundTimes, ...]


class Clash(Exception):
    """The tournament changed between the caller's look and its write (a registration, a
    withdrawal, another start): the caller looks again."""


def _names(s: Session, ids: set[int]) -> dict[int, str]:
    if not ids:
        return {}
    rows = s.execute(select(AccountRow.id, AccountRow.username).where(AccountRow.id.in_(ids)))
    return {i: name for i, name in rows}


def _tournament(row: TournamentRow, director: str) -> Tournament:
    return Tournament(
        row.id,
        row.name,
        row.director_id,
        director,
        row.variant,
        row.format,
        row.rounds,
        row.clock_minutes,
        row.round_seconds,
        row.game_rounds,
        bool(row.rated),
        row.max_players,
        row.state,
        bool(row.paused),
        row.round,
        row.created_at,
        row.started_at,
        row.finished_at,
        row.lexicon,
    )


def _locked(s: Session, tournament_id: str) -> TournamentRow:
    row = s.get(TournamentRow, tournament_id, with_for_update=True)
    if row is None:
        raise ApiError(404, "not_found", "no such tournament")
    return row


def _audit(
    s: Session,
    row: TournamentRow,
    account_id: int,
    action: str,
    now: float,
    *,
    round_number: int | None = None,
    board: int | None = None,
    player_id: int | None = None,
    reason: str | None = None,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> None:
    s.add(
        TournamentAuditRow(
            tournament_id=row.id,
            at=now,
            account_id=account_id,
            action=action,
            round=round_number,
            board=board,
            player_id=player_id,
            reason=reason,
            before=None if before is None else json.dumps(before, ensure_ascii=False),
            after=None if after is None else json.dumps(after, ensure_ascii=False),
        )
    )


# -- reading ----------------------------------------------------------------------------------


def create_tournament(engine: Engine, values: dict[str, Any]) -> None:
    with guard(engine), Session(engine) as s, s.begin():
        s.add(TournamentRow(**values))


def count_directing(engine: Engine, director_id: int) -> int:
    """Tournaments the account directs that are not finished."""
    with guard(engine), Session(engine) as s:
        return int(
            s.scalar(
                select(func.count())
                .select_from(TournamentRow)
                .where(TournamentRow.director_id == director_id, TournamentRow.state != "finished")
            )
            or 0
        )


def list_tournaments(engine: Engine, limit: int = 100) -> list[tuple[Tournament, int]]:
    """The newest tournaments, each with its number of players (removed ones included)."""
    with guard(engine), Session(engine) as s:
        rows = list(
            s.scalars(select(TournamentRow).order_by(TournamentRow.created_at.desc()).limit(limit))
        )
        ids = [r.id for r in rows]
        counts = dict(
            s.execute(
                select(TournamentPlayerRow.tournament_id, func.count())
                .where(TournamentPlayerRow.tournament_id.in_(ids))
                .group_by(TournamentPlayerRow.tournament_id)
            ).all()
        )
        names = _names(s, {r.director_id for r in rows})
        return [
            (_tournament(r, names.get(r.director_id, "?")), int(counts.get(r.id, 0))) for r in rows
        ]


def load(engine: Engine, tournament_id: str) -> Snapshot | None:
    with guard(engine), Session(engine) as s:
        return _snapshot(s, tournament_id)


def _snapshot(s: Session, tournament_id: str) -> Snapshot | None:
    row = s.get(TournamentRow, tournament_id)
    if row is None:
        return None
    players = list(
        s.scalars(
            select(TournamentPlayerRow).where(TournamentPlayerRow.tournament_id == tournament_id)
        )
    )
    games = list(
        s.scalars(
            select(TournamentGameRow)
            .where(TournamentGameRow.tournament_id == tournament_id)
            .order_by(TournamentGameRow.round, TournamentGameRow.board)
        )
    )
    series = list(
        s.scalars(
            select(TournamentSeriesGameRow)
            .where(TournamentSeriesGameRow.tournament_id == tournament_id)
            .order_by(TournamentSeriesGameRow.round)
        )
    )
    scores = list(
        s.scalars(
            select(TournamentSeriesScoreRow).where(
                TournamentSeriesScoreRow.tournament_id == tournament_id
            )
        )
    )
    ids = {p.account_id for p in players} | {row.director_id}
    ids |= {g.first_id for g in games} | {g.second_id for g in games if g.second_id is not None}
    ids |= {r.account_id for r in scores}
    names = _names(s, ids)
    players.sort(key=lambda p: (p.seed if p.seed is not None else 0, p.registered_at, p.account_id))
    seed_of = {p.account_id: p.seed or 0 for p in players}
    return Snapshot(
        _tournament(row, names.get(row.director_id, "?")),
        tuple(
            Entrant(
                p.account_id, names.get(p.account_id, "?"), p.registered_at, p.seed, p.removed_after
            )
            for p in players
        ),
        tuple(
            Board(
                g.round,
                g.board,
                g.first_id,
                names.get(g.first_id, "?"),
                g.second_id,
                None if g.second_id is None else names.get(g.second_id, "?"),
                g.table_id,
                g.state,
                g.first_score,
                g.second_score,
                g.points,
                g.spread,
                g.source,
            )
            for g in games
        ),
        tuple(SeriesGame(g.round, g.room_id, g.state) for g in series),
        tuple(
            SeriesResult(
                r.round,
                r.account_id,
                names.get(r.account_id, "?"),
                r.score,
                r.top_total,
                r.tops,
                r.source,
            )
            for r in sorted(scores, key=lambda r: (r.round, seed_of.get(r.account_id, 0)))
        ),
    )


def audit_of(engine: Engine, tournament_id: str) -> list[AuditEntry]:
    """The director's actions, oldest first."""
    with guard(engine), Session(engine) as s:
        rows = list(
            s.scalars(
                select(TournamentAuditRow)
                .where(TournamentAuditRow.tournament_id == tournament_id)
                .order_by(TournamentAuditRow.id)
            )
        )
        names = _names(s, {r.account_id for r in rows} | {r.player_id for r in rows if r.player_id})
        return [
            AuditEntry(
                r.at,
                names.get(r.account_id, "?"),
                r.action,
                r.round,
                r.board,
                None if r.player_id is None else names.get(r.player_id, "?"),
                r.reason,
                None if r.before is None else json.loads(r.before),
                None if r.after is None else json.loads(r.after),
            )
            for r in rows
        ]


# -- players ----------------------------------------------------------------------------------


def register(engine: Engine, tournament_id: str, account_id: int, now: float) -> None:
    with guard(engine), Session(engine) as s, s.begin():
        row = _locked(s, tournament_id)
        if row.state != "registering":
            raise ApiError(
                409, "registration_closed", "the tournament has started: registration is closed"
            )
        if s.get(TournamentPlayerRow, (tournament_id, account_id)) is not None:
            raise ApiError(409, "already_registered", "you are already registered")
        count = s.scalar(
            select(func.count())
            .select_from(TournamentPlayerRow)
            .where(TournamentPlayerRow.tournament_id == tournament_id)
        )
        if int(count or 0) >= row.max_players:
            raise ApiError(
                409, "tournament_full", f"the tournament is full ({row.max_players} players)"
            )
        s.add(
            TournamentPlayerRow(
                tournament_id=tournament_id,
                account_id=account_id,
                registered_at=now,
                seed=None,
                removed_after=None,
            )
        )


def withdraw(engine: Engine, tournament_id: str, account_id: int) -> None:
    with guard(engine), Session(engine) as s, s.begin():
        row = _locked(s, tournament_id)
        if s.get(TournamentPlayerRow, (tournament_id, account_id)) is None:
            raise ApiError(409, "not_registered", "you are not registered")
        if row.state != "registering":
            raise ApiError(
                409,
                "registration_closed",
                "the tournament has started: only its director can take you out of later rounds",
            )
        s.execute(
            delete(TournamentPlayerRow).where(
                TournamentPlayerRow.tournament_id == tournament_id,
                TournamentPlayerRow.account_id == account_id,
            )
        )


# -- the director -----------------------------------------------------------------------------


def _director(row: TournamentRow, account_id: int, what: str) -> None:
    if row.director_id != account_id:
        raise ApiError(403, "not_director", f"only the tournament's director can {what}")


def start_round(
    engine: Engine,
    tournament_id: str,
    director_id: int,
    seen_round: int,
    seen_players: frozenset[int],
    boards: Sequence[NewBoard],
    now: float,
    *,
    seeds: dict[int, int] | None = None,
    rounds: int | None = None,
    room: NewRoom | None = None,
) -> None:
    """Start round ``seen_round + 1`` with these boards (their tables stored here too), or a
    duplicate series' round with its room. ``seeds`` and ``rounds`` with the first round: the
    seed of every player, and a round robin's number of rounds. ``Clash`` if the tournament
    is no longer as the caller saw it."""
    with guard(engine), Session(engine) as s, s.begin():
        row = _locked(s, tournament_id)
        _director(row, director_id, "start a round")
        players = {
            p.account_id: p
            for p in s.scalars(
                select(TournamentPlayerRow).where(
                    TournamentPlayerRow.tournament_id == tournament_id
                )
            )
        }
        active = frozenset(i for i, p in players.items() if p.removed_after is None)
        if row.round != seen_round or active != seen_players or row.state == "finished":
            raise Clash()
        if row.paused:
            raise ApiError(409, "paused", "the tournament is paused: resume it to start a round")
        if _in_play(s, tournament_id):
            raise ApiError(409, "round_in_play", "a round is still being played")
        if seeds is not None:
            for account_id, seed in seeds.items():
                players[account_id].seed = seed
            row.state = "playing"
            row.started_at = now
            if rounds is not None:
                row.rounds = rounds
        number = row.round + 1
        if room is not None:
            insert_room(
                s,
                {**room.values, "tournament_id": tournament_id},
                [p for p, _ in room.players],
                room.events,
                room.rounds,
                now,
            )
            s.add(
                TournamentSeriesGameRow(
                    tournament_id=tournament_id,
                    round=number,
                    room_id=room.values["id"],
                    state="playing",
                    ended_at=None,
                )
            )
            for _, account_id in room.players:
                s.add(
                    TournamentSeriesScoreRow(
                        tournament_id=tournament_id,
                        round=number,
                        account_id=account_id,
                        score=None,
                        top_total=None,
                        tops=None,
                        source=None,
                    )
                )
        for b in boards:
            if b.table is not None:
                table_row, seats, events = b.table
                insert_table(s, dict(table_row), seats, events)
            s.add(
                TournamentGameRow(
                    tournament_id=tournament_id,
                    round=number,
                    board=b.board,
                    first_id=b.first_id,
                    second_id=b.second_id,
                    table_id=None if b.table is None else str(b.table[0]["id"]),
                    state="playing" if b.table is not None else "over",
                    first_score=None,
                    second_score=None,
                    points=None if b.table is not None else 1.0,
                    spread=None if b.table is not None else b.bye_spread,
                    source=None if b.table is not None else "bye",
                    ended_at=None if b.table is not None else now,
                )
            )
        row.round = number
        _audit(s, row, director_id, "start_round", now, round_number=number)
        s.flush()
        _maybe_finish(s, row, now)


def _in_play(s: Session, tournament_id: str) -> bool:
    boards = s.scalar(
        select(func.count())
        .select_from(TournamentGameRow)
        .where(
            TournamentGameRow.tournament_id == tournament_id,
            TournamentGameRow.state == "playing",
        )
    )
    series = s.scalar(
        select(func.count())
        .select_from(TournamentSeriesGameRow)
        .where(
            TournamentSeriesGameRow.tournament_id == tournament_id,
            TournamentSeriesGameRow.state == "playing",
        )
    )
    return bool(boards or series)


def _maybe_finish(s: Session, row: TournamentRow, now: float) -> None:
    """The last round over: the tournament is finished."""
    if (
        row.state == "playing"
        and row.rounds is not None
        and row.round >= row.rounds
        and not _in_play(s, row.id)
    ):
        row.state = "finished"
        row.finished_at = now


def set_paused(
    engine: Engine,
    tournament_id: str,
    director_id: int,
    paused: bool,
    reason: str | None,
    now: float,
) -> None:
    with guard(engine), Session(engine) as s, s.begin():
        row = _locked(s, tournament_id)
        _director(row, director_id, "pause or resume it")
        if row.state == "finished":
            raise ApiError(409, "finished", "the tournament is finished")
        if bool(row.paused) == paused:
            word = "paused" if paused else "not paused"
            raise ApiError(409, "already_" + ("paused" if paused else "running"), f"it is {word}")
        row.paused = paused
        _audit(s, row, director_id, "pause" if paused else "resume", now, reason=reason)


def _result_json(g: TournamentGameRow) -> dict[str, Any]:
    return {
        "state": g.state,
        "scores": None if g.first_score is None else [g.first_score, g.second_score],
        "points": g.points,
        "spread": g.spread,
        "source": g.source,
    }


def fix_result(
    engine: Engine,
    tournament_id: str,
    director_id: int,
    round_number: int,
    board: int,
    score: GameScore,
    reason: str,
    now: float,
) -> None:
    """The director sets a board's result (the game's own, if it ends later, is ignored)."""
    with guard(engine), Session(engine) as s, s.begin():
        row = _locked(s, tournament_id)
        _director(row, director_id, "fix a result")
        game = s.scalar(
            select(TournamentGameRow).where(
                TournamentGameRow.tournament_id == tournament_id,
                TournamentGameRow.round == round_number,
                TournamentGameRow.board == board,
            )
        )
        if game is None:
            raise ApiError(
                404, "no_such_game", f"round {round_number} has no game at board {board}"
            )
        if game.second_id is None:
            raise ApiError(
                422, "bye", f"board {board} of round {round_number} is a bye: it has no game"
            )
        before = _result_json(game)
        game.first_score, game.second_score = score.first_score, score.second_score
        game.points, game.spread = score.points, score.spread
        game.state, game.source, game.ended_at = "over", "director", now
        _audit(
            s,
            row,
            director_id,
            "fix_result",
            now,
            round_number=round_number,
            board=board,
            reason=reason,
            before=before,
            after=_result_json(game),
        )
        s.flush()
        _maybe_finish(s, row, now)


def remove_player(
    engine: Engine,
    tournament_id: str,
    director_id: int,
    account_id: int,
    reason: str,
    now: float,
) -> None:
    """Take a player out of every later round (before the start: off the list). Their games
    so far, and one in play, count."""
    with guard(engine), Session(engine) as s, s.begin():
        row = _locked(s, tournament_id)
        _director(row, director_id, "remove a player")
        player = s.get(TournamentPlayerRow, (tournament_id, account_id))
        if player is None:
            raise ApiError(404, "not_registered", "that player is not in the tournament")
        if row.state == "finished":
            raise ApiError(409, "finished", "the tournament is finished")
        if player.removed_after is not None:
            raise ApiError(409, "already_removed", "that player has already been removed")
        if row.state == "registering":
            s.delete(player)
        else:
            player.removed_after = row.round
        _audit(
            s,
            row,
            director_id,
            "remove_player",
            now,
            player_id=account_id,
            reason=reason,
            round_number=row.round,
        )


# -- results from the games -------------------------------------------------------------------


def _record(s: Session, game: TournamentGameRow, now: float) -> bool:
    """Copy a board's result from its table if the game is over (the board locked)."""
    if game.state != "playing" or game.table_id is None:
        return False
    table = s.get(TableRow, game.table_id)
    if table is None or table.state != "over":
        return False
    last = s.scalar(
        select(EventRow.data).where(
            EventRow.table_id == game.table_id, EventRow.idx == table.seq - 1
        )
    )
    end = json.loads(last) if last else None
    if not isinstance(end, dict) or end.get("type") != "end":
        return False
    seats = {
        seat.account_id: seat.seat
        for seat in s.scalars(select(SeatRow).where(SeatRow.table_id == game.table_id))
    }
    if game.first_id not in seats or game.second_id not in seats:
        return False
    score = from_end_event(end, seats[game.first_id], seats[game.second_id])
    game.first_score, game.second_score = score.first_score, score.second_score
    game.points, game.spread = score.points, score.spread
    game.state, game.source, game.ended_at = "over", "game", now
    return True


def record_table(engine: Engine, table_id: str, now: float) -> str | None:
    """A table's game has ended: record it on its tournament board, if it is one and the
    director has not set its result already. The tournament's id, or None."""
    with guard(engine), Session(engine) as s, s.begin():
        found = s.scalar(
            select(TournamentGameRow.tournament_id).where(TournamentGameRow.table_id == table_id)
        )
        if found is None:
            return None
        row = _locked(s, found)
        game = s.scalar(select(TournamentGameRow).where(TournamentGameRow.table_id == table_id))
        assert game is not None
        if _record(s, game, now):
            s.flush()
            _maybe_finish(s, row, now)
        return found


def settle(engine: Engine, tournament_id: str, now: float) -> int:
    """Record every board whose game is over but not recorded (its end-of-game hook failed,
    or ran in a process that stopped): how many. Reads first; writes only if there are any."""
    with guard(engine), Session(engine) as s:
        pending = s.scalar(
            select(func.count())
            .select_from(TournamentGameRow)
            .join(TableRow, TableRow.id == TournamentGameRow.table_id)
            .where(
                TournamentGameRow.tournament_id == tournament_id,
                TournamentGameRow.state == "playing",
                TableRow.state == "over",
            )
        )
    if not pending:
        return 0
    with guard(engine), Session(engine) as s, s.begin():
        row = _locked(s, tournament_id)
        n = 0
        for game in s.scalars(
            select(TournamentGameRow).where(
                TournamentGameRow.tournament_id == tournament_id,
                TournamentGameRow.state == "playing",
            )
        ):
            n += _record(s, game, now)
        s.flush()
        _maybe_finish(s, row, now)
        return n


# -- a duplicate series -----------------------------------------------------------------------


@dataclass(frozen=True)
class RoomResult:
    """A duplicate room's game at its end: each player's total and tops by the name the game
    knows them by, and the top total."""

    totals: dict[str, int]
    tops: dict[str, int]
    top_total: int


def _series_json(r: TournamentSeriesScoreRow) -> dict[str, Any]:
    return {"score": r.score, "top_total": r.top_total, "tops": r.tops, "source": r.source}


def record_room(engine: Engine, room_id: str, result: RoomResult, now: float) -> str | None:
    """A duplicate room's game has ended: record each player's result on its series, unless
    the director has set it already. The tournament's id, or None (not a series' room, or
    recorded before)."""
    with guard(engine), Session(engine) as s, s.begin():
        found = s.scalar(
            select(TournamentSeriesGameRow.tournament_id).where(
                TournamentSeriesGameRow.room_id == room_id
            )
        )
        if found is None:
            return None
        row = _locked(s, found)
        game = s.scalar(
            select(TournamentSeriesGameRow).where(TournamentSeriesGameRow.room_id == room_id)
        )
        assert game is not None
        if game.state != "playing":
            return None
        by_account = {
            account: name
            for account, name in s.execute(
                select(DuplicatePlayerRow.account_id, DuplicatePlayerRow.name).where(
                    DuplicatePlayerRow.room_id == room_id
                )
            )
        }
        for score in s.scalars(
            select(TournamentSeriesScoreRow).where(
                TournamentSeriesScoreRow.tournament_id == found,
                TournamentSeriesScoreRow.round == game.round,
            )
        ):
            if score.source == "director":
                continue
            name = by_account.get(score.account_id)
            score.score = result.totals.get(name, 0) if name else 0
            score.tops = result.tops.get(name, 0) if name else 0
            score.top_total = result.top_total
            score.source = "game"
        game.state, game.ended_at = "over", now
        s.flush()
        _maybe_finish(s, row, now)
        return found


def unrecorded_rooms(engine: Engine, tournament_id: str) -> list[str]:
    """The rooms of a series whose game is over but whose results are not recorded (the
    end-of-game hook failed, or ran in a process that stopped)."""
    with guard(engine), Session(engine) as s:
        return list(
            s.scalars(
                select(TournamentSeriesGameRow.room_id)
                .join(DuplicateRoomRow, DuplicateRoomRow.id == TournamentSeriesGameRow.room_id)
                .where(
                    TournamentSeriesGameRow.tournament_id == tournament_id,
                    TournamentSeriesGameRow.state == "playing",
                    DuplicateRoomRow.state == "over",
                )
            )
        )


def fix_score(
    engine: Engine,
    tournament_id: str,
    director_id: int,
    round_number: int,
    account_id: int,
    score: int,
    reason: str,
    now: float,
) -> None:
    """The director sets a player's score in a game of a duplicate series (the game's own, if
    it ends later, is ignored for that player)."""
    with guard(engine), Session(engine) as s, s.begin():
        row = _locked(s, tournament_id)
        _director(row, director_id, "fix a result")
        if row.format != "duplicate":
            raise ApiError(
                409, "not_a_series", "only a duplicate series has scores per player to fix"
            )
        result = s.get(TournamentSeriesScoreRow, (tournament_id, round_number, account_id))
        if result is None:
            raise ApiError(
                404,
                "no_such_game",
                f"that player did not play game {round_number} of the series",
            )
        game = s.get(TournamentSeriesGameRow, (tournament_id, round_number))
        assert game is not None
        before = _series_json(result)
        result.score, result.source = score, "director"
        if result.top_total is None:
            result.top_total = _room_top_total(s, game.room_id)
        _audit(
            s,
            row,
            director_id,
            "fix_score",
            now,
            round_number=round_number,
            player_id=account_id,
            reason=reason,
            before=before,
            after=_series_json(result),
        )


def _room_top_total(s: Session, room_id: str) -> int:
    """The top total of a room's game so far, from its log as stored: the sum of the tops
    of its closed rounds."""
    total = 0
    for data in s.scalars(
        select(DuplicateEventRow.data).where(DuplicateEventRow.room_id == room_id)
    ):
        event = json.loads(data)
        if isinstance(event, dict) and event.get("type") == "round":
            total += int(event["score"])
    return total
