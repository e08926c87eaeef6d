"""Tournaments over HTTP: ``/api/tournaments…`` (docs/web-api.md, "Tournaments").

Anyone may read a tournament, its standings, its rounds, its director's log and its results
as CSV. An account creates one (and directs it), registers and withdraws before the start.
Only the director starts a round, pauses and resumes, fixes a result (with a reason) and
removes a player (with a reason); anyone else is refused with ``403 not_director``.

A round starts in one request: the pairing (``tablero.competition.pairing``, in a thread),
then a table per game planned as any table is (``Hub.plan_table``: the players seated at
their accounts, the one who moves first at seat 0 and starting), then every table and board
stored in one transaction, then the tables' rooms started. A game's result comes back through
the hub's end-of-game hook (``record_table``); every read also records any game over but not
yet recorded (``settle``), so a result is never lost to a process that stopped in between.
"""

from __future__ import annotations

import asyncio
import csv
import io
import secrets
import time
import unicodedata
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from ...competition.duplicate import DuplicateGame
from ...competition.pairing import (
    Pairing,
    PairingError,
    round_robin_pairings,
    round_robin_rounds,
    swiss_pairings,
)
from ...competition.results import percent_of_top
from ...competition.series import SeriesScore, series_standings
from ...competition.standings import BYE_SPREAD, Played, standings
from .. import catalog
from ..accounts.names import username_key
from ..accounts.sessions import account_of, require_account
from ..accounts.store import Account
from ..duplicate.service import DuplicateRooms, RoomOptions
from ..errors import ApiError
from ..ratings import Rating, display
from ..ratings import store as ratings_store
from ..ratings.players import account_player_key
from ..tables.hub import Hub, PlannedTable
from ..tables.protocol import CreateTableRequest, SeatSpec, disguising_character
from ..tables.views import iso_time
from ..web.openapi import json_body, request_body
from ..web.requests import JSON, load_guard, rate_limit, read_model
from . import store
from .results import from_scores
from .store import Board, Clash, NewBoard, NewRoom, RoomResult, Snapshot

__all__ = [
    "FORMATS",
    "MAX_OPEN_PER_DIRECTOR",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "NAME_MAX",
    "REASON_MAX",
    "install_tournament_hooks",
    "install_tournament_routes",
]

FORMATS = ("swiss", "round_robin", "duplicate")
MAX_PLAYERS = 64
"""Players in one tournament (a Swiss round of 64 pairs in about 0.3 s)."""
MAX_ROUNDS = 20
"""Rounds of a Swiss tournament, games of a duplicate series (a round robin has as many as
its players need)."""
ROUND_SECONDS = (10, 900)
"""A duplicate series' round time, in seconds (the rule files say 180)."""
SERIES_START_SECONDS = 30
"""A duplicate series' game shows its first rack this long after its round starts, so that
every player has time to open the room."""
SERIES_PAUSE_SECONDS = 20
"""Between the rounds of a duplicate series' game."""
NAME_MAX = 48
"""Characters of a tournament's name (its tables are titled with it and the board)."""
REASON_MAX = 200
MAX_OPEN_PER_DIRECTOR = 5
"""Tournaments one account may direct at once (registering or playing)."""
SCORE_RANGE = (-1000, 5000)
"""What a director may give as a game's score."""


class CreateTournamentRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    name: str = Field(max_length=500)
    variant: str = Field(max_length=32)
    format: str = Field(max_length=32)
    """swiss, round_robin or duplicate (a duplicate series)."""
    rounds: int | None = None
    """Swiss: 1–20 rounds. A duplicate series: 1–20 games. Round robin: leave out (its players
    decide it)."""
    clock_minutes: int | None = None
    """Each player's time in each game, 1–180 minutes; null: untimed. Not for a duplicate
    series (its rounds are timed: ``round_seconds``)."""
    round_seconds: int | None = None
    """A duplicate series: each duplicate round's time, 10–900 seconds (absent: the rule
    file's, 180 in the shipped games). Only for a duplicate series."""
    game_rounds: int | None = None
    """A duplicate series: each game stops after this many rounds, 1–100 (absent or null:
    played to the end, as the rack rule ends it). Only for a duplicate series."""
    rated: bool | None = None
    """Swiss and round robin: rated unless false. A duplicate series is never rated."""
    max_players: int = MAX_PLAYERS
    lexicon: str | None = Field(default=None, max_length=32)
    """A dictionary installed on the server for the game's language, for every game
    (``GET /api/lexicons``); absent or null: the game's own."""


class ReasonRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    reason: str | None = Field(default=None, max_length=2000)


class FixScoreRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    round: int = Field(ge=1, le=1000)
    """The game of the series."""
    player: str = Field(max_length=100)
    score: int
    """The player's total in that game."""
    reason: str = Field(max_length=2000)


class FixRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    round: int = Field(ge=1, le=1000)
    board: int = Field(ge=1, le=1000)
    scores: list[int] = Field(min_length=2, max_length=2)
    """The first player's score, then the second's."""
    reason: str = Field(max_length=2000)


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _rooms(request: Request) -> DuplicateRooms:
    rooms: DuplicateRooms = request.app.state.duplicate
    return rooms


def _text(value: str | None, field: str, most: int, required: bool) -> str | None:
    """A name or a reason: trimmed, 1–``most`` characters, no control or invisible ones."""
    text = unicodedata.normalize("NFC", (value or "").strip())
    if not text:
        if required:
            raise ApiError(422, "invalid_request", f"{field}: it cannot be empty", field=field)
        return None
    if len(text) > most:
        raise ApiError(
            422,
            "invalid_request",
            f"{field}: at most {most} characters, not {len(text)}",
            field=field,
        )
    ch = disguising_character(text)
    if ch is not None:
        raise ApiError(
            422,
            "invalid_request",
            f"{field}: no control or invisible formatting characters such as U+{ord(ch):04X}",
            field=field,
        )
    return text


def _valid_id(tournament_id: str) -> str:
    if not (0 < len(tournament_id) <= 16 and tournament_id.isascii() and tournament_id.isalnum()):
        raise ApiError(404, "not_found", "no such tournament")
    return tournament_id


async def _snapshot(hub: Hub, tournament_id: str, rooms: DuplicateRooms | None = None) -> Snapshot:
    """The tournament as stored, with every game that has ended recorded first (a duplicate
    series' rooms too, given the rooms' service)."""
    _valid_id(tournament_id)
    await asyncio.to_thread(store.settle, hub.engine, tournament_id, time.time())
    if rooms is not None:
        for room_id in await asyncio.to_thread(store.unrecorded_rooms, hub.engine, tournament_id):
            await _record_room(hub, rooms, room_id)
    snap = await asyncio.to_thread(store.load, hub.engine, tournament_id)
    if snap is None:
        raise ApiError(404, "not_found", "no such tournament")
    return snap


async def _record_room(hub: Hub, rooms: DuplicateRooms, room_id: str) -> None:
    game = await rooms.finished_game(room_id)
    if game is not None:
        await _record_game(hub, room_id, game)


async def _record_game(hub: Hub, room_id: str, game: DuplicateGame) -> None:
    """Record a series' room's game, over: each player's total and tops, the top total."""
    await asyncio.to_thread(store.record_room, hub.engine, room_id, room_result(game), time.time())


def room_result(game: DuplicateGame) -> RoomResult:
    """What a series records of a room's game at its end."""
    standings = game.standings()
    return RoomResult(
        {s.player: s.total for s in standings},
        {s.player: s.tops for s in standings},
        game.top_total,
    )


def _played(snap: Snapshot) -> list[Played]:
    return [
        Played(
            b.round,
            str(b.first_id),
            None if b.second_id is None else str(b.second_id),
            b.points if b.state == "over" else None,
            b.spread or 0,
        )
        for b in snap.boards
    ]


def _seeded(snap: Snapshot) -> list[str]:
    return [str(p.account_id) for p in snap.players]


def _active(snap: Snapshot) -> list[str]:
    return [str(p.account_id) for p in snap.players if p.removed_after is None]


# -- JSON -------------------------------------------------------------------------------------


def _when(ts: float | None) -> str | None:
    return None if ts is None else iso_time(ts)


