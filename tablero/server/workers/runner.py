"""Where a server's bots think: chosen in one place, ``make_bot_runner``.

Without Redis, on this machine: ``BotPool`` (``pool.py``), a process pool of the web process.
With Redis, on a job queue: ``BotQueue`` (``queue.py``), whose jobs any ``tablero worker`` may
take, here or on another machine. Both are a ``BotRunner``: they run any kind of job
(``kinds.py``) and never block the event loop.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, TypeVar

from ...moves import Move
from ...variant import Variant
from ..lexicons import LexiconProvider
from .analysis import AnalysisJob
from .bots import BotJob
from .kinds import ANALYSE, POSITION, PUZZLES, THINK, JobKind
from .positions import PositionJob
from .puzzles import PuzzleScanJob

__all__ = ["BotRunner", "make_bot_runner"]

J = TypeVar("J")


class BotRunner(ABC):
    """Engine work away from the event loop: ``run`` is how (a pool, a queue); the rest is
    what, the same for both."""

    @abstractmethod
    async def run(self, kind: JobKind[J, Any], job: J) -> str:
        """The job's answer as its kind writes it (``JobKind.work``)."""

    @abstractmethod
    async def aclose(self) -> None:
        """Stop the processes this runner started."""

    async def think(self, job: BotJob) -> Move:
        """The bot's move."""
        return THINK.read(job, await self.run(THINK, job))

    async def analyse(self, job: AnalysisJob) -> list[dict[str, Any]]:
        """A few moves of a finished game judged (``workers/analysis.py``)."""
        return ANALYSE.read(job, await self.run(ANALYSE, job))

    async def position(self, job: PositionJob) -> dict[str, Any]:
        """The analysis board's moves or a simulation round (``workers/positions.py``)."""
        return POSITION.read(job, await self.run(POSITION, job))

    async def puzzles(self, job: PuzzleScanJob) -> list[dict[str, Any]]:
        """A finished game's puzzles (``workers/puzzles.py``)."""
        return PUZZLES.read(job, await self.run(PUZZLES, job))


def make_bot_runner(
    workers: int,
    redis_url: str | None,
    lexicons: LexiconProvider,
    rule_text: Callable[[Variant], str],
) -> BotRunner:
    """The pool (no Redis: ``workers`` processes, 0 a thread) or the queue (Redis: ``workers``
    local worker processes started now, 0 only workers elsewhere).

    ``tablero serve --workers N`` starts its local workers once, in the command's own process,
    and gives each web process 0: a machine has one set, not one per web process.
    ``rule_text`` says how a worker elsewhere rebuilds a table's rules (``Hub.rule_text``).
    """
    if redis_url is None:
        from .pool import BotPool

        return BotPool(workers, lexicons)
    from .queue import BotQueue
    from .worker import LocalWorkers

    local = None
    if workers > 0:
        local = LocalWorkers(workers, redis_url, lexicons.overrides)
        local.start()
    return BotQueue(redis_url, rule_text, local, fetch_word_list=lexicons.fetch_word_list)
