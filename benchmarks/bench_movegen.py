"""Move-generation figures of the native (C) generator on the 50 shared FISE positions.

    python benchmarks/bench_movegen.py            # 20 rounds of each measurement
    python benchmarks/bench_movegen.py --rounds 5 --clock cpu   # CPU time of this process

Lexicon: ``tests/data/bench/es_words.txt.xz`` (its word graph is built once and cached, see
``tablero.lexicon.graph.cache_dir``). One thread. Printed:

* **all moves**: every legal placement found and scored in C (``NativeGenerator.count``) on
  boards already held in C: positions/s and moves/s. This is the figure to compare with the
  issue's targets (Quackle 2.1 M moves/s, MAGPIE 4.3–5.3 M moves/s);
* the same starting from a Python ``Board`` each time (tiles copied in, cross-sets computed);
* the same as Python objects (``placements()``), for callers who want them;
* **best move** by equity (``best(n=1)``), without leave values and with a leave table:
  positions/s (targets: Quackle 3,300, MAGPIE 24,000), once by the GADDAG walk and once by
  the word map (docs/movegen.md §13), the answers checked again with the map;
* the best move with every anchor searched (no bounds), to show what the bounds save;
* **static self-play** in C (``NativeGenerator.selfplay``): two players each making the best
  move by score, then by equity, whole FISE games: games/s (targets: Quackle 95, MAGPIE 770),
  by the walk and by the word map, which must play the same games.

Timings are the best of the rounds (the machine is shared; the best round is the least
disturbed one), wall clock by default. Before timing it asserts the answers: each position's
count and score total equal the independent engine's list in the bench file, and the best
move's score equals its best score. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import itertools
import json
import lzma
import random
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from tablero.alphabet import SPANISH
from tablero.engine.movegen.native import LeaveValues, NativeBoard, NativeGenerator
from tablero.formats.cgp import read_cgp
from tablero.lexicon.graph import graph_for_word_list
from tablero.position import Position

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "bench"


def load() -> tuple[NativeGenerator, list[dict[str, Any]], list[Position]]:
    with lzma.open(DATA / "fise_positions.jsonl.xz", "rt", encoding="utf-8") as f:
        expected = [json.loads(line) for line in f]
    positions = [read_cgp(e["cgp"]) for e in expected]
    t0 = time.perf_counter()
    lexicon = graph_for_word_list(DATA / "es_words.txt.xz", SPANISH, "es_words")
    print(f"word graph: {len(lexicon.kwg):,} nodes, ready in {time.perf_counter() - t0:.1f} s")
    return NativeGenerator(positions[0].variant, lexicon, wordmap=False), expected, positions


def check(gen: NativeGenerator, expected: list[dict[str, Any]], positions: list[Position]) -> int:
    """Assert every count, score total and best score against the bench file; return the
    total number of moves the timed runs generate."""
    total = 0
    for e, p in zip(expected, positions, strict=True):
        n, score_sum = gen.count_and_score_sum(p.board, p.rack)
        total += n
        if p.first_turn:  # the file lists only across plays on an empty board
            across = [m for m in gen.placements(p.board, p.rack) if m.place.across]
            assert len(across) == e["n_moves"], (e["cgp"], len(across), e["n_moves"])
            assert sum(m.score for m in across) == sum(s for _, s in e["moves"])
        else:
            assert n == e["n_moves"], (e["cgp"], n, e["n_moves"])
            assert score_sum == sum(s for _, s in e["moves"]), e["cgp"]
        best = gen.best(p.board, p.rack, 1)
        if e["n_moves"]:
            assert best[0].score == e["best_score"], (e["cgp"], best[0].score, e["best_score"])
        else:
            assert best == [], e["cgp"]
    print(f"answers checked: {len(positions)} positions, {total:,} moves, best scores")
    return total


def synthetic_leaves(seed: int = 1) -> LeaveValues:
    """A fixed leave table in the shape of a learned one (every leave of up to six tiles of
    the FISE set, values from per-tile worths plus noise), so that best() pays for real
    look-ups; the figures do not depend on the values being good."""
    rng = random.Random(seed)
    tiles = ["?", *"ABCDEFGHIJLMNOPQRSTUVXYZ", "CH", "LL", "RR", "Ñ"]
    worth = {t: rng.uniform(-6.0, 6.0) for t in tiles}
    worth["?"] = 25.0
    values: dict[tuple[str, ...], float] = {}
    for k in range(1, 7):
        for leave in itertools.combinations_with_replacement(sorted(tiles), k):
            if k >= 5 and rng.random() > 0.2:
                continue
            values[leave] = round(sum(worth[t] for t in leave) + rng.gauss(0.0, 2.0), 3)
    return LeaveValues(values)


CLOCK: Callable[[], float] = time.perf_counter


def best_of(rounds: int, run: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(rounds):
        t0 = CLOCK()
        run()
        best = min(best, CLOCK() - t0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="wall clock, or this process's CPU time (steadier on a machine shared with "
        "other jobs: time spent waiting for a core is not counted)",
    )
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.perf_counter if args.clock == "wall" else time.process_time
    gen, expected, positions = load()
    total = check(gen, expected, positions)
    n = len(positions)
    boards: list[NativeBoard] = [gen.board(p.board) for p in positions]
    items = [(b, p.rack) for b, p in zip(boards, positions, strict=True)]

    def all_native() -> None:
        for b, rack in items:
            gen.count(b, rack)

    def all_from_board() -> None:
        for p in positions:
            gen.count(p.board, p.rack)

    def all_objects() -> None:
        for b, rack in items:
            gen.placements(b, rack)

    leaves = synthetic_leaves()
    t0 = time.perf_counter()
    leaves.table(SPANISH)
    print(f"leave table: {len(leaves):,} leaves, built in {time.perf_counter() - t0:.1f} s")

    def best_plain() -> None:
        for b, rack in items:
            gen.best(b, rack, 1)

    def best_leaves() -> None:
        for b, rack in items:
            gen.best(b, rack, 1, leaves)

    def best_exhaustive() -> None:
        for b, rack in items:
            gen.best(b, rack, 1, leaves, exhaustive=True)

    print(f"one thread, {args.clock} clock, best of {args.rounds} rounds over the {n} positions:")
    for label, run, rounds in (
        ("all moves (count, native boards)", all_native, args.rounds),
        ("all moves (count, from Board)", all_from_board, args.rounds),
        ("all moves (Python objects)", all_objects, max(1, args.rounds // 5)),
    ):
        t = best_of(rounds, run)
        print(f"  {label:40} {n / t:10,.0f} positions/s {total / t / 1e6:7.2f} M moves/s")
    games = 20
    plays: list[tuple[str, LeaveValues | None]] = [
        ("static self-play, by score", None),
        ("static self-play, by equity", leaves),
    ]
    walked = {label: gen.selfplay(games, 1, 2, table) for label, table in plays}
    for method in ("walk", "word map"):
        # the ranked searches by the GADDAG walk, then by the word map (docs/movegen.md §13):
        # the same answers, checked, in different times
        gen.use_wordmap(method == "word map")
        check(gen, expected, positions)
        for label, run in (
            (f"best move by score ({method})", best_plain),
            (f"best move by equity ({method})", best_leaves),
        ):
            t = best_of(args.rounds, run)
            print(f"  {label:40} {n / t:10,.0f} positions/s {t / n * 1e6:7.1f} µs/position")
        for label, table in plays:
            t = best_of(max(1, args.rounds // 4), partial(gen.selfplay, games, 1, 2, table))
            results = gen.selfplay(games, 1, 2, table)
            assert results == walked[label], "the word map changed a self-play game"
            assert all(r.reason != "turn_limit" for r in results)
            turns = sum(r.turns for r in results)
            print(
                f"  {label + f' ({method})':40} {games / t:10,.0f} games/s"
                f"     {turns / t:10,.0f} turns/s"
            )
    gen.use_wordmap(False)
    t = best_of(args.rounds, best_exhaustive)
    label = "best move by equity (no bounds, walk)"
    print(f"  {label:40} {n / t:10,.0f} positions/s {t / n * 1e6:7.1f} µs/position")


if __name__ == "__main__":
    main()
