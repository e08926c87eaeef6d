"""How much the expert's simulation loses to a long one: the quality of its choices, not games.

    python benchmarks/bench_sim_quality.py [--variant fise] [--games 6] [--every 3]
        [--oracle 3000] [--oracle-plies N] [--repeats 3] [--settings NAME,...]

A match against ``hard`` needs about 1,250 seat-swapped pairs to see a change of two points of
win rate, because the draw's luck is in every game. This measures one part of the expert
without that luck: how far the move its simulation picks falls short of the move a much longer
simulation of the same candidates picks.

Positions: every ``--every``-th turn of ``--games`` seeded games between ``hard`` players, while
the bag has tiles (with the bag empty the expert searches the endgame instead). On each, the
expert's sixteen candidates are simulated once without pruning for ``--oracle`` deals each (the
oracle: 48,000 playouts at the default), and its values (the chance of winning plus 0.0005 a
point, ``SimResult.rank_value``) are taken as the truth. Then each setting below simulates the
same candidates ``--repeats`` times with other seeds; its loss on a run is the oracle's value of
the best candidate less the oracle's value of the one it picked, in chances of winning:

- ``expert``: today's level (``players.EXPERT_SIM``: 4,800 playouts at most, up to 1,200 deals
  a candidate, pruning);
- ``expert ×2``, ``expert ×4``: the same with twice and four times the playouts and deals;
- ``flat``: 300 deals for every candidate, no pruning (4,800 playouts, as many as the expert's
  cap).

- ``4 plies``: the expert's budget, each playout four plies deep (its replies and ours, twice);
- ``to the end``: the expert's budget, each playout played to the end of the game (60 plies);
  ``to the end ÷3`` with a third of the playouts and deals.

Printed: each setting's mean loss a move with its 95 % interval, and its mean playouts a move.
By default the oracle shares the expert's model (two plies, the static replies, the leave
values), so this is the loss from sampling only: what more playouts could win back, and no
more. ``--oracle-plies 60`` makes the oracle play every deal out to the end of the game (both
sides by ``hard``'s static choices, as the opponent in a match against ``hard`` plays), so its
values are the chances of winning as those games end, not as the win table reads a lead and a
leave after two plies: the loss is then the model's as well, what a longer horizon could win
back. Asserted: the oracle gives the same values again from its seed, and its values are
precise enough to judge by (every candidate's standard error under 0.05, in the same units).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from pathlib import Path
from typing import Any

try:
    from tablero.engine.players import EXPERT_SIM, Bot, _distinct_top, seat_view
except ImportError:  # run from a checkout without installing the package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tablero.engine.players import EXPERT_SIM, Bot, _distinct_top, seat_view
from bench_strength import mean_ci  # this folder's interval over runs

from tablero.engine.search.simulate import SimResult, simulate
from tablero.game import Game
from tablero.lexicon import Lexicon, load_lexicon
from tablero.position import Position
from tablero.variant import Variant, load_variant

assert EXPERT_SIM.playouts is not None, "the expert's simulation has a playout cap"
CAP: int = EXPERT_SIM.playouts
SETTINGS: dict[str, dict[str, Any]] = {
    "expert": {
        "iterations": EXPERT_SIM.iterations,
        "prune": True,
        "max_playouts": CAP,
    },
    "expert ×2": {
        "iterations": 2 * EXPERT_SIM.iterations,
        "prune": True,
        "max_playouts": 2 * CAP,
    },
    "expert ×4": {
        "iterations": 4 * EXPERT_SIM.iterations,
        "prune": True,
        "max_playouts": 4 * CAP,
    },
    "flat": {"iterations": CAP // EXPERT_SIM.candidates, "prune": False},
    "4 plies": {
        "iterations": EXPERT_SIM.iterations,
        "prune": True,
        "max_playouts": CAP,
        "plies": 4,
    },
    "to the end": {
        "iterations": EXPERT_SIM.iterations,
        "prune": True,
        "max_playouts": CAP,
        "plies": 60,
    },
    "to the end ÷3": {
        "iterations": EXPERT_SIM.iterations // 3,
        "prune": True,
        "max_playouts": CAP // 3,
        "plies": 60,
    },
}


def positions(variant: Variant, lexicon: Lexicon, games: int, every: int) -> list[Position]:
    """Every ``every``-th position of ``games`` games between ``hard`` players, bag not empty."""
    hard = Bot("hard", variant, lexicon, seed=2)
    out = []
    for seed in range(500, 500 + games):
        game = Game(variant, ["a", "b"], lexicon, seed=seed)
        turn = 0
        while not game.is_over:
            if turn % every == 1 and game.bag:
                out.append(seat_view(game, game.to_move))
            game.play(hard.choose(game))
            turn += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", default="fise")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--oracle", type=int, default=3000, help="deals a candidate, unpruned")
    ap.add_argument(
        "--oracle-plies", type=int, help="the oracle's plies (default the expert's; 60: to the end)"
    )
    ap.add_argument("--repeats", type=int, default=3, help="runs of each setting a position")
    ap.add_argument("--settings", default=",".join(SETTINGS), help="settings to run, by name")
    args = ap.parse_args()
    chosen = args.settings.split(",")
    unknown = [name for name in chosen if name not in SETTINGS]
    if unknown:
        ap.error(f"--settings: no setting {', '.join(unknown)} (one of {', '.join(SETTINGS)})")

    variant = load_variant(args.variant)
    lexicon = load_lexicon(variant.lexicon, variant.alphabet)
    expert = Bot("expert", variant, lexicon, seed=1)
    win_table = expert.win_table_for(2)

    def run(
        position: Position, cands: list[Any], seed: int, plies: int | None = None, **how: Any
    ) -> list[SimResult]:
        return simulate(
            position,
            cands,
            lexicon,
            expert.leaves,
            players=2,
            plies=plies or expert.plies_at(position.bag_count()),
            seed=seed,
            generator=expert.generator,
            threads=EXPERT_SIM.threads,
            win_table=win_table,
            ex_bonus=expert.ex_bonus,
            **how,
        )

    found = positions(variant, lexicon, args.games, args.every)
    deep = f", {args.oracle_plies} plies" if args.oracle_plies else ""
    print(
        f"{args.variant}: {len(found)} positions, the oracle {args.oracle} deals a candidate{deep}"
    )
    losses: dict[str, list[float]] = {name: [] for name in chosen}
    playouts: dict[str, list[int]] = {name: [] for name in chosen}
    checked_again = False
    for i, position in enumerate(found):
        cands = _distinct_top(expert.rank(position), EXPERT_SIM.candidates)
        if len(cands) < 2:
            continue
        oracle = run(position, cands, 12345, args.oracle_plies, iterations=args.oracle, prune=False)
        truth = {r.candidate.notation: r.rank_value for r in oracle}
        noise = max(statistics.stdev(r.per_deal) / math.sqrt(len(r.per_deal)) for r in oracle)
        assert noise < 0.05, f"the oracle's standard error {noise:.3f}: too few deals"
        if not checked_again:  # the oracle is its seed's: the same values again
            again = run(
                position, cands, 12345, args.oracle_plies, iterations=args.oracle, prune=False
            )
            assert {r.candidate.notation: r.rank_value for r in again} == truth
            checked_again = True
        best = max(truth.values())
        for name in chosen:
            how = SETTINGS[name]
            for repeat in range(args.repeats):
                picked = run(position, cands, 1000 + 7 * repeat + i, **how)
                losses[name].append(best - truth[picked[0].candidate.notation])
                playouts[name].append(sum(r.iterations for r in picked))
    for name in chosen:
        loss, half = mean_ci(losses[name])
        print(
            f"  {name:10s} loss {loss:.4f} ± {half:.4f} a move "
            f"(chance of winning), {statistics.mean(playouts[name]):,.0f} playouts a move, "
            f"{len(losses[name])} runs"
        )


if __name__ == "__main__":
    main()
