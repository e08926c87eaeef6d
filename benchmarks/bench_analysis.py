"""Benchmark of post-game analysis: how long ``tablero analyze`` takes to judge a whole game.

    python benchmarks/bench_analysis.py [--games 5] [--sim-iterations 100]

Each game is a FISE game between the ``medium`` and ``hard`` levels (seeds 1, 2, …), written
as GCG and judged with static equity by ``analyse_gcg``, as the command does (the dictionary
and leave values loaded once beforehand, as a server keeps them). The issue's goal: a 25-move
FISE game in under 2 s. Then one game with ``--sim`` for comparison.

Checked, not timed: every position is judged, every move of ``hard`` (which plays the best
static equity with the same leave values) is rank 1 with no loss, the loss is 0 exactly where
the rank is 1, and the same file gives the same analysis twice. Nothing asserts a time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

try:
    from tablero.analysis import analyse_gcg
except ImportError:  # run from a checkout without installing the package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tablero.analysis import analyse_gcg

from tablero.analysis.report import positions_to_analyse
from tablero.engine.players import make_bot, shipped_leaves
from tablero.formats.gcg import GcgGame, read_gcg, write_gcg
from tablero.game import Game
from tablero.lexicon import Lexicon, load_lexicon
from tablero.variant import Variant, load_variant


def bot_game(variant: Variant, lexicon: Lexicon, seed: int) -> GcgGame:
    game = Game(variant, ["Medium", "Hard"], lexicon, seed=seed)
    bots = [
        make_bot(level, variant, lexicon, seed=seed + i)
        for i, level in enumerate(("medium", "hard"))
    ]
    while not game.is_over:
        game.play(bots[game.to_move].choose(game))
    return read_gcg(write_gcg(game))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--sim-iterations", type=int, default=100)
    args = parser.parse_args()
    variant = load_variant("fise")
    lexicon = load_lexicon("es", variant.alphabet)
    leaves = shipped_leaves("fise")
    analyse_gcg(bot_game(variant, lexicon, 99), variant, lexicon, leaves)  # warm up
    seconds, moves = [], []
    for seed in range(1, args.games + 1):
        gcg = bot_game(variant, lexicon, seed)
        start = time.perf_counter()
        analysis = analyse_gcg(gcg, variant, lexicon, leaves)
        took = time.perf_counter() - start
        assert len(analysis.moves) == positions_to_analyse(gcg)
        for m in analysis.moves:
            assert m.equity_loss is not None and m.rank is not None
            assert (m.rank == 1) == (m.equity_loss == 0), m
            if m.player == "Hard":
                assert m.rank == 1, m
        again = analyse_gcg(gcg, variant, lexicon, leaves)
        assert again.to_dict() == analysis.to_dict()
        seconds.append(took)
        moves.append(len(analysis.moves))
        print(f"game {seed}: {len(analysis.moves)} moves judged in {took:.3f} s")
    per_move = sum(seconds) / sum(moves)
    print(
        f"static: median {statistics.median(seconds):.3f} s a game, {per_move * 1000:.1f} ms a "
        f"move; a 25-move game: {25 * per_move:.2f} s (goal: under 2 s)"
    )
    gcg = bot_game(variant, lexicon, 1)
    start = time.perf_counter()
    analysis = analyse_gcg(gcg, variant, lexicon, leaves, sim_iterations=args.sim_iterations)
    took = time.perf_counter() - start
    assert analysis.method == "sim" and all(m.equity_loss is not None for m in analysis.moves)
    print(
        f"sim ({args.sim_iterations} deals, 10 moves a position): {len(analysis.moves)} moves "
        f"in {took:.1f} s"
    )


if __name__ == "__main__":
    main()
