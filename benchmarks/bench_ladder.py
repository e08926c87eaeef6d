"""The computer players' ladder: how often each level beats the one below it, in every game.

    python benchmarks/bench_ladder.py [--games 200] [--expert-games 40] [--variants fise,cuvinte]
                                      [--jobs 2] [--seed 1]

For each of the six games, two-seat self-play (``run_selfplay``, seats and first player
alternating, seeds from ``--seed``, 1 by default) between neighbouring levels: beginner–easy,
easy–medium and medium–club with ``--games`` games each, club–expert with ``--expert-games``
(the expert simulates every move: 300 deals or 8 s, so a game takes seconds); 0 skips either.
Printed per pair: the upper level's win rate with its 95 % interval, each level's score a move
and bingos a game. The goal (issue 14): every step between 60 % and 85 %, so that a beginner
can win against level 1 and each level is a test for someone who beats the one below.

Checked: in every pair the upper level wins more than half of the games (the order of the
levels is right). Whether each step lies in 60–85 % is printed, not asserted: it is a
measurement, written with its date in docs/bots.md ("The ladder").
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

try:
    from tablero.engine.selfplay import run_selfplay
except ImportError:  # run from a checkout without installing the package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tablero.engine.selfplay import run_selfplay

VARIANTS = ("fise", "bisonte", "crucigrama", "intelect", "letras_top", "cuvinte")
STEPS = (("beginner", "easy"), ("easy", "medium"), ("medium", "club"))
GOAL = (0.60, 0.85)


def interval(p: float, n: int) -> tuple[float, float]:
    """Wilson's 95 % interval of a proportion."""
    z = 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--expert-games", type=int, default=40)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--seed", type=int, default=1, help="the first game's seed (others follow it)"
    )
    args = parser.parse_args()
    steps = [(lo, hi, args.games) for lo, hi in STEPS if args.games > 0]
    if args.expert_games > 0:
        steps.append(("club", "expert", args.expert_games))
    outside = []
    for variant in args.variants.split(","):
        for lower, upper, games in steps:
            start = time.perf_counter()
            report = run_selfplay(variant, [lower, upper], games, seed=args.seed, jobs=args.jobs)
            data = report.to_dict()["bots"]
            rate = data[upper]["win_rate"]
            low, high = interval(rate, games)
            assert rate > 0.5, f"{variant}: {upper} does not beat {lower} ({rate:.1%})"
            ok = GOAL[0] <= rate <= GOAL[1]
            if not ok:
                outside.append(f"{variant} {lower}–{upper} {rate:.1%}")
            levels = "; ".join(
                f"{level} {data[level]['score_per_move']} a move, "
                f"{data[level]['bingos_per_game']} bingos"
                for level in (lower, upper)
            )
            print(
                f"{variant:10} {lower:>8} → {upper:<7} {rate:6.1%} [{low:.0%}, {high:.0%}] "
                f"{'ok ' if ok else 'OUT'} ({games} games, {time.perf_counter() - start:.0f} s; "
                f"{levels})",
                flush=True,
            )
    print("every step within 60–85 %" if not outside else "outside 60–85 %: " + ", ".join(outside))


if __name__ == "__main__":
    main()