def tournament_json(snap: Snapshot, viewer: Account | None) -> dict[str, Any]:
    t = snap.tournament
    in_play = snap.in_play
    mine = viewer is not None and any(p.account_id == viewer.id for p in snap.players)
    return {
        "id": t.id,
        "name": t.name,
        "director": t.director,
        "variant": t.variant,
        "lexicon": t.lexicon,
        "format": t.format,
        "rounds": t.rounds,
        "clock_minutes": t.clock_minutes,
        "round_seconds": t.round_seconds,
        "game_rounds": t.game_rounds,
        "rated": t.rated,
        "max_players": t.max_players,
        "state": t.state,
        "paused": t.paused,
        "round": t.round,
        "round_in_play": in_play,
        "bye_spread": BYE_SPREAD,
        "created": iso_time(t.created_at),
        "started": _when(t.started_at),
        "finished": _when(t.finished_at),
        "players": [
            {
                "username": p.username,
                "seed": p.seed,
                "removed": p.removed_after is not None,
                "removed_after": p.removed_after,
            }
            for p in snap.players
        ],
        "you": {
            "director": viewer is not None and viewer.id == t.director_id,
            "registered": mine,
        },
    }


def _series_scores(snap: Snapshot) -> list[SeriesScore]:
    return [
        SeriesScore(r.round, str(r.account_id), r.score, r.top_total, r.tops or 0)
        for r in snap.scores
    ]


def standings_json(snap: Snapshot) -> dict[str, Any]:
    t = snap.tournament
    names = {str(p.account_id): p for p in snap.players}
    if t.state == "registering":
        rows: list[dict[str, Any]] = []
    elif t.format == "duplicate":
        rows = [
            {
                "rank": s.rank,
                "username": names[s.player].username,
                "seed": s.seed,
                "total": s.total,
                "top_total": s.top_total,
                "percent": s.percent,
                "games": s.games,
                "tops": s.tops,
                "removed": names[s.player].removed_after is not None,
            }
            for s in series_standings(_seeded(snap), _series_scores(snap))
        ]
    else:
        rows = [
            {
                "rank": s.rank,
                "username": names[s.player].username,
                "seed": s.seed,
                "points": s.points,
                "wins": s.wins,
                "draws": s.draws,
                "losses": s.losses,
                "spread": s.spread,
                "played": s.played,
                "byes": s.byes,
                "firsts": s.firsts,
                "seconds": s.seconds,
                "removed": names[s.player].removed_after is not None,
            }
            for s in standings(_seeded(snap), _played(snap))
        ]
    return {"round": t.round, "final": t.state == "finished", "standings": rows}


def _result(b: Board) -> str | None:
    if b.state != "over":
        return None
    if b.second_id is None:
        return "bye"
    return "first" if b.points == 1 else "second" if b.points == 0 else "draw"


def board_json(b: Board) -> dict[str, Any]:
    return {
        "board": b.board,
        "first": b.first,
        "second": b.second,
        "table": b.table_id,
        "state": b.state,
        "scores": None if b.first_score is None else [b.first_score, b.second_score],
        "result": _result(b),
        "spread": b.spread if b.state == "over" else None,
        "source": b.source,
    }


def round_json(snap: Snapshot, number: int) -> dict[str, Any]:
    if snap.tournament.format == "duplicate":
        game = next((g for g in snap.series if g.round == number), None)
        return {
            "round": number,
            "room": None if game is None else game.room_id,
            "state": None if game is None else game.state,
            "scores": [
                {
                    "player": r.username,
                    "score": r.score,
                    "top_total": r.top_total,
                    "percent": _percent(r.score, r.top_total),
                    "tops": r.tops,
                    "source": r.source,
                }
                for r in sorted(
                    (r for r in snap.scores if r.round == number),
                    key=lambda r: -(r.score if r.score is not None else -(10**9)),
                )
            ],
        }
    return {
        "round": number,
        "boards": [board_json(b) for b in snap.boards if b.round == number],
    }


def _csv_cell(value: object) -> str:
    """A cell as text; one a spreadsheet would read as a formula (=, +, -, @ first) is
    written after an apostrophe."""
    text = "" if value is None else str(value)
    if text[:1] in ("=", "+", "-", "@", "\t", "\r") and not _number(text):
        return "'" + text
    return text


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _percent(score: int | None, top_total: int | None) -> float | None:
    if score is None or top_total is None:
        return None
    return percent_of_top(score, top_total)


def _series_csv(snap: Snapshot, writer: Any) -> None:
    writer.writerow(["round", "player", "score", "top_total", "percent", "tops", "source", "room"])
    rooms = {g.round: g.room_id for g in snap.series}
    for r in snap.scores:
        writer.writerow(
            _csv_cell(x)
            for x in (
                r.round,
                r.username,
                r.score,
                r.top_total,
                _percent(r.score, r.top_total),
                r.tops,
                r.source or "",
                rooms.get(r.round, ""),
            )
        )


