"""Running a finished game's analysis in the background, once, whatever fails.

``Analyses.request(table, method)`` is what ``POST /api/tables/{id}/analysis`` calls:

1. The game must be over (its racks are public then). Its record is written as GCG with the
   racks, and the moves to judge are numbered (``analysis.report.plies_to_analyse``).
2. ``store.claim``: only one process runs an analysis. A finished one is never run again; a
   failed one, or one whose process stopped writing for ``STALE_AFTER`` seconds (it died),
   is taken over and goes on from the moves already stored.
3. A task of this process sends the moves to the workers a few at a time
   (``workers/analysis.py``: the bots' pool, or the Redis queue when there is one), never
   judging anything on the event loop, and stores the moves judged after each piece: that is
   the progress ``GET /api/tables/{id}/analysis`` reads, from any process.
4. At the end the players' summaries are added (``analysis.report.assemble``) and each move
   gets ``frame``, the replay page's frame that shows it played, so the page can step
   through the game with the analysis beside it.

A worker that dies is asked again by the runner; a piece that fails outright (the rules or the
dictionary cannot be loaded) marks the analysis ``failed`` with the reason, and asking again
retries it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from sqlalchemy import Engine

from ...analysis.report import MoveAnalysis, assemble, plies_to_analyse
from ...formats.gcg import read_gcg, write_gcg
from ...game import Event, Game
from ...lexicon import Lexicon
from ..errors import ApiError
from ..tables.archive import ACTIONS
from ..tables.hub import Hub
from ..workers.analysis import PLIES_PER_JOB, SIM_PLIES_PER_JOB, AnalysisJob
from . import store
from .store import Analysis

__all__ = ["METHODS", "SIM_ITERATIONS", "STALE_AFTER", "Analyses", "analysis_json"]

log = logging.getLogger("tablero.server.analysis")

METHODS = ("static", "sim")
SIM_ITERATIONS = 300
"""Deals per move simulated in the web app (``tablero analyze --sim``'s default)."""
STALE_AFTER = 120.0
"""Seconds without a write after which a running analysis is taken to be abandoned. A piece
of moves takes well under a minute (one move a piece with simulation, a few seconds)."""


class Analyses:
    def __init__(self, hub: Hub, sim_iterations: int = SIM_ITERATIONS) -> None:
        self.hub = hub
        self.sim_iterations = sim_iterations
        self.owner = hub.bus.origin
        self._tasks: dict[tuple[str, str], asyncio.Task[None]] = {}

    @property
    def engine(self) -> Engine:
        return self.hub.engine

    async def request(self, table_id: str, method: str) -> Analysis:
        """Start the analysis if nobody runs it (see the module's docstring); its state."""
        game = await self._finished(table_id)
        gcg_text = await asyncio.to_thread(write_gcg, game)
        plies = plies_to_analyse(read_gcg(gcg_text))
        claimed, analysis = await asyncio.to_thread(
            store.claim,
            self.engine,
            table_id,
            method,
            self.owner,
            len(plies),
            time.time(),
            STALE_AFTER,
        )
        if claimed and (table_id, method) not in self._tasks:
            task = asyncio.create_task(
                self._run(table_id, method, game, gcg_text, plies, analysis.moves)
            )
            self._tasks[(table_id, method)] = task
            task.add_done_callback(lambda _t: self._tasks.pop((table_id, method), None))
        return analysis

    async def get(self, table_id: str, method: str) -> Analysis | None:
        return await asyncio.to_thread(store.get, self.engine, table_id, method)

    async def _finished(self, table_id: str) -> Game:
        """A copy of the finished game (the room may be unloaded while the analysis runs)."""
        room = await self.hub.room(table_id)
        async with room.lock:
            game = room.game
            if game is None or not game.is_over:
                raise ApiError(409, "not_over", "a game is analysed once it is over")
            if not game.lexicon.can_search:
                raise ApiError(
                    409,
                    "no_dictionary",
                    "this game is played without a dictionary: there are no moves to compare",
                )
            log_copy, lexicon, variant = list(game.log), game.lexicon, game.variant
        return await asyncio.to_thread(Game.replay, log_copy, lexicon, lambda _name: variant)

    async def _run(
        self,
        table_id: str,
        method: str,
        game: Game,
        gcg_text: str,
        plies: list[int],
        stored: list[dict[str, Any]],
    ) -> None:
        sim = method == "sim"
        moves = list(stored)
        judged = {m["ply"] for m in moves}
        todo = [p for p in plies if p not in judged]
        size = SIM_PLIES_PER_JOB if sim else PLIES_PER_JOB
        try:
            for i in range(0, len(todo), size):
                piece = todo[i : i + size]
                job = AnalysisJob(
                    gcg_text,
                    game.variant,
                    piece[0],
                    piece[-1],
                    self.sim_iterations if sim else None,
                )
                moves.extend(m for m in await self.hub.bots.analyse(job) if m["ply"] in piece)
                moves.sort(key=lambda m: m["ply"])
                mine = await asyncio.to_thread(
                    store.save_progress,
                    self.engine,
                    table_id,
                    method,
                    self.owner,
                    moves,
                    time.time(),
                )
                if not mine:
                    return  # another process took it over (this one was thought dead)
            result = _result(game, gcg_text, moves, sim)
            await asyncio.to_thread(
                store.finish, self.engine, table_id, method, self.owner, result, time.time()
            )
        except asyncio.CancelledError:
            raise  # the server stops: another start (or process) goes on from what is stored
        except Exception as e:
            log.warning("the analysis of table %s failed: %s", table_id, e)
            with contextlib.suppress(Exception):
                await asyncio.to_thread(
                    store.fail, self.engine, table_id, method, self.owner, str(e), time.time()
                )

    async def aclose(self) -> None:
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _result(game: Game, gcg_text: str, moves: list[dict[str, Any]], sim: bool) -> dict[str, Any]:
    lexicon: Lexicon = game.lexicon
    judged = [MoveAnalysis.from_dict(m) for m in moves]
    analysis = assemble(read_gcg(gcg_text), game.variant, lexicon.info().name, judged, sim)
    data = analysis.to_dict()
    frames = _frames_of_moves(game.log)
    for move in data["moves"]:
        move["frame"] = frames[move["ply"] - 1]
    return data


def _frames_of_moves(log: list[Event]) -> list[int]:
    """For each move of the log (a choice: ``ply`` numbers them from 1), the replay frame that
    shows it played (``tables.archive``: frame k follows the game's k-th action)."""
    actions = [i for i in range(1, len(log)) if log[i].get("type") in ACTIONS]
    return [k for k, i in enumerate(actions, 1) if log[i].get("type") == "move"]


def analysis_json(analysis: Analysis | None) -> dict[str, Any]:
    """What the API says of an analysis: its state and progress, and once done its result."""
    if analysis is None:
        return {"state": "none", "done": 0, "total": 0, "result": None}
    return {
        "method": analysis.method,
        "state": analysis.state,
        "done": analysis.done,
        "total": analysis.total,
        "result": analysis.result,
        "error": analysis.error if analysis.state == "failed" else None,
    }
