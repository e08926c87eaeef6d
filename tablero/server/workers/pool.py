"""Where bots think: worker processes, so the event loop and the database commits of the web
process never wait behind a search.

``BotPool`` keeps a ``ProcessPoolExecutor`` (processes started with ``spawn``: the web process
has threads and an event loop, which ``fork`` would copy half-way). Each worker loads the
dictionaries it is asked for once and keeps its bots (and their leave tables) between jobs.
A job is one of ``kinds.KINDS`` (a ``BotJob``: the position the bot's seat sees, plain data);
the answer is text (a move in notation, JSON), read back by its kind in the web process.

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
from typing import Any, TypeVar

from ...lexicon import Lexicon
from ..lexicons import LexiconProvider
from . import WorkersUnavailable
from .kinds import KINDS, JobKind
from .runner import BotRunner

__all__ = ["BotPool"]

log = logging.getLogger("tablero.server.workers")

J = TypeVar("J")

_provider: LexiconProvider | None = None


def _init_worker(overrides: Mapping[str, Lexicon]) -> None:
    global _provider
    _provider = LexiconProvider(overrides)


def _in_worker(function: str, job: Any) -> str:
    assert _provider is not None, "worker not initialised"
    return KINDS[function].run(job, _provider.lexicon_for)


class BotPool(BotRunner):
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

    async def run(self, kind: JobKind[J, Any], job: J) -> str:
        """The job done in a worker process (or, with no processes, in a thread)."""
        if self.processes <= 0:
            return await asyncio.to_thread(kind.run, job, self.lexicons.lexicon_for)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), _in_worker, kind.function, job)
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
