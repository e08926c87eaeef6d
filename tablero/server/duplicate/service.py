"""The duplicate rooms of one server process: their games, the round timer, the live views.

The database is the truth (``store.py``); a room's ``DuplicateGame`` here is a cache of its
stored log, kept as long as the room is in use and brought up to date before every use: the
events stored since (by this process or another) are played onto it, and checked to come out
the same; anything else rebuilds it from the whole log (``DuplicateGame.replay``). Every
action is decided and stored in one transaction under the room's row lock (``store.update``),
and within this process one at a time per room (an ``asyncio.Lock``: the library holds none).

**The timer.** A round closes when its time is up, whether or not anyone sends anything: a
task of every process looks once a second for rooms in play past their deadline and closes
their round (``store.overdue``; the close is conditional under the row lock, so two
processes close a round once). At start-up that first look closes the rounds that ran out
while no server ran. A room with viewers in this process also has a timer of its own, so its
round closes on the second and its rack appears the moment the pause ends.

**Live views.** After a change the process announces it on the tables' bus
(``dup:<room>``: "room R now holds S events", no game data) and sends its own viewers the new
view; the other processes catch up from the database and send theirs. Each viewer's view is
built by ``views.py``: a submission goes to its player alone.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hmac
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ...competition.duplicate import DuplicateError, DuplicateGame, DuplicateOptions
from ...competition.duplicate_gcg import write_duplicate_gcg
from ...competition.results import Submission
from ...lexicon import Lexicon
from ...moves import Cambio, Challenge, Exchange, Move, Pass, Place, format_move
from ...rules import IllegalMove, check_move, placement_from_squares
from ...variant import Variant
from .. import catalog
from ..errors import ApiError
from ..tables.hub import Hub
from ..tables.info import hash_token
from ..tables.protocol import MoveIn, PreviewRequest, decode_move, decode_tiles
from . import store, views
from .store import Change, NewPlayer, Player, RoundTimes, Snapshot

__all__ = ["NEWS_PREFIX", "DuplicateRooms", "RoomOptions", "Viewer"]

log = logging.getLogger("tablero.server.duplicate")

NEWS_PREFIX = "dup:"
"""A room's news on the bus: ``dup:<room id>``."""
SWEEP_SECONDS = 1.0
"""How often a process looks for rounds past their deadline."""
BROADCAST_AFTER = 0.1
"""Seconds a change waits to be sent to the room's viewers, so that the changes of a rush (the
last seconds of a round, 100 players sending) go out as one state each: a state is whole, and
a room of 100 sends 100 of them a change. A submitter's own answer does not wait."""
IDLE_SECONDS = 600.0
"""A room nobody in this process watches or used for this long is dropped from memory."""

T = TypeVar("T")
Decide = Callable[[Snapshot, DuplicateGame, float], tuple[Change, T]]


class _Stale(Exception):
    """The cached game does not follow the stored log: rebuild it from the start."""


@dataclass(frozen=True)
class RoomOptions:
    variant: str
    title: str | None
    round_seconds: int
    rounds: int | None
    solo_bonus: int
    pause_seconds: int
    lexicon: str | None = None
    """A dictionary installed on the server instead of the game's own."""


def room_variant(name: str, lexicon: str | None) -> Variant:
    """A built-in game played with the room's dictionary (None: the game's own)."""
    variant = catalog.builtin(name)
    return variant if lexicon is None else dataclasses.replace(variant, lexicon=lexicon)


class Viewer:
    """A WebSocket on a room: the connection (``web.sockets.WsConnection``, which sends the latest
    state and closes a client too slow to take it) and the player it speaks for, if any."""

    def __init__(self, conn: Any, player: Player | None = None) -> None:
        self.conn = conn
        self.player = player


