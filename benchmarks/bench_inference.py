"""How much rack inference knows of what the opponent kept, without a match's luck.

    python benchmarks/bench_inference.py [--variant fise] [--games 20] [--plays 1,2,3]

A match shows a better opponent model only through thousands of games. This measures the model
itself: games between two ``hard`` players (the opponent inference takes a player to be), and
after every placement that leaves tiles in the bag and follows another placement of the same
player, the leaves inference draws for what the player kept (``search.inference``) are set
against the leave it really kept:

- ``exact``: the share of the drawn leaves that are the kept leave itself;
- ``overlap``: the share of the kept leave's tiles a drawn leave holds, on average;
- ``inferred``: the turns on which inference said something (16 or more leaves passed).

Each is averaged over the same turns for a uniform draw from the unseen tiles (what the
simulation deals without inference) and for inference reading one, two, … of the player's last
placements (``--plays``; ``Bot.infer_plays``). A turn on which inference says nothing counts
as the uniform draw there, as the simulation then deals. Printed with the CPU time an inference
takes. Asserted: the leave really kept passes inference's test on every turn (``hard`` plays the
best equity of its rack), and every reading of the plays knows more than the uniform draw.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tablero.engine.movegen.native import learned_leave_values
from tablero.engine.players import Bot, seat_view
from tablero.engine.search.inference import infer_recent, recent_plays
from tablero.game import Game
from tablero.lexicon import load_lexicon
from tablero.variant import load_variant


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="fise")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--plays", default="1,2,3", help="placements read, comma-separated")
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    depths = [int(x) for x in args.plays.split(",")]
    variant = load_variant(args.variant)
    lexicon = load_lexicon(variant.lexicon, variant.alphabet)
    rows = {"uniform": [0.0, 0.0, 0, 0.0]} | {f"{d} plays": [0.0, 0.0, 0, 0.0] for d in depths}
    turns = 0
    for g in range(args.games):
        bots = [Bot("hard", variant, lexicon, seed=args.seed + 2 * g + s) for s in range(2)]
        core = bots[0].generator.core
        leaves = bots[0].leaves
        assert core is not None and leaves is not None, "the native core and leaves are needed"
        values = learned_leave_values(leaves)
        game = Game(variant, ["a", "b"], lexicon, seed=args.seed + g)
        while not game.is_over:
            seat = game.to_move
            move = bots[seat].choose(game)
            choice = bots[seat].last_choice
            game.play(move)
            plays = recent_plays(game, max(depths))
            if len(plays) < 2 or choice is None or not choice.leave:
                continue
            kept = Counter(choice.leave)
            last = plays[0]
            best = core.best_equity(
                core.board(last.board), last.played + tuple(choice.leave), values, False
            )
            assert best is not None and abs(best - (last.score + values.value(choice.leave))) < 1e-6
            turns += 1
            unseen = seat_view(game).unseen()
            rng = random.Random(g * 1000 + turns)
            pool = list(unseen.elements())
            uniform = [Counter(rng.sample(pool, kept.total())) for _ in range(400)]
            _score(rows["uniform"], uniform, kept)
            for d in depths:
                start = time.process_time()
                inference = infer_recent(
                    plays[:d], unseen, core, leaves, variant.rack_size, rng=random.Random(turns)
                )
                row = rows[f"{d} plays"]
                row[3] += time.process_time() - start
                if inference is None:
                    _score(row, uniform, kept)
                    continue
                row[2] += 1
                _score(row, [Counter(leave) for leave in inference.kept], kept)
    print(f"{args.variant}: {args.games} games of hard against hard, {turns} turns read")
    print(f"{'reading':>10} {'exact':>8} {'overlap':>8} {'inferred':>9} {'CPU a turn':>11}")
    for name, (exact, overlap, inferred, cpu) in rows.items():
        said = f"{inferred}/{turns}" if name != "uniform" else "—"
        print(
            f"{name:>10} {exact / turns:8.4f} {overlap / turns:8.3f} {said:>9} "
            f"{1000 * cpu / turns:8.0f} ms"
        )
    base = rows["uniform"][1]
    for d in depths:
        assert rows[f"{d} plays"][1] > base, f"reading {d} plays knows no more than a uniform draw"


def _score(row: list[float], leaves: list[Counter[str]], kept: Counter[str]) -> None:
    """Add one turn's shares (the kept leave drawn exactly; its tiles held) to ``row``."""
    row[0] += sum(leave == kept for leave in leaves) / len(leaves)
    row[1] += sum((leave & kept).total() / kept.total() for leave in leaves) / len(leaves)


if __name__ == "__main__":
    main()
