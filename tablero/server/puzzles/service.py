"""The puzzles' background work: the shipped sets stored when puzzles are first asked for,
every finished game scanned for puzzles in the workers, guests' sessions forgotten.

**A finished game's puzzles.** When a table's game ends in this process (the hub's end-of-game
hook), a task of this process scans it: ``store.claim_scan`` makes sure one process does, the
table is read from the database and its game replayed (in a thread), and the game, as GCG, goes
to the workers as a ``PUZZLES`` job (``workers/puzzles.py``: the bots' pool, or the Redis
queue), which examine every position (``tablero.puzzles.selection``). What they find is stored
(a puzzle already stored, the same position found twice, is kept once). Nothing of it runs on
the event loop, and the last move's answer waits for none of it.

Games are not scanned (``skipped``) when they are not one of the built-in games, when the
table changed the dictionary (a club's words), or when the dictionary is not a word graph (the
move generator's own form: every shipped dictionary is one; the tests' small word lists are
not, and are not scanned). A game whose end's hook never ran (its process stopped in between)
is found by the maintenance pass (``CATCH_UP_EVERY``) among the games of the last
``CATCH_UP_DAYS`` days.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from ...formats.gcg import write_gcg
from ...lexicon.graph import GraphLexicon
from ...puzzles.model import Puzzle
from ...variant import builtin_variant_names
from ..store import tables as table_store
from ..tables.hub import Hub
from ..workers.puzzles import PuzzleScanJob
from . import store

__all__ = ["CATCH_UP_DAYS", "CATCH_UP_EVERY", "GUEST_IDLE", "PuzzleService"]

log = logging.getLogger("tablero.server.puzzles")

CATCH_UP_EVERY = 600.0
"""Seconds between maintenance passes (games left unscanned, guests forgotten)."""
CATCH_UP_DAYS = 3.0
CATCH_UP_BATCH = 20
"""Games a pass scans at most."""
STALE_AFTER = 300.0
"""Seconds after which a scan under way is taken to be abandoned (its process died)."""
GUEST_IDLE = 2 * 86400.0
"""A guest's ratings and attempts are deleted this long after their last attempt: their
browser session (the cookie lasts until the browser closes) is over by then."""


class PuzzleService:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.owner = hub.bus.origin
        self._keeper: asyncio.Task[None] | None = None
        self._shipped = False
        self._shipped_lock = asyncio.Lock()

    async def start(self) -> None:
        """Hear of every game's end, and start the maintenance pass."""
        self.hub.on_game_over(self.scan)
        self._keeper = asyncio.get_running_loop().create_task(self._keep())

    async def ready(self) -> None:
        """The shipped sets stored (the puzzles not stored yet: a new release adds its new
        ones), once per process, when puzzles are first asked for: a server whose puzzles
        nobody asks for does not pay for them at every start."""
        if self._shipped:
            return
        async with self._shipped_lock:
            if not self._shipped:
                added = await asyncio.to_thread(store.import_shipped, self.hub.engine, time.time())
                if added:
                    log.info("%d shipped puzzles stored", added)
                self._shipped = True

    async def aclose(self) -> None:
        if self._keeper is not None:
            self._keeper.cancel()
            await asyncio.gather(self._keeper, return_exceptions=True)

    async def _keep(self) -> None:
        while True:
            try:
                await self.catch_up()
                cutoff = time.time() - GUEST_IDLE
                await asyncio.to_thread(store.forget_idle_guests, self.hub.engine, cutoff)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("puzzle maintenance failed (%s); trying again later", e)
            await asyncio.sleep(CATCH_UP_EVERY)

    async def catch_up(self) -> None:
        """Scan the recent finished games nobody has scanned."""
        since = time.time() - CATCH_UP_DAYS * 86400
        pending = await asyncio.to_thread(
            store.unscanned_finished, self.hub.engine, since, CATCH_UP_BATCH
        )
        for table_id in pending:
            await self.scan(table_id)

    async def scan(self, table_id: str) -> None:
        """Scan a finished game once (see the module's text); never raises."""
        engine = self.hub.engine
        now = time.time()
        if not await asyncio.to_thread(
            store.claim_scan, engine, table_id, self.owner, now, STALE_AFTER
        ):
            return
        try:
            state, found, reason = await self._scan(table_id)
        except asyncio.CancelledError:
            raise  # the server stops: the claim goes stale and another pass takes it
        except Exception as e:
            log.warning("table %s: scanning for puzzles failed: %s", table_id, e)
            state, found, reason = "failed", 0, str(e)
        with contextlib.suppress(Exception):
            await asyncio.to_thread(
                store.finish_scan, engine, table_id, state, found, reason, time.time()
            )

    async def _scan(self, table_id: str) -> tuple[str, int, str | None]:
        hub = self.hub
        stored = await asyncio.to_thread(table_store.load_table, hub.engine, table_id)
        if stored is None or stored.row["state"] != "over":
            return "skipped", 0, "not a finished game"
        ref = stored.row["variant_ref"]
        if ref not in builtin_variant_names():
            return "skipped", 0, "not a built-in game"
        if stored.row.get("word_changes"):
            return "skipped", 0, "the table changed the dictionary"
        variant, _ = await hub.variant(ref)
        lexicon = await asyncio.to_thread(hub.lexicons.lexicon_for, variant)
        if not isinstance(lexicon, GraphLexicon):
            return "skipped", 0, "the dictionary is not a word graph"
        _info, game = await asyncio.to_thread(hub.rebuild, stored)
        if game is None or not game.is_over:
            return "skipped", 0, "not a finished game"
        gcg = await asyncio.to_thread(write_gcg, game)
        found = await hub.bots.puzzles(PuzzleScanJob(gcg, game.variant))
        puzzles = [Puzzle.from_dict(d) for d in found]
        await asyncio.to_thread(store.add_found, hub.engine, puzzles, table_id, time.time())
        return "done", len(puzzles), None
