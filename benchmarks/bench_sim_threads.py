"""Simulation on one thread and on several: the same answers, how much sooner.

    python benchmarks/bench_sim_threads.py                  # 4 positions, 8 candidates, 300 deals
    python benchmarks/bench_sim_threads.py --threads 2 --iterations 600

Mid-game FISE positions from games between two ``hard`` bots (the shipped dictionary and leave
values); on each, the top ``--candidates`` moves by static equity are simulated two plies
deep with ``search.simulate.simulate``, first with one thread, then with ``--threads``, on the
same seed. Checked before the figures: both give every candidate the same mean and error.
Printed: playouts a second (candidates × deals / wall time) for each, and the ratio. Nothing
asserts a time.
"""

from __future__ import annotations

import argparse
import time

from tablero.engine.movegen.candidates import candidates, generator_for
from tablero.engine.players import Bot, seat_view, shipped_leaves
from tablero.engine.search.simulate import simulate
from tablero.game import Game
from tablero.lexicon import load_lexicon
from tablero.position import Position
from tablero.variant import load_variant


def positions(count: int) -> list[Position]:
    """The position after twelve turns of each of ``count`` seeded games."""
    v = load_variant("fise")
    lexicon = load_lexicon("es", v.alphabet)
    found = []
    for seed in range(count):
        game = Game(v, ["a", "b"], lexicon, seed=seed)
        bots = [Bot("hard", v, lexicon, seed=seed), Bot("hard", v, lexicon, seed=seed + 100)]
        for _ in range(12):
            game.play(bots[game.to_move].choose(game))
        found.append(seat_view(game))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=4)
    parser.add_argument("--candidates", type=int, default=8)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    v = load_variant("fise")
    lexicon = load_lexicon("es", v.alphabet)
    leaves = shipped_leaves("fise")
    gen = generator_for(v, lexicon)
    work = [
        (p, candidates(p, lexicon, leaves, generator=gen, top=args.candidates))
        for p in positions(args.positions)
    ]
    seconds = {}
    answers = {}
    for threads in (1, args.threads):
        start = time.perf_counter()
        answers[threads] = [
            [
                (r.candidate.notation, r.mean, r.stderr)
                for r in simulate(
                    p,
                    top,
                    lexicon,
                    leaves,
                    iterations=args.iterations,
                    seed=7,
                    generator=gen,
                    threads=threads,
                )
            ]
            for p, top in work
        ]
        seconds[threads] = time.perf_counter() - start
    assert answers[1] == answers[args.threads], "threads changed a result"
    playouts = sum(len(top) for _, top in work) * args.iterations
    for threads, s in seconds.items():
        print(f"{threads} thread(s): {playouts / s:,.0f} playouts/s ({s:.2f} s)")
    print(f"ratio: {seconds[1] / seconds[args.threads]:.2f}; the same answers on every position")


if __name__ == "__main__":
    main()
