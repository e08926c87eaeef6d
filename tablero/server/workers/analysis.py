"""Post-game analysis as worker jobs: a few moves of a finished game judged per job.

The web process never judges a move itself (each takes milliseconds with static equity, up to
seconds with simulation, and the event loop must not wait). It cuts the game into pieces of
``PLIES_PER_JOB`` moves and sends them, one after another, to the same workers as the bots
(``pool.BotPool`` or the Redis queue, ``queue.BotQueue``); after each piece it stores the
progress, so that a progress bar moves and a server that stops loses at most one piece.

A job is plain data: the game as GCG text (racks shown: the game is over), the rules, the
plies to judge and the simulation's iterations (None: static equity). As JSON on the queue::

    {"gcg": "<GCG text>", "rules": "builtin:fise" or "<an upload's TOML>",
     "plies": [4, 6], "sim_iterations": null}

(``plies`` from and to, both included). The answer is the judged moves, each as
``MoveAnalysis`` writes itself (``dataclasses.asdict``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from functools import cache
from typing import Any

from ...analysis.report import analyse_moves
from ...engine.evaluation.leaves import LeaveTable
from ...engine.players import shipped_leaves
from ...formats.gcg import read_gcg
from ...lexicon import Lexicon
from ...variant import Variant

__all__ = [
    "MAX_SIM_ITERATIONS",
    "PLIES_PER_JOB",
    "AnalysisJob",
    "analyse",
    "analysis_job_from_dict",
    "analysis_job_to_dict",
]

PLIES_PER_JOB = 4
"""Moves a job judges with static equity (a few ms each: a job is mostly its own overhead,
and four keep the progress bar moving on a 25-move game)."""
SIM_PLIES_PER_JOB = 1
"""With simulation a move takes up to seconds: one per job."""
MAX_SIM_ITERATIONS = 1000


@dataclass(frozen=True)
class AnalysisJob:
    gcg: str
    variant: Variant
    first: int
    last: int
    """The plies judged, both included (``analysis.report.plies_to_analyse`` numbers them)."""
    sim_iterations: int | None = None


@cache
def _leaves(variant_name: str) -> LeaveTable | None:
    return shipped_leaves(variant_name)


def analyse(job: AnalysisJob, lexicon: Lexicon) -> list[dict[str, Any]]:
    """The job's moves judged (slow: a worker process or thread calls it)."""
    moves = analyse_moves(
        read_gcg(job.gcg),
        job.variant,
        lexicon,
        _leaves(job.variant.name),
        plies=range(job.first, job.last + 1),
        sim_iterations=job.sim_iterations,
    )
    return [asdict(m) for m in moves]


def analysis_job_to_dict(job: AnalysisJob, rules: str) -> dict[str, Any]:
    return {
        "gcg": job.gcg,
        "rules": rules,
        "plies": [job.first, job.last],
        "sim_iterations": job.sim_iterations,
    }


def analysis_job_from_dict(data: Mapping[str, Any], variant_of: Any) -> AnalysisJob:
    """The job a worker was sent (``variant_of`` rebuilds the rules from their text); ValueError
    if it is malformed."""
    gcg, rules, plies, sims = (data.get(k) for k in ("gcg", "rules", "plies", "sim_iterations"))
    if not (isinstance(gcg, str) and isinstance(rules, str)):
        raise ValueError("an analysis job needs GCG text and rules, both strings")
    if not (
        isinstance(plies, list)
        and len(plies) == 2
        and all(isinstance(p, int) and p >= 1 for p in plies)
        and plies[0] <= plies[1]
    ):
        raise ValueError(f"an analysis job's plies ({plies!r}) are wrong")
    if sims is not None and not (isinstance(sims, int) and 1 <= sims <= MAX_SIM_ITERATIONS):
        raise ValueError(f"an analysis job's sim_iterations ({sims!r}) are wrong")
    return AnalysisJob(gcg, variant_of(rules), plies[0], plies[1], sims)
