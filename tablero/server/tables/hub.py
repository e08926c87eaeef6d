"""The live tables of one server process, loaded from the database on first use."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from sqlalchemy import Engine

from ...game import Event, Game
from ...variant import Variant
from .. import catalog
from ..errors import ApiError
from ..lexicons import LexiconProvider
from ..store import tables as store
from ..workers import bots
from .info import SeatInfo, TableInfo, new_table_id
from .protocol import CreateTableRequest
from .room import Room
from .views import lobby_entry

__all__ = ["Hub"]

log = logging.getLogger("tablero.server")


class Hub:
    """The rooms of one server, loaded from the database on first use."""

    def __init__(self, engine: Engine, lexicons: LexiconProvider, bot_delay: float) -> None:
        self.engine = engine
        self.lexicons = lexicons
        self.bot_delay = bot_delay
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._variants: dict[str, Variant] = {}

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
            return cached, "upload"
        return catalog.builtin(ref), "builtin"

    async def variant(self, ref: str) -> tuple[Variant, str]:
        if catalog.is_upload_id(ref) and ref not in self._variants:
            return await asyncio.to_thread(self.variant_sync, ref)
        return self.variant_sync(ref)

    async def upload(self, text: str, client: str = "") -> tuple[str, Variant]:
        """Store a rule file; ``client`` is the uploader's address (quotas are per address)."""
        v = catalog.parse_upload(text)
        ref = catalog.new_upload_id()
        v = catalog.parse_upload(text, source=f"upload:{ref}")
        await asyncio.to_thread(
            store.save_upload, self.engine, ref, v.name, v.title, text, time.time()
        )
        self._variants[ref] = v
        return ref, v

    # -- games --------------------------------------------------------------------------------

    def new_game(self, variant: Variant, names: list[str]) -> Game:
        return Game(variant, names, self.lexicons.lexicon_for(variant))

    def rebuild(self, stored: store.StoredTable) -> tuple[TableInfo, Game | None]:
        """A table from its rows: the game is replayed from its log (and checked)."""
        row = stored.row
        base, _ = self.variant_sync(row["variant_ref"])
        variant = catalog.with_clock(base, row["clock_seconds"])
        info = TableInfo(
            id=row["id"],
            variant_ref=row["variant_ref"],
            variant=variant,
            title=row["title"],
            language=row["language"],
            clock_seconds=row["clock_seconds"],
            dictionary_hints=bool(row["dictionary_hints"]),
            state=row["state"],
            created_at=row["created_at"],
            turn_started_at=row["turn_started_at"],
            seats=stored.seats,
        )
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
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            room = self.rooms.get(table_id)
            if room is not None:
                return room
            if len(table_id) > 16 or not table_id.isalnum():
                raise ApiError(404, "not_found", f"no table {table_id!r}")
            stored = await asyncio.to_thread(store.load_table, self.engine, table_id)
            if stored is None:
                raise ApiError(404, "not_found", f"no table {table_id!r}")
            info, game = await asyncio.to_thread(self.rebuild, stored)
            room = Room(self, info, game)
            self.rooms[table_id] = room
            await room.start()
            return room

    async def create_table(
        self, req: CreateTableRequest, clock_given: bool, client: str = ""
    ) -> Room:
        """A new table; ``client`` is the creator's address (the lobby caps tables per address)."""
        base, _ = await self.variant(req.variant)
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
            if spec.kind == "bot":
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
        if clock_given:
            if req.clock_minutes is not None and not 1 <= req.clock_minutes <= 180:
                raise ApiError(
                    422,
                    "bad_clock",
                    "clock_minutes: 1 to 180, or null for no clock",
                    field="clock_minutes",
                )
            seconds = None if req.clock_minutes is None else req.clock_minutes * 60
        else:
            seconds = base.clock.initial_seconds if base.clock else None
        variant = catalog.with_clock(base, seconds)
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
        )
        game: Game | None = None
        if all(s.kind == "bot" for s in seats):
            game = await asyncio.to_thread(self.new_game, variant, info.names)
            info.state = "playing"
            info.turn_started_at = now
        row = {
            "id": info.id,
            "variant_ref": info.variant_ref,
            "title": info.title,
            "language": info.language,
            "clock_seconds": seconds,
            "dictionary_hints": info.dictionary_hints,
            "state": info.state,
            "turn_started_at": info.turn_started_at,
            "clock_paused_at": None,
            "created_at": now,
            "updated_at": now,
        }
        events: list[Event] = list(game.log) if game is not None else []
        await asyncio.to_thread(store.create_table, self.engine, row, seats, events)
        room = Room(self, info, game)
        self.rooms[info.id] = room
        await room.start()
        return room

    async def lobby(self) -> list[dict[str, Any]]:
        since = time.time() - 86400
        rows = await asyncio.to_thread(store.list_tables, self.engine, 200, since)
        out = []
        for row, seats, seq in rows:
            try:
                base, _ = await self.variant(row["variant_ref"])
            except ApiError:
                continue
            info = TableInfo(
                id=row["id"],
                variant_ref=row["variant_ref"],
                variant=catalog.with_clock(base, row["clock_seconds"]),
                title=row["title"],
                language=row["language"],
                clock_seconds=row["clock_seconds"],
                dictionary_hints=bool(row["dictionary_hints"]),
                state=row["state"],
                created_at=row["created_at"],
                seats=seats,
            )
            room = self.rooms.get(row["id"])
            spectators = sum(1 for c in room.connections if c.seat is None) if room else 0
            out.append(lobby_entry(info, spectators, seq))
        return out

    def evict(self, room: Room) -> None:
        if self.rooms.get(room.info.id) is room:
            del self.rooms[room.info.id]
            room._closed = True

    # -- start and stop -----------------------------------------------------------------------

    async def resume(self) -> None:
        """At start: clocks stopped by a clean shutdown go on; tables in play are loaded."""
        await asyncio.to_thread(store.resume_clocks, self.engine, time.time())
        for table_id in await asyncio.to_thread(store.playing_table_ids, self.engine):
            try:
                await self.room(table_id)
            except Exception:
                log.exception("table %s could not be resumed", table_id)

    async def shutdown(self) -> None:
        for room in list(self.rooms.values()):
            await room.close()
        await asyncio.to_thread(store.pause_clocks, self.engine, time.time())
