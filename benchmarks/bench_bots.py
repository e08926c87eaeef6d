"""Benchmark of the computer players: static self-play games/s and 2-ply simulation iterations/s.

    python benchmarks/bench_bots.py [--variant fise] [--games 40] [--iterations 200]

* **static self-play**: hard against hard (best static equity with the shipped leave values),
  one process, every move played through ``Game.play``; games per second. Each game is then
  replayed with ``Game.replay`` and checked for tile conservation (not timed).
* **simulation**: the expert's Monte Carlo of the top candidates two plies deep, on mid-game
  positions from those games; one iteration is one candidate played out in one deal (our
  move, the reply, our reply), the unit of the issue's target.

The issue's targets per core are 100 games/s and 1,000 iterations/s; they assume the playout
loop in the native core. The script says which move generator ran. No figure is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

try:
    from tablero.engine.bots import Bot, seat_view
except ImportError:  # run from a checkout without installing the package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tablero.engine.bots import Bot, seat_view

from tablero.engine.candidates import generator_for
from tablero.engine.selfplay import play_bot_game
from tablero.engine.simulate import simulate
from tablero.game import Game
from tablero.lexicon import load_lexicon
from tablero.position import Position
from tablero.variant import load_variant


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="fise")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--iterations", type=int, default=200, help="deals per position")
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--candidates", type=int, default=8)
    args = parser.parse_args()

    v = load_variant(args.variant)
    lexicon = load_lexicon(v.lexicon, v.alphabet)
    gen = generator_for(v, lexicon)
    print(f"{v.title}: move generator {gen.name}, dictionary {lexicon.info().name}")

    # -- static self-play ------------------------------------------------------------------
    Bot("hard", v, lexicon).choose(Game(v, ["a", "b"], lexicon, seed=0))  # warm the caches
    games = []
    start = time.perf_counter()
    for seed in range(args.games):
        bots = [Bot("hard", v, lexicon, seed=seed), Bot("hard", v, lexicon, seed=seed + 1)]
        games.append(play_bot_game(v, lexicon, bots, seed=seed))
    elapsed = time.perf_counter() - start
    full = Counter({t: count for t, (count, _) in v.tiles.items()})
    for game, summary in games:
        assert game.is_over and game.tiles_in_play() == full
        assert Game.replay(game.log, lexicon).state() == game.state()
        assert summary.final == list(game.result.final_scores)  # type: ignore[union-attr]
    turns = sum(s.actions for _, s in games)
    scores = [x for _, s in games for x in s.final]
    print(
        f"static self-play (hard vs hard, one process): {args.games} games in {elapsed:.2f} s = "
        f"{args.games / elapsed:.1f} games/s, {turns / elapsed:.0f} turns/s; "
        f"mean score {statistics.mean(scores):.0f}, "
        f"bingos/game {sum(sum(s.bingos) for _, s in games) / len(games):.2f}; "
        "all replayed and conserved"
    )

    # -- simulation ------------------------------------------------------------------------
    positions: list[Position] = []
    for game, _ in games:
        replay = Game(v, [p.name for p in game.players], lexicon, seed=game.seed)
        moves = [e for e in game.log if e["type"] == "move"]
        for i, e in enumerate(moves):
            if i == len(moves) // 3 and not replay.is_over and len(replay.bag) > 20:
                positions.append(seat_view(replay))
            replay.play(e["move"])
        if len(positions) >= args.positions:
            break
    hard = Bot("hard", v, lexicon)
    iterations = 0
    sim_time = 0.0
    for i, pos in enumerate(positions):
        top = hard.rank(pos)[: args.candidates]
        start = time.perf_counter()
        results = simulate(
            pos, top, lexicon, hard.leaves, iterations=args.iterations, seed=i, generator=gen
        )
        sim_time += time.perf_counter() - start
        iterations += sum(r.iterations for r in results)
        assert all(r.iterations == args.iterations for r in results)
        assert all(abs(r.mean) < 1000 for r in results)
    print(
        f"2-ply simulation: {len(positions)} positions x {args.candidates} candidates x "
        f"{args.iterations} deals = {iterations} iterations in {sim_time:.2f} s = "
        f"{iterations / sim_time:.0f} iterations/s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