@dataclass(eq=False)
class _Entry:
    """A room in this process."""

    id: str
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    game: DuplicateGame | None = None
    seq: int = 0
    """Events of the stored log ``game`` holds."""
    snap: Snapshot | None = None
    """The room as last read (its events are not kept here: the game holds them)."""
    shown: tuple[store.Room, views.Parts] | None = None
    """The room and its public view, replaced together (views are built on the event loop
    while a worker thread may be storing the next change)."""
    parts_key: Any = None
    closed: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Closed rounds' JSON, made once (``views.round_json``)."""
    viewers: set[Viewer] = field(default_factory=set)
    timer: asyncio.TimerHandle | None = None
    sending: asyncio.TimerHandle | None = None
    """A broadcast to come (changes close together are sent once: ``BROADCAST_AFTER``)."""
    used: float = field(default_factory=time.monotonic)


def _player_of(snap: Snapshot, token: str | None, account_id: int | None) -> Player | None:
    """The player a request speaks for: by a guest's token (a wrong one is refused), else by
    the account of its session; None for anyone else."""
    if token:
        digest = hash_token(token)
        for p in snap.players:
            if p.token_hash is not None and hmac.compare_digest(p.token_hash, digest):
                return p
        raise ApiError(401, "bad_token", "this token is not the token of a player of this room")
    if account_id is not None:
        for p in snap.players:
            if p.account_id == account_id:
                return p
    return None


def _creator(snap: Snapshot, who: Player | None, what: str) -> None:
    if snap.room.tournament_id is not None:
        raise ApiError(
            403,
            "tournament_room",
            f"this room is a game of a tournament: its rounds run by the clock, nobody can {what}",
        )
    if who is None or who.name != snap.room.creator:
        raise ApiError(403, "not_creator", f"only the room's creator can {what}")


def _library_error(e: DuplicateError) -> ApiError:
    status = {
        "late": 409,
        "game_over": 409,
        "name_taken": 409,
        "unknown_player": 403,
    }.get(e.code, 422)
    extra: dict[str, Any] = {}
    if e.params:
        extra["params"] = dict(e.params)
        if isinstance(extra["params"].get("at"), float):  # a late move's time, as said
            extra["params"]["at"] = round(extra["params"]["at"], 1)
    return ApiError(status, e.code, e.message, **extra)


def _times(snap: Snapshot, number: int) -> RoundTimes | None:
    return next((t for t in snap.rounds if t.round == number), None)


def _close(snap: Snapshot, game: DuplicateGame, now: float, by: str) -> Change:
    """Close the round being played: scored, the top placed, the next rack drawn (or the end);
    the next round opens after the room's pause."""
    room = snap.room
    number = game.round
    times = _times(snap, number)
    game.close_round()
    rounds = []
    if times is not None:
        rounds.append(RoundTimes(number, times.opens_at, times.deadline, now, by))
    if game.is_over:
        values: dict[str, Any] = {
            "state": "over",
            "finished_at": now,
            "opens_at": None,
            "deadline": None,
            "round": game.round,
        }
    else:
        opens = now + room.pause_seconds
        deadline = opens + room.round_seconds
        values = {"round": game.round, "opens_at": opens, "deadline": deadline}
        rounds.append(RoundTimes(game.round, opens, deadline))
    return Change(room=values, rounds=rounds)


def _extend(game: DuplicateGame, events: tuple[dict[str, Any], ...]) -> None:
    """Play stored events onto a game that holds the log before them; ``_Stale`` unless they
    come out the same (the library's own replay check, for a part of the log)."""
    start = len(game.log)
    try:
        for event in events:
            game.act(event)
    except (DuplicateError, KeyError, ValueError) as e:
        raise _Stale(str(e)) from None
    if game.log[start:] != list(events):
        raise _Stale("the stored events do not replay the same")


