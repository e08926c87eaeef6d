"""Two-ply Monte-Carlo simulation speed of the native core, on mid-game FISE positions.

    python benchmarks/bench_sim.py        # 5 positions, 10 candidates, 100 iterations each
    python benchmarks/bench_sim.py --positions 8 --iterations 300 --clock cpu

Lexicon: ``tests/data/bench/es_words.txt.xz`` (graph cached as for bench_movegen.py); leave
values: bench_movegen's synthetic table (every leave of up to four tiles, a fifth of those of
five and six), so each reply pays for real look-ups. For each position, the top
``--candidates`` moves by static equity are simulated with ``NativeGenerator.simulate`` (two
plies: the opponent's reply, then ours) against the position's unseen tiles.

The figure is **iterations per second**, an iteration being one candidate played out over two
plies (as MAGPIE counts): candidates × iterations / time. Issue 4's floor is 1,000/s per core;
MAGPIE does 14,500/s. One thread; the best of ``--rounds`` rounds (the machine is shared).

Checked before the figure is printed: the same seed gives the same means (twice on each
position), and every candidate ran the asked number of iterations. Nothing asserts a time.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from bench_movegen import load, synthetic_leaves

from tablero.alphabet import SPANISH
from tablero.engine.movegen.native import GeneratedPlacement, NativeGenerator, NativeSimResult
from tablero.position import Position


def mid_game(positions: list[Position], count: int) -> list[Position]:
    """Positions with a real board and a real bag: at least 20 tiles down, 20 in the bag."""
    chosen = [
        p
        for p in positions
        if not p.first_turn and sum(1 for _ in p.board.tiles()) >= 20 and p.bag_count() >= 20
    ]
    return chosen[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--candidates", type=int, default=10)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = parser.parse_args()
    clock: Callable[[], float] = time.perf_counter if args.clock == "wall" else time.process_time

    gen, _, positions = load()
    leaves = synthetic_leaves()
    leaves.table(SPANISH)
    work: list[tuple[Position, list[GeneratedPlacement]]] = []
    for p in mid_game(positions, args.positions):
        work.append((p, gen.best(p.board, p.rack, args.candidates, leaves)))
    assert work, "no mid-game position in the bench file"

    def run(gen: NativeGenerator = gen) -> list[list[NativeSimResult]]:
        return [
            gen.simulate(
                p.board,
                p.rack,
                list(p.unseen().elements()),
                cands,
                plies=2,
                iterations=args.iterations,
                seed=args.seed,
                leaves=leaves,
            )
            for p, cands in work
        ]

    first = run()
    assert run() == first, "the same seed gave different answers"
    for (_, cands), results in zip(work, first, strict=True):
        assert len(results) == len(cands)
        assert all(r.iterations == args.iterations for r in results)
    n_iter = sum(len(c) for _, c in work) * args.iterations
    print(
        f"answers checked: {len(work)} positions, {n_iter:,} candidate-iterations per round, "
        "same seed -> same means"
    )
    for (p, _), results in zip(work, first, strict=True):
        ranked = sorted(results, key=lambda r: -r.mean)
        top = ranked[0]
        best_static = results[0]
        assert isinstance(top.candidate, GeneratedPlacement)
        assert isinstance(best_static.candidate, GeneratedPlacement)
        print(
            f"  rack {''.join(p.rack):<9} bag {p.bag_count():>3}: static best "
            f"{best_static.candidate.score:>3} pts -> sim {best_static.mean:6.1f}; "
            f"sim best {top.candidate.score:>3} pts -> {top.mean:6.1f} ± {top.stderr:.1f}"
        )

    best = float("inf")
    for _ in range(args.rounds):
        t0 = clock()
        run()
        best = min(best, clock() - t0)
    print(
        f"two-ply simulation, one thread, {args.clock} clock, best of {args.rounds} rounds: "
        f"{n_iter / best:,.0f} iterations/s ({best / n_iter * 1e6:.0f} µs per iteration)"
    )


if __name__ == "__main__":
    main()
