"""The live tables of one server process, loaded from the database on first use.

With several processes on one database (``RedisBus``), each table's clock and bots are kept
by one process, the holder of its lease (``game_tables.owner`` until ``lease_until``). A
process renews its leases every few seconds; when a process dies, its leases run out and
another process takes its tables over (``claim_tables``), catching up from the database.
With one process, it holds every lease from the start.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import hashlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine

from ...alphabet import AlphabetError, alphabet_by_name
from ...game import Event, Game
from ...lexicon import LexiconError
from ...lexicon.amend import WordChanges
from ...moves import Move
from ...variant import Variant
from .. import catalog
from ..bus import Bus, LocalBus, NewsHandler, process_name
from ..config import Quotas
from ..errors import ApiError
from ..lexicons import LexiconProvider
from ..ratings import store as ratings_store
from ..store import tables as store
from ..store.wordlists import StoredWordList, get_word_list, save_word_list
from ..wordlists import canonical_list, is_word_list_id, write_word_list_file
from ..workers import bots
from ..workers.runner import make_bot_runner
from .info import DAY, SeatInfo, TableInfo, new_table_id
from .protocol import CreateTableRequest
from .room import Room
from .views import iso_time, lobby_entry

__all__ = ["Hub"]

log = logging.getLogger("tablero.server")

LEASE_SECONDS = 10.0
"""How long a lease lasts unrenewed: a dead process's tables are taken over within this."""
LEASE_RENEW_SECONDS = 3.0
"""How often a process renews its leases and looks for tables nobody keeps."""
EXPIRE_UPLOADS_EVERY = 3600.0
RATE_PENDING_EVERY = 30.0
"""How often a process looks for finished games left unrated (normally none: a game is rated
when it ends; this catches a failed attempt or a process that stopped in between)."""


@dataclass
class PlannedTable:
    """A new table as ``Hub.plan_table`` made it: its rows, ready to be stored."""

    info: TableInfo
    game: Game | None
    row: dict[str, Any]
    events: list[Event]
    source: str


def _rematch(text: str | None) -> dict[str, Any]:
    data = json.loads(text) if text else {}
    return {
        "rematch_asked": tuple(int(s) for s in data.get("asked", [])),
        "rematch_table": data.get("table"),
    }


def words_json(changes: WordChanges) -> str | None:
    """A table's own word changes as stored (``game_tables.word_changes``); None for none."""
    if not changes:
        return None
    return json.dumps(
        {"add": sorted(changes.added), "remove": sorted(changes.removed)}, ensure_ascii=False
    )


def words_from_json(text: str | None) -> WordChanges:
    """The stored word changes (normalised when stored: taken as they are)."""
    if not text:
        return WordChanges()
    data = json.loads(text)
    return WordChanges(frozenset(data.get("add", [])), frozenset(data.get("remove", [])))


MAX_DAYS_PER_MOVE = 14


def _time_control(
    req: CreateTableRequest, clock_given: bool, base: Variant
) -> tuple[int | None, bool]:
    """A new table's clock from its request: (seconds, per move). ``clock_given``: the
    request said ``clock_minutes`` (null: untimed); else the game's own clock."""
    if req.days_per_move is not None:
        if req.clock_minutes is not None:
            raise ApiError(
                422,
                "bad_clock",
                "a table has minutes per player (clock_minutes) or days per move "
                "(days_per_move), not both",
                field="days_per_move",
            )
        if not 1 <= req.days_per_move <= MAX_DAYS_PER_MOVE:
            raise ApiError(
                422,
                "bad_clock",
                f"days_per_move: 1 to {MAX_DAYS_PER_MOVE} days for each move",
                field="days_per_move",
            )
        return req.days_per_move * DAY, True
    if clock_given:
        if req.clock_minutes is not None and not 1 <= req.clock_minutes <= 180:
            raise ApiError(
                422,
                "bad_clock",
                "clock_minutes: 1 to 180, or null for no clock",
                field="clock_minutes",
            )
        return (None if req.clock_minutes is None else req.clock_minutes * 60), False
    if base.clock is None:
        return None, False
    return base.clock.initial_seconds, base.clock.per_move  # the game's own


def address_key(client: str) -> str | None:
    """What is stored of a client's address: a hash (the lobby and quotas compare it)."""
    if not client:
        return None
    return hashlib.sha256(f"tablero-address:{client}".encode()).hexdigest()[:32]