class DuplicateRooms:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.engine = hub.engine
        self.entries: dict[str, _Entry] = {}
        self._lexicons: dict[str, Lexicon] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._over_hooks: list[Callable[[str, DuplicateGame], Awaitable[None]]] = []

    def on_game_over(self, hook: Callable[[str, DuplicateGame], Awaitable[None]]) -> None:
        """Call ``hook(room_id, game)`` when a room's game ends through this process (a
        tournament records its series' results so; a hook that fails is logged, and the
        tournament's next read records what it missed)."""
        self._over_hooks.append(hook)

    # -- start and stop -------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen for other processes' news; close the rounds that ran out while no server
        ran (the sweeper's first look, at once), then keep looking."""
        self.hub.add_news_handler(NEWS_PREFIX, self._on_news, self._on_reconnect)
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for entry in self.entries.values():
            for handle in (entry.timer, entry.sending):
                if handle is not None:
                    handle.cancel()

    # -- the games ------------------------------------------------------------------------------

    def _lexicon(self, variant: Variant) -> Lexicon:
        key = f"{variant.name}/{variant.lexicon}"
        lexicon = self._lexicons.get(key)
        if lexicon is None:
            lexicon = self._lexicons[key] = self.hub.lexicons.lexicon_for(variant)
        return lexicon

    def _entry(self, room_id: str) -> _Entry:
        if not (0 < len(room_id) <= 16 and room_id.isascii() and room_id.isalnum()):
            raise ApiError(404, "not_found", "no such duplicate room")
        entry = self.entries.get(room_id)
        if entry is None:
            entry = self.entries[room_id] = _Entry(room_id)
        entry.used = time.monotonic()
        return entry

    def _absorb(self, entry: _Entry, snap: Snapshot) -> DuplicateGame:
        """Bring the entry's game to the stored log of ``snap`` (its events from
        ``snap.since``); ``_Stale`` when it cannot follow."""
        if entry.game is None:
            if snap.since != 0:
                raise _Stale("no game to extend")
            variant = room_variant(snap.room.variant, snap.room.lexicon)
            entry.game = DuplicateGame.replay(list(snap.events), self._lexicon(variant))
        elif snap.since != entry.seq:
            raise _Stale("the events read do not follow the game")
        else:
            _extend(entry.game, snap.events)
        entry.seq = snap.room.seq
        if len(entry.game.log) != entry.seq:
            raise _Stale("the game's log is not the stored one")
        return entry.game

    def _settle(self, entry: _Entry, snap: Snapshot) -> None:
        """Keep the room as read, and its public view when anything shown has changed."""
        entry.snap = Snapshot(snap.room, snap.players, snap.rounds, (), snap.room.seq)
        key = (snap.room, snap.players, snap.rounds)
        if key != entry.parts_key or entry.shown is None:
            assert entry.game is not None
            title = catalog.builtin(snap.room.variant).title
            parts = views.public_parts(snap, entry.game, title, entry.closed)
            entry.shown = (snap.room, parts)
            entry.parts_key = key

    def _refresh_sync(self, entry: _Entry) -> None:
        """Catch up with the database (in a worker thread, under the entry's lock)."""
        for attempt in range(2):
            since = entry.seq if entry.game is not None else 0
            snap = store.load(self.engine, entry.id, since)
            if snap is None:
                self.entries.pop(entry.id, None)
                raise ApiError(404, "not_found", "no such duplicate room")
            try:
                self._absorb(entry, snap)
            except _Stale:
                if attempt:
                    raise
                entry.game, entry.seq = None, 0
                entry.closed.clear()
                continue
            self._settle(entry, snap)
            return

    def _change_sync(self, entry: _Entry, decide: Decide[T], now: float) -> tuple[T, bool, bool]:
        """One action, decided and stored under the room's row lock (a worker thread, under
        the entry's lock). Returns the action's result, whether anything changed and whether
        the game ended."""
        out: list[tuple[T, bool, bool]] = []

        def under_lock(snap: Snapshot) -> Change:
            game = self._absorb(entry, snap)
            change, result = decide(snap, game, now)
            change.events = [dict(e) for e in game.log[snap.room.seq :]]
            changed = change.events or change.room or change.player or change.rounds
            ended = snap.room.state != "over" and change.room.get("state") == "over"
            out.append((result, bool(changed), ended))
            return change

        for attempt in range(2):
            since = entry.seq if entry.game is not None else 0
            try:
                after = store.update(self.engine, entry.id, since, under_lock, now)
            except _Stale:
                if attempt:
                    raise
                entry.game, entry.seq, entry.parts_key = None, 0, None
                entry.closed.clear()
                continue
            except BaseException:
                # Refused before anything changed (the library raises first), or the store
                # failed after the game moved on: then the cached game is not the stored one.
                if entry.game is not None and len(entry.game.log) != entry.seq:
                    entry.game, entry.seq, entry.parts_key = None, 0, None
                raise
            assert entry.game is not None
            entry.seq = after.room.seq
            self._settle(entry, after)
            return out[-1]
        raise AssertionError("unreachable")  # pragma: no cover

    async def _change(self, room_id: str, decide: Decide[T]) -> tuple[_Entry, T]:
        entry = self._entry(room_id)
        async with entry.lock:
            try:
                result, changed, ended = await asyncio.to_thread(
                    self._change_sync, entry, decide, time.time()
                )
            except ApiError as e:
                if e.code == "not_found" and entry.game is None:
                    self.entries.pop(room_id, None)  # no such room: nothing to keep
                raise
        if changed:
            await self._changed(entry)
        if ended and entry.game is not None:
            for hook in self._over_hooks:
                try:
                    await hook(room_id, entry.game)
                except Exception:
                    log.exception("duplicate room %s: a game-over hook failed", room_id)
        return entry, result

    async def finished_game(self, room_id: str) -> DuplicateGame | None:
        """A room's game if it is over (rebuilt from its log if need be), else None."""
        entry = await self.current(room_id)
        game = entry.game
        return game if game is not None and game.is_over else None

    async def current(self, room_id: str) -> _Entry:
        """The room as stored now (its entry caught up)."""
        entry = self._entry(room_id)
        async with entry.lock:
            await asyncio.to_thread(self._refresh_sync, entry)
        return entry

    # -- reading --------------------------------------------------------------------------------

    def player_of(self, entry: _Entry, token: str | None, account_id: int | None) -> Player | None:
        assert entry.snap is not None
        return _player_of(entry.snap, token, account_id)

    def view(self, entry: _Entry, viewer: Player | None) -> dict[str, Any]:
        assert entry.shown is not None
        room, parts = entry.shown
        return views.room_view(parts, room, time.time(), viewer)

    async def view_for(
        self, room_id: str, token: str | None, account_id: int | None
    ) -> dict[str, Any]:
        entry = await self.current(room_id)
        return self.view(entry, self.player_of(entry, token, account_id))

    async def list_rooms(self) -> list[dict[str, Any]]:
        found = await asyncio.to_thread(store.list_rooms, self.engine, time.time() - 86_400)
        return [views.list_entry(room, count) for room, count in found]

    async def round_json(self, room_id: str, number: int) -> dict[str, Any]:
        entry = await self.current(room_id)
        async with entry.lock:
            game = entry.game
            assert game is not None and entry.snap is not None
            if not 1 <= number <= len(game.results):
                raise ApiError(404, "no_such_round", f"round {number} has not been closed")
            result = game.results[number - 1]
            times = _times(entry.snap, number)
            return await asyncio.to_thread(views.round_json, result, times, game.variant)

    async def gcg(self, room_id: str) -> str:
        """The game as GCG with the duplicate pragmas, once it is over (before, the file's
        seed would tell the racks to come)."""
        entry = await self.current(room_id)
        async with entry.lock:
            game = entry.game
            assert game is not None and entry.snap is not None
            if not game.is_over:
                raise ApiError(409, "not_over", "the game's record is given once the game is over")
            return await asyncio.to_thread(write_duplicate_gcg, game, entry.snap.room.title)

    # -- actions --------------------------------------------------------------------------------

    async def _new_game(self, options: RoomOptions, names: list[str]) -> DuplicateGame:
        """A new game of the room's options with these players (in a worker thread: the
        first round's moves are found now)."""
        variant = room_variant(options.variant, options.lexicon)
        rules = DuplicateOptions(
            round_seconds=float(options.round_seconds),
            solo_bonus=options.solo_bonus,
            max_rounds=options.rounds,
        )

        def build() -> DuplicateGame:
            lexicon = self._lexicon(variant)
            if not lexicon.can_search:
                raise ApiError(422, "bad_variant", f"{variant.title} has no dictionary to search")
            try:
                return DuplicateGame(variant, lexicon, names, options=rules)
            except DuplicateError as e:
                raise _library_error(e) from None

        return await asyncio.to_thread(build)

    @staticmethod
    def _room_values(
        options: RoomOptions, room_id: str, creator: str, now: float
    ) -> dict[str, Any]:
        return {
            "id": room_id,
            "variant": options.variant,
            "lexicon": options.lexicon,
            "title": options.title,
            "state": "waiting",
            "creator": creator,
            "round_seconds": options.round_seconds,
            "max_rounds": options.rounds,
            "solo_bonus": options.solo_bonus,
            "pause_seconds": options.pause_seconds,
            "round": 0,
            "opens_at": None,
            "deadline": None,
            "created_at": now,
            "started_at": None,
            "finished_at": None,
        }

    async def create(
        self, options: RoomOptions, name: str, account_id: int | None, token_hash: str | None
    ) -> tuple[str, str]:
        """A new room with its creator as the first player; returns its id and the creator's
        name as the game has it."""
        game = await self._new_game(options, [name])
        now = time.time()
        room_id = _new_id()
        creator = game.players[0]
        await asyncio.to_thread(
            store.create_room,
            self.engine,
            self._room_values(options, room_id, creator, now),
            NewPlayer(creator, account_id, token_hash),
            [dict(e) for e in game.log],
            now,
        )
        entry = self._entry(room_id)
        async with entry.lock:
            entry.game, entry.seq = game, len(game.log)
            await asyncio.to_thread(self._refresh_sync, entry)
        return room_id, creator

    async def plan_series_room(
        self, options: RoomOptions, players: list[tuple[str, int]], opens_at: float, now: float
    ) -> tuple[dict[str, Any], list[NewPlayer], list[dict[str, Any]], list[RoundTimes]]:
        """A room for a game of a duplicate series, not stored yet: its columns (already in
        play, its first rack shown at ``opens_at``; no creator), its players (each an
        account, in this order), its game's log so far and its first round's times. The
        tournament stores it with the round that starts it (``store.insert_room``)."""
        game = await self._new_game(options, [name for name, _ in players])
        values = self._room_values(options, _new_id(), "", now)
        rounds: list[RoundTimes] = []
        if game.is_over:  # the first rack has no move (a tiny bag): over at once
            values |= {"state": "over", "started_at": now, "finished_at": now}
        else:
            deadline = opens_at + options.round_seconds
            values |= {
                "state": "playing",
                "started_at": now,
                "round": game.round,
                "opens_at": opens_at,
                "deadline": deadline,
            }
            rounds.append(RoundTimes(game.round, opens_at, deadline))
        seated = [NewPlayer(name, account_id, None) for name, account_id in players]
        return values, seated, [dict(e) for e in game.log], rounds

    async def join(
        self, room_id: str, name: str, account_id: int | None, token_hash: str | None
    ) -> tuple[_Entry, Player]:
        def decide(snap: Snapshot, game: DuplicateGame, now: float) -> tuple[Change, str]:
            if snap.room.tournament_id is not None:
                raise ApiError(
                    409,
                    "tournament_room",
                    "this room is a game of a tournament: only its players play in it",
                )
            if snap.room.state == "over":
                raise ApiError(409, "game_over", "the game is over: nobody can join it")
            if account_id is not None and any(p.account_id == account_id for p in snap.players):
                raise ApiError(409, "already_joined", "your account already plays in this room")
            if len(snap.players) >= views.MAX_PLAYERS:
                raise ApiError(409, "room_full", f"the room is full ({views.MAX_PLAYERS} players)")
            try:
                game.join(name)
            except DuplicateError as e:
                raise _library_error(e) from None
            joined = game.players[-1]
            return Change(player=NewPlayer(joined, account_id, token_hash)), joined

        entry, joined = await self._change(room_id, decide)
        assert entry.snap is not None
        player = next(p for p in entry.snap.players if p.name == joined)
        return entry, player

    async def start_game(self, room_id: str, token: str | None, account_id: int | None) -> _Entry:
        def decide(snap: Snapshot, game: DuplicateGame, now: float) -> tuple[Change, None]:
            _creator(snap, _player_of(snap, token, account_id), "start the game")
            if snap.room.state != "waiting":
                raise ApiError(409, "already_started", "the game has already started")
            if game.is_over:  # round 1's rack had no move (a rule file's tiny bag)
                return Change(room={"state": "over", "started_at": now, "finished_at": now}), None
            deadline = now + snap.room.round_seconds
            return (
                Change(
                    room={
                        "state": "playing",
                        "started_at": now,
                        "round": game.round,
                        "opens_at": now,
                        "deadline": deadline,
                    },
                    rounds=[RoundTimes(game.round, now, deadline)],
                ),
                None,
            )

        entry, _ = await self._change(room_id, decide)
        return entry

    async def next_round(self, room_id: str, token: str | None, account_id: int | None) -> _Entry:
        """The creator opens the next round before the pause is over."""

        def decide(snap: Snapshot, game: DuplicateGame, now: float) -> tuple[Change, None]:
            room = snap.room
            _creator(snap, _player_of(snap, token, account_id), "open the next round")
            if room.state != "playing" or room.opens_at is None or now >= room.opens_at:
                raise ApiError(
                    409, "not_in_pause", "no round is waiting to open: a round is being played"
                )
            deadline = now + room.round_seconds
            return (
                Change(
                    room={"opens_at": now, "deadline": deadline},
                    rounds=[RoundTimes(room.round, now, deadline)],
                ),
                None,
            )

        entry, _ = await self._change(room_id, decide)
        return entry

    async def stop_game(self, room_id: str, token: str | None, account_id: int | None) -> _Entry:
        """The creator ends the game: the round being played is dropped."""

        def decide(snap: Snapshot, game: DuplicateGame, now: float) -> tuple[Change, None]:
            room = snap.room
            _creator(snap, _player_of(snap, token, account_id), "stop the game")
            if room.state == "over":
                raise ApiError(409, "game_over", "the game is already over")
            game.stop()
            rounds = []
            times = _times(snap, room.round)
            if times is not None and times.closed_at is None:
                rounds.append(RoundTimes(room.round, times.opens_at, times.deadline, now, "stop"))
            values = {"state": "over", "finished_at": now, "opens_at": None, "deadline": None}
            if room.started_at is None:
                values["started_at"] = now
            return Change(room=values, rounds=rounds), None

        entry, _ = await self._change(room_id, decide)
        return entry

    async def submit(
        self,
        room_id: str,
        token: str | None,
        account_id: int | None,
        number: int,
        move_in: MoveIn,
    ) -> tuple[_Entry, Player, Submission]:
        """A player's move for round ``number``, timed by this server's clock from the round's
        opening. Refused, changing nothing: not a player, a round not open (or closed), late,
        malformed, an exchange. When every player has a move in, the round closes."""

        def decide(
            snap: Snapshot, game: DuplicateGame, now: float
        ) -> tuple[Change, tuple[Player, Submission]]:
            room = snap.room
            who = _player_of(snap, token, account_id)
            if who is None:
                raise ApiError(
                    403, "not_a_player", "join the room first: only its players submit moves"
                )
            _check_round_open(snap, game, number, now)
            assert room.opens_at is not None
            move = _duplicate_move(move_in, game)
            try:
                submission = game.submit(who.name, move, now - room.opens_at)
            except DuplicateError as e:
                raise _library_error(e) from None
            change = Change()
            if views.played(game) >= set(game.players):
                change = _close(snap, game, now, "all")
            return change, (who, submission)

        entry, (who, submission) = await self._change(room_id, decide)
        return entry, who, submission

    async def close_due(self, room_id: str) -> None:
        """Close the round of a room whose time is up (nothing if it is not, or is closed)."""

        def decide(snap: Snapshot, game: DuplicateGame, now: float) -> tuple[Change, None]:
            room = snap.room
            if room.state != "playing" or room.deadline is None or now < room.deadline:
                return Change(), None
            return _close(snap, game, now, "time"), None

        await self._change(room_id, decide)

    async def preview(
        self, room_id: str, token: str | None, account_id: int | None, req: PreviewRequest
    ) -> dict[str, Any]:
        """What a move would score on the round's position, and whether its tiles are on the
        rack and placed by the rules. Never whether its words are in the dictionary: in
        duplicate nobody is told that before the round closes."""
        entry = await self.current(room_id)
        async with entry.lock:
            snap, game = entry.snap, entry.game
            assert snap is not None and game is not None
            if _player_of(snap, token, account_id) is None:
                raise ApiError(403, "not_a_player", "join the room first")
            if views.phase(snap.room, time.time()) != "open":
                raise ApiError(409, "not_open", "no round is open")
            return await asyncio.to_thread(_preview, game, req)

    # -- live -----------------------------------------------------------------------------------

    async def attach(self, room_id: str, viewer: Viewer) -> _Entry:
        entry = await self.current(room_id)
        entry.viewers.add(viewer)
        viewer.conn.offer_state(self.state_text(entry, viewer))
        self._schedule(entry)
        return entry

    def detach(self, entry: _Entry, viewer: Viewer) -> None:
        entry.viewers.discard(viewer)
        if not entry.viewers and entry.timer is not None:
            entry.timer.cancel()
            entry.timer = None

    def state_text(self, entry: _Entry, viewer: Viewer) -> str:
        assert entry.shown is not None
        room, parts = entry.shown
        return views.state_texts(parts, room, time.time())(viewer.player)

    def broadcast(self, entry: _Entry) -> None:
        """Send every viewer of this process the room as it may see it now."""
        if entry.shown is None:
            return
        room, parts = entry.shown
        text = views.state_texts(parts, room, time.time())
        for viewer in list(entry.viewers):
            viewer.conn.offer_state(text(viewer.player))

    async def _changed(self, entry: _Entry) -> None:
        await self.hub.bus.publish(NEWS_PREFIX + entry.id, entry.seq)
        self.broadcast_soon(entry)
        self._schedule(entry)

    def broadcast_soon(self, entry: _Entry) -> None:
        """Send the viewers the room in a moment, with whatever else changes meanwhile."""
        if entry.sending is None and entry.viewers:

            def send() -> None:
                entry.sending = None
                self.broadcast(entry)

            entry.sending = asyncio.get_running_loop().call_later(BROADCAST_AFTER, send)

    def _schedule(self, entry: _Entry) -> None:
        """Wake when the room's view changes by the clock alone: the pause ends (the rack is
        shown), or the round's time is up (it closes). Only for rooms watched here."""
        if entry.timer is not None:
            entry.timer.cancel()
            entry.timer = None
        room = entry.shown[0] if entry.shown else None
        if room is None or room.state != "playing" or not entry.viewers:
            return
        now = time.time()
        if room.opens_at is not None and now < room.opens_at:
            at, action = room.opens_at, self._opened
        elif room.deadline is not None:
            at, action = room.deadline, self._due
        else:  # pragma: no cover - a room in play has both
            return
        loop = asyncio.get_running_loop()
        entry.timer = loop.call_later(max(0.0, at - now) + 0.01, action, entry)

    def _opened(self, entry: _Entry) -> None:
        entry.timer = None
        self.broadcast(entry)
        self._schedule(entry)

    def _due(self, entry: _Entry) -> None:
        entry.timer = None
        self._spawn(self.close_due(entry.id))

    def _spawn(self, coro: Any) -> None:
        async def run() -> None:
            try:
                await coro
            except Exception as e:
                log.warning("a duplicate room's round could not close yet (%s)", type(e).__name__)

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _on_news(self, room_id: str, seq: int) -> None:
        # Not only new events: a start or an early opening changes the room's times alone.
        entry = self.entries.get(room_id)
        if entry is None or not entry.viewers:
            return
        await self.current(room_id)
        self.broadcast_soon(entry)
        self._schedule(entry)

    async def _on_reconnect(self) -> None:
        for entry in list(self.entries.values()):
            if entry.viewers:
                await self.current(entry.id)
                self.broadcast(entry)
                self._schedule(entry)

    async def _sweep_forever(self) -> None:
        while True:
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except ApiError as e:
                log.warning("duplicate rooms: the sweep failed (%s); trying again", e.code)
            except Exception:
                log.exception("duplicate rooms: the sweep failed; trying again")
            await asyncio.sleep(SWEEP_SECONDS)

    async def sweep(self) -> None:
        """Close every round past its deadline; forget rooms nobody here uses."""
        for room_id in await asyncio.to_thread(store.overdue, self.engine, time.time()):
            try:
                await self.close_due(room_id)
            except ApiError as e:
                log.warning("duplicate room %s: its round did not close (%s)", room_id, e.code)
        idle = time.monotonic() - IDLE_SECONDS
        for room_id, entry in list(self.entries.items()):
            if not entry.viewers and entry.used < idle and not entry.lock.locked():
                del self.entries[room_id]


def _new_id() -> str:
    return secrets.token_hex(5)


def _check_round_open(snap: Snapshot, game: DuplicateGame, number: int, now: float) -> None:
    """Refuse a submission for a round that is not the one open now, saying why."""
    room = snap.room
    if room.state == "waiting":
        raise ApiError(
            409, "room_waiting", "the game has not started yet: the room's creator starts it"
        )
    if room.state == "over":
        raise ApiError(409, "game_over", "the game is over: nothing more can be played")
    if number < game.round:
        times = _times(snap, number)
        if times is not None:
            at = now - times.opens_at
            if times.closed_by == "time" or now > times.deadline:
                raise ApiError(
                    409,
                    "late",
                    f"the move came {at:.1f} s into round {number}; the round's limit is "
                    f"{room.round_seconds} s",
                    params={"round": number, "at": round(at, 1), "limit": room.round_seconds},
                )
        raise ApiError(
            409,
            "round_closed",
            f"round {number} is closed (every player had a move in); round {game.round} is next",
            params={"round": number, "current": game.round},
        )
    if number != game.round:
        raise ApiError(
            409,
            "not_open",
            f"round {number} is not open; round {game.round} is",
            params={"round": number, "current": game.round},
        )
    if room.opens_at is not None and now < room.opens_at:
        wait = room.opens_at - now
        raise ApiError(
            409,
            "not_open",
            f"round {number} opens in {wait:.0f} s",
            params={"round": number, "opens_in": round(wait, 1)},
        )


def _duplicate_move(move_in: MoveIn, game: DuplicateGame) -> Move:
    """The move a submission names, as the tables' requests describe it (tiles put on
    squares, notation, a CAMBIO, ``pass`` or ``-`` for nothing)."""
    if move_in.kind in ("exchange", "challenge", "resign"):
        raise ApiError(
            422,
            "not_a_duplicate_move",
            "duplicate has no exchanges, challenges or resignations: submit a placement, or "
            "nothing ('-')",
        )
    move = decode_move(move_in, game.variant, game.board)
    if isinstance(move, Exchange | Challenge):
        raise ApiError(
            422,
            "not_a_duplicate_move",
            "duplicate has no exchanges or challenges: submit a placement, or nothing ('-')",
        )
    return move


def _preview(game: DuplicateGame, req: PreviewRequest) -> dict[str, Any]:
    v = game.variant
    out: dict[str, Any] = {
        "legal": False,
        "move": None,
        "words": [],
        "score": None,
        "breakdown": [],
        "round": game.round,
    }
    try:
        if req.move is not None:
            move = _duplicate_move(req.move, game)
        else:
            tiles = decode_tiles(list(req.tiles or []), v)
            move = placement_from_squares(game.board, tiles)
        out["move"] = format_move(move)
        if isinstance(move, Pass):
            out["legal"] = True
            return out
        score = check_move(game.position(), move, None)
    except IllegalMove as e:
        out |= {"rule": e.rule, "reason": e.message}
        if e.params:
            out["params"] = dict(e.params)
        return out
    out["legal"] = True
    if score is not None and isinstance(move, Place | Cambio):
        out |= {
            "tiles": views.move_tiles(out["move"], game.board, v),
            "words": [
                {"word": w.word, "notation": w.notation, "score": w.score} for w in score.words
            ],
            "score": score.total,
            "breakdown": score.explain_lines(),
        }
    return out
