"""Benchmark of the computer players as they run: self-play games/s and simulation iterations/s.

    python benchmarks/bench_bots.py [--variant fise] [--games 400] [--game-loop-games 30]
                                    [--positions 10] [--iterations 200] [--candidates 8]

Everything here goes through the public entry points with the shipped dictionary and the
shipped leave values, as ``tablero selfplay`` and the expert bot use them (``bench_movegen.py``
and ``bench_sim.py`` measure the C calls alone, on the shared word list):

* **self-play in C**: ``run_selfplay(..., engine="native")``, hard against greedy then hard
  against hard, one process. Checked: every game ends for one of the game's reasons, the same
  seed gives the same games, and hard (score + leave) beats greedy (score only) in more than
  55% of the games.
* **self-play through Game**: the same bots with every move played by ``Game.play`` (the
  ``game`` engine, which any level can use); each game then replays from its log with
  ``Game.replay`` and holds the whole tile set (checked, not timed).
* **simulation**: the expert's Monte Carlo of its top candidates two plies deep, on mid-game
  positions of those games, through ``simulate()`` (the loop in C) and, for comparison, the
  Python playout. One iteration is one candidate played out in one deal. Checked: each
  candidate ran every iteration, the same seed gives the same means, and the C loop and the
  Python playout rank the same candidate first on most positions (they draw different deals).

The issue's floors per core: 100 games/s, 1,000 iterations/s. Nothing asserts a time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

try:
    from tablero.engine.players import Bot, seat_view
except ImportError:  # run from a checkout without installing the package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tablero.engine.players import Bot, seat_view

from tablero.engine.movegen.candidates import generator_for
from tablero.engine.search.simulate import PythonPlayout, SimResult, simulate
from tablero.engine.selfplay import play_bot_game, run_selfplay
from tablero.game import Game
from tablero.lexicon import load_lexicon
from tablero.position import Position
from tablero.variant import load_variant

END_REASONS = {"going_out", "scoreless_rounds", "no_one_can_play"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="fise")
    parser.add_argument("--games", type=int, default=400, help="games in C, per pairing")
    parser.add_argument("--game-loop-games", type=int, default=30)
    parser.add_argument("--iterations", type=int, default=200, help="deals per position")
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--candidates", type=int, default=8)
    args = parser.parse_args()

    v = load_variant(args.variant)
    lexicon = load_lexicon(v.lexicon, v.alphabet)
    gen = generator_for(v, lexicon)
    print(f"{v.title}: move generator {gen.name}, dictionary {lexicon.info().name}")

    # -- self-play in C ------------------------------------------------------------------------
    for levels in (["hard", "greedy"], ["hard", "hard"]):
        report = run_selfplay(v.name, levels, args.games, seed=7, engine="native")
        data = report.to_dict()
        assert report.engine == "native" and report.games == args.games
        assert set(report.end_reasons) <= END_REASONS, report.end_reasons
        once, twice = (
            run_selfplay(v.name, levels, 40, seed=7, engine="native").to_dict()["bots"]
            for _ in range(2)
        )
        assert once == twice  # same seed, same games
        if levels[1] == "greedy":
            rate = data["bots"]["hard"]["win_rate"]
            assert rate > 0.55, f"hard won only {rate:.1%} of its games against greedy"
        bots = ", ".join(
            f"{b} {r['average_score']:.0f} points, {r['win_rate']:.1%} won"
            for b, r in data["bots"].items()
        )
        print(
            f"self-play in C ({' vs '.join(levels)}): {report.games} games in "
            f"{report.seconds:.2f} s = {data['games_per_second']:.0f} games/s; {bots}; "
            f"{data['bingos_per_game']} bingos and {data['exchanges_per_game']} exchanges a game"
        )

    # -- self-play through Game ----------------------------------------------------------------
    Bot("hard", v, lexicon).choose(Game(v, ["a", "b"], lexicon, seed=0))  # warm the caches
    games = []
    start = time.perf_counter()
    for seed in range(args.game_loop_games):
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
        f"self-play through Game (hard vs hard): {len(games)} games in {elapsed:.2f} s = "
        f"{len(games) / elapsed:.1f} games/s, {turns / elapsed:.0f} turns/s; "
        f"mean score {statistics.mean(scores):.0f}; all replayed and conserved"
    )

    # -- simulation ----------------------------------------------------------------------------
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
    timing = {"C": 0.0, "Python": 0.0}
    count = {"C": 0, "Python": 0}
    same_top = 0
    for i, pos in enumerate(positions):
        top = hard.rank(pos)[: args.candidates]
        runs: dict[str, list[SimResult]] = {}
        for where in ("C", "Python"):
            playout = None
            if where == "Python":
                playout = PythonPlayout(pos, lexicon, hard.leaves, 2, 2, gen)
            start = time.perf_counter()
            results = simulate(
                pos, top, lexicon, hard.leaves, iterations=args.iterations, seed=i, playout=playout
            )
            timing[where] += time.perf_counter() - start
            count[where] += sum(r.iterations for r in results)
            assert all(r.iterations == args.iterations for r in results)
            runs[where] = results
        again = simulate(pos, top, lexicon, hard.leaves, iterations=args.iterations, seed=i)
        assert [r.mean for r in again] == [r.mean for r in runs["C"]]  # same seed, same deals
        same_top += runs["C"][0].candidate == runs["Python"][0].candidate
    assert same_top >= len(positions) // 2, f"C and Python agree on {same_top}/{len(positions)}"
    for where in ("C", "Python"):
        print(
            f"2-ply simulation, loop in {where}: {len(positions)} positions x "
            f"{args.candidates} candidates x {args.iterations} deals = {count[where]} iterations "
            f"in {timing[where]:.2f} s = {count[where] / timing[where]:,.0f} iterations/s"
        )
    print(f"the C and Python loops choose the same move on {same_top} of {len(positions)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