class Hub:
    """The rooms of one server process, loaded from the database on first use."""

    def __init__(
        self,
        engine: Engine,
        lexicons: LexiconProvider,
        bot_delay: float,
        bus: Bus | None = None,
        quotas: Quotas | None = None,
        bot_workers: int = 0,
        bot_queue: str | None = None,
    ) -> None:
        """``bot_workers`` and ``bot_queue`` (a Redis URL, or None) say where bots think:
        ``workers.runner.make_bot_runner``."""
        self.engine = engine
        self.lexicons = lexicons
        self.bot_delay = bot_delay
        self.bus = bus or LocalBus(process_name())
        self.quotas = quotas or Quotas()
        self.bots = make_bot_runner(bot_workers, bot_queue, lexicons, self.rule_text)
        self.process_id = self.bus.origin
        """This process, as its leases and its news on the bus name it."""
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._variants: dict[str, Variant] = {}
        self._upload_texts: dict[str, str] = {}
        """Uploaded rule files as uploaded, by id: a bot worker elsewhere parses the text."""
        self._keeper: asyncio.Task[None] | None = None
        self._rating_tasks: set[asyncio.Task[None]] = set()
        self._over_hooks: list[Callable[[str], Awaitable[None]]] = []
        self._news_handlers: dict[str, tuple[NewsHandler, Callable[[], Awaitable[None]]]] = {}
        """Other domains' news on the bus (a duplicate room's), by the prefix of its name."""

    # -- variants -----------------------------------------------------------------------------

    def variant_sync(self, ref: str) -> tuple[Variant, str]:
        """A built-in variant or an upload, and its kind (``builtin`` / ``upload``)."""
        if catalog.is_upload_id(ref):
            cached = self._variants.get(ref)
            if cached is None:
                text = store.get_upload(self.engine, ref)
                if text is None:
                    raise ApiError(404, "not_found", f"no uploaded game {ref!r}")
                cached = catalog.parse_upload(text, source=f"upload:{ref}")
                self._variants[ref] = cached
                self._upload_texts[ref] = text
            return cached, "upload"
        return catalog.builtin(ref), "builtin"

    async def variant(self, ref: str) -> tuple[Variant, str]:
        if catalog.is_upload_id(ref) and ref not in self._variants:
            return await asyncio.to_thread(self.variant_sync, ref)
        return self.variant_sync(ref)

    async def upload(self, text: str, client: str = "") -> tuple[str, Variant]:
        """Store a rule file; ``client`` is the uploader's address (quotas are per address).
        A rule file that plays with an uploaded word list (``lexicon = "wl-…"``) must name
        one the server has, of its language, spelled with its tiles."""
        ref = catalog.new_upload_id()
        v = catalog.parse_upload(text, source=f"upload:{ref}")
        if is_word_list_id(v.lexicon):
            await self._check_word_list(v)
        quota = self.quotas.uploads_per_address
        stored = await asyncio.to_thread(
            store.save_upload,
            self.engine,
            ref,
            v.name,
            v.title,
            text,
            time.time(),
            address_key(client),
            quota,
        )
        if not stored:
            raise ApiError(
                429,
                "quota_exceeded",
                f"this address already has {quota} uploaded rule files; unused ones are "
                f"deleted after {self.quotas.upload_unused_days:g} days",
            )
        self._variants[ref] = v
        self._upload_texts[ref] = text
        return ref, v

    async def _check_word_list(self, v: Variant) -> None:
        stored = await asyncio.to_thread(get_word_list, self.engine, v.lexicon)
        if stored is None:
            raise ApiError(
                422,
                "bad_variant_file",
                f"lexicon: no uploaded word list {v.lexicon} on this server (upload it first: "
                "POST /api/wordlists)",
                field="lexicon",
            )
        if stored.language != v.language:
            raise ApiError(
                422,
                "bad_variant_file",
                f"lexicon: the word list {v.lexicon} is {stored.language}, the rules are "
                f"{v.language}",
                field="lexicon",
            )
        try:
            await asyncio.to_thread(self.lexicons.lexicon_for, v)
        except LexiconError as e:
            raise ApiError(422, "bad_variant_file", f"lexicon: {e}", field="lexicon") from None

    async def upload_word_list(
        self, raw: bytes, language: str, name: str, client: str = ""
    ) -> StoredWordList:
        """Check and store a word list (the same words again: the list stored before), and
        build its word graph now, so that the first table with it does not wait."""
        try:
            alphabet = alphabet_by_name(language)
        except AlphabetError as e:
            raise ApiError(422, "bad_word_list", str(e), field="language") from None
        try:
            words = await asyncio.to_thread(canonical_list, raw, alphabet, name)
        except LexiconError as e:
            raise ApiError(422, "bad_word_list", str(e)) from None
        quota = self.quotas.word_lists_per_address
        save = functools.partial(
            save_word_list,
            self.engine,
            words,
            name,
            language,
            time.time(),
            address_key(client),
            quota,
        )
        try:
            stored = await asyncio.to_thread(save)
        except store.StaleSeq:  # the same list, stored by another request meanwhile
            stored = await asyncio.to_thread(get_word_list, self.engine, words.id)
        if stored is None:
            raise ApiError(
                429, "quota_exceeded", f"this address already has {quota} uploaded word lists"
            )
        await asyncio.to_thread(write_word_list_file, stored.id, stored.packed)
        await asyncio.to_thread(self.lexicons.uploaded_list, stored.id, alphabet)  # the graph
        return stored

    def rule_text(self, variant: Variant) -> str:
        """How a bot worker on another machine rebuilds a table's rules: ``builtin:NAME``, or
        the uploaded file's text (a table's clock is not in it: bots know no clocks). A table
        with a club's words sends them with it, as JSON: ``{"rules": <that text>, "add":
        [...], "remove": [...]}`` (``workers.queue.rules_variant`` reads both)."""
        text = self._plain_rule_text(variant)
        changes = variant.word_changes
        chosen = self._chosen_lexicon(variant)
        if not changes and chosen is None:
            return text
        envelope: dict[str, Any] = {
            "rules": text,
            "add": sorted(changes.added),
            "remove": sorted(changes.removed),
        }
        if chosen is not None:
            envelope["lexicon"] = chosen
        return json.dumps(envelope, ensure_ascii=False)

    @staticmethod
    def _chosen_lexicon(variant: Variant) -> str | None:
        """The dictionary a table of a built-in game chose over the game's own, if it did (a
        worker elsewhere must play with it too: installed there by the operator, as here).
        A rule file names its dictionary itself, in its text."""
        kind, _, ref = variant.source.partition(":")
        if kind != "builtin" or variant.lexicon == catalog.builtin(ref).lexicon:
            return None
        return variant.lexicon

    def _plain_rule_text(self, variant: Variant) -> str:
        kind, _, ref = variant.source.partition(":")
        if kind == "builtin":
            return variant.source
        if kind == "upload" and ref in self._upload_texts:
            return self._upload_texts[ref]
        raise ValueError(f"no rule text for a game from {variant.source!r}")

    # -- games --------------------------------------------------------------------------------

    def new_game(self, variant: Variant, names: list[str], first: int | None = None) -> Game:
        """``first``: the seat that starts, when the caller decides it (a tournament);
        None: the game's start rule."""
        return Game(variant, names, self.lexicons.lexicon_for(variant), first=first)

    def info_from_row(self, row: dict[str, Any], seats: list[SeatInfo]) -> TableInfo:
        """A table's options, seats and state from its database rows."""
        base, _ = self.variant_sync(row["variant_ref"])
        if row.get("lexicon"):
            base = dataclasses.replace(base, lexicon=row["lexicon"])
        changes = words_from_json(row.get("word_changes"))
        timed = catalog.with_clock(
            base, row["clock_seconds"], bool(row.get("clock_per_move", False))
        )
        return TableInfo(
            id=row["id"],
            variant_ref=row["variant_ref"],
            variant=catalog.with_word_changes(timed, changes),
            word_changes=changes,
            title=row["title"],
            language=row["language"],
            clock_seconds=row["clock_seconds"],
            dictionary_hints=bool(row["dictionary_hints"]),
            state=row["state"],
            created_at=row["created_at"],
            turn_started_at=row["turn_started_at"],
            seats=seats,
            rated=bool(row.get("rated", True)),
            quiet_spectators=bool(row.get("quiet_spectators", False)),
            hints=bool(row.get("hints", False)),
            clock_per_move=bool(row.get("clock_per_move", False)),
            **_rematch(row.get("rematch")),
        )

    def rebuild(self, stored: store.StoredTable) -> tuple[TableInfo, Game | None]:
        """A table from its rows: the game is replayed from its log (and checked)."""
        info = self.info_from_row(stored.row, stored.seats)
        variant = info.variant
        game = None
        if stored.events:
            game = Game.replay(
                stored.events, self.lexicons.lexicon_for(variant), lambda _name: variant
            )
        return info, game

    async def room(self, table_id: str) -> Room:
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        if not (0 < len(table_id) <= 16 and table_id.isascii() and table_id.isalnum()):
            raise ApiError(404, "not_found", "no such table")
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                room = self.rooms.get(table_id)
                if room is not None:
                    return room
                stored = await asyncio.to_thread(store.load_table, self.engine, table_id)
                if stored is None:
                    raise ApiError(404, "not_found", f"no table {table_id!r}")
                info, game = await asyncio.to_thread(self.rebuild, stored)
                room = Room(self, info, game)
                # Alone, this process keeps every table's time; with others, a lease decides.
                room.owned = game is not None and not self.bus.multi_process
                self.rooms[table_id] = room
                await room.start()
                return room
        finally:
            # Only loads in progress keep a lock here: an id asked for and not found (or
            # loaded) leaves nothing behind. A waiter that wakes later finds the room.
            if self._loading.get(table_id) is lock and not lock.locked():
                del self._loading[table_id]

    async def create_table(
        self, req: CreateTableRequest, clock_given: bool, client: str = ""
    ) -> Room:
        """A new table; ``client`` is the creator's address (the lobby caps tables per address)."""
        planned = await self.plan_table(req, clock_given, client)
        await asyncio.to_thread(
            store.create_table, self.engine, planned.row, planned.info.seats, planned.events
        )
        return await self.adopt(planned)

    async def plan_table(
        self,
        req: CreateTableRequest,
        clock_given: bool,
        client: str = "",
        players: Sequence[tuple[str, int]] = (),
        seats_as: Sequence[SeatInfo] = (),
        word_changes: WordChanges | None = None,
        first_seat: int | None = None,
    ) -> PlannedTable:
        """A new table as its rows, checked, not stored yet. ``players``: (username, account
        id) seated at the first seats (a seek's players). When every seat is taken, the game
        starts with the table. The caller stores the rows (alone, or in a transaction of its
        own: a seek is taken and its table created at once), then calls ``adopt``.
        ``word_changes``: the club's words as a table already has them (a rematch), in place
        of the request's lists. ``first_seat``: the seat that moves first, decided by the
        caller (a tournament's pairing), instead of the game's start rule.

        A table with a club's words has its dictionary built here, in a thread (the first time
        for a list of words: seconds for a shipped dictionary), so that neither this request
        nor the move that fills the last seat finds it unbuilt."""
        base, source = await self.variant(req.variant)
        if req.lexicon is not None and source == "upload":
            raise ApiError(
                422,
                "bad_lexicon",
                "lexicon: a rule file names its dictionary itself (lexicon = \"…\" in the file)",
                field="lexicon",
            )
        base = catalog.with_lexicon(base, req.lexicon)
        if word_changes is None:
            word_changes = catalog.word_changes_of(base, req.words_added, req.words_removed)
        creator = address_key(client)
        n = len(req.seats)
        if not (max(2, base.min_players) <= n <= min(4, base.max_players)):
            raise ApiError(
                422,
                "bad_seats",
                f"{base.title} is for {max(2, base.min_players)}–{min(4, base.max_players)} "
                f"players; {n} seats were asked for",
                field="seats",
            )
        seats: list[SeatInfo] = []
        for i, spec in enumerate(req.seats):
            if i < len(seats_as):  # a rematch: the players as they sit at the new table
                given = seats_as[i]
                seats.append(
                    SeatInfo(
                        i,
                        given.kind,
                        given.nickname,
                        given.bot_level,
                        given.token_hash,
                        given.account_id,
                    )
                )
            elif i < len(players):
                name, account_id = players[i]
                seats.append(SeatInfo(i, "human", name, None, None, account_id))
            elif spec.kind == "bot":
                if spec.level not in bots.LEVELS:
                    raise ApiError(
                        422,
                        "bad_seats",
                        f"seats[{i}].level: a bot's level is 1 to {len(bots.LEVELS)}",
                        field=f"seats[{i}].level",
                    )
                seats.append(SeatInfo(i, "bot", f"Bot {i + 1}", spec.level))
            else:
                seats.append(SeatInfo(i, "open"))
        seconds, per_move = _time_control(req, clock_given, base)
        variant = catalog.with_word_changes(
            catalog.with_clock(base, seconds, per_move), word_changes
        )
        if word_changes or req.lexicon:
            try:
                await asyncio.to_thread(self.lexicons.lexicon_for, variant)
            except LexiconError as e:
                field = "words_added" if word_changes else "lexicon"
                code = "bad_words" if word_changes else "bad_lexicon"
                raise ApiError(422, code, f"{field}: {e}", field=field) from None
        now = time.time()
        info = TableInfo(
            id=new_table_id(),
            variant_ref=req.variant,
            variant=variant,
            title=req.title,
            language=req.language,
            clock_seconds=seconds,
            dictionary_hints=req.dictionary_hints,
            state="waiting",
            created_at=now,
            seats=seats,
            rated=req.rated and not req.hints,  # hints: a casual table
            quiet_spectators=req.quiet_spectators,
            hints=req.hints,
            clock_per_move=per_move,
            word_changes=word_changes,
        )
        game: Game | None = None
        if all(s.kind != "open" for s in seats):
            if all(s.kind == "bot" for s in seats):
                await self._check_bot_tables(creator)
            game = await asyncio.to_thread(self.new_game, variant, info.names, first_seat)
            info.state = "playing"
            info.turn_started_at = now
        row = {
            "id": info.id,
            "variant_ref": info.variant_ref,
            "title": info.title,
            "language": info.language,
            "clock_seconds": seconds,
            "clock_per_move": per_move,
            "dictionary_hints": info.dictionary_hints,
            "state": info.state,
            "turn_started_at": info.turn_started_at,
            "to_move": game.to_move if game is not None else None,
            "clock_paused_at": None,
            "created_at": now,
            "updated_at": now,
            "creator": creator,
            "rated": info.rated,
            "quiet_spectators": info.quiet_spectators,
            "hints": info.hints,
            "word_changes": words_json(word_changes),
            "lexicon": variant.lexicon if req.lexicon else None,
            **(self.lease_values(now) if game is not None else {}),
        }
        events: list[Event] = list(game.log) if game is not None else []
        return PlannedTable(info, game, row, events, source)

    async def adopt(self, planned: PlannedTable) -> Room:
        """The live room of a table whose rows ``plan_table`` made and the caller stored."""
        info, game = planned.info, planned.game
        if planned.source == "upload":
            await asyncio.to_thread(store.touch_upload, self.engine, info.variant_ref, time.time())
        room = Room(self, info, game)
        room.owned = game is not None
        self.rooms[info.id] = room
        await room.start()
        return room

    async def _check_bot_tables(self, creator: str | None) -> None:
        """Tables of computer players only keep a worker busy for long: a few per address,
        and a limit in all."""
        q = self.quotas
        mine, total = await asyncio.to_thread(store.count_bot_tables, self.engine, creator)
        if creator is not None and mine >= q.bot_tables_per_address:
            raise ApiError(
                429,
                "quota_exceeded",
                f"this address already has {mine} tables of computer players only in play "
                f"(at most {q.bot_tables_per_address}); wait for one to end",
            )
        if total >= q.bot_tables_total:
            raise ApiError(
                503,
                "busy",
                f"the server already runs {total} tables of computer players only; try again later",
            )

    async def lobby(self) -> list[dict[str, Any]]:
        since = time.time() - 86400
        rows = await asyncio.to_thread(
            store.list_tables, self.engine, 200, since, self.quotas.lobby_waiting_per_address
        )
        return [entry for entry, _, _ in await self._lobby_entries(rows)]

    async def games_of(self, account_id: int) -> list[dict[str, Any]]:
        """An account's tables waiting or in play ("my games"), each with its lobby entry,
        the account's seat, whether it is that seat's turn, and for a correspondence game
        when the turn ends (``turn_ends``)."""
        rows = await asyncio.to_thread(store.account_tables, self.engine, account_id, 100)
        out = []
        for entry, info, row in await self._lobby_entries(rows):
            mine = info.seat_of_account(account_id)
            if mine is None:
                continue
            to_move = row["to_move"] if info.state == "playing" else None
            ends = None
            if to_move is not None and info.days_per_move and info.turn_started_at is not None:
                assert info.clock_seconds is not None
                ends = iso_time(info.turn_started_at + info.clock_seconds)
            out.append(
                entry
                | {
                    "seat": mine.seat,
                    "to_move": to_move,
                    "your_turn": to_move == mine.seat,
                    "turn_ends": ends,
                }
            )
        return out

    async def _lobby_entries(
        self, rows: list[tuple[dict[str, Any], list[SeatInfo], int]]
    ) -> list[tuple[dict[str, Any], TableInfo, dict[str, Any]]]:
        """Each table's lobby entry, with its info and row; a table whose rules cannot be loaded (an
        upload gone) is left out."""
        out = []
        for row, seats, seq in rows:
            try:
                await self.variant(row["variant_ref"])  # loads an upload's rules once
            except ApiError:
                continue
            info = self.info_from_row(row, seats)
            room = self.rooms.get(row["id"])
            spectators = sum(1 for c in room.connections if c.seat is None) if room else 0
            out.append((lobby_entry(info, spectators, seq), info, row))
        return out

    def evict(self, room: Room) -> None:
        if self.rooms.get(room.info.id) is room:
            del self.rooms[room.info.id]
            room._closed = True

    # -- between processes --------------------------------------------------------------------

    def lease_values(self, now: float) -> dict[str, Any]:
        """The columns that give this process a table's lease (set with the change that
        starts the game)."""
        return {"owner": self.process_id, "lease_until": now + LEASE_SECONDS}

    async def announce(self, room: Room) -> None:
        """A change to ``room`` is stored: tell the other processes."""
        await self.bus.publish(room.info.id, room.seq)

    def add_news_handler(
        self, prefix: str, on_news: NewsHandler, on_reconnect: Callable[[], Awaitable[None]]
    ) -> None:
        """News on the bus for names starting with ``prefix`` (not a table id: those are
        letters and digits only) goes to ``on_news(name without the prefix, seq)``; after a
        lost connection ``on_reconnect`` catches up as the rooms do. Announce with
        ``bus.publish(prefix + name, seq)``."""
        self._news_handlers[prefix] = (on_news, on_reconnect)

    async def _on_news(self, table_id: str, seq: int) -> None:
        for prefix, (handler, _) in self._news_handlers.items():
            if table_id.startswith(prefix):
                await handler(table_id[len(prefix) :], seq)
                return
        room = self.rooms.get(table_id)
        if room is not None:
            await room.refresh()

    async def _on_reconnect(self) -> None:
        """The bus was lost for a while: news may have been missed. Every room catches up
        and sends each of its clients a fresh state."""
        for room in list(self.rooms.values()):
            try:
                await room.refresh(always=True)
            except Exception:
                log.warning("table %s could not catch up yet", room.info.id)
        for _, catch_up in self._news_handlers.values():
            try:
                await catch_up()
            except Exception:
                log.warning("news handlers could not catch up yet")

    async def think(self, job: bots.BotJob) -> Move:
        """A bot's move, thought about in a worker process (here or, with Redis, anywhere)."""
        return await self.bots.think(job)

    # -- the end of a game ----------------------------------------------------------------------

    def on_game_over(self, hook: Callable[[str], Awaitable[None]]) -> None:
        """Call ``hook(table_id)`` when a table's game ends in this process (a tournament
        records its result). A hook that fails is logged; the domain that added it catches
        up from the database by itself (the game's end is stored before the hooks run)."""
        self._over_hooks.append(hook)

    def game_over(self, table_id: str) -> None:
        """A table's game has just ended (its end stored): rate it, and run the hooks, each
        in a task (the last move's answer waits for none of them)."""
        self.rate_soon(table_id)
        for hook in self._over_hooks:
            task = asyncio.get_running_loop().create_task(self._run_hook(hook, table_id))
            self._rating_tasks.add(task)
            task.add_done_callback(self._rating_tasks.discard)

    async def _run_hook(self, hook: Callable[[str], Awaitable[None]], table_id: str) -> None:
        try:
            await hook(table_id)
        except Exception as e:
            log.warning("table %s: an end-of-game hook failed (%s)", table_id, type(e).__name__)

    # -- ratings ------------------------------------------------------------------------------

    def rate_soon(self, table_id: str) -> None:
        """Rate a game that has just ended (in a task: the last move's answer does not wait
        for it). A failure is retried by the maintenance loop (``rate_pending``)."""
        task = asyncio.get_running_loop().create_task(self._rate(table_id))
        self._rating_tasks.add(task)
        task.add_done_callback(self._rating_tasks.discard)

    async def _rate(self, table_id: str) -> None:
        try:
            await asyncio.to_thread(ratings_store.rate_table, self.engine, table_id, time.time())
        except Exception as e:  # the database, or a clash with another process: retried
            log.warning(
                "table %s: not rated yet (%s); trying again later", table_id, type(e).__name__
            )

    async def rate_pending(self) -> None:
        """Rate the finished games whose rating is not decided yet."""
        for table_id in await asyncio.to_thread(ratings_store.unrated_finished, self.engine):
            await self._rate(table_id)

    async def _keep_leases(self) -> None:
        """Renew this process's leases; take over the tables nobody keeps; expire uploads;
        rate the finished games left unrated."""
        expired_uploads_at = 0.0
        rated_at = 0.0
        while True:
            await asyncio.sleep(LEASE_RENEW_SECONDS)
            try:
                if time.time() - rated_at > RATE_PENDING_EVERY:
                    rated_at = time.time()
                    await self.rate_pending()
                if self.bus.multi_process:  # alone, this process holds every lease for good
                    await self._lease_round()
                if time.time() - expired_uploads_at > EXPIRE_UPLOADS_EVERY:
                    await self._expire_uploads()
                    expired_uploads_at = time.time()
            except asyncio.CancelledError:
                raise
            except store.StorageUnavailable:
                log.warning("leases: the database is not answering; trying again")
            except Exception:
                log.exception("leases: a round failed; trying again")

    async def _lease_round(self, force: bool = False) -> None:
        now = time.time()
        until = now + LEASE_SECONDS
        mine = [table_id for table_id, room in self.rooms.items() if room.owned]
        held = set(
            await asyncio.to_thread(store.renew_leases, self.engine, self.process_id, mine, until)
        )
        for table_id in mine:
            room = self.rooms.get(table_id)
            if table_id not in held and room is not None:
                log.warning("table %s: lease lost; another process keeps it", table_id)
                room.lose_lease()
        claimed = await asyncio.to_thread(
            store.claim_tables, self.engine, self.process_id, now, until, force
        )
        for table_id in claimed:
            try:
                room = await self.room(table_id)
                if not room.owned:
                    await room.take_lease()
            except Exception:
                log.exception("table %s could not be taken over", table_id)

    async def _expire_uploads(self) -> None:
        cutoff = time.time() - self.quotas.upload_unused_days * 86400
        n = await asyncio.to_thread(store.expire_uploads, self.engine, cutoff)
        if n:
            log.info("deleted %d uploaded rule files unused since the cutoff", n)

    # -- start and stop -----------------------------------------------------------------------

    async def resume(self, load_tables: bool = True) -> None:
        """At start: join the bus; with one process, clocks stopped by a clean shutdown go on
        and every table in play is this process's; with several, the tables nobody keeps.
        ``load_tables=False`` leaves tables to load on first use (tests)."""
        await self.bus.start(self._on_news, self._on_reconnect)
        single = not self.bus.multi_process
        try:
            if single:
                await asyncio.to_thread(store.resume_clocks, self.engine, time.time())
            if load_tables:
                await self._lease_round(force=single)
            await self._expire_uploads()
        except store.StorageUnavailable:
            log.warning("the database is not answering at start; tables resume when it does")
        self._keeper = asyncio.get_running_loop().create_task(self._keep_leases())

    async def shutdown(self) -> None:
        if self._keeper is not None:
            self._keeper.cancel()
            await asyncio.gather(self._keeper, return_exceptions=True)
        for room in list(self.rooms.values()):
            await room.close()
        await self.bus.close()
        await self.bots.aclose()
        try:
            if self.bus.multi_process:
                # The other processes go on: they take this one's tables at once.
                await asyncio.to_thread(store.release_leases, self.engine, self.process_id)
            else:
                await asyncio.to_thread(store.pause_clocks, self.engine, time.time())
        except store.StorageUnavailable:
            log.warning("the database is not answering at shutdown")
