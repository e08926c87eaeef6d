"""Bot workers: processes that take bot jobs from the queue on Redis and think.

``tablero worker --redis URL`` runs them on any machine that reaches Redis; ``tablero serve
--redis`` starts ``--bot-workers`` of them on its own machine (``LocalWorkers``). Each process
is one SAQ worker taking one job at a time: the search is CPU-bound, so two jobs in one process
would share one core. A process loads each dictionary once, on its first job of that language
(``LexiconProvider``), and keeps its bots and their leave tables between jobs.

While a search runs (in a thread), the job is touched every ``HEARTBEAT / 5`` seconds: a
worker killed in the middle is noticed in ``LOST_AFTER`` seconds, and the job asked again.
SIGTERM or SIGINT stops a worker cleanly: a job it was thinking about goes back on the queue.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Awaitable, Callable, Mapping
from multiprocessing.process import BaseProcess
from typing import Any

from saq import Job, Worker
from saq.queue.redis import RedisQueue
from saq.types import Context

from ...lexicon import Lexicon
from ..lexicons import LexiconProvider
from .kinds import KINDS, JobKind
from .queue import (
    BACKOFF_FIRST,
    BACKOFF_MAX,
    HEARTBEAT,
    QUEUE_NAME,
    redis_client,
    redis_word_lists,
    rules_variant,
)

__all__ = ["LocalWorkers", "run_worker"]

log = logging.getLogger("tablero.server.workers")

SWEEP_EVERY = 60
"""Seconds between SAQ's sweeps of the active jobs (one worker sweeps at a time): they tidy
away jobs whose worker and server both died. A server notices a dead worker by itself
(``queue.LOST_AFTER``); a sweep that meets a job just being taken aborts it, and its server
asks again, so sweeps stay rare."""
DEQUEUE_WAIT = 5.0
"""A worker waits for a job this long per request to Redis, then asks again (so a dead
connection is noticed)."""
RESTART_FIRST, RESTART_MAX = 1.0, 60.0
"""Backoff before a local worker that died is started again (a crash at start-up repeats)."""

_provider: LexiconProvider | None = None


def _job_function(kind: JobKind[Any, Any]) -> Callable[..., Awaitable[str]]:
    """SAQ's job function for one kind of job: the job rebuilt from its JSON and done in a
    thread while the heartbeat beats (``_beating``)."""

    def work(payload: Mapping[str, Any]) -> str:
        assert _provider is not None, "worker not initialised"
        return kind.run(kind.from_dict(payload, rules_variant), _provider.lexicon_for)

    async def job_function(ctx: Context, *, job: dict[str, Any]) -> str:
        return await _beating(ctx, work, job)

    job_function.__name__ = job_function.__qualname__ = kind.function
    return job_function


async def _beating(
    ctx: Context, work: Callable[[Mapping[str, Any]], str], payload: dict[str, Any]
) -> str:
    """The work runs in a thread while this coroutine beats the job's heartbeat, so that a
    dead worker is noticed in seconds rather than at the run limit."""
    from redis.exceptions import RedisError

    saq_job = ctx.get("job")
    search = asyncio.ensure_future(asyncio.to_thread(work, payload))
    while True:
        done, _ = await asyncio.wait({search}, timeout=HEARTBEAT / 5)
        if done:
            return search.result()
        if saq_job is not None:
            try:
                await saq_job.update()
            except (RedisError, OSError):
                log.warning("could not touch a bot job (Redis does not answer)")


def run_worker(
    redis_url: str,
    overrides: Mapping[str, Lexicon] | None = None,
    parent: int | None = None,
    log_level: int = logging.WARNING,
) -> None:
    """One worker process's life, until SIGTERM or SIGINT, or (``parent``: a local worker)
    until the process that started it is gone. ``overrides`` are the dictionaries its server
    uses in place of the shipped ones."""
    global _provider
    logging.basicConfig(
        level=log_level, format="%(asctime)s %(processName)s %(name)s %(levelname)s: %(message)s"
    )
    logging.getLogger("saq").addFilter(_SaqLogs())
    _provider = LexiconProvider(overrides or {}, fetch_word_list=redis_word_lists(redis_url))
    asyncio.run(_work(redis_url, parent))


class _PatientQueue(RedisQueue):
    """A worker's queue that waits for Redis: SAQ's worker asks for the next job again at once
    when a request fails, which without Redis would be a busy loop."""

    _backoff = 0.0

    async def dequeue(self, timeout: float = 0.0, poll_interval: float = 0.0) -> Job | None:
        from redis.exceptions import RedisError

        try:
            job = await super().dequeue(timeout, poll_interval)
        except (RedisError, OSError) as e:
            if not self._backoff:
                log.warning("Redis does not answer (%s); waiting for it", type(e).__name__)
            self._backoff = min(BACKOFF_MAX, max(BACKOFF_FIRST, self._backoff * 2))
            await asyncio.sleep(self._backoff)
            return None
        if self._backoff:
            log.warning("Redis answers again")
            self._backoff = 0.0
        return job


class _SaqLogs(logging.Filter):
    """SAQ's log, for an operator: a Redis outage as one line a minute (not a traceback a
    second), and not the warning every stop gives (that its idle loops were cancelled)."""

    QUIET_FOR = 60.0
    _last_outage = 0.0

    def filter(self, record: logging.LogRecord) -> bool:
        from redis.exceptions import RedisError

        if "shutdown grace period" in record.getMessage():
            return False
        error = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, RedisError | OSError):
            return True
        if record.created - self._last_outage < self.QUIET_FOR:
            return False
        self._last_outage = record.created
        record.msg = f"{record.getMessage()}: Redis does not answer ({type(error).__name__})"
        record.args, record.exc_info, record.exc_text = (), None, None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


async def _work(redis_url: str, parent: int | None) -> None:
    from redis.exceptions import RedisError

    queue = _PatientQueue(redis_client(redis_url, blocking=True), name=QUEUE_NAME)
    worker: Worker[Context] = Worker(
        queue,
        [(name, _job_function(kind)) for name, kind in KINDS.items()],
        concurrency=1,
        # No job is scheduled for later: SAQ's scheduler need not ask Redis every second.
        timers={"schedule": 60, "worker_info": 10, "sweep": SWEEP_EVERY, "abort": 1},
        dequeue_timeout=DEQUEUE_WAIT,
    )
    watch = asyncio.create_task(_stop_when_orphaned(worker, parent)) if parent else None
    try:
        await queue.connect()
        await worker.start()
    finally:
        if watch is not None:
            watch.cancel()
        with contextlib.suppress(RedisError, OSError):  # a Redis that is down is left as is
            await queue.disconnect()


async def _stop_when_orphaned(worker: Worker[Context], parent: int) -> None:
    """A local worker outlives a server killed with ``kill -9`` only by a second."""
    while os.getppid() == parent:
        await asyncio.sleep(1.0)
    log.warning("the server that started this bot worker is gone; stopping")
    worker.event.set()


class LocalWorkers:
    """``count`` worker processes on this machine (spawned: the starting process may have
    threads and an event loop), kept running: one that dies unasked is started again."""

    def __init__(
        self, count: int, redis_url: str, overrides: Mapping[str, Lexicon] | None = None
    ) -> None:
        self.count = count
        self.redis_url = redis_url
        self.overrides = dict(overrides or {})
        self._processes: list[BaseProcess] = []
        self._stopping = threading.Event()
        self._watcher: threading.Thread | None = None

    @property
    def pids(self) -> list[int | None]:
        return [p.pid for p in self._processes]

    def start(self) -> None:
        self._processes = [self._spawn() for _ in range(self.count)]
        self._watcher = threading.Thread(target=self._watch, name="bot-workers", daemon=True)
        self._watcher.start()

    def _spawn(self) -> BaseProcess:
        context = multiprocessing.get_context("spawn")
        process = context.Process(
            target=run_worker,
            args=(self.redis_url, self.overrides, os.getpid(), logging.WARNING),
            name="tablero-bot-worker",
            daemon=True,
        )
        process.start()
        return process

    def _watch(self) -> None:
        """Start again a worker that ended unasked (killed, out of memory, a crash): at once
        after a long life, else after a backoff that doubles while it keeps dying young."""
        started = [time.monotonic()] * self.count
        due: list[float | None] = [None] * self.count
        backoff = [0.0] * self.count  # 0: its last life was long
        while not self._stopping.wait(1.0):
            now = time.monotonic()
            for i, process in enumerate(self._processes):
                if process.exitcode in (None, 0):  # running, or stopped by a signal to its group
                    continue
                if due[i] is None:
                    young = now - started[i] < RESTART_MAX
                    backoff[i] = (
                        min(RESTART_MAX, max(RESTART_FIRST, backoff[i] * 2)) if young else 0
                    )
                    due[i] = now + backoff[i]
                    log.warning("bot worker %s ended (exit code %s)", process.pid, process.exitcode)
                if now >= (due[i] or 0.0):
                    self._processes[i] = self._spawn()
                    started[i], due[i] = now, None

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM to each (a job in progress goes back on the queue), then SIGKILL to any
        still running after ``timeout`` seconds."""
        self._stopping.set()
        if self._watcher is not None:
            self._watcher.join()
            self._watcher = None
        for process in self._processes:
            if process.exitcode is None:
                process.terminate()
        deadline = time.monotonic() + timeout
        for process in self._processes:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.exitcode is None:
                process.kill()
                process.join()
        self._processes = []
