"""The analysis board's work: every move of a pasted position, and simulation in rounds.

``moves``: every move of the position's player to move (placements, exchanges, the pass,
CAMBIOs) with its score, leave and static equity, best first, at most ``MAX_MOVES`` of them,
each placement with the squares and tiles it puts down so the page can draw it.

``simulate``: one *round* of simulation of the moves asked for (``engine.simulate``, 2 plies,
the same deals for every move): ``iterations`` deals from ``seed``. The page asks for round
after round with new seeds and adds them up itself (the sums and sums of squares are returned,
so the means and their errors combine exactly); stopping is simply not asking for the next
round. So the server keeps nothing between requests, and any process can answer any round.

Both run in the workers (``pool.BotPool``, or the Redis queue), never on the event loop. A
job crosses as JSON::

    {"kind": "moves", "cgp": "<CGP>", "rules": "builtin:fise" or "<TOML>"}
    {"kind": "simulate", "cgp": "…", "rules": "…", "moves": ["8D CASA", "-"],
     "iterations": 50, "seed": 7}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from ...engine.evaluation.leaves import LeaveTable
from ...engine.movegen.candidates import Candidate, candidates
from ...engine.players import ex_bonus_for, shipped_leaves
from ...engine.search.simulate import simulate
from ...formats.cgp import read_cgp, write_cgp
from ...lexicon import Lexicon
from ...moves import Place
from ...position import Position
from ...rules import resolve_place
from ...variant import Variant, square_name

__all__ = [
    "MAX_MOVES",
    "MAX_SIM_MOVES",
    "MAX_SIM_ROUND",
    "PositionJob",
    "move_json",
    "position_job_from_dict",
    "position_job_to_dict",
    "work_on_position",
]

MAX_MOVES = 1000
"""Moves listed at most (a blank-heavy rack can have tens of thousands; nobody reads them)."""
MAX_SIM_MOVES = 20
MAX_SIM_ROUND = 200
"""Deals in one round: a round must answer within a second or two."""


@dataclass(frozen=True)
class PositionJob:
    kind: str
    """moves or simulate"""
    position: Position
    moves: tuple[str, ...] = ()
    iterations: int = 0
    seed: int = 0


@cache
def _leaves(variant_name: str) -> LeaveTable | None:
    return shipped_leaves(variant_name)


def _all_moves(position: Position, lexicon: Lexicon) -> list[Candidate]:
    v = position.variant
    return candidates(position, lexicon, _leaves(v.name), ex_bonus=ex_bonus_for(v))


def work_on_position(job: PositionJob, lexicon: Lexicon) -> dict[str, Any]:
    """The job's answer (slow: a worker process or thread calls it)."""
    position = job.position
    found = _all_moves(position, lexicon)
    if job.kind == "moves":
        return {
            "count": len(found),
            "moves": [move_json(c, position) for c in found[:MAX_MOVES]],
        }
    by_notation = {c.notation: c for c in found}
    unknown = [m for m in job.moves if m not in by_notation]
    if unknown:
        raise ValueError(f"not a move of this position: {unknown[0]}")
    chosen = [by_notation[m] for m in job.moves]
    v = position.variant
    results = simulate(
        position,
        chosen,
        lexicon,
        _leaves(v.name),
        players=len(position.racks),
        iterations=job.iterations,
        seed=job.seed,
        ex_bonus=ex_bonus_for(v),
    )
    return {
        "iterations": job.iterations,
        "moves": [
            {
                "move": r.candidate.notation,
                "iterations": r.iterations,
                "total": round(r.total, 4),
                "total_sq": round(r.total_sq, 4),
                "bonus": r.bonus,
            }
            for r in results
        ],
    }


def move_json(c: Candidate, position: Position) -> dict[str, Any]:
    """A move as the page draws it: notation, kind, score, leave, equity, tiles put down."""
    tiles: list[dict[str, Any]] = []
    if isinstance(c.move, Place):
        new, _ = resolve_place(c.move, position.board)
        tiles = [
            {"square": square_name(coord), "letter": tile.letter, "blank": tile.blank}
            for coord, tile in new
        ]
    return {
        "move": c.notation,
        "kind": c.kind,
        "score": c.score,
        "equity": round(c.equity, 2),
        "leave": "".join(f"[{t}]" if len(t) > 1 else t for t in c.leave),
        "tiles": tiles,
    }


def position_job_to_dict(job: PositionJob, rules: str) -> dict[str, Any]:
    return {
        "kind": job.kind,
        "cgp": write_cgp(job.position),
        "rules": rules,
        "moves": list(job.moves),
        "iterations": job.iterations,
        "seed": job.seed,
    }


def position_job_from_dict(data: Mapping[str, Any], variant_of: Any) -> PositionJob:
    """The job a worker was sent (``variant_of`` rebuilds the rules); ValueError if malformed."""
    kind, cgp, rules = data.get("kind"), data.get("cgp"), data.get("rules")
    if kind not in ("moves", "simulate") or not isinstance(cgp, str) or not isinstance(rules, str):
        raise ValueError("a position job needs a kind (moves, simulate), a CGP and rules")
    moves, iterations, seed = data.get("moves", []), data.get("iterations", 0), data.get("seed", 0)
    if not (isinstance(moves, list) and all(isinstance(m, str) for m in moves)):
        raise ValueError("a position job's moves are a list of notations")
    if not (isinstance(iterations, int) and isinstance(seed, int)):
        raise ValueError("a position job's iterations and seed are integers")
    variant: Variant = variant_of(rules)
    return PositionJob(kind, read_cgp(cgp, variant), tuple(moves), iterations, seed)