def results_csv(snap: Snapshot) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    if snap.tournament.format == "duplicate":
        _series_csv(snap, writer)
        return out.getvalue()
    writer.writerow(
        [
            "round",
            "board",
            "first",
            "second",
            "first_score",
            "second_score",
            "result",
            "first_spread",
            "source",
            "table",
        ]
    )
    for b in snap.boards:
        writer.writerow(
            _csv_cell(x)
            for x in (
                b.round,
                b.board,
                b.first,
                b.second or "",
                b.first_score,
                b.second_score,
                _result(b) or "",
                b.spread if b.state == "over" else "",
                b.source or "",
                b.table_id or "",
            )
        )
    return out.getvalue()


# -- starting a round -------------------------------------------------------------------------


async def _seeds(hub: Hub, snap: Snapshot) -> list[str]:
    """The seed order at the start: by rating in the tournament's game (1500 for a first
    game), then by registration."""
    variant = snap.tournament.variant

    def rating(account_id: int) -> int:
        ratings = ratings_store.ratings_of(hub.engine, account_player_key(account_id))
        return display(ratings.get(variant) or Rating.new())

    def order() -> list[str]:
        keyed = [(-rating(p.account_id), p.registered_at, p.account_id) for p in snap.players]
        return [str(account_id) for _, _, account_id in sorted(keyed)]

    return await asyncio.to_thread(order)


def _pair(snap: Snapshot, seeded: list[str], number: int) -> list[Pairing]:
    games = _played(snap)
    active = _active(snap)
    if snap.tournament.format == "round_robin":
        return round_robin_pairings(seeded, games, number, active)
    return swiss_pairings(seeded, games, active)


async def _plan_series_room(
    rooms: DuplicateRooms, snap: Snapshot, field: list[str], number: int
) -> NewRoom:
    """The duplicate room of a series' round: the field (account ids in seed order) as its
    players, its first rack shown ``SERIES_START_SECONDS`` from now."""
    t = snap.tournament
    names = {str(p.account_id): p.username for p in snap.players}
    rules = catalog.builtin(t.variant).duplicate
    options = RoomOptions(
        variant=t.variant,
        title=f"{t.name} ({number})",
        round_seconds=t.round_seconds or rules.round_seconds,
        rounds=t.game_rounds,
        solo_bonus=rules.solo_bonus,
        pause_seconds=SERIES_PAUSE_SECONDS,
        lexicon=t.lexicon,
    )
    players = [(names[p], int(p)) for p in field]
    now = time.time()
    values, seated, events, times = await rooms.plan_series_room(
        options, players, now + SERIES_START_SECONDS, now
    )
    return NewRoom(
        values,
        tuple((seat, account_id) for seat, (_, account_id) in zip(seated, players, strict=True)),
        events,
        tuple(times),
    )


