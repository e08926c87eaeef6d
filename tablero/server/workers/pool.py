"""Where bots think: worker processes, so the event loop and the database commits of the web
process never wait behind a search.

``BotPool`` keeps a ``ProcessPoolExecutor`` (processes started with ``spawn``: the web process
has threads and an event loop, which ``fork`` would copy half-way). Each worker loads the
dictionaries it is asked for once and keeps its bots (and their leave tables) between jobs.
A job is a ``BotJob``: the position the bot's seat sees, plain data; the answer is the move in
notation, parsed back by the room under the rules of its own game.

With ``processes=0`` jobs run in a thread of the web process instead (tests, tiny servers).
A worker that dies (killed, out of memory) breaks the pool; the next job starts a new one.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ...lexicon import Lexicon
from ...moves import Move, format_move, parse_move
from ..lexicons import LexiconProvider
from . import WorkersUnavailable
from .analysis import AnalysisJob, analyse
from .bots import BotJob, think
from .positions import PositionJob, work_on_position

__all__ = ["BotPool"]

log = logging.getLogger("tablero.server.workers")

_provider: LexiconProvider | None = None


def _init_worker(overrides: Mapping[str, Lexicon]) -> None:
    global _provider
    _provider = LexiconProvider(overrides)


def _think_in_worker(job: BotJob) -> str:
    assert _provider is not None, "worker not initialised"
    lexicon = _provider.lexicon_for(job.position.variant)
    return format_move(think(job, lexicon))


def _analyse_in_worker(job: AnalysisJob) -> list[dict[str, Any]]:
    assert _provider is not None, "worker not initialised"
    return analyse(job, _provider.lexicon_for(job.variant))


def _position_in_worker(job: PositionJob) -> dict[str, Any]:
    assert _provider is not None, "worker not initialised"
    return work_on_position(job, _provider.lexicon_for(job.position.variant))


class BotPool:
    def __init__(self, processes: int, lexicons: LexiconProvider) -> None:
        self.processes = processes
        self.lexicons = lexicons
        self._executor: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_init_worker,
                initargs=(self.lexicons.overrides,),
            )
        return self._executor

    async def think(self, job: BotJob) -> Move:
        """The bot's move, thought about away from the event loop."""
        variant = job.position.variant
        if self.processes <= 0:
            lexicon = await asyncio.to_thread(self.lexicons.lexicon_for, variant)
            return await asyncio.to_thread(think, job, lexicon)
        loop = asyncio.get_running_loop()
        try:
            text = await loop.run_in_executor(self._pool(), _think_in_worker, job)
        except BrokenProcessPool:
            log.warning("a bot worker process died; starting new ones")
            self._executor = None
            raise WorkersUnavailable("a bot worker process died") from None
        return parse_move(text, variant.alphabet, variant.rows, variant.columns)

    async def analyse(self, job: AnalysisJob) -> list[dict[str, Any]]:
        """A few moves of a finished game judged away from the event loop."""
        if self.processes <= 0:
            lexicon = await asyncio.to_thread(self.lexicons.lexicon_for, job.variant)
            return await asyncio.to_thread(analyse, job, lexicon)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), _analyse_in_worker, job)
        except BrokenProcessPool:
            log.warning("a worker process died; starting new ones")
            self._executor = None
            raise WorkersUnavailable("a worker process died") from None

    async def position(self, job: PositionJob) -> dict[str, Any]:
        """The analysis board's moves or simulation round, away from the event loop."""
        if self.processes <= 0:
            lexicon = await asyncio.to_thread(self.lexicons.lexicon_for, job.position.variant)
            return await asyncio.to_thread(work_on_position, job, lexicon)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), _position_in_worker, job)
        except BrokenProcessPool:
            log.warning("a worker process died; starting new ones")
            self._executor = None
            raise WorkersUnavailable("a worker process died") from None

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    async def aclose(self) -> None:
        """``close``, as the job queue's runner closes (``runner.BotRunner``)."""
        self.close()
