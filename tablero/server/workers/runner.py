"""Where a server's bots think: chosen in one place, ``make_bot_runner``.

Without Redis, on this machine: ``BotPool`` (``pool.py``), a process pool of the web process.
With Redis, on a job queue: ``BotQueue`` (``queue.py``), whose jobs any ``tablero worker`` may
take, here or on another machine. Both answer ``think(job)`` with a move and never block the
event loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ...moves import Move
from ...variant import Variant
from ..lexicons import LexiconProvider
from .analysis import AnalysisJob
from .bots import BotJob
from .pool import BotPool
from .positions import PositionJob

__all__ = ["BotRunner", "make_bot_runner"]


class BotRunner(Protocol):
    async def think(self, job: BotJob) -> Move:
        """The bot's move, thought about away from the event loop."""
        ...

    async def analyse(self, job: AnalysisJob) -> list[dict[str, Any]]:
        """A few moves of a finished game judged (``workers/analysis.py``), away from it too."""
        ...

    async def position(self, job: PositionJob) -> dict[str, Any]:
        """The analysis board's moves or a simulation round (``workers/positions.py``)."""
        ...

    async def aclose(self) -> None:
        """Stop the processes this runner started."""
        ...


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
        return BotPool(workers, lexicons)
    from .queue import BotQueue
    from .worker import LocalWorkers

    local = None
    if workers > 0:
        local = LocalWorkers(workers, redis_url, lexicons.overrides)
        local.start()
    return BotQueue(redis_url, rule_text, local)