async def start_next_round(
    hub: Hub, rooms: DuplicateRooms, tournament_id: str, director: Account
) -> dict[str, Any]:
    for _ in range(5):  # a registration or another start may come between look and write
        snap = await _snapshot(hub, tournament_id, rooms)
        t = snap.tournament
        if t.director_id != director.id:
            raise ApiError(403, "not_director", "only the tournament's director can start a round")
        if t.state == "finished" or (t.rounds is not None and t.round >= t.rounds):
            raise ApiError(409, "no_rounds_left", f"all {t.rounds} rounds have been started")
        if t.paused:
            raise ApiError(409, "paused", "the tournament is paused: resume it to start a round")
        if snap.in_play:
            raise ApiError(409, "round_in_play", f"round {t.round} is still being played")
        active = _active(snap)
        if len(active) < 2:
            what = "a duplicate series" if t.format == "duplicate" else "pairing"
            raise ApiError(
                422,
                "not_enough_players",
                f"{what} needs at least two players; the tournament has {len(active)}",
            )
        first_round = t.round == 0
        seeded = await _seeds(hub, snap) if first_round else _seeded(snap)
        number = t.round + 1
        seeds = {int(p): i + 1 for i, p in enumerate(seeded)} if first_round else None
        if t.format == "duplicate":
            field = [p for p in seeded if p in set(active)]
            room = await _plan_series_room(rooms, snap, field, number)
            try:
                await asyncio.to_thread(
                    store.start_round,
                    hub.engine,
                    tournament_id,
                    director.id,
                    t.round,
                    frozenset(int(p) for p in active),
                    [],
                    time.time(),
                    seeds=seeds,
                    room=room,
                )
            except Clash:
                continue
            return round_json(await _snapshot(hub, tournament_id, rooms), number)
        rounds = None
        if first_round and t.format == "round_robin":
            rounds = len(round_robin_rounds(seeded))
        try:
            pairings = await asyncio.to_thread(_pair, snap, seeded, number)
        except PairingError as e:
            raise ApiError(422, "not_enough_players", str(e)) from None
        names = {str(p.account_id): p.username for p in snap.players}
        planned: list[PlannedTable] = []
        boards: list[NewBoard] = []
        for p in pairings:
            if p.second is None:
                boards.append(NewBoard(p.board, int(p.first), None, bye_spread=BYE_SPREAD))
                continue
            table = await hub.plan_table(
                CreateTableRequest(
                    variant=t.variant,
                    seats=[SeatSpec(kind="open"), SeatSpec(kind="open")],
                    clock_minutes=t.clock_minutes,
                    rated=t.rated,
                    title=f"{t.name} ({number}.{p.board})",
                    lexicon=t.lexicon,
                ),
                clock_given=True,
                players=[(names[p.first], int(p.first)), (names[p.second], int(p.second))],
                first_seat=0,
            )
            planned.append(table)
            boards.append(
                NewBoard(
                    p.board,
                    int(p.first),
                    int(p.second),
                    (table.row, table.info.seats, table.events),
                )
            )
        try:
            await asyncio.to_thread(
                store.start_round,
                hub.engine,
                tournament_id,
                director.id,
                t.round,
                frozenset(int(p) for p in active),
                boards,
                time.time(),
                seeds=seeds,
                rounds=rounds,
            )
        except Clash:
            continue
        for table in planned:
            await hub.adopt(table)
        after = await _snapshot(hub, tournament_id)
        return round_json(after, number)
    raise ApiError(409, "busy", "the tournament is changing fast; look again")


def install_tournament_hooks(hub: Hub, rooms: DuplicateRooms) -> None:
    """Record a tournament game's result as its game ends (in this process): a table's, or a
    duplicate series' room's."""

    async def over(table_id: str) -> None:
        await asyncio.to_thread(store.record_table, hub.engine, table_id, time.time())

    hub.on_game_over(over)
    rooms.on_game_over(lambda room_id, game: _record_game(hub, room_id, game))


# -- routes -----------------------------------------------------------------------------------


def _player(snap: Snapshot, username: str) -> int:
    key = username_key(username)
    for p in snap.players:
        if username_key(p.username) == key:
            return p.account_id
    raise ApiError(404, "not_registered", "that player is not in the tournament")


