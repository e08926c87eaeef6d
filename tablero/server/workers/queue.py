"""Bots through a job queue on Redis (SAQ), so bot workers can run on other machines.

With ``--redis`` a server does not think about bots itself: ``BotQueue.think`` puts the job on
the queue ``tablero-bots`` and waits for the answer without blocking its event loop; any
``tablero worker`` (``workers/worker.py``), on this machine or another, takes it. The job is
JSON, never pickle (whoever can write to Redis must not be able to run code in a server)::

    {"cgp": "<the position the seat sees>", "rules": "builtin:fise" or "<an upload's TOML>",
     "level": 3, "players": 2}

and the answer is the move in notation, parsed back under the table's own rules. Analysis jobs
travel the same way (``kinds.py`` has every kind's JSON).

A queue must not lose a bot's turn when something goes away, because ``Room`` treats any error
from ``think`` as a failed search and passes for the bot (six passes end a game). So:

- nobody takes the job within ``TAKE_WITHIN`` seconds (no worker runs): it is withdrawn and
  asked again, with a warning, for as long as the table waits; the table simply pauses;
- its worker dies while thinking (no heartbeat for ``LOST_AFTER`` seconds): asked again, at
  most ``MAX_LOST`` times (a job that kills every worker it reaches is a bug: it raises);
- Redis does not answer: the server waits for it with backoff, as the table news do;
- the search itself fails in the worker, or outlives ``RUN_LIMIT``: ``BotJobFailed`` is raised,
  as a failing search in the local pool raises.

Every job carries an expiry in Redis (``EXPIRE`` on its record): a job left behind by a server
that died vanishes by itself, so a queue with no worker does not collect stale jobs.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import json
import logging
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from saq import Job, Status
from saq.queue.redis import RedisQueue

from ...variant import Variant
from .. import catalog
from ..wordlists import is_word_list_id
from .kinds import JobKind
from .runner import BotRunner

if TYPE_CHECKING:
    from .worker import LocalWorkers

__all__ = [
    "QUEUE_NAME",
    "BotJobFailed",
    "BotQueue",
    "redis_client",
    "redis_word_lists",
    "rules_variant",
    "word_list_key",
]

log = logging.getLogger("tablero.server.workers")

QUEUE_NAME = "tablero-bots"
"""SAQ's keys are ``saq:tablero-bots:…``; each kind of job has its function name
(``kinds.JobKind.function``: ``tablero.think``, ``tablero.analyse``, ``tablero.position``)."""
TAKE_WITHIN = 60.0
"""Seconds a job waits for a worker before it is withdrawn (and asked again)."""
RUN_LIMIT = 60
"""Seconds a worker may think about one job (an expert answers in 5; the first job of a
language on a new machine builds its dictionary's word graph, about 12)."""
HEARTBEAT = 10
"""A thinking worker touches its job every ``HEARTBEAT / 5`` seconds; a job untouched for
``HEARTBEAT`` seconds is stuck (its worker died), for SAQ's sweeps as for the server."""
LOST_AFTER = HEARTBEAT + 5.0
"""Seconds, on the server's clock, without a touch after which the server gives a running
job up and asks again."""
MAX_LOST = 3
"""Workers that may die on one job before the server stops asking."""
RESULT_TTL = 60
"""Seconds a finished job (with its answer) stays in Redis for the server to read."""
POLL_FIRST, POLL_MAX = 0.01, 0.2
"""The server reads the job's state at growing intervals: quick answers come back quickly,
and a long search costs Redis five reads a second."""
BACKOFF_FIRST, BACKOFF_MAX = 0.5, 10.0

RULES_CACHE_SIZE = 64


class BotJobFailed(RuntimeError):
    """The worker's search failed (the job's error is in the message), or its workers kept
    dying: the room lets the bot pass, as it does when a local search fails."""


# -- the rules a job names ------------------------------------------------------------------------


_rules: OrderedDict[str, Variant] = OrderedDict()
_rules_lock = threading.Lock()


def rules_variant(rules: str) -> Variant:
    """The rule set a job names. Uploads are parsed (and held to the server's limits) once
    per text: the cache is keyed by the text's hash and keeps the most recent few.

    A table with a club's words sends them with its rules, as JSON (``Hub.rule_text``):
    ``{"rules": "builtin:fise" or "<TOML>", "add": [...], "remove": [...]}``, and a table
    that chose an installed dictionary its name as ``"lexicon"`` (the worker's machine must
    have it installed too: ``tablero lexicon add``)."""
    if rules.startswith("{"):
        return _with_words(rules)
    if rules.startswith("builtin:"):
        return catalog.builtin(rules.removeprefix("builtin:"))
    key = hashlib.sha256(rules.encode("utf-8", "surrogatepass")).hexdigest()
    with _rules_lock:
        if key in _rules:
            _rules.move_to_end(key)
            return _rules[key]
    variant = catalog.parse_upload(rules, source=f"upload:{key[:16]}")
    with _rules_lock:
        _rules[key] = variant
        while len(_rules) > RULES_CACHE_SIZE:
            _rules.popitem(last=False)
    return variant


def _with_words(envelope: str) -> Variant:
    try:
        data = json.loads(envelope)
    except ValueError:
        raise ValueError("a job's rules with words are not valid JSON") from None
    rules, add, remove = (data.get(k) if isinstance(data, dict) else None for k in _ENVELOPE)
    if not (
        isinstance(rules, str)
        and not rules.startswith("{")
        and isinstance(add, list)
        and isinstance(remove, list)
        and all(isinstance(w, str) for w in (*add, *remove))
    ):
        raise ValueError('a job\'s rules with words need "rules" (text), "add" and "remove"')
    base = rules_variant(rules)
    lexicon = data.get("lexicon")
    if lexicon is not None:
        if not isinstance(lexicon, str):
            raise ValueError('a job\'s "lexicon" is a dictionary\'s name')
        base = dataclasses.replace(base, lexicon=lexicon)
    return catalog.with_word_changes(base, catalog.word_changes_of(base, add, remove))


_ENVELOPE = ("rules", "add", "remove")


# -- Redis ----------------------------------------------------------------------------------------


def word_list_key(list_id: str) -> str:
    """Where Redis holds an uploaded list's packed words for the workers (no expiry: a list
    is a few megabytes at most, and a table may use it for months)."""
    return f"tablero:wordlist:{list_id}"


def redis_word_lists(redis_url: str) -> Callable[[str], bytes | None]:
    """A worker's source of uploaded lists (``LexiconProvider``): Redis's copy, read in the
    job's thread with a connection of its own."""
    import redis

    client = redis.Redis.from_url(redis_url, socket_connect_timeout=2, socket_timeout=15)

    def fetch(list_id: str) -> bytes | None:
        value: bytes | None = client.get(word_list_key(list_id))  # type: ignore[assignment]
        return value

    return fetch


def redis_client(redis_url: str, blocking: bool = False) -> Any:
    """Connections of the bots' queue (not the bus's). ``blocking``: a worker's, whose
    dequeue waits on the socket for up to 5 s at a time (no shorter socket timeout)."""
    import redis.asyncio as aioredis

    return aioredis.from_url(
        redis_url,
        socket_connect_timeout=2,
        socket_timeout=15 if blocking else 5,
        health_check_interval=5,
    )


T = TypeVar("T")
J = TypeVar("J")


async def _persist(what: str, operation: Callable[[], Awaitable[T]]) -> T:
    """``operation`` again and again, with backoff, until Redis answers it."""
    from redis.exceptions import RedisError

    backoff = BACKOFF_FIRST
    while True:
        try:
            return await operation()
        except (RedisError, OSError) as e:
            if backoff == BACKOFF_FIRST:
                log.warning("bots: Redis does not answer (%s: %s); waiting", what, type(e).__name__)
            await asyncio.sleep(backoff * random.uniform(0.75, 1.25))
            backoff = min(BACKOFF_MAX, backoff * 2)


# -- the server's side ----------------------------------------------------------------------------


class _Lost(Exception):
    """A job that will not be answered: withdrawn, and asked again."""

    def __init__(self, why: str, worker_died: bool = False) -> None:
        super().__init__(why)
        self.worker_died = worker_died


class BotQueue(BotRunner):
    """Bots think wherever a worker takes the job: the ``BotPool`` interface over Redis.

    ``rule_text`` gives what a worker needs to rebuild a table's rules (``Hub.rule_text``).
    ``local`` are worker processes this server started for itself (``worker.LocalWorkers``),
    stopped with it; remote ``tablero worker``s take the same jobs.
    """

    def __init__(
        self,
        redis_url: str,
        rule_text: Callable[[Variant], str],
        local: LocalWorkers | None = None,
        take_within: float = TAKE_WITHIN,
        fetch_word_list: Callable[[str], bytes | None] | None = None,
    ) -> None:
        self.rule_text = rule_text
        self.fetch_word_list = fetch_word_list
        """An uploaded list's packed words (the database's), to share with the workers."""
        self.local = local
        self.take_within = take_within
        self.queue = RedisQueue(redis_client(redis_url), name=QUEUE_NAME)
        self._connected = False

    async def run(self, kind: JobKind[J, Any], job: J) -> str:
        """A job's answer, from whichever worker takes it (asked again if it is lost)."""
        function, what = kind.function, kind.what
        variant = kind.variant_of(job)
        payload = kind.to_dict(job, self.rule_text(variant))
        if not self._connected:
            await self.queue.connect()
            self._connected = True
        if is_word_list_id(variant.lexicon):
            await _persist("sharing a word list", lambda: self._share(variant.lexicon))
        deaths = 0
        while True:
            saq_job = await _persist(
                f"sending a {what} job", lambda: self._submit(function, payload)
            )
            try:
                return await self._answer(saq_job)
            except _Lost as lost:
                await self._withdraw(saq_job)
                deaths += lost.worker_died
                if deaths >= MAX_LOST:
                    raise BotJobFailed(f"{deaths} workers died on one {what} job") from None
                log.warning("a %s job was lost (%s); asking again", what, lost)
            except BotJobFailed:
                raise
            except BaseException:  # cancelled: the table moved on, or the server stops
                await asyncio.shield(self._withdraw(saq_job))
                raise

    async def _share(self, list_id: str) -> None:
        """Put an uploaded list where every worker can read it (``word_list_key``), unless it
        is there: a worker elsewhere has no database, only Redis."""
        key = word_list_key(list_id)
        if await self.queue.redis.exists(key):
            return
        fetch = self.fetch_word_list
        packed = await asyncio.to_thread(fetch, list_id) if fetch else None
        if packed is None:
            raise BotJobFailed(f"no uploaded word list {list_id} to give the workers")
        await self.queue.redis.set(key, packed)

    async def _submit(self, function: str, payload: dict[str, Any]) -> Job:
        job = Job(
            function,
            kwargs={"job": payload},
            timeout=RUN_LIMIT,
            heartbeat=HEARTBEAT,
            retries=1,  # not SAQ's retries: the server asks again, knowing if anyone waits
            ttl=RESULT_TTL,
        )
        await self.queue.enqueue(job)
        # The record expires unless a worker takes the job (a worker's writes clear the
        # expiry): the job of a server that died goes away by itself.
        await self.queue.redis.expire(job.id, int(self.take_within) + RUN_LIMIT)
        return job

    async def _answer(self, job: Job) -> str:
        """The answer (a move in notation, JSON), once a worker has it; ``_Lost`` or
        ``BotJobFailed`` if none will come. Times are the server's own (another machine's
        clock may be off)."""
        waiting_since = time.monotonic()
        touched, touched_seen = 0, waiting_since
        delay = POLL_FIRST
        while True:
            await asyncio.sleep(delay)
            delay = min(POLL_MAX, delay * 1.5)
            current = await _persist("reading a bot job", lambda: self.queue.job(job.key))
            now = time.monotonic()
            if current is None:
                raise _Lost("it expired untaken")
            status = current.status
            if status == Status.COMPLETE:
                return str(current.result)
            if status == Status.FAILED:
                raise BotJobFailed(f"a bot worker failed: {current.error}")
            if status in (Status.ABORTED, Status.ABORTING):
                raise _Lost(f"aborted: {current.error}")
            if status != Status.ACTIVE:
                if now - waiting_since > self.take_within:
                    raise _Lost(f"no bot worker took it in {self.take_within:g} s")
                continue
            waiting_since = now  # taken: from now on, the heartbeat counts
            if current.touched != touched:
                touched, touched_seen = current.touched, now
            elif now - touched_seen > LOST_AFTER:
                raise _Lost("its worker stopped answering", worker_died=True)

    async def _withdraw(self, job: Job) -> None:
        """Take a job nobody waits for off the queue (a worker thinking about it stops); its
        record expires. Best effort: the expiry covers a Redis that does not answer."""
        from redis.exceptions import RedisError

        try:
            await self.queue.abort(job, "withdrawn")
            await self.queue.redis.expire(job.id, RESULT_TTL)
        except (RedisError, OSError):
            pass

    async def aclose(self) -> None:
        """Stop the local workers and close the connections."""
        from redis.exceptions import RedisError

        if self.local is not None:
            await asyncio.to_thread(self.local.stop)
        with contextlib.suppress(RedisError, OSError):  # a Redis that is down is left as is
            await self.queue.disconnect()
