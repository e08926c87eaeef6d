"""Move-generation figures: the shared reference positions and positions of every game.

``tablero bench`` prints what this measures. The shared set (``tests/data/bench``) is 50 FISE
mid- and end-game positions with every legal move listed by an independent engine, and the
word list it used; the other positions come from self-play in each game. For each set:

* **all moves**: every placement generated and scored, counted in the generator (``count``)
  and also built as Python objects (``placements``), in positions/s and moves/s;
* **best move**: the best placement by equity (score + leave value) only, in positions/s.

On the shared set the counts are also checked against the reference lists.
"""

from __future__ import annotations

import json
import lzma
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from ...board import Board
from ...formats.cgp import read_cgp
from ...game import Game
from ...lexicon import Lexicon
from ...variant import Variant
from ..evaluation.leaves import Leave, LeaveTable
from .candidates import MoveGenerator, PlayBoard, generator_for

__all__ = ["BenchFigures", "bench_positions", "find_shared_set", "game_positions", "shared_set"]


@dataclass(frozen=True)
class BenchFigures:
    name: str
    generator: str
    positions: int
    moves: int
    count_positions_per_s: float
    count_moves_per_s: float
    objects_moves_per_s: float
    best_positions_per_s: float
    mismatches: int | None = None
    """Positions whose move count differs from the reference list (shared set only)."""

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def find_shared_set(start: Path | None = None) -> Path | None:
    """``tests/data/bench`` under the current directory or the source tree, if present."""
    here = Path(__file__).resolve().parents[2]
    for base in [start or Path.cwd(), here]:
        candidate = base / "tests" / "data" / "bench"
        if (candidate / "fise_positions.jsonl.xz").is_file():
            return candidate
    return None


def shared_set(directory: Path) -> list[dict[str, Any]]:
    with lzma.open(directory / "fise_positions.jsonl.xz", "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


Item = tuple[Board, tuple[str, ...]]


T = TypeVar("T")


def _rate(
    items: Sequence[T], work: Callable[[T], int], min_seconds: float
) -> tuple[float, float, int]:
    """(positions/s, units/s, units per pass): passes over the items until min_seconds."""
    passes = 0
    units = 0
    start = time.perf_counter()
    while True:
        per_pass = 0
        for item in items:
            per_pass += work(item)
        passes += 1
        units += per_pass
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return passes * len(items) / elapsed, units / elapsed, per_pass


def bench_positions(
    name: str,
    variant: Variant,
    lexicon: Lexicon,
    items: Sequence[Item],
    leaves: LeaveTable | None,
    *,
    min_seconds: float = 1.0,
    generator: MoveGenerator | None = None,
    expected: Sequence[int | None] | None = None,
) -> BenchFigures:
    """Time the generator on (board, rack) pairs; ``expected`` move counts are checked."""
    gen = generator or generator_for(variant, lexicon)
    boards = [(gen.board(b), r) for b, r in items]

    def count(it: tuple[PlayBoard, tuple[str, ...]]) -> int:
        return gen.count(it[0], it[1], None)

    def objects(it: tuple[PlayBoard, tuple[str, ...]]) -> int:
        return len(gen.placements(it[0], it[1], None))

    def best(it: tuple[PlayBoard, tuple[str, ...], dict[Leave, float] | None]) -> int:
        return len(gen.best(it[0], it[1], 1, it[2], None))

    pos_s, moves_s, per_pass = _rate(boards, count, min_seconds)
    _, objects_s, _ = _rate(boards, objects, min_seconds)
    paired = [(b, r, leaves.for_rack(r) if leaves is not None else None) for b, r in boards]
    best_s, _, _ = _rate(paired, best, min_seconds)
    mismatches = None
    if expected is not None:
        mismatches = sum(
            1
            for (b, r), want in zip(boards, expected, strict=True)
            if want is not None and gen.count(b, r, None) != want
        )
    return BenchFigures(
        name,
        gen.name,
        len(items),
        per_pass,
        round(pos_s, 1),
        round(moves_s),
        round(objects_s),
        round(best_s, 1),
        mismatches,
    )


def game_positions(variant: Variant, lexicon: Lexicon, count: int, seed: int = 1) -> list[Item]:
    """Positions from hard self-play of a game: each turn's board and rack, sampled evenly."""
    from ..players import Bot

    rng = random.Random(seed)
    out: list[Item] = []
    g = 0
    while len(out) < count:
        game = Game(variant, ["a", "b"], lexicon, seed=seed * 1000 + g)
        bots = [Bot("hard", variant, lexicon, seed=seed + g + k) for k in range(2)]
        g += 1
        while not game.is_over:
            if not game.board.is_empty() and rng.random() < 0.5:
                out.append((game.board.copy(), tuple(game.current.rack)))
            game.play(bots[game.to_move].choose(game))
    return out[:count]


def shared_items(directory: Path) -> tuple[list[Item], list[int | None], Variant]:
    """The shared set's positions as (board, rack) with the reference move counts (None on
    an empty board, where the reference lists only across plays)."""
    items: list[Item] = []
    counts: list[int | None] = []
    variant = None
    for entry in shared_set(directory):
        p = read_cgp(entry["cgp"])
        variant = p.variant
        items.append((p.board, tuple(p.rack)))
        counts.append(None if p.first_turn else int(entry["n_moves"]))
    assert variant is not None
    return items, counts, variant
