#!/usr/bin/env python3
"""Two leave tables against each other: seat-swapped pairs of static games in C.

    python3 benchmarks/bench_leaves_match.py --variant fise --a NEW.klv --pairs 20000
    python3 benchmarks/bench_leaves_match.py --variant fise --a NEW.klv --b OLD.klv --threads 2

Both seats play ``hard`` (best static equity) in the C self-play loop, one with each table
(``--b`` defaults to the shipped one). A pair is two games from one seed, the tables swapped
between the seats: the same first seat and the same bag order, so the luck of the draw cancels
as far as the games stay alike. A's win rate is the mean pair score (a win 1, a tie 0.5), with
±1.96 standard errors of the pair scores; the spread is A's final score minus B's. This is the
match that decides whether a relearned table replaces the shipped one (docs/leaves.md).

The C loop releases the GIL, so ``--threads`` games run at once in one process.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench_strength import mean_ci  # this folder's pair statistics

from tablero.engine.evaluation.leaves import LeaveTable
from tablero.engine.movegen.native import NativeGenerator, learned_leave_values
from tablero.engine.players import shipped_leaves
from tablero.lexicon import load_lexicon
from tablero.variant import load_variant

CHUNK = 500
"""Pairs a thread plays per call into C."""


def pair_scores(
    gen: NativeGenerator, a: object, b: object, seed: int, pairs: int
) -> list[tuple[float, int]]:
    """(A's score in the pair, A's spread summed over its two games) for ``pairs`` pairs."""
    ab = gen.selfplay(pairs, seed, 2, [a, b])  # type: ignore[list-item]
    ba = gen.selfplay(pairs, seed, 2, [b, a])  # type: ignore[list-item]
    out = []
    for g1, g2 in zip(ab, ba, strict=True):
        score = 0.0
        spread = 0
        for game, seat in ((g1, 0), (g2, 1)):
            mine, theirs = game.scores[seat], game.scores[1 - seat]
            score += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            spread += mine - theirs
        out.append((score / 2, spread))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="fise")
    parser.add_argument("--a", type=Path, required=True, help="a KLV file (its .json beside it)")
    parser.add_argument("--b", type=Path, help="a KLV file (default: the shipped table)")
    parser.add_argument("--pairs", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    if args.pairs < 2:
        parser.error("--pairs: at least 2")

    variant = load_variant(args.variant)
    lexicon = load_lexicon(variant.lexicon, variant.alphabet)
    gen = NativeGenerator(variant, lexicon)  # type: ignore[arg-type]

    def table(path: Path | None) -> object:
        learned = shipped_leaves(args.variant)
        if path is not None:
            learned = LeaveTable.load_learned(path, variant.alphabet)
        if learned is None:
            raise SystemExit(f"{args.variant} ships no leave table: give --b")
        return learned_leave_values(learned)

    a, b = table(args.a), table(args.b)
    chunks = [
        (args.seed * 1_000_003 + i * 7919, min(CHUNK, args.pairs - i))
        for i in range(0, args.pairs, CHUNK)
    ]
    began = time.perf_counter()
    with ThreadPoolExecutor(max_workers=args.threads) as pool:
        parts = list(pool.map(lambda c: pair_scores(gen, a, b, *c), chunks))
    seconds = time.perf_counter() - began
    results = [r for part in parts for r in part]
    n = len(results)
    assert n == args.pairs, (n, args.pairs)
    mean, half = mean_ci([s for s, _ in results])
    spread, spread_half = mean_ci([sp / 2 for _, sp in results])
    assert 0.0 <= mean <= 1.0
    print(
        f"{args.variant}: A = {args.a}, B = {args.b or 'shipped'}; {n:,} pairs "
        f"({2 * n:,} games) in {seconds:.0f} s ({2 * n / seconds:,.0f} games/s)"
    )
    print(
        f"A wins {100 * mean:.2f} % [{100 * (mean - half):.2f}, {100 * (mean + half):.2f}], "
        f"spread {spread:+.2f} ± {spread_half:.2f} a game"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
