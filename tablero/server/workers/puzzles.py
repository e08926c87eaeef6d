"""Puzzles from a finished game, found in the workers: every position of the game examined
(``tablero.puzzles.selection``) away from the event loop.

A job is the game as GCG text (racks shown: the game is over) and its rules; as JSON on the
queue::

    {"gcg": "<GCG text>", "rules": "builtin:fise"}

The answer is the puzzles found, each as ``Puzzle.to_dict`` writes it (source ``{"kind":
"game", "ply": N}``), in the order of the game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from ...engine.evaluation.leaves import LeaveTable
from ...engine.players import shipped_leaves
from ...lexicon import Lexicon
from ...puzzles.selection import puzzles_from_gcg
from ...variant import Variant

__all__ = ["PuzzleScanJob", "puzzle_job_from_dict", "puzzle_job_to_dict", "scan_for_puzzles"]


@dataclass(frozen=True)
class PuzzleScanJob:
    gcg: str
    variant: Variant


@cache
def _leaves(variant_name: str) -> LeaveTable | None:
    return shipped_leaves(variant_name)


def scan_for_puzzles(job: PuzzleScanJob, lexicon: Lexicon) -> list[dict[str, Any]]:
    """The game's puzzles (slow: a worker process or thread calls it)."""
    found = puzzles_from_gcg(
        job.gcg, job.variant, lexicon, _leaves(job.variant.name), source={"kind": "game"}
    )
    return [p.to_dict() for p in found]


def puzzle_job_to_dict(job: PuzzleScanJob, rules: str) -> dict[str, Any]:
    return {"gcg": job.gcg, "rules": rules}


def puzzle_job_from_dict(
    data: Mapping[str, Any], variant_of: Callable[[str], Variant]
) -> PuzzleScanJob:
    """The job a worker was sent; ValueError if it is malformed."""
    gcg, rules = data.get("gcg"), data.get("rules")
    if not (isinstance(gcg, str) and isinstance(rules, str)):
        raise ValueError("a puzzle scan needs GCG text and rules, both strings")
    return PuzzleScanJob(gcg, variant_of(rules))