def install_tournament_routes(app: FastAPI) -> None:
    @app.get("/api/tournaments")
    async def tournaments(request: Request) -> list[dict[str, Any]]:
        hub = _hub(request)
        found = await asyncio.to_thread(store.list_tournaments, hub.engine)
        return [
            {
                "id": t.id,
                "name": t.name,
                "director": t.director,
                "variant": t.variant,
                "lexicon": t.lexicon,
                "format": t.format,
                "rounds": t.rounds,
                "clock_minutes": t.clock_minutes,
                "round_seconds": t.round_seconds,
                "game_rounds": t.game_rounds,
                "rated": t.rated,
                "state": t.state,
                "paused": t.paused,
                "round": t.round,
                "players": count,
                "max_players": t.max_players,
                "created": iso_time(t.created_at),
            }
            for t, count in found
        ]

    @app.post(
        "/api/tournaments",
        status_code=201,
        openapi_extra=request_body({JSON: json_body(CreateTournamentRequest)}),
    )
    async def create(request: Request) -> dict[str, Any]:
        rate_limit(request, "create_table")
        load_guard(request).admit("tournaments or rounds")
        account = await require_account(request)
        req, _ = await read_model(request, CreateTournamentRequest)
        hub = _hub(request)
        name = _text(req.name, "name", NAME_MAX, required=True)
        assert name is not None
        if req.format not in FORMATS:
            raise ApiError(
                422,
                "bad_format",
                f"format: swiss, round_robin or duplicate, not {req.format!r}",
                field="format",
            )
        series = req.format == "duplicate"
        if req.format == "swiss":
            if req.rounds is None or not 1 <= req.rounds <= MAX_ROUNDS:
                raise ApiError(
                    422,
                    "bad_rounds",
                    f"rounds: a Swiss tournament has 1 to {MAX_ROUNDS}",
                    field="rounds",
                )
        elif series:
            if req.rounds is None or not 1 <= req.rounds <= MAX_ROUNDS:
                raise ApiError(
                    422,
                    "bad_rounds",
                    f"rounds: a duplicate series has 1 to {MAX_ROUNDS} games",
                    field="rounds",
                )
        elif req.rounds is not None:
            raise ApiError(
                422,
                "bad_rounds",
                "rounds: a round robin has as many rounds as its players need; leave it out",
                field="rounds",
            )
        if not 2 <= req.max_players <= MAX_PLAYERS:
            raise ApiError(
                422, "bad_max_players", f"max_players: 2 to {MAX_PLAYERS}", field="max_players"
            )
        if series and req.clock_minutes is not None:
            raise ApiError(
                422,
                "bad_clock",
                "clock_minutes: a duplicate series has no game clock; round_seconds times "
                "its rounds",
                field="clock_minutes",
            )
        if series and req.rated:
            raise ApiError(
                422, "bad_rated", "rated: a duplicate series is not rated", field="rated"
            )
        if not series and req.round_seconds is not None:
            raise ApiError(
                422,
                "bad_round_seconds",
                "round_seconds: only a duplicate series has timed rounds (use clock_minutes)",
                field="round_seconds",
            )
        if not series and req.game_rounds is not None:
            raise ApiError(
                422,
                "bad_game_rounds",
                "game_rounds: only a duplicate series' games have rounds",
                field="game_rounds",
            )
        if req.game_rounds is not None and not 1 <= req.game_rounds <= 100:
            raise ApiError(
                422, "bad_game_rounds", "game_rounds: 1 to 100, or null", field="game_rounds"
            )
        if req.round_seconds is not None and not (
            ROUND_SECONDS[0] <= req.round_seconds <= ROUND_SECONDS[1]
        ):
            raise ApiError(
                422,
                "bad_round_seconds",
                f"round_seconds: {ROUND_SECONDS[0]} to {ROUND_SECONDS[1]}",
                field="round_seconds",
            )
        if req.clock_minutes is not None and not 1 <= req.clock_minutes <= 180:
            raise ApiError(
                422,
                "bad_clock",
                "clock_minutes: 1 to 180, or null for no clock",
                field="clock_minutes",
            )
        if req.variant.startswith("u-"):
            raise ApiError(
                422,
                "bad_variant",
                "a tournament plays one of the built-in games",
                field="variant",
            )
        base, _ = await hub.variant(req.variant)
        base = catalog.with_lexicon(base, req.lexicon)
        if series:
            searchable = await asyncio.to_thread(lambda: hub.lexicons.lexicon_for(base).can_search)
            if not searchable:
                raise ApiError(
                    422,
                    "bad_variant",
                    f"{base.title} has no dictionary the engine can search: duplicate needs "
                    "one to find each round's top",
                    field="variant",
                )
        elif not base.min_players <= 2 <= base.max_players:
            raise ApiError(
                422, "bad_variant", f"{base.title} is not played by two", field="variant"
            )
        open_ = await asyncio.to_thread(store.count_directing, hub.engine, account.id)
        if open_ >= MAX_OPEN_PER_DIRECTOR:
            raise ApiError(
                409,
                "too_many_tournaments",
                f"you direct {open_} tournaments that are not finished (at most "
                f"{MAX_OPEN_PER_DIRECTOR})",
            )
        tournament_id = secrets.token_hex(5)
        await asyncio.to_thread(
            store.create_tournament,
            hub.engine,
            {
                "id": tournament_id,
                "name": name,
                "director_id": account.id,
                "variant": req.variant,
                "lexicon": base.lexicon if req.lexicon else None,
                "format": req.format,
                "rounds": req.rounds,
                "clock_minutes": req.clock_minutes,
                "round_seconds": (req.round_seconds or base.duplicate.round_seconds or 180)
                if series
                else None,
                "game_rounds": req.game_rounds,
                "rated": False if series else req.rated is not False,
                "max_players": req.max_players,
                "state": "registering",
                "paused": False,
                "round": 0,
                "created_at": time.time(),
                "started_at": None,
                "finished_at": None,
            },
        )
        return {"id": tournament_id}

    @app.get("/api/tournaments/{tournament_id}")
    async def tournament(tournament_id: str, request: Request) -> dict[str, Any]:
        hub = _hub(request)
        snap = await _snapshot(hub, tournament_id, _rooms(request))
        return tournament_json(snap, await account_of(request))

    @app.post("/api/tournaments/{tournament_id}/register")
    async def register(tournament_id: str, request: Request) -> dict[str, Any]:
        rate_limit(request, "seats")
        account = await require_account(request)
        hub = _hub(request)
        await asyncio.to_thread(
            store.register, hub.engine, _valid_id(tournament_id), account.id, time.time()
        )
        return {"ok": True}

    @app.delete("/api/tournaments/{tournament_id}/register")
    async def withdraw(tournament_id: str, request: Request) -> dict[str, Any]:
        rate_limit(request, "seats")
        account = await require_account(request)
        hub = _hub(request)
        await asyncio.to_thread(store.withdraw, hub.engine, _valid_id(tournament_id), account.id)
        return {"ok": True}

    @app.get("/api/tournaments/{tournament_id}/standings")
    async def standings_(tournament_id: str, request: Request) -> dict[str, Any]:
        snap = await _snapshot(_hub(request), tournament_id, _rooms(request))
        return standings_json(snap)

    @app.get("/api/tournaments/{tournament_id}/rounds")
    async def rounds(tournament_id: str, request: Request) -> list[dict[str, Any]]:
        snap = await _snapshot(_hub(request), tournament_id, _rooms(request))
        return [round_json(snap, n) for n in range(1, snap.tournament.round + 1)]

    @app.get("/api/tournaments/{tournament_id}/rounds/{number}")
    async def one_round(tournament_id: str, number: str, request: Request) -> dict[str, Any]:
        snap = await _snapshot(_hub(request), tournament_id, _rooms(request))
        n = int(number) if number.isascii() and number.isdigit() and len(number) < 6 else 0
        if not 1 <= n <= snap.tournament.round:
            raise ApiError(404, "no_such_round", f"round {number[:8]!r} has not started")
        return round_json(snap, n)

    @app.post("/api/tournaments/{tournament_id}/rounds", status_code=201)
    async def start(tournament_id: str, request: Request) -> dict[str, Any]:
        rate_limit(request, "create_table")
        load_guard(request).admit("tournaments or rounds")
        account = await require_account(request)
        hub = _hub(request)
        with load_guard(request).action("round"):
            return await start_next_round(hub, _rooms(request), tournament_id, account)

    async def pause_or_resume(tournament_id: str, request: Request, paused: bool) -> None:
        rate_limit(request, "seats")
        account = await require_account(request)
        body = await _optional_reason(request)
        await asyncio.to_thread(
            store.set_paused,
            _hub(request).engine,
            _valid_id(tournament_id),
            account.id,
            paused,
            body,
            time.time(),
        )

    @app.post(
        "/api/tournaments/{tournament_id}/pause",
        openapi_extra=request_body({JSON: json_body(ReasonRequest)}),
    )
    async def pause(tournament_id: str, request: Request) -> dict[str, Any]:
        await pause_or_resume(tournament_id, request, True)
        return {"ok": True, "paused": True}

    @app.post(
        "/api/tournaments/{tournament_id}/resume",
        openapi_extra=request_body({JSON: json_body(ReasonRequest)}),
    )
    async def resume(tournament_id: str, request: Request) -> dict[str, Any]:
        await pause_or_resume(tournament_id, request, False)
        return {"ok": True, "paused": False}

    @app.post(
        "/api/tournaments/{tournament_id}/results",
        openapi_extra=request_body({JSON: json_body(FixRequest)}),
    )
    async def fix(tournament_id: str, request: Request) -> dict[str, Any]:
        rate_limit(request, "seats")
        account = await require_account(request)
        req, _ = await read_model(request, FixRequest)
        hub = _hub(request)
        snap = await _directed(request, tournament_id, account, "fix a result")
        if snap.tournament.format == "duplicate":
            raise ApiError(
                409,
                "not_boards",
                "a duplicate series has no boards: fix a player's score with "
                f"POST /api/tournaments/{snap.tournament.id}/scores",
            )
        reason = _ruling(req.reason, req.scores, "scores")
        await asyncio.to_thread(
            store.fix_result,
            hub.engine,
            tournament_id,
            account.id,
            req.round,
            req.board,
            from_scores(req.scores[0], req.scores[1]),
            reason,
            time.time(),
        )
        after = await _snapshot(hub, tournament_id)
        (board,) = [b for b in after.boards if (b.round, b.board) == (req.round, req.board)]
        return board_json(board)

    @app.post(
        "/api/tournaments/{tournament_id}/scores",
        openapi_extra=request_body({JSON: json_body(FixScoreRequest)}),
    )
    async def fix_score(tournament_id: str, request: Request) -> dict[str, Any]:
        """A duplicate series: the director sets a player's score in one of its games."""
        rate_limit(request, "seats")
        account = await require_account(request)
        req, _ = await read_model(request, FixScoreRequest)
        hub = _hub(request)
        snap = await _directed(request, tournament_id, account, "fix a result")
        reason = _ruling(req.reason, [req.score], "score")
        player = _player(snap, req.player)
        await asyncio.to_thread(
            store.fix_score,
            hub.engine,
            tournament_id,
            account.id,
            req.round,
            player,
            req.score,
            reason,
            time.time(),
        )
        return round_json(await _snapshot(hub, tournament_id), req.round)

    @app.post(
        "/api/tournaments/{tournament_id}/players/{username}/remove",
        openapi_extra=request_body({JSON: json_body(ReasonRequest)}),
    )
    async def remove(tournament_id: str, username: str, request: Request) -> dict[str, Any]:
        rate_limit(request, "seats")
        account = await require_account(request)
        hub = _hub(request)
        snap = await _directed(request, tournament_id, account, "remove a player")
        reason = await _optional_reason(request)
        if reason is None:
            raise ApiError(
                422, "invalid_request", "reason: say why the player is removed", field="reason"
            )
        player = _player(snap, username)
        await asyncio.to_thread(
            store.remove_player, hub.engine, tournament_id, account.id, player, reason, time.time()
        )
        return {"ok": True}

    @app.get("/api/tournaments/{tournament_id}/log")
    async def audit(tournament_id: str, request: Request) -> list[dict[str, Any]]:
        hub = _hub(request)
        await _snapshot(hub, tournament_id)
        entries = await asyncio.to_thread(store.audit_of, hub.engine, tournament_id)
        return [
            {
                "at": iso_time(e.at),
                "by": e.by,
                "action": e.action,
                "round": e.round,
                "board": e.board,
                "player": e.player,
                "reason": e.reason,
                "before": e.before,
                "after": e.after,
            }
            for e in entries
        ]

    @app.get("/api/tournaments/{tournament_id}/results.csv")
    async def results(tournament_id: str, request: Request) -> Response:
        snap = await _snapshot(_hub(request), tournament_id, _rooms(request))
        return Response(
            results_csv(snap),
            media_type="text/csv; charset=utf-8",
            headers={
                "Content-Disposition": f'attachment; filename="tournament-{snap.tournament.id}.csv"'
            },
        )


async def _directed(request: Request, tournament_id: str, account: Account, what: str) -> Snapshot:
    """The tournament, if ``account`` directs it; else ``403 not_director``."""
    snap = await _snapshot(_hub(request), tournament_id, _rooms(request))
    if snap.tournament.director_id != account.id:
        raise ApiError(403, "not_director", f"only the tournament's director can {what}")
    return snap


def _ruling(reason: str | None, scores: list[int], field: str) -> str:
    """A director's fix: its reason (required) and its scores, each in ``SCORE_RANGE``."""
    text = _text(reason, "reason", REASON_MAX, required=True)
    assert text is not None
    low, high = SCORE_RANGE
    if not all(low <= x <= high for x in scores):
        each = "each " if len(scores) > 1 else ""
        raise ApiError(422, "bad_scores", f"{field}: {each}from {low} to {high}", field=field)
    return text


async def _optional_reason(request: Request) -> str | None:
    """The ``reason`` of a body that may be absent (pause, resume) or required (remove)."""
    if not int(request.headers.get("content-length", "0") or 0) and not request.headers.get(
        "transfer-encoding"
    ):
        return None
    req, _ = await read_model(request, ReasonRequest)
    return _text(req.reason, "reason", REASON_MAX, required=False)
